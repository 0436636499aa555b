/**
 * The `hyperdx` observability profile (examples/hyperdx) against prism mocks of HyperDX's
 * `openapi.2026-08-21` in errors mode: the spec's examples (static), generated answers under two seeds, and
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
import { EXAMPLES } from '../helpers/project.ts';
import { usePrism, type PrismOptions } from '../helpers/prism.ts';
import { runConformance } from './run.ts';
import {
  assertApply,
  assertImport,
  assertNoViolations,
  assertServerValidate,
  assertWrites,
  bindProject,
  plannedDashboards,
  HYPERDX,
  readList,
  show,
  sparseRefusal,
  STEPS,
} from './live.ts';

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
  { label: 'sparse, seed 4', opts: { spec: SPEC, dynamic: true, seed: 4, jsf: SPARSE }, sparse: true },
];

/**
 * What import may skip against HyperDX 2026-08 answers: a dashboard with 50 tags (no room for the marker tag);
 * an alert steward's files cannot say as the server sent it (its dashboard not imported, a saved_search
 * without savedSearchId, a between without thresholdMax...), each with its reason
 * (docs/profiles.md).
 */
const SKIP = /^  - skipped (".*" \(.*\): \d+ tags; the hyperdx API takes at most \d+ besides steward's marker tag|alert ".*" \(.*\): \S.*)$/;

const test = suite('conformance: hyperdx profile vs HyperDX 2026-08-21 (and 2026-01-30)');
const [jan, ...handles] = usePrism(test, [{ spec: 'hyperdx-2026-01-30' }, ...MOCKS.map((m) => m.opts)]);
const EXAMPLE = join(EXAMPLES, 'hyperdx');
/** What the writes runs sent, across the mocks (one of them at least must send each). */
const exercised = new Set<string>();

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
      for (const s of run.steps.filter((x) => x.name !== 'import-validate' && x.code !== 0)) assert.match(s.stderr, sparseRefusal(HYPERDX), show(s));
      if (run.step('import')!.code === 0) assertImport(run, m.label, SKIP);
      return;
    }
    for (const name of ['plan', 'plan-prune']) assert.is(run.step(name)!.code, 0, show(run.step(name)!));
    assertServerValidate(run.step('plan-server-validate')!);
    // --server-validate asks the service about each dashboard the plan creates or updates.
    const creates = plannedDashboards(run.step('plan')!.stdout);
    assert.ok(creates > 0);
    const sv = run.step('plan-server-validate')!;
    assert.is(sv.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/dashboards/validate').length, creates, show(sv));
    assert.not.ok(
      run.step('plan')!.requests.some((r) => r.method !== 'GET'),
      'plan only reads',
    );
    assertApply(run.step('apply')!, m.label);
    assert.is(run.step('apply')!.requests.filter((r) => r.method === 'POST' && r.path === '/api/v2/dashboards').length, creates);
    assertImport(run, m.label, SKIP);
    for (const x of await assertWrites(server, HYPERDX, EXAMPLE, run, m.label)) exercised.add(x);
  });
});

test('sparse answers: a source listed without an id is not the whole list refused; a file naming it gets one problem at the name', async () => {
  const server = handles[MOCKS.findIndex((m) => m.sparse)]!.server;
  const sources = await readList(server, HYPERDX, '/sources');
  const idless = sources.find((s) => typeof s.name === 'string' && typeof s.id !== 'string');
  if (!idless) return;
  const bound = await bindProject(server, HYPERDX, EXAMPLE);
  const files = {
    ...bound.files,
    'dashboards/jvm.yaml': bound.files['dashboards/jvm.yaml']!.replace(/sourceId: "[0-9a-f]+"|source: "[^"]*"/, `source: ${JSON.stringify(idless.name)}`),
  };
  const run = await runConformance(server, { project: files, steps: ['plan'] });
  assertNoViolations(run, 'sparse');
  assert.match(
    run.step('plan')!.stderr,
    new RegExp(
      `dashboards/jvm\\.yaml:\\d+:\\d+\\s+/spec/tiles/0/config/source\\s+error: the service lists the source ${JSON.stringify(idless.name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} without an id: give sourceId instead`,
    ),
  );
});

test('an older server (2026-01-30) with the hyperdx profile: names and --server-validate stop in one line; with ids, plan reads cleanly and the config-form create is refused', async () => {
  // docs/profiles.md, "Older HyperDX versions": 2026-01-30 has no /sources, /webhooks or /dashboards/validate,
  // and its tiles take only the series form.
  const server = jan.server;
  const named = await runConformance(server, { project: EXAMPLE, steps: ['plan'] });
  assert.is(named.step('plan')!.stderr, "error: GET /api/v2/sources → 404 Not Found: The route /api/v2/sources hasn't been found in the specification file\n");
  const bound = await bindProject(server, HYPERDX, EXAMPLE); // nothing listed: ids instead of names
  assert.not.match(Object.values(bound.files).join('\n'), /\bsource: (Logs|Traces|Metrics)\b|\bwebhook: /, 'names replaced by ids');
  const run = await runConformance(server, {
    project: bound.files,
    steps: [
      'plan',
      { name: 'plan-server-validate', args: ['plan', '--server-validate'] },
      'apply',
      { name: 'import', args: ['import', '--all', '--out', 'imported'] },
    ],
  });
  // import reads /sources and /webhooks only to write names: their 404 leaves the ids, and the rest is imported.
  const imported = run.step('import')!;
  if (process.env['CONF_DEBUG']) console.log(show(imported));
  assert.not.match(imported.stdout + imported.stderr, '404', show(imported));
  assert.match(imported.stdout, /\+ imported\/[^\n]+\.yaml/, show(imported));
  const plan = run.step('plan')!;
  assert.is(plan.code, 0, show(plan));
  assert.equal(plan.violations, []);
  assert.equal(
    plan.requests.map((r) => `${r.method} ${r.path.replace(/\?.*/, '')}`),
    ['GET /api/v2/dashboards', 'GET /api/v2/alerts'],
  );
  assert.match(run.step('plan-server-validate')!.stderr, /^error: POST \/api\/v2\/dashboards\/validate → 405 Method Not Allowed: .*\n$/);
  const posts = run.step('apply')!.requests.filter((r) => r.method === 'POST');
  assert.is(posts.length, plannedDashboards(plan.stdout), show(run.step('apply')!));
  for (const p of posts) {
    assert.is(p.status, 400);
    assert.ok(p.violations.length > 0 && p.violations.every((v) => /must have required property 'series'/.test(v.message)), show(run.step('apply')!));
  }
});

test('generated alert ids that are not 24 hex (the spec says only "string") are imported, not skipped, and the files validate', async () => {
  // Seed 1's alerts have ids like "fugiat cillum": the 24-hex rule is the seed API's (test/schema/alert-id.test.ts).
  const server = handles[1]!.server;
  const alerts = await readList(server, HYPERDX, '/alerts');
  const odd = alerts.filter((a) => typeof a.id === 'string' && !/^[0-9a-f]{24}$/.test(a.id));
  assert.ok(odd.length > 0, 'seed 1 sends an alert id that is not 24 hex');
  const run = await runConformance(server, { project: EXAMPLE, steps: ['import', 'import-validate'] });
  const imported = run.step('import')!;
  assert.not.match(imported.stdout, /\/metadata\/id/, show(imported));
  // Written ("+ file ← alert "name" (id)"), not skipped ("- skipped alert ...") nor noted ("! not imported: ...").
  const written = imported.stdout.split('\n').filter((l) => /^ {2}\+ .* ← alert /.test(l));
  assert.ok(
    odd.some((a) => written.some((l) => l.endsWith(` (${String(a.id)})`))),
    show(imported),
  );
  assert.is(run.step('import-validate')!.code, 0, show(run.step('import-validate')!));
});

test('across the mocks, a dashboard update (PUT), a prune (DELETE), an alert create (POST) and update (PUT) were each sent', () => {
  assert.equal([...exercised].sort(), ['DELETE /dashboards/{id}', 'POST /alerts', 'PUT /alerts/{id}', 'PUT /dashboards/{id}']);
});

test.run();
