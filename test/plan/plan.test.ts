import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { computePlan, type PlanInput } from '../../src/plan/plan.ts';
import { normalizeDesired, normalizeLive } from '../../src/plan/normalize.ts';
import { KNOWN_AFTER_APPLY, type StateFile } from '../../src/plan/types.ts';
import { DIR, MARKER, NOW, alert, dashboard, emptyState, liveOf } from './fixtures.ts';

const plan = (p: Partial<PlanInput>) => computePlan({ resources: [], live: [], state: emptyState, markerTag: MARKER, now: NOW, projectDir: DIR, ...p });

test('create: no live dashboard has the name; the body carries the marker tag', () => {
  // GIVEN a file and an empty service  WHEN planned
  const p = plan({ resources: [dashboard('d1')] });
  // THEN one create with the POST body
  assert.is(p.items.length, 1);
  const it = p.items[0]!;
  assert.is(it.action, 'create');
  assert.is(it.file, 'dashboards/d1.yaml');
  assert.equal((it.body as { tags: string[] }).tags, ['team:a', MARKER]);
  assert.equal(p.summary.create, 1);
});

test('noop: live equals file after normalization (ids, marker, asRatio false, empty arrays, tag order)', () => {
  const live = liveOf('d1', '65f5e4a3b9e77c001a111111', { tags: [MARKER, 'team:a'], createdAt: '2026-01-01T00:00:00.000Z', owner: 'x' });
  const p = plan({ resources: [dashboard('d1')], live: [live] });
  const it = p.items[0]!;
  assert.is(it.action, 'noop', JSON.stringify(it.patch));
  assert.is(it.id, '65f5e4a3b9e77c001a111111');
  assert.equal(it.ignoredFields, ['createdAt', 'id', 'owner', 'tiles[].id']);
  assert.equal(p.ignoredFields, ['createdAt', 'id', 'owner', 'tiles[].id']);
});

test('blocked/no-update-api: the live dashboard differs; the diff names tiles by name', () => {
  const live = liveOf('d1', '65f5e4a3b9e77c001a111111');
  live.tiles![0]!.w = 12;
  const p = plan({ resources: [dashboard('d1')], live: [live] });
  const it = p.items[0]!;
  assert.is(it.action, 'blocked');
  assert.is(it.reason, 'no-update-api');
  assert.equal(it.patch, [{ op: 'replace', path: '/tiles/Errors/w', value: 6 }]);
  assert.match(it.message, 'differs in tiles/Errors');
  assert.ok(it.wayOut?.some((w) => w.includes('steward import --id 65f5e4a3b9e77c001a111111')));
  assert.ok(it.wayOut?.some((w) => w.includes('delete dashboard')));
});

test('tiles match by name, not position', () => {
  const spec = {
    tiles: [
      { name: 'A', x: 0, y: 0, w: 6, h: 3 },
      { name: 'B', x: 6, y: 0, w: 6, h: 3 },
    ],
  };
  const live = liveOf('d1', '65f5e4a3b9e77c001a111111', {
    tiles: [
      { id: '1', name: 'B', x: 6, y: 0, w: 6, h: 3 },
      { id: '2', name: 'A', x: 0, y: 0, w: 6, h: 3 },
    ],
  });
  assert.is(plan({ resources: [dashboard('d1', spec)], live: [live] }).items[0]!.action, 'noop');
});

test('two live tiles of one name, or a tile without a name, never equal a file tile named like their keys (red team, round 8)', () => {
  // One geometry per name, so only the names (and how many tiles carry each) can tell the sides apart.
  const t = (name: string | undefined) => ({ ...(name === undefined ? {} : { name }), x: (name ?? '').length, y: 0, w: 6, h: 3 });
  const cases: Array<{ what: string; file: string[]; live: Array<string | undefined>; same: boolean }> = [
    { what: 'live a, a against file a, "a (2)"', file: ['a', 'a (2)'], live: ['a', 'a'], same: false },
    { what: 'live without a name against file "(unnamed)"', file: ['(unnamed)'], live: [undefined], same: false },
    { what: 'live a, "a (2)" against the same file', file: ['a', 'a (2)'], live: ['a', 'a (2)'], same: true },
    // Round 9: a made-up key that is another tile's own name must not replace that tile.
    { what: 'live a, a, "a (2)" against file a, "a (2)"', file: ['a', 'a (2)'], live: ['a', 'a', 'a (2)'], same: false },
    { what: 'live "a (2)", a, a against file "a (2)", a', file: ['a (2)', 'a'], live: ['a (2)', 'a', 'a'], same: false },
    { what: 'live x, x, "x (2)", "x (3)" against file x, "x (2)", "x (3)"', file: ['x', 'x (2)', 'x (3)'], live: ['x', 'x', 'x (2)', 'x (3)'], same: false },
  ];
  for (const c of cases) {
    const spec = { tiles: c.file.map((n) => ({ ...t(n), name: n })) };
    const live = liveOf('d1', '65f5e4a3b9e77c001a111111', { tiles: c.live.map((n, i) => ({ id: String(i), ...t(n) })) });
    const it = plan({ resources: [dashboard('d1', spec)], live: [live], capabilities: { updateDashboard: true } as PlanInput['capabilities'] }).items[0]!;
    assert.is(it.action === 'noop', c.same, `${c.what}: ${it.action} ${JSON.stringify(it.patch)}`);
  }
});

test('blocked/ambiguous: two live dashboards share the name and no pin', () => {
  const p = plan({ resources: [dashboard('d1')], live: [liveOf('d1', '65f5e4a3b9e77c001a222222'), liveOf('d1', '65f5e4a3b9e77c001a111111')] });
  const it = p.items[0]!;
  assert.is(it.reason, 'ambiguous');
  assert.equal(it.candidates, ['65f5e4a3b9e77c001a111111', '65f5e4a3b9e77c001a222222']);
  assert.is(p.items.length, 1, 'the candidates are not also orphans');
});

test('metadata.id pins one of two same-named dashboards', () => {
  const p = plan({
    resources: [dashboard('d1', {}, '65f5e4a3b9e77c001a222222')],
    live: [liveOf('d1', '65f5e4a3b9e77c001a222222'), liveOf('d1', '65f5e4a3b9e77c001a111111')],
  });
  const pinned = p.items.find((i) => i.name === 'd1')!;
  assert.is(pinned.action, 'noop');
  assert.is(pinned.id, '65f5e4a3b9e77c001a222222');
  const other = p.items.find((i) => i.id === '65f5e4a3b9e77c001a111111')!;
  assert.is(other.reason, 'orphan', 'the other one carries the marker and no file declares it');
});

test('a pin to a missing id is blocked/unresolved-reference', () => {
  const p = plan({ resources: [dashboard('d1', {}, '65f5e4a3b9e77c001a999999')] });
  assert.is(p.items[0]!.reason, 'unresolved-reference');
});

test('blocked/orphan: a marked live dashboard no file declares; unmarked ones are only counted', () => {
  const p = plan({ live: [liveOf('old', '65f5e4a3b9e77c001a333333'), liveOf('hand', '65f5e4a3b9e77c001a444444', { tags: ['x'] })] });
  assert.is(p.items.length, 1);
  assert.is(p.items[0]!.reason, 'orphan');
  assert.equal(p.live, { dashboards: 2, managed: 1, unmanaged: 1 });
});

test('targeted plans do not look for orphans', () => {
  const p = plan({ resources: [dashboard('d1')], live: [liveOf('old', '65f5e4a3b9e77c001a333333')], include: (r) => r.name === 'd1' });
  assert.equal(
    p.items.map((i) => i.action),
    ['create'],
  );
  assert.is(p.targeted, true);
});

test('alert with no record: update, full body, tile resolved against live', () => {
  const live = liveOf('d1', '65f5e4a3b9e77c001a111111');
  const p = plan({ resources: [dashboard('d1'), alert('a1', '65f5e4a3b9e77c001a000001')], live: [live] });
  const it = p.items.find((i) => i.kind === 'Alert')!;
  assert.is(it.action, 'update');
  assert.match(it.message, 'no record');
  assert.equal(it.reference, { dashboard: 'd1', tile: 'Errors', dashboardId: '65f5e4a3b9e77c001a111111', tileId: live.tiles![0]!.id });
  assert.equal(it.body, {
    name: 'Alert a1',
    threshold: 5,
    thresholdType: 'above',
    interval: '5m',
    source: 'tile',
    dashboardId: '65f5e4a3b9e77c001a111111',
    tileId: live.tiles![0]!.id,
    channel: { type: 'webhook', webhookId: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
  });
});

test('alert bound to a dashboard this plan creates: ids known after apply', () => {
  const p = plan({ resources: [dashboard('d1'), alert('a1', '65f5e4a3b9e77c001a000001')] });
  const it = p.items.find((i) => i.kind === 'Alert')!;
  assert.is(it.reference?.dashboardId, KNOWN_AFTER_APPLY);
  assert.is((it.body as { tileId: string }).tileId, KNOWN_AFTER_APPLY);
});

test('alert in sync as of T; --reassert-alerts updates it anyway; a change is an update with a diff', () => {
  const live = liveOf('d1', '65f5e4a3b9e77c001a111111');
  const first = plan({ resources: [dashboard('d1'), alert('a1', '65f5e4a3b9e77c001a000001')], live: [live] });
  const sent = first.items.find((i) => i.kind === 'Alert')!.body as never;
  const state: StateFile = { formatVersion: 1, alerts: { '65f5e4a3b9e77c001a000001': { sent, appliedAt: '2026-11-20T10:00:00.000Z' } } };
  const again = plan({ resources: [dashboard('d1'), alert('a1', '65f5e4a3b9e77c001a000001')], live: [live], state });
  const a = again.items.find((i) => i.kind === 'Alert')!;
  assert.is(a.action, 'noop');
  assert.is(a.inSyncAsOf, '2026-11-20T10:00:00.000Z');
  const re = plan({ resources: [dashboard('d1'), alert('a1', '65f5e4a3b9e77c001a000001')], live: [live], state, reassertAlerts: true });
  assert.is(re.items.find((i) => i.kind === 'Alert')!.action, 'update');
  const changed = plan({ resources: [dashboard('d1'), alert('a1', '65f5e4a3b9e77c001a000001', 'd1', 'Errors', 9)], live: [live], state });
  const c = changed.items.find((i) => i.kind === 'Alert')!;
  assert.is(c.action, 'update');
  assert.equal(c.patch, [{ op: 'replace', path: '/threshold', value: 9 }]);
});

test('alert whose tile is missing on the live dashboard is blocked/unresolved-reference', () => {
  const live = liveOf('d1', '65f5e4a3b9e77c001a111111', { tiles: [] });
  const p = plan({ resources: [dashboard('d1'), alert('a1', '65f5e4a3b9e77c001a000001')], live: [live] });
  const it = p.items.find((i) => i.kind === 'Alert')!;
  assert.is(it.reason, 'unresolved-reference');
  assert.match(it.message, 'has no tile named "Errors"');
});

test('newer servers: tiles with config instead of series are not reported as drift', () => {
  const live = liveOf('d1', '65f5e4a3b9e77c001a111111');
  live.tiles = [{ id: 't', name: 'Errors', x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line', select: [] } }];
  const it = plan({ resources: [dashboard('d1')], live: [live] }).items[0]!;
  assert.is(it.action, 'noop', JSON.stringify(it.patch));
  assert.ok(it.ignoredFields?.includes('tiles[].config'));
});

test('deterministic: the same input in another order gives the same plan', () => {
  const resources = [dashboard('b'), dashboard('a'), alert('x', '65f5e4a3b9e77c001a000002', 'a'), alert('w', '65f5e4a3b9e77c001a000001', 'b')];
  const live = [liveOf('zz', '65f5e4a3b9e77c001a333333'), liveOf('a', '65f5e4a3b9e77c001a111111')];
  const p1 = plan({ resources, live });
  const p2 = plan({ resources: [...resources].reverse(), live: [...live].reverse() });
  assert.equal(p1, p2);
  assert.equal(
    p1.items.map((i) => `${i.kind}/${i.name}/${i.action}`),
    ['Dashboard/Dash zz/blocked', 'Dashboard/b/create', 'Dashboard/a/noop', 'Alert/w/update', 'Alert/x/update'],
  );
});

test('the fingerprint changes when live state or alert records change, not with order', () => {
  const live = [liveOf('a', '65f5e4a3b9e77c001a111111'), liveOf('b', '65f5e4a3b9e77c001a222222')];
  const f1 = plan({ live }).fingerprint;
  assert.is(plan({ live: [...live].reverse() }).fingerprint, f1);
  assert.is.not(plan({ live: [live[0]!] }).fingerprint, f1);
  const state: StateFile = { formatVersion: 1, alerts: { x: { sent: {} as never, appliedAt: 't' } } };
  assert.is.not(plan({ live, state }).fingerprint, f1);
});

// Properties: any two dashboards diff without throwing; a dashboard diffed with itself is empty; applying
// the patch to the live side gives the desired side (the diff is complete).
const str = fc.string({ maxLength: 12 });
const hex24 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 });
const series = fc.record(
  { type: fc.constantFrom('time', 'table', 'number'), aggFn: fc.constantFrom('count', 'avg'), where: str, groupBy: fc.array(str, { maxLength: 3 }) },
  { requiredKeys: [] },
);
const tile = fc.record(
  {
    name: str,
    x: fc.nat(23),
    y: fc.nat(50),
    w: fc.integer({ min: 1, max: 24 }),
    h: fc.integer({ min: 1, max: 10 }),
    asRatio: fc.boolean(),
    series: fc.array(series, { maxLength: 3 }),
  },
  { requiredKeys: ['name', 'x', 'y', 'w', 'h'] },
);
const spec = fc.record({ name: str, tags: fc.uniqueArray(str, { maxLength: 4 }), tiles: fc.array(tile, { maxLength: 6 }) }, { requiredKeys: ['name'] });
const liveDash = fc.record(
  {
    id: hex24,
    name: str,
    tags: fc.option(fc.array(str), { nil: undefined }),
    tiles: fc.option(fc.array(fc.oneof(tile, fc.anything() as fc.Arbitrary<never>)), { nil: undefined }),
    extra: fc.anything(),
  },
  { requiredKeys: ['id', 'name'] },
);

test('property: normalize-and-diff never throws, even on junk live data', () => {
  fc.assert(
    fc.property(spec, liveDash, (s, l) => {
      const r = dashboard('p', s as never);
      computePlan({ resources: [r], live: [{ ...l, name: s.name } as never], state: emptyState, markerTag: MARKER, now: NOW, projectDir: DIR });
    }),
    { numRuns: 300 },
  );
});

test('property: a document diffed with itself is empty, and the patch converges', () => {
  fc.assert(
    fc.property(spec, spec, (a, b) => {
      const na = normalizeDesired(a as never, MARKER);
      assert.equal(fastJsonPatch.compare(na, normalizeDesired(a as never, MARKER)), []);
      const nb = normalizeDesired(b as never, MARKER);
      // fast-json-patch refuses to apply a path through "__proto__" (by design); steward only shows patches.
      const names = [...(a.tiles ?? []), ...(b.tiles ?? [])].map((t) => t.name);
      if (names.includes('__proto__')) return;
      const patched = fastJsonPatch.applyPatch(structuredClone(na), fastJsonPatch.compare(na, nb)).newDocument;
      assert.equal(patched, nb);
    }),
    { numRuns: 300 },
  );
});

test("a tile's members given to its later series are copies: a patch to one series leaves the others (the property above, seed -50730158)", () => {
  // HyperDX takes a time tile's groupBy from its first series (withTileMembers); the later series got the first's
  // own array, so the patch that changed series 1's groupBy changed series 0's too, and never converged.
  const a = { name: 'd', tiles: [{ name: 't', x: 0, y: 0, w: 1, h: 1, series: [{ type: 'time', groupBy: [''] }, {}] }] };
  const b = { name: 'd', tiles: [{ name: 't', x: 0, y: 0, w: 1, h: 1, series: [{ groupBy: [''] }, { groupBy: [' '] }] }] };
  const na = normalizeDesired(a as never, MARKER);
  const nb = normalizeDesired(b as never, MARKER);
  assert.equal(fastJsonPatch.applyPatch(structuredClone(na), fastJsonPatch.compare(na, nb)).newDocument, nb);
});

test('property: a live dashboard created from a file plans as noop', () => {
  fc.assert(
    fc.property(spec, hex24, (s, id) => {
      const names = new Set((s.tiles ?? []).map((t) => t.name));
      fc.pre(names.size === (s.tiles ?? []).length);
      const live = { id, name: s.name, tags: [...(s.tags ?? []), MARKER], tiles: (s.tiles ?? []).map((t, i) => ({ ...t, id: `t${i}` })) };
      const r = dashboard('p', { name: s.name, tags: s.tags ?? [], tiles: s.tiles ?? [] } as never);
      const { normal } = normalizeLive(live, MARKER);
      assert.equal(normal, normalizeDesired((r.doc as unknown as { spec: never }).spec, MARKER));
    }),
    { numRuns: 300 },
  );
});

test.run();
