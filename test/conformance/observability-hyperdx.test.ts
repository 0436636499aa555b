/**
 * The `hyperdx` observability profile (examples/hyperdx) against prism mocks of HyperDX's
 * `openapi.2026-08-21` in errors mode: the spec's examples (static), generated answers under three seeds, and
 * sparse generated answers (optional members left out). docs/profiles.md, "hyperdx" and its loose spots.
 *
 * Per mock, two runs:
 * 1. examples/hyperdx, its names bound to the mock's sources and webhooks (test/conformance/live.ts):
 *    validate, plan, plan --server-validate, plan --prune, apply, import --all, validate of the imports.
 * 2. Writes on what the mock already has: the imported files (one edited), the examples, an alert on a
 *    saved search, and the marker tag set to a tag a live dashboard carries while its file is left out (an
 *    orphan): plan --prune, then apply --prune. This sends PUT and DELETE of dashboards and POST of alerts.
 * Asserted everywhere: zero violations (what steward sends, and prism's answers), no crash, no stack trace;
 * an imported file always validates. A mock's answer is canned (the created dashboard is the spec's example,
 * not what was sent), so an alert bound to a tile of a just-created dashboard is skipped with one reason:
 * that is asserted as the only way apply may fail against a mock.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { parse } from 'yaml';
import { EXAMPLES } from '../helpers/project.ts';
import { formatViolations, usePrism, type PrismOptions, type PrismServer } from '../helpers/prism.ts';
import { runConformance, type ConformanceRun, type ConformanceStep } from './run.ts';
import { bindProject, editYaml, HYPERDX, readList, withMarkerTag, type LiveProfile } from './live.ts';

const SPEC = 'hyperdx-2026-08-21';
/**
 * Generated lists are cut to 4 items: prism's generator otherwise spends over a second on every dashboard
 * list (each has tiles with configs with lists...), which made this file take a minute. The same runs at full
 * size (no maxItems) passed when this was written (docs/profiles.md).
 */
const SMALL = { maxItems: 4 };
const SPARSE = { ...SMALL, alwaysFakeOptionals: false, optionalsProbability: 0.5 };
const MOCKS: { label: string; opts: PrismOptions; sparse?: boolean }[] = [
  { label: 'static', opts: { spec: SPEC } },
  { label: 'generated, seed 1', opts: { spec: SPEC, dynamic: true, seed: 1, jsf: SMALL } },
  { label: 'generated, seed 2', opts: { spec: SPEC, dynamic: true, seed: 2, jsf: SMALL } },
  { label: 'generated, seed 3', opts: { spec: SPEC, dynamic: true, seed: 3, jsf: SMALL } },
  { label: 'sparse, seed 4', opts: { spec: SPEC, dynamic: true, seed: 4, jsf: SPARSE }, sparse: true },
];

const STEPS: NonNullable<Parameters<typeof runConformance>[1]['steps']> = [
  'validate',
  'plan',
  { name: 'plan-server-validate', args: ['plan', '--server-validate', '--format', 'json'] },
  { name: 'plan-prune', args: ['plan', '--prune'] },
  'apply',
  'import',
  'import-validate',
];

/** The one-line refusals a sparse answer may cause (docs/profiles.md, loose spots of the hyperdx profile). */
export const SPARSE_REFUSAL = /^error: GET \/api\/v2\/(dashboards|alerts): (data|data\[\d+\]\.(id|name)|data\[\d+\]\.tiles\[\d+\]\.id): is required but missing( \(and \d+ more problems?\))?\n$/;
/** Apply against a canned answer: the created dashboard is the spec's example, without the file's tiles. */
const CANNED_TILE = /^the service returned dashboard .+ without a tile named ".+"$/;

function show(s: ConformanceStep): string {
  return `steward ${s.args.join(' ')} → ${s.code}\n${s.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('\n')}\n${s.stdout.slice(0, 1500)}\n${s.stderr.slice(0, 1500)}`;
}

function assertNoViolations(run: ConformanceRun, label: string): void {
  assert.equal(run.violations, [], `${label}: prism saw violations:\n${formatViolations(run.violations)}`);
  for (const s of run.steps) {
    assert.not.match(s.stderr, /\n\s+at /, `${label}: a stack trace from ${s.name}`);
    assert.ok(s.code === 0 || s.code === 1, `${label}: ${show(s)}`);
  }
}

function assertApply(s: ConformanceStep, label: string): void {
  if (s.code === 0) return;
  const out = JSON.parse(s.stdout) as { failed: unknown[]; skipped: Array<{ reason: string }> };
  assert.equal(out.failed, [], `${label}: ${show(s)}`);
  for (const k of out.skipped) assert.match(k.reason, CANNED_TILE, `${label}: ${show(s)}`);
}

/** import exits 0, or 1 only for dashboards it skips (each with its reason), and what it wrote validates. */
function assertImport(run: ConformanceRun, label: string): void {
  const imp = run.step('import')!;
  if (imp.code !== 0) {
    const skipped = imp.stdout.split('\n').filter((l) => l.startsWith('  - skipped'));
    assert.ok(skipped.length > 0 && imp.stderr === '', `${label}: ${show(imp)}`);
    for (const l of skipped) assert.match(l, /^  - skipped ".*" \(.*\): \d+ tags; the \S+ API takes at most \d+ besides steward's marker tag$/, l);
  }
  const check = run.step('import-validate')!;
  if (Object.keys(run.imported).length > 0) assert.is(check.code, 0, `${label}: ${show(check)}`);
}

/** Run 2: PUT, DELETE and POST on what the mock has. */
async function assertWrites(server: PrismServer, p: LiveProfile, example: string, run1: ConformanceRun, label: string): Promise<void> {
  const bound = await bindProject(server, p, example);
  const live = await readList(server, p, '/dashboards');
  const imported = Object.entries(run1.imported);
  if (imported.length === 0) return;
  const docs = imported.map(([f, t]) => ({ f, t, doc: parse(t) as { spec: { name: string; tags?: string[]; tiles?: Array<{ h: number }> } } }));
  // The marker tag: a tag of a live dashboard whose file we leave out (the orphan), if one has a usable tag.
  const orphan = docs.find((d) => live.some((l) => l.name === d.doc.spec.name && Array.isArray(l.tags) && l.tags.some((t) => typeof t === 'string' && t.length > 0 && t.length <= 32)));
  const marker = orphan ? (live.find((l) => l.name === orphan.doc.spec.name)!.tags as string[]).find((t) => typeof t === 'string' && t.length > 0 && t.length <= 32)! : undefined;
  const files: Record<string, string> = { ...bound.files };
  if (marker) files['steward.yaml'] = withMarkerTag(files['steward.yaml']!, marker);
  let edited = false;
  for (const d of docs) {
    if (d === orphan) continue;
    files[`dashboards/imported/${d.f}`] = editYaml(d.t, (doc) => {
      if (marker && Array.isArray(doc.spec.tags)) doc.spec.tags = doc.spec.tags.filter((t: string) => t !== marker);
      if (!edited && Array.isArray(doc.spec.tiles) && doc.spec.tiles.length > 0) {
        doc.spec.tiles[0].h += 1;
        edited = true;
      }
    });
  }
  const hook = Object.values(bound.webhooks)[0] ?? `id:65f5e4a3b9e77c001a789012`;
  files['alerts/saved-search.yaml'] = `apiVersion: steward/v1
kind: Alert
metadata: { name: conformance-saved-search }
spec:
  name: Conformance saved search
  threshold: 3
  thresholdType: above
  interval: 15m
  source: saved_search
  savedSearchId: 65f5e4a3b9e77c001a222222
  channels:
    - { type: webhook, ${hook.startsWith('id:') ? `webhookId: ${hook.slice(3)}` : `webhook: ${JSON.stringify(hook)}`} }
`;
  const run = await runConformance(server, {
    project: files,
    extraEnv: p.env,
    steps: [
      'validate',
      { name: 'plan-prune', args: ['plan', '--prune', '--format', 'json'] },
      { name: 'apply-prune', args: ['apply', '--auto-approve', '--prune', '--format', 'json'] },
    ],
  });
  assertNoViolations(run, `${label} (writes)`);
  assert.is(run.step('validate')!.code, 0, show(run.step('validate')!));
  const plan = run.step('plan-prune')!;
  assert.is(plan.code, 0, show(plan));
  const apply = run.step('apply-prune')!;
  assertApply(apply, `${label} (writes)`);
  const sent = apply.requests.map((r) => `${r.method} ${r.path.startsWith(`${p.base}/dashboards/`) ? `${p.base}/dashboards/{id}` : r.path}`);
  const items = (JSON.parse(plan.stdout) as { items: Array<{ kind: string; action: string }> }).items;
  const has = (kind: string, action: string): boolean => items.some((i) => i.kind === kind && i.action === action);
  if (has('Dashboard', 'update')) assert.ok(sent.includes(`PUT ${p.base}/dashboards/{id}`), `${label}: ${show(apply)}`);
  if (has('Dashboard', 'delete')) assert.ok(sent.includes(`DELETE ${p.base}/dashboards/{id}`), `${label}: ${show(apply)}`);
  if (has('Alert', 'create')) assert.ok(sent.includes(`POST ${p.base}/alerts`), `${label}: ${show(apply)}`);
  // What was meant to be exercised was: an edited dashboard, an orphan (when a live dashboard has a tag) and a
  // new alert.
  if (edited) assert.ok(has('Dashboard', 'update'), `${label}: the edited file plans no update\n${plan.stdout.slice(0, 3000)}`);
  if (marker) assert.ok(has('Dashboard', 'delete'), `${label}: no orphan deleted with marker ${marker}`);
  assert.ok(has('Alert', 'create') || has('Alert', 'update') || has('Alert', 'noop'), plan.stdout.slice(0, 2000));
}

const test = suite('conformance: hyperdx profile vs HyperDX 2026-08-21');
const handles = usePrism(test, MOCKS.map((m) => m.opts));
const EXAMPLE = join(EXAMPLES, 'hyperdx');

MOCKS.forEach((m, i) => {
  test(`examples/hyperdx: validate, plan, plan --server-validate, plan --prune, apply, import; then update, prune, alert create (${m.label})`, async () => {
    const server = handles[i]!.server;
    const bound = await bindProject(server, HYPERDX, EXAMPLE);
    const run = await runConformance(server, { project: bound.files, steps: STEPS });
    assertNoViolations(run, m.label);
    assert.is(run.step('validate')!.code, 0);
    assert.equal(run.step('validate')!.requests, [], 'validate is offline');
    if (m.sparse) {
      // Optional members left out: every step either works or stops in one line on a member steward keys on.
      for (const s of run.steps.filter((x) => x.name !== 'import-validate' && x.code !== 0)) assert.match(s.stderr, SPARSE_REFUSAL, show(s));
      if (run.step('import')!.code === 0) assertImport(run, m.label);
      return;
    }
    for (const name of ['plan', 'plan-server-validate', 'plan-prune']) assert.is(run.step(name)!.code, 0, show(run.step(name)!));
    // --server-validate asks the service about each dashboard the plan creates (two, from examples/hyperdx).
    const sv = run.step('plan-server-validate')!;
    assert.is(sv.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/dashboards/validate').length, 2, show(sv));
    assert.not.ok(run.step('plan')!.requests.some((r) => r.method !== 'GET'), 'plan only reads');
    assertApply(run.step('apply')!, m.label);
    assert.is(run.step('apply')!.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/dashboards').length, 2);
    assertImport(run, m.label);
    await assertWrites(server, HYPERDX, EXAMPLE, run, m.label);
  });
});

test('sparse answers: a source listed without an id is not the whole list refused; a file naming it gets one problem at the name', async () => {
  const server = handles[MOCKS.findIndex((m) => m.sparse)]!.server;
  const sources = await readList(server, HYPERDX, '/sources');
  const idless = sources.find((s) => typeof s.name === 'string' && typeof s.id !== 'string');
  if (!idless) return;
  const bound = await bindProject(server, HYPERDX, EXAMPLE);
  const files = { ...bound.files, 'dashboards/jvm.yaml': bound.files['dashboards/jvm.yaml']!.replace(/sourceId: "[0-9a-f]+"|source: "[^"]*"/, `source: ${JSON.stringify(idless.name)}`) };
  const run = await runConformance(server, { project: files, steps: ['plan'] });
  assertNoViolations(run, 'sparse');
  assert.match(run.step('plan')!.stderr, new RegExp(`dashboards/jvm\\.yaml:\\d+:\\d+\\s+/spec/tiles/0/config/source\\s+error: the service lists the source ${JSON.stringify(idless.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} without an id: give sourceId instead`));
});

test.run();
