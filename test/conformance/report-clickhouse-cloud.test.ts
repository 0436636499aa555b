/**
 * `steward report` with `cloud.api: clickhouse-cloud` against prism mocks of both vendored ClickHouse Cloud
 * files (request violations fail): the spec's static examples, generated answers under several seeds with
 * every optional member filled (prism's default), and sparse generated answers where optional members are
 * left out. Zero request violations everywhere; no read refused except where the spec is loose about a
 * member steward needs (the envelope's `result`, see docs/profiles.md), and then the report still stands.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatViolations, usePrism, type PrismOptions, type PrismServer } from '../helpers/prism.ts';
import { assertOnlyMalformedNumbers, cloudProject, runReport } from './cloud.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const FILES = ['clickhouse-cloud-2026-07-31', 'clickhouse-cloud-2026-04-14'] as const;
const SPARSE = { alwaysFakeOptionals: false, optionalsProbability: 0.5 };

const runs: { label: string; opts: PrismOptions; sparse?: boolean }[] = [
  ...FILES.map((spec) => ({ label: `${spec} static`, opts: { spec } })),
  { label: `${FILES[0]} generated, seed 1`, opts: { spec: FILES[0], dynamic: true, seed: 1 } },
  { label: `${FILES[1]} generated, seed 2`, opts: { spec: FILES[1], dynamic: true, seed: 2 } },
  { label: `${FILES[0]} sparse, seed 3`, opts: { spec: FILES[0], dynamic: true, seed: 3, jsf: SPARSE }, sparse: true },
];

const test = suite('conformance: report, cloud.api clickhouse-cloud');
const handles = usePrism(
  test,
  runs.map((r) => r.opts),
);

const LISTS = ['/clickpipes', '/clickpipesReversePrivateEndpoints', '/backups'];

function assertNoViolations(s: PrismServer): void {
  assert.equal(s.violations(), [], formatViolations(s.violations()));
}

runs.forEach((run, i) => {
  test(`report: ${run.label}`, async () => {
    const s = handles[i]!.server;
    s.clear();
    const { code, stderr, report } = await runReport(cloudProject('clickhouse-cloud'), s.url);
    await s.settle();
    assertNoViolations(s);
    // The three lists of the real API were read (and nothing under the seed's names).
    const paths = s.requests().map((r) => r.path);
    for (const l of LISTS)
      assert.ok(
        paths.some((p) => p.endsWith(l)),
        `no GET ...${l} in ${paths.join(', ')}`,
      );
    assert.not.ok(paths.some((p) => /ingestpipes/.test(p)));
    const svc = report.services[0]!;
    if (!run.sparse) {
      assertOnlyMalformedNumbers(svc, code, run.opts.dynamic === true, `${stderr}\n`);
      assert.equal(svc.readFailures, [], JSON.stringify(svc.readFailures));
      // The newest backup with an id is fetched on its own.
      assert.ok(
        paths.some((p) => /\/backups\/[^/]+$/.test(p)),
        paths.join(', '),
      );
      assert.ok(svc.pipes.length > 0 && svc.endpoints.length > 0 && svc.backups.length > 0);
    } else {
      // Loose spec: every member is optional, the envelope's `result` too. A body without it is the one
      // thing the report cannot use; it says so per read and carries on. Anything else must be read.
      assert.ok(code === 0 || code === 1, `exit ${code}: ${stderr}`);
      for (const f of svc.readFailures) assert.match(f.message, /result: is required but missing/, f.message);
      assert.is(report.summary.readFailures, svc.readFailures.length);
    }
  });
});

test('static answers: the example pipe and endpoint are found by name and checked', async () => {
  const s = handles[0]!.server;
  const { report } = await runReport(cloudProject('clickhouse-cloud'), s.url);
  const svc = report.services[0]!;
  assert.ok(svc.pipes.some((p) => p.name === 'my_postgres_pipe' && p.listed));
  assert.ok(svc.endpoints.some((e) => e.description === 'My reverse private endpoint' && e.listed));
  assert.not.ok(
    svc.findings.some((f) => /is not on the service/.test(f.message)),
    JSON.stringify(svc.findings),
  );
});

test('the seed profile asks for paths the real API does not have (so prism refuses them); the 404 says to set cloud.api: clickhouse-cloud, where', async () => {
  const s = handles[0]!.server;
  for (const [label, files, at] of [
    ['cloud.api: seed', cloudProject('seed'), /in steward\.yaml:6:\d+, or check the URL and ids$/],
    // Not set at all (the default): where it would go, the cloud section.
    ['no cloud.api', withoutApiLine(cloudProject('seed')), /in steward\.yaml:6:\d+, or check the URL and ids$/],
  ] as const) {
    s.clear();
    const { code, report } = await runReport(files, s.url);
    await s.settle();
    assert.is(code, 1, label);
    const failures = report.services[0]!.readFailures;
    assert.equal(
      failures.map((f) => f.part),
      ['pipes', 'endpoints'],
      label,
    );
    for (const f of failures) {
      assert.match(f.message, / → 404 /, label);
      assert.match(
        f.message,
        /; the server does not speak the seed cloud API \(ingest pipes\) at this path \(cloud\.api: seed\); set `cloud\.api: clickhouse-cloud` for ClickHouse Cloud API v1 \(ClickPipes\)/,
        label,
      );
      assert.match(f.message, at, label);
    }
    assert.ok(
      s.requestViolations().some((v) => /NO_PATH_MATCHED/.test(v.message) && /ingestpipes$/.test(v.path)),
      formatViolations(s.violations()),
    );
  }
});

test('observability.api seed against ClickHouse Cloud: the 404 says to set observability.api: clickstack-cloud, and what it needs', async () => {
  const s = handles[0]!.server;
  const p = tmpProject({
    'steward.yaml': `apiVersion: steward/v1
kind: Project
spec:
  resources: ["dashboards/**/*.yaml"]
  observability:
    url: \${STEWARD_OBS_URL}
    token: { env: STEWARD_OBS_TOKEN }
    requestsPerMinute: 6000
`,
    'dashboards/one.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: one }\nspec: { name: One, tiles: [] }\n',
  });
  try {
    const r = await steward(['plan'], { cwd: p.dir, env: { STEWARD_OBS_URL: s.url, STEWARD_OBS_TOKEN: 'token' } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /GET \/api\/v2\/dashboards → 404 .*; the server does not speak the seed observability API .* at this path \(observability\.api: seed\); set `observability\.api: clickstack-cloud` for ClickStack on ClickHouse Cloud .*\(with keyId, keySecret, organizationId and serviceId\) in steward\.yaml:6:\d+, or check the URL and ids/,
    );
  } finally {
    p.cleanup();
  }
});

/** The project files with the `api:` line of the cloud connection left out (the default profile). */
function withoutApiLine(files: Record<string, string>): Record<string, string> {
  return { ...files, 'steward.yaml': files['steward.yaml']!.replace(/\n {4}api: seed\n/, '\n') };
}

test.run();
