/**
 * The `seed` observability profile (today's validate, plan, apply, import of examples/) against prism mocks
 * of HyperDX's `openapi.2025-11-21`, the version the seed document was written from: static answers and
 * generated ones under two seeds. What the real spec refuses is asserted explicitly, so a change in either
 * shows here (docs/profiles.md, "seed"):
 * - apply of examples/ is refused: every series lacks `sourceId` (the spec requires it; the seed does not
 *   name it). The same holds for every later version (checked against their static answers below).
 * - import never leaves a file that does not validate: it writes generated dashboards with tiles off the
 *   24-column grid (validate warns), or, with the older bounded schema, refuses them with file:line:col.
 * Everything else steward sends is accepted: zero violations on plan, import and alert updates.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EXAMPLES } from '../helpers/project.ts';
import { formatViolations, usePrism, type PrismServer } from '../helpers/prism.ts';
import { runConformance, type ConformanceRun } from './run.ts';

const SEED_SPEC = 'hyperdx-2025-11-21';
const test = suite('conformance: seed observability profile vs HyperDX 2025-11-21');
const [stat, dyn1, dyn2, sparse, jan, aug] = usePrism(test, [
  { spec: SEED_SPEC },
  { spec: SEED_SPEC, dynamic: true, seed: 1 },
  { spec: SEED_SPEC, dynamic: true, seed: 2 },
  { spec: SEED_SPEC, dynamic: true, seed: 1, jsf: { alwaysFakeOptionals: false, optionalsProbability: 0.5 } },
  { spec: 'hyperdx-2026-01-30' },
  { spec: 'hyperdx-2026-08-21' },
]);

/** The known refusal of a seed dashboard create: a series without sourceId (and, from 2026-01, its per-type fields). */
const SOURCE_ID = /must have required property 'sourceId'/;
const PRISM_REFUSAL = /UNPROCESSABLE_ENTITY|Invalid request/;

function assertExamplesRun(run: ConformanceRun, label: string): void {
  const validate = run.step('validate')!;
  assert.is(validate.code, 0, `${label}: ${validate.stderr}`);
  assert.equal(validate.requests, [], 'validate is offline');

  const plan = run.step('plan')!;
  assert.is(plan.code, 0, `${label}: ${plan.stderr}`);
  assert.equal(
    plan.requests.map((r) => `${r.method} ${r.path}`),
    ['GET /api/v2/dashboards'],
  );
  assert.equal(plan.violations, [], formatViolations(plan.violations));

  // The known refusal: each of the three example dashboards is refused for its series' missing sourceId.
  const apply = run.step('apply')!;
  assert.is(apply.code, 1, `${label}: apply of examples/ is refused by the real spec`);
  const posts = apply.requests.filter((r) => r.method === 'POST');
  assert.is(posts.length, 3, apply.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join('\n'));
  for (const p of posts) {
    assert.is(p.status, 422);
    assert.ok(
      p.violations.some((v) => SOURCE_ID.test(v.message)),
      formatViolations(p.violations),
    );
    const other = p.violations.filter((v) => !SOURCE_ID.test(v.message) && !PRISM_REFUSAL.test(v.message));
    assert.equal(other, [], `only sourceId is refused under 2025-11-21:\n${formatViolations(other)}`);
  }
  // And apply says what was refused (prism's list of violations), not only prism's boilerplate detail.
  const failed = (JSON.parse(apply.stdout) as { failed: Array<{ error: string }> }).failed;
  assert.is(failed.length, 3, apply.stdout);
  for (const f of failed)
    assert.match(f.error, /→ 422 Unprocessable Entity: Invalid request: Request body property tiles\.\d+\.series\.\d+ must have required property 'sourceId'/);
  const notPost = apply.requests.filter((r) => r.method !== 'POST');
  assert.equal(
    notPost.flatMap((r) => r.violations),
    [],
    formatViolations(notPost.flatMap((r) => r.violations)),
  );

  // import reads without violations and never leaves a file that does not validate.
  const imp = run.step('import')!;
  assert.equal(imp.violations, [], formatViolations(imp.violations));
  const check = run.step('import-validate')!;
  assert.is(check.code, 0, check.stdout + check.stderr);
  if (imp.code === 0) {
    assert.ok(Object.keys(run.imported).length > 0, `${label}: import wrote nothing`);
  } else {
    // With a schema that bounds tiles and tags (before the per-profile check), a dashboard the spec allows
    // but the schema does not (x < 0 or > 23, w < 1, empty tag) is refused with file:line:col, nothing written.
    assert.is(imp.code, 1);
    assert.match(imp.stderr, /imported\/[^:]+\.yaml:\d+:\d+\s+\/spec\/(tiles\/\d+\/[xywh]|tags\/\d+)/);
    assert.equal(run.imported, {});
  }
}

for (const [h, label] of [
  [stat, 'static'],
  [dyn1, 'generated, seed 1'],
  [dyn2, 'generated, seed 2'],
] as const) {
  test(`examples/: validate, plan, apply, import (${label})`, async () => {
    assertExamplesRun(await runConformance(h.server, { project: EXAMPLES }), label);
  });
}

test('sparse answers: a listed dashboard without the members steward keys on is refused in one line, never guessed around', async () => {
  // The spec requires no member of a dashboard; the seed profile needs each dashboard's id and name and each
  // tile's id (identity, pins, alert bindings), and the envelope's data (docs/profiles.md). Without them the
  // plan would be computed on a partial picture of the live state, so plan and import stop with one line.
  const run = await runConformance(sparse.server, { project: EXAMPLES, steps: ['plan', 'import'] });
  assert.equal(run.violations, [], formatViolations(run.violations));
  for (const step of run.steps) {
    if (step.code === 0) continue;
    assert.is(step.code, 1);
    assert.match(
      step.stderr,
      /^error: GET \/api\/v2\/dashboards: (data|data\[\d+\]\.(id|name)|data\[\d+\]\.tiles\[\d+\]\.id): is required but missing( \(and \d+ more problems?\))?\n/,
      step.stderr,
    );
    assert.not.match(step.stderr, /\n\s+at /, 'no stack trace');
  }
});

/** A project with one alert on a saved search: plan and apply update it with PUT. */
const SEARCH_ALERT = {
  'steward.yaml': `apiVersion: steward/v1
kind: Project
spec:
  resources: ["alerts/*.yaml"]
  observability: { url: "\${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN }, requestsPerMinute: 6000 }
`,
  'alerts/errors.yaml': `apiVersion: steward/v1
kind: Alert
metadata: { name: errors, id: 65f5e4a3b9e77c001a111111 }
spec:
  name: Errors
  message: Too many errors
  threshold: 10
  thresholdType: above
  interval: 5m
  source: search
  channel: { type: webhook, webhookId: 65f5e4a3b9e77c001a789012 }
`,
};

async function assertAlertUpdate(server: PrismServer, files: Record<string, string>): Promise<void> {
  const run = await runConformance(server, { project: files, steps: ['plan', 'apply'] });
  const apply = run.step('apply')!;
  assert.is(apply.code, 0, apply.stdout + apply.stderr);
  const puts = apply.requests.filter((r) => r.method === 'PUT');
  assert.is(puts.length, 1, apply.requests.map((r) => `${r.method} ${r.path}`).join('\n'));
  assert.match(puts[0]!.path, /^\/api\/v2\/alerts\/[0-9a-f]{24}$/);
  assert.equal(run.violations, [], formatViolations(run.violations));
}

for (const [h, label] of [
  [stat, 'static'],
  [dyn1, 'generated, seed 1'],
  [dyn2, 'generated, seed 2'],
] as const) {
  test(`alert update (source: search) is accepted, and its answer read (${label})`, () => assertAlertUpdate(h.server, SEARCH_ALERT));
}

test('alert update on a tile of an imported dashboard is accepted (static)', async () => {
  const s = stat.server;
  const imp = await runConformance(s, { project: EXAMPLES, steps: ['import'] });
  assert.is(imp.step('import')!.code, 0);
  const [file, text] = Object.entries(imp.imported)[0]!;
  const dashboard = /metadata:\n  name: (\S+)/.exec(text)![1]!;
  const tile = /tiles:\n    - name: (.+)\n/.exec(text)![1]!;
  await assertAlertUpdate(s, {
    'steward.yaml': SEARCH_ALERT['steward.yaml'].replace('["alerts/*.yaml"]', '["alerts/*.yaml", "dashboards/*.yaml"]'),
    [`dashboards/${file}`]: text,
    'alerts/tile.yaml': SEARCH_ALERT['alerts/errors.yaml'].replace('source: search', `source: tile\n  tile: { dashboard: ${dashboard}, name: ${tile} }`),
  });
});

test('import on the seed profile from a 2026-08 server writes the dashboards filters: the next plan shows the imports unchanged, not blocked', async () => {
  // HyperDX 2026-08's dashboards have `filters` (its static answer's two do). The seed profile's files may
  // declare filters and plan compares them, but import left them out: the imported dashboards then planned as
  // blocked ("differs in filters, and the API cannot update dashboards"), and the way out it named, import
  // again, wrote the same file.
  const files = {
    'steward.yaml': `apiVersion: steward/v1
kind: Project
spec:
  resources: ["imported/*.yaml"]
  observability: { url: "\${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN }, requestsPerMinute: 6000 }
`,
  };
  const run = await runConformance(aug.server, {
    project: files,
    steps: ['import', { name: 'validate', args: ['validate'] }, { name: 'plan', args: ['plan', '--detailed-exitcode'] }],
  });
  assert.equal(run.violations, [], formatViolations(run.violations));
  const imp = run.step('import')!;
  assert.is(imp.code, 0, imp.stdout + imp.stderr);
  const texts = Object.values(run.imported);
  assert.is(texts.length, 2, imp.stdout);
  for (const t of texts)
    assert.match(t, /\n  filters:\n    - \{ type: QUERY_EXPRESSION, name: \S+, expression: \S+, sourceId: "?65f5e4a3b9e77c001a11111[12]"? \}\n/, t);
  assert.is(run.step('validate')!.code, 0, run.step('validate')!.stdout);
  const plan = run.step('plan')!;
  assert.is(plan.code, 0, plan.stdout + plan.stderr);
  assert.match(plan.stdout, /= 2 unchanged dashboards/);
});

for (const [h, version] of [
  [jan, '2026-01-30'],
  [aug, '2026-08-21'],
] as const) {
  test(`the seed profile's dashboard creates are refused by ${version} too (sourceId, and per-type fields)`, async () => {
    const run = await runConformance(h.server, { project: EXAMPLES, steps: ['plan', 'apply'] });
    const plan = run.step('plan')!;
    assert.is(plan.code, 0, plan.stderr);
    assert.equal(plan.violations, [], formatViolations(plan.violations));
    const posts = run.step('apply')!.requests.filter((r) => r.method === 'POST');
    assert.is(posts.length, 3);
    for (const p of posts) {
      assert.ok(p.status !== undefined && p.status >= 400 && p.status < 500, String(p.status));
      assert.ok(
        p.violations.some((v) => SOURCE_ID.test(v.message)),
        formatViolations(p.violations),
      );
    }
  });
}

test.run();
