/**
 * examples/clickstack-cloud (observability.api: clickstack-cloud, cloud.api: clickhouse-cloud) against prism
 * mocks of both vendored ClickHouse Cloud files in errors mode (docs/profiles.md, "clickstack-cloud"):
 * - 2026-07-31: static, generated seed 1, sparse seed 3. The hyperdx run's steps (validate, plan,
 *   plan --server-validate, plan --prune, apply, import, validate of the imports), `report`, and then the
 *   writes on what the mock has (PUT, DELETE with --prune, alert POST).
 * - 2026-04-14 (its clickstack paths exist, without `POST .../dashboards/validate`): static and generated
 *   seed 2. Everything as above, except that plan --server-validate stops in one line (405: the path is
 *   `GET .../dashboards/{id}` there).
 * Zero violations everywhere. import skips, each on one line, what steward's dashboard schema (HyperDX
 * 2026-08's bounds) or the profile's checks refuse; the ClickStack spec is looser (docs/profiles.md).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import type { Report } from '../../src/report/types.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { formatViolations, usePrism, type PrismOptions, type PrismServer } from '../helpers/prism.ts';
import { runConformance } from './run.ts';
import { assertOnlyMalformedNumbers } from './cloud.ts';
import {
  assertApply,
  assertImport,
  assertNoViolations,
  assertServerValidate,
  assertWrites,
  bindProject,
  plannedDashboards,
  CLICKSTACK,
  show,
  sparseRefusal,
  STEPS,
} from './live.ts';

const NEW = 'clickhouse-cloud-2026-07-31';
const OLD = 'clickhouse-cloud-2026-04-14';
/** Generated lists cut to 4 items, as in the hyperdx run (prism's generator is slow on dashboard lists). */
const SMALL = { maxItems: 4 };
const SPARSE = { ...SMALL, alwaysFakeOptionals: false, optionalsProbability: 0.5 };
const MOCKS: { label: string; opts: PrismOptions; sparse?: boolean; noValidate?: boolean }[] = [
  { label: '2026-07-31 static', opts: { spec: NEW } },
  { label: '2026-07-31 generated, seed 1', opts: { spec: NEW, dynamic: true, seed: 1, jsf: SMALL } },
  { label: '2026-07-31 sparse, seed 3', opts: { spec: NEW, dynamic: true, seed: 3, jsf: SPARSE }, sparse: true },
  { label: '2026-04-14 static', opts: { spec: OLD }, noValidate: true },
  { label: '2026-04-14 generated, seed 2', opts: { spec: OLD, dynamic: true, seed: 2, jsf: SMALL }, noValidate: true },
];

/**
 * import's one-line skips, a reason for each: dashboards (schema bounds, grid, tags, quantile levels) and
 * alerts (a channel steward cannot write, like the spec example's webhook with only emailRecipients; a saved_search without savedSearchId, a dashboard not
 * imported).
 */
const SKIP = /^  - skipped (alert )?".*" \(.*\): \S.*$/;
const BASE = CLICKSTACK.base;
const STEPS_WITH_REPORT = [...STEPS, { name: 'report', args: ['report', '--out', 'reports', '--format', 'json'] }];

/**
 * The control for the zero violations: the mock checks an alert's channel against the spec, so the channel
 * members steward sent (severity, Slack channel, email recipients) were checked, not waved through.
 */
async function assertChannelChecked(server: PrismServer): Promise<void> {
  server.clear();
  const body = {
    threshold: 1,
    interval: '5m',
    thresholdType: 'above',
    channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a789012', severity: 'urgent' },
  };
  await fetch(`${server.url}${BASE}/alerts/65f5e4a3b9e77c001a123456`, {
    method: 'PUT',
    headers: { authorization: CLICKSTACK.auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await server.settle();
  const refused = server.requestViolations();
  assert.ok(
    refused.some((v) => v.kind === 'request' && /channel/.test(v.message)),
    formatViolations(refused) || server.output().slice(-2000),
  );
  server.clear();
}

const test = suite('conformance: clickstack-cloud profile vs ClickHouse Cloud 2026-07-31 and 2026-04-14');
const handles = usePrism(
  test,
  MOCKS.map((m) => m.opts),
);
const EXAMPLE = join(EXAMPLES, 'clickstack-cloud');
const exercised = new Set<string>();

MOCKS.forEach((m, i) => {
  test(`examples/clickstack-cloud: plan (and --server-validate, --prune), apply, import, report; then update, prune, alert create (${m.label})`, async () => {
    const server = handles[i]!.server;
    const bound = await bindProject(server, CLICKSTACK, EXAMPLE);
    const run = await runConformance(server, { project: bound.files, extraEnv: CLICKSTACK.env, steps: STEPS_WITH_REPORT });
    const sv = run.step('plan-server-validate')!;
    if (m.noValidate && sv.code !== 0) {
      // 2026-04-14 has no dashboard validation: the one refusal, in one line, and nothing else wrong.
      assert.match(
        sv.stderr,
        new RegExp(`^error: POST ${BASE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/dashboards/validate → 405 Method Not Allowed: .*\\n$`),
        show(sv),
      );
      assert.ok(
        sv.violations.every((v) => /NO_METHOD_MATCHED/.test(v.message)),
        show(sv),
      );
      run.steps.splice(run.steps.indexOf(sv), 1);
      run.violations.splice(0, run.violations.length, ...run.steps.flatMap((s) => s.violations));
    }
    assertNoViolations(run, m.label);
    assert.is(run.step('validate')!.code, 0);
    // report reads the real ClickPipes paths; with every member present, every read is accepted.
    const report = JSON.parse(run.step('report')!.stdout) as Report;
    const paths = run.step('report')!.requests.map((r) => r.path);
    for (const l of ['/clickpipes', '/clickpipesReversePrivateEndpoints', '/backups'])
      assert.ok(
        paths.some((x) => x.endsWith(l)),
        paths.join('\n'),
      );
    if (m.sparse) {
      for (const f of report.services[0]!.readFailures) assert.match(f.message, /result: is required but missing/, f.message);
      for (const s of run.steps.filter((x) => !['import-validate', 'report'].includes(x.name) && x.code !== 0))
        assert.match(s.stderr, sparseRefusal(CLICKSTACK), show(s));
      if (run.step('import')!.code === 0) assertImport(run, m.label, SKIP);
      return;
    }
    // Generated backups may have malformed numbers (a size of -72439612.3 bytes): exit 1 for those only.
    assertOnlyMalformedNumbers(report.services[0]!, run.step('report')!.code, m.opts.dynamic === true, show(run.step('report')!));
    assert.equal(report.services[0]!.readFailures, []);
    for (const name of ['plan', 'plan-prune']) assert.is(run.step(name)!.code, 0, show(run.step(name)!));
    if (!m.noValidate) assertServerValidate(sv);
    const creates = plannedDashboards(run.step('plan')!.stdout);
    assert.ok(creates > 0);
    if (!m.noValidate) assert.is(sv.requests.filter((r) => r.method === 'POST' && r.path === `${BASE}/dashboards/validate`).length, creates, show(sv));
    assertApply(run.step('apply')!, m.label);
    assert.is(run.step('apply')!.requests.filter((r) => r.method === 'POST' && r.path === `${BASE}/dashboards`).length, creates);
    assertImport(run, m.label, SKIP);
    for (const x of await assertWrites(server, CLICKSTACK, EXAMPLE, run, m.label)) exercised.add(x);
    if (i === 0) await assertChannelChecked(server);
  });
});

test('across the mocks, a dashboard update (PUT), a prune (DELETE), an alert create (POST) and update (PUT) were each sent', () => {
  assert.equal([...exercised].sort(), ['DELETE /dashboards/{id}', 'POST /alerts', 'PUT /alerts/{id}', 'PUT /dashboards/{id}']);
});

test.run();
