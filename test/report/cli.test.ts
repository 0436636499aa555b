/**
 * `steward report` end to end, in-process, against the loopback fake cloud: the command runs exactly as the
 * CLI runs it, except that the reader comes from `createFetchReader` (resolved from the project's spec.cloud
 * and the environment, as `report-deps.ts` will once the cloud client is merged) and the clock is fixed.
 * A few checks spawn the built binary for what needs no cloud (help, no CloudService, usage errors).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ReportArgs } from '../../src/cli/commands/report.ts';
import { runReport, type ReportDeps } from '../../src/cli/commands/report-run.ts';
import type { CommandContext, GlobalArgs } from '../../src/cli/context.ts';
import { interpolateString, type Env } from '../../src/config/interpolate.ts';
import type { Project } from '../../src/config/project.ts';
import { UsageError, ValidationError } from '../../src/errors.ts';
import type { Finding, Report } from '../../src/report/types.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { startFakeCloud, type FakeCloud } from './fake-cloud.ts';
import { createFetchReader } from './fetch-reader.ts';
import { CANARY, defaultSeed, NOW, ORG, PROD, PROD_YAML, PROJECT_YAML, STAGING, STAGING_YAML, type CloudData } from './seed.ts';

const KEY_ID = 'dev-key';
const KEY_SECRET = 'dev-secret-5b9e0d';

/** What report-deps.ts will do with the real client: url from spec.cloud.url (${VAR}), key from { env }. */
const deps: ReportDeps = {
  now: () => NOW,
  createReader: (project: Project, ctx: CommandContext) => {
    const env = ctx.env;
    const cloud = project.spec.cloud!;
    const url = interpolateString(cloud.url!, env);
    if (!url.ok) throw new Error(url.message);
    return createFetchReader({
      url: url.value,
      keyId: env[cloud.keyId!.env]!,
      keySecret: env[cloud.keySecret!.env]!,
      requestsPerMinute: cloud.requestsPerMinute,
    });
  },
};

function context(cwd: string, env: Env): { ctx: CommandContext; out: { stdout: string; stderr: string } } {
  const out = { stdout: '', stderr: '' };
  const ctx: CommandContext = {
    io: { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), isTTY: false },
    env,
    cwd,
    color: false,
    columns: 100,
    signal: new AbortController().signal,
  };
  return { ctx, out };
}

const args = (over: Partial<ReportArgs & GlobalArgs> = {}): ReportArgs & GlobalArgs => ({
  out: 'reports',
  format: 'text',
  color: false,
  debug: false,
  ...over,
});

interface Setup {
  dir: string;
  server: FakeCloud;
  env: Env;
  run: (over?: Partial<ReportArgs & GlobalArgs>) => Promise<{ code: number; stdout: string; stderr: string }>;
  done: () => Promise<void>;
}

async function setup(
  opts: { files?: Record<string, string>; data?: CloudData; fail?: (path: string) => number | undefined; keySecret?: string } = {},
): Promise<Setup> {
  const server = await startFakeCloud({ data: opts.data ?? defaultSeed(), keyId: KEY_ID, keySecret: KEY_SECRET, fail: opts.fail });
  const { dir, cleanup } = tmpProject(opts.files ?? { 'steward.yaml': PROJECT_YAML, 'cloud/prod.yaml': PROD_YAML, 'cloud/staging.yaml': STAGING_YAML });
  const env: Env = { STEWARD_CLOUD_URL: server.url, STEWARD_CLOUD_KEY_ID: KEY_ID, STEWARD_CLOUD_KEY_SECRET: opts.keySecret ?? KEY_SECRET };
  return {
    dir,
    server,
    env,
    run: async (over) => {
      const { ctx, out } = context(dir, env);
      const code = await runReport(args(over), ctx, deps);
      return { code, ...out };
    },
    done: async () => {
      await server.close();
      cleanup();
    },
  };
}

const readReport = (dir: string, out = 'reports'): Report => JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as Report;
const find = (fs: Finding[], id: string, name?: string) => fs.filter((f) => f.id === id && (name === undefined || f.object.name === name));

test('against the default seed: every expected finding, one by one; files written; exit 0', async () => {
  const s = await setup();
  try {
    const r = await s.run();
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /steward report as of 2026-03-01 06:00 UTC: 2 services, 3 errors, 6 warnings, 2 info/);
    assert.match(r.stdout, /wrote reports\/report\.md, reports\/report\.json, reports\/report\.html\n$/);
    for (const f of ['report.md', 'report.json', 'report.html']) assert.ok(existsSync(join(s.dir, 'reports', f)), f);
    assert.equal(readdirSync(join(s.dir, 'reports')).sort(), ['report.html', 'report.json', 'report.md'], 'no temp files left');

    const report = readReport(s.dir);
    const prod = report.services.find((x) => x.serviceId === PROD)!.findings;
    const staging = report.services.find((x) => x.serviceId === STAGING)!.findings;

    // The failed backup: superseded by later successful ones, so a warning.
    const failed = find(prod, 'backup.failed');
    assert.is(failed.length, 1);
    assert.is(failed[0]!.severity, 'warning');
    assert.equal(failed[0]!.actual, { status: 'error', startedAt: '2026-02-12T23:40:00.000Z' });
    // The slow one: 3h 5m against 90 minutes.
    const slow = find(prod, 'backup.slow');
    assert.is(slow.length, 1);
    assert.equal(slow[0]!.actual, { durationMinutes: 185, status: 'done' });
    // The large one: +91.9 % against 50 %.
    const jump = find(prod, 'backup.size-jump');
    assert.is(jump.length, 1);
    assert.is((jump[0]!.actual as { changePercent: number }).changePercent, 91.9);
    // The newest backup is running, without finishedAt: info, not stale.
    assert.is(find(prod, 'backup.in-progress').length, 1);
    assert.is(find(prod, 'backup.stale').length, 0);
    // The pipe in a failed state.
    const failedPipe = find(prod, 'pipe.state', 'logs-from-s3');
    assert.is(failedPipe.length, 1);
    assert.is(failedPipe[0]!.severity, 'error');
    assert.is(failedPipe[0]!.actual, 'Failed');
    // The missing pipe.
    assert.is(find(prod, 'pipe.missing', 'sessions-from-kafka')[0]!.severity, 'error');
    // The replicas that differ, as a patch.
    assert.equal(find(prod, 'pipe.field-drift', 'clicks-from-kinesis')[0]!.patch, [{ op: 'replace', path: '/scaling/replicas', value: 2 }]);
    // The pipe in a transitional state: in progress, not drift.
    assert.is(find(prod, 'pipe.in-progress', 'orders-cdc')[0]!.severity, 'info');
    assert.is(find(prod, 'pipe.state', 'orders-cdc').length, 0);
    // The pipe no file lists.
    assert.is(find(prod, 'pipe.unlisted', 'audit-from-gcs')[0]!.severity, 'warning');
    // The endpoint not Ready.
    const ep = find(prod, 'endpoint.status', 'msk-analytics')[0]!;
    assert.equal([ep.expected, ep.actual, ep.severity], ['Ready', 'Pending', 'warning']);
    assert.is(find(prod, 'endpoint.status', 'msk-prod').length, 0);
    assert.is(prod.length, 10);
    // Staging: newest finished backup 40 h old.
    assert.equal(
      staging.map((f) => `${f.id}:${f.severity}`),
      ['backup.stale:error'],
    );

    // Reads only: 3 lists + 1 GET per service, each with Basic auth.
    assert.is(s.server.requests.length, 8);
    assert.ok(s.server.requests.every((q) => q.method === 'GET' && q.status === 200));
    assert.is(s.server.requests.filter((q) => /\/backups\/[^/]+$/.test(q.path)).length, 2);
  } finally {
    await s.done();
  }
});

test('--fail-on: exit 2 when findings reach the severity, 0 below it', async () => {
  const s = await setup();
  try {
    assert.is((await s.run({ failOn: 'error' })).code, 2);
    assert.is((await s.run({ failOn: 'warning' })).code, 2);
  } finally {
    await s.done();
  }
  // Staging with a looser age limit and a count it misses: a warning and nothing worse.
  const onlyWarnings = STAGING_YAML.replace('maxAgeHours: 26, minCount: 7', 'maxAgeHours: 48, minCount: 8');
  const w = await setup({ files: { 'steward.yaml': PROJECT_YAML, 'cloud/staging.yaml': onlyWarnings } });
  try {
    const none = await w.run();
    assert.is(none.code, 0);
    assert.match(none.stdout, /0 errors, 1 warning, 0 info/);
    assert.is((await w.run({ failOn: 'error' })).code, 0);
    assert.is((await w.run({ failOn: 'warning' })).code, 2);
  } finally {
    await w.done();
  }
});

test('--format json prints report.json; --format markdown prints report.md; the file list goes to stderr', async () => {
  const s = await setup();
  try {
    const j = await s.run({ format: 'json', out: 'out/json' });
    assert.is(j.code, 0);
    assert.is(j.stdout, readFileSync(join(s.dir, 'out/json/report.json'), 'utf8'));
    assert.match(j.stderr, /wrote out\/json\/report\.md, out\/json\/report\.json, out\/json\/report\.html/);
    const m = await s.run({ format: 'markdown', out: 'out/md' });
    assert.is(m.stdout, readFileSync(join(s.dir, 'out/md/report.md'), 'utf8'));
  } finally {
    await s.done();
  }
});

test('files are replaced whole on a second run (temp file + rename), nothing else left behind', async () => {
  const s = await setup();
  try {
    mkdirSync(join(s.dir, 'reports'));
    writeFileSync(join(s.dir, 'reports', 'report.json'), 'stale content that is longer than nothing');
    assert.is((await s.run()).code, 0);
    assert.is(readReport(s.dir).formatVersion, 1);
    assert.equal(readdirSync(join(s.dir, 'reports')).sort(), ['report.html', 'report.json', 'report.md']);
  } finally {
    await s.done();
  }
});

test('one service failing to read: the others are reviewed, the report is written, exit 1', async () => {
  const s = await setup({ fail: (path) => (path.includes(STAGING) && path.endsWith('/ingestpipes') ? 500 : undefined) });
  try {
    const r = await s.run({ failOn: 'warning' });
    assert.is(r.code, 1, 'a failed read wins over --fail-on');
    assert.match(r.stderr, /1 read failed, so the review is incomplete/);
    const report = readReport(s.dir);
    assert.is(report.summary.readFailures, 1);
    const staging = report.services.find((x) => x.serviceId === STAGING)!;
    assert.equal(
      staging.findings.map((f) => f.id),
      ['read.failed', 'backup.stale'],
    );
    assert.match(staging.findings[0]!.message, /could not list ingest pipes: GET .*ingestpipes: HTTP 500/);
    assert.is(report.services.find((x) => x.serviceId === PROD)!.findings.length, 10);
  } finally {
    await s.done();
  }
});

test("a wrong key: every read fails with the server's answer, exit 1, the secret is not echoed", async () => {
  const s = await setup({ keySecret: 'wrong-secret-value' });
  try {
    const r = await s.run();
    assert.is(r.code, 1);
    assert.match(r.stderr, /6 reads failed/);
    assert.match(r.stdout, /HTTP 401/);
    assert.not.match(r.stdout + r.stderr + readFileSync(join(s.dir, 'reports/report.md'), 'utf8'), /wrong-secret-value/);
  } finally {
    await s.done();
  }
});

test('canary: a connection string and the configured key secret echoed by the server appear in no file and no output', async () => {
  const data = defaultSeed({ canary: CANARY });
  data[ORG]![PROD]!.endpoints[1]!.status = KEY_SECRET; // a server echoing the key back
  data[ORG]![STAGING]!.pipes.push({ name: `pipe-${KEY_SECRET}`, state: 'Running', source: { objectStorage: { connectionString: CANARY } } });
  const s = await setup({ data });
  try {
    const outputs: string[] = [];
    for (const format of ['text', 'json', 'markdown'] as const) {
      const r = await s.run({ format });
      outputs.push(r.stdout, r.stderr);
    }
    for (const f of ['report.md', 'report.json', 'report.html']) outputs.push(readFileSync(join(s.dir, 'reports', f), 'utf8'));
    for (const o of outputs) {
      assert.not.ok(o.includes(CANARY), 'canary leaked');
      assert.not.ok(o.includes(KEY_SECRET), 'key secret leaked');
      assert.not.ok(o.includes('AccountKey='), 'connection string leaked');
    }
    assert.ok(
      readReport(s.dir)
        .services.find((x) => x.serviceId === STAGING)!
        .findings.some((f) => f.object.name === 'pipe-[redacted]'),
    );
  } finally {
    await s.done();
  }
});

test('invalid resources stop the report before any read; a bad --concurrency is a usage error', async () => {
  const s = await setup({ files: { 'steward.yaml': PROJECT_YAML, 'cloud/prod.yaml': PROD_YAML.replace('minCount: 7', 'minCount: lots') } });
  try {
    try {
      await s.run();
      assert.unreachable();
    } catch (e) {
      assert.instance(e, ValidationError);
    }
    try {
      await s.run({ concurrency: 0 });
      assert.unreachable();
    } catch (e) {
      assert.instance(e, UsageError);
    }
    assert.is(s.server.requests.length, 0);
  } finally {
    await s.done();
  }
});

// --------------------------------------------------------------------------- the built binary

test('steward report --help: options, examples, exit codes', async () => {
  const r = await steward(['report', '--help']);
  assert.is(r.code, 0);
  for (const s of ['--out', '--fail-on', '--format', 'Examples:', 'steward report --fail-on error', 'Exit codes']) assert.ok(r.stdout.includes(s), s);
});

test('steward report in a project without CloudService: empty report written, exit 0, no cloud needed', async () => {
  const { dir, cleanup } = tmpProject({ 'steward.yaml': PROJECT_YAML });
  try {
    const r = await steward(['report', '--out', 'out'], { cwd: dir });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, /0 services, 0 errors, 0 warnings, 0 info/);
    assert.match(r.stderr, /pattern "cloud\/\*\*\/\*\.yaml" matches no file/);
    assert.match(r.stderr, /nothing to review/);
    assert.match(readFileSync(join(dir, 'out', 'report.md'), 'utf8'), /nothing to review/);
  } finally {
    cleanup();
  }
});

test('steward report --fail-on sometimes: a usage error, exit 1', async () => {
  const r = await steward(['report', '--fail-on', 'sometimes']);
  assert.is(r.code, 1);
  assert.match(r.stderr, /fail-on/);
});

test.run();
