/**
 * Unchanged dashboards are found by digest (issue 15): a dashboard whose normalized form has the digest of
 * the live one's is a noop without a diff. This must agree with the full diff on every input, and noop items
 * carry a digest in place of before, after and body.
 */
import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyResource, Resource } from '../../src/model/resource.ts';
import { canonicalJson } from '../../src/plan/fingerprint.ts';
import { alignConfigs, desiredDigest, displayForm, dropUncomparableSeries, normalDigest, normalizeDesired, normalizeLive } from '../../src/plan/normalize.ts';
import { computePlan } from '../../src/plan/plan.ts';
import { dashboardDoc, liveDashboards, workspace } from '../fuzz/arbitraries.ts';
import { dashboard, DIR, liveOf, MARKER, NOW } from './fixtures.ts';

const { compare } = fastJsonPatch;

/** The full diff, as plan.ts computes it when the digests differ. */
function fullPatch(d: Resource<'Dashboard'>, live: Parameters<typeof normalizeLive>[0]) {
  const { normal, ignored } = normalizeLive(live, MARKER);
  const aligned = alignConfigs(dropUncomparableSeries(normalizeDesired(d.doc.spec, MARKER), live), normal, new Set(ignored));
  return compare(aligned.before as object, aligned.desired as object).filter((op) => !(op.op === 'test'));
}

test('equal digests always mean an empty full diff (random files against random live dashboards)', () => {
  let equal = 0;
  fc.assert(
    fc.property(
      workspace.chain((w) => fc.tuple(fc.constant(w), liveDashboards(w, MARKER))),
      ([w, live]) => {
        const resources = w.dashboards.map(
          (doc, i) => ({ kind: 'Dashboard', name: doc.metadata.name, file: `${DIR}/d${i}.yaml`, index: 0, doc }) as unknown as Resource<'Dashboard'>,
        );
        for (const d of resources) {
          for (const l of live) {
            const same = desiredDigest(d.doc.spec, MARKER) === normalDigest(normalizeLive(l, MARKER).normal);
            if (!same) continue;
            equal++;
            assert.equal(fullPatch(d, l), [], JSON.stringify({ spec: d.doc.spec, live: l }));
          }
        }
      },
    ),
    { numRuns: 150 },
  );
  assert.ok(equal > 20, `only ${equal} equal pairs were tried`);
});

test('forms are made with their members in sorted order (the digest is JSON.stringify then); displayForm reorders them for reading, and only reorders', () => {
  // GIVEN a dashboard in the series form and one in the config form, as a file and as the server answers
  const spec = {
    name: 'D',
    tags: ['b', 'a'],
    tiles: [
      { name: 'T', x: 0, y: 0, w: 6, h: 3, series: [{ type: 'time', dataSource: 'events', aggFn: 'count', where: 'level:error', groupBy: ['host'] }] },
      { name: 'T', x: 6, y: 0, w: 6, h: 3, asRatio: true, config: { displayType: 'line', select: [{ aggFn: 'count', where: '' }], source: 's1' } },
    ],
    filters: [{ id: 'f1', name: 'env', type: 'QUERY_EXPRESSION', expression: 'env' }],
  };
  const live = { id: 'd1', ...spec, tiles: spec.tiles.map((t, i) => ({ id: `t${i}`, ...t })) };
  for (const form of [normalizeDesired(spec as never, MARKER), normalizeLive(live as never, MARKER).normal]) {
    // THEN the form's own text is its canonical text
    assert.is(JSON.stringify(form), canonicalJson(form));
    // AND the form to read has the same content, in reading order
    const shown = displayForm(form);
    assert.is(canonicalJson(shown), canonicalJson(form));
    assert.equal(Object.keys(shown), ['name', 'tags', 'tiles', 'filters']);
    assert.equal(Object.keys(shown.tiles!['T (2)']!), ['x', 'y', 'w', 'h', 'asRatio', 'config', 'sameNameAs']);
    assert.equal(Object.keys(shown.tiles!['T']!.series![0]!), ['type', 'dataSource', 'aggFn', 'where', 'groupBy']);
  }
});

test('displayForm only reorders (random files and live dashboards)', () => {
  fc.assert(
    fc.property(
      workspace.chain((w) => fc.tuple(fc.constant(w), liveDashboards(w, MARKER))),
      ([w, live]) => {
        for (const doc of w.dashboards) {
          const form = normalizeDesired(doc.spec as never, MARKER);
          assert.is(canonicalJson(displayForm(form)), canonicalJson(form));
        }
        for (const l of live) {
          const form = normalizeLive(l, MARKER).normal;
          assert.is(canonicalJson(displayForm(form)), canonicalJson(form));
        }
      },
    ),
    { numRuns: 100 },
  );
});

test('a plan: noop dashboards carry a digest and no bodies; the same plan as the full diff otherwise', () => {
  fc.assert(
    fc.property(dashboardDoc(), fc.boolean(), (doc, drift) => {
      const d = { kind: 'Dashboard', name: doc.metadata.name, file: `${DIR}/x.yaml`, index: 0, doc } as unknown as AnyResource;
      const spec = doc.spec;
      const live = {
        id: '65f5e4a3b9e77c001a000001',
        name: spec.name,
        tags: [...(drift ? ['drifted'] : (spec.tags ?? [])), MARKER],
        tiles: structuredClone(spec.tiles ?? []).map((t, i) => ({ id: `t${i}`, ...t })),
      };
      const p = computePlan({
        resources: [d],
        live: [live as never],
        state: { formatVersion: 1, alerts: {} },
        markerTag: MARKER,
        now: NOW,
        projectDir: DIR,
        capabilities: { updateDashboard: true },
      });
      const item = p.items[0]!;
      const patch = fullPatch(d as Resource<'Dashboard'>, live as never);
      assert.is(item.action, patch.length === 0 ? 'noop' : 'update', JSON.stringify({ spec, live, patch }));
      if (item.action === 'noop') {
        assert.is(item.before, undefined);
        assert.is(item.after, undefined);
        assert.is(item.body, undefined);
        assert.ok(typeof item.digest === 'string' && item.digest.startsWith('sha256:'));
      } else assert.ok(item.body !== undefined && item.after !== undefined);
    }),
    { numRuns: 150 },
  );
});

test('the fixtures: an unchanged dashboard is a noop with its digest, a drifted one an update with bodies', () => {
  const same = dashboard('same');
  const drifted = dashboard('drifted');
  const p = computePlan({
    resources: [same, drifted],
    live: [liveOf('same', '65f5e4a3b9e77c001a000001'), liveOf('drifted', '65f5e4a3b9e77c001a000002', { tags: ['other', MARKER] })],
    state: { formatVersion: 1, alerts: {} },
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
    capabilities: { updateDashboard: true },
  });
  const byName = new Map(p.items.map((i) => [i.name, i]));
  assert.is(byName.get('same')!.action, 'noop');
  assert.is(byName.get('same')!.digest, desiredDigest((same as Resource<'Dashboard'>).doc.spec, MARKER));
  assert.is(byName.get('drifted')!.action, 'update');
  assert.ok(byName.get('drifted')!.before !== undefined);
});

test.run();
