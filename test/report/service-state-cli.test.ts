/**
 * `steward report` (the built CLI) against the emulator, reading the service's state under
 * `cloud.api: clickhouse-cloud`: the default seed's staging-warehouse has a newest backup 40 h old. Running,
 * that is `backup.stale`; stopped or idle, it is `backup.paused` (info); when the service GET fails (403,
 * 404, 500) the report is still written, says the state is unknown, keeps `backup.stale` and exits 1. The
 * seed profile has no service read (seed document 001), so it reports `backup.stale` and never asks.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultSeedFor, DEFAULT_ORGANIZATION_ID, DEFAULT_SERVICE_IDS } from '../../src/emulator/index.ts';
import type { SeedData } from '../../src/emulator/types.ts';
import type { Report } from '../../src/report/types.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { startProxy, type ProxyAnswer } from '../helpers/proxy.ts';

const STAGING = DEFAULT_SERVICE_IDS['staging-warehouse'];
const STAGING_YAML = `apiVersion: steward/v1
kind: CloudService
metadata: { name: staging-warehouse }
spec:
  organizationId: ${DEFAULT_ORGANIZATION_ID}
  serviceId: ${STAGING}
  backups: { maxAgeHours: 26 }
  pipes: { reportUnlisted: false }
`;

function seedWithStaging(state: string): SeedData {
  const seed = structuredClone(defaultSeedFor('seed')) as SeedData;
  const svc = seed.organizations![0]!.services!.find((s) => s.id === STAGING)!;
  svc.state = state;
  return seed;
}

async function report(opts: {
  state?: string;
  api: 'seed' | 'clickhouse-cloud';
  serviceAnswer?: ProxyAnswer;
}): Promise<{ code: number; stderr: string; report: Report; servicePaths: string[] }> {
  const x = await examplesWithEmulator({ data: seedWithStaging(opts.state ?? 'running') });
  const proxy = opts.serviceAnswer
    ? await startProxy(x.emu.url, { intercept: (_req, path) => (path.endsWith(`/services/${STAGING}`) ? opts.serviceAnswer : undefined) })
    : undefined;
  try {
    writeFileSync(join(x.dir, 'cloud', 'staging.yaml'), STAGING_YAML);
    const f = join(x.dir, 'steward.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('\n  cloud:\n', `\n  cloud:\n    api: ${opts.api}\n`));
    const env = proxy ? { ...x.env, STEWARD_CLOUD_URL: proxy.url } : x.env;
    const r = await steward(['report', '--out', 'reports', '--format', 'json'], { cwd: x.dir, env });
    const servicePaths = x.emu
      .requests()
      .map((q) => q.path)
      .filter((p) => /\/services\/[^/]+$/.test(p))
      .sort();
    return { code: r.code ?? -1, stderr: r.stderr, report: JSON.parse(r.stdout) as Report, servicePaths };
  } finally {
    await proxy?.close();
    await x.cleanup();
  }
}

const staging = (r: Report) => r.services.find((s) => s.serviceId === STAGING)!;
const ids = (r: Report) => staging(r).findings.map((f) => `${f.id} ${f.severity}`);

test('clickhouse-cloud, staging running with a 40 h old backup: backup.stale, as before', async () => {
  const r = await report({ api: 'clickhouse-cloud' });
  assert.is(r.code, 0, r.stderr);
  assert.equal(ids(r.report), ['backup.stale error']);
  assert.is(staging(r.report).state, 'running');
  assert.equal(
    r.servicePaths,
    [
      `/v1/organizations/${DEFAULT_ORGANIZATION_ID}/services/${DEFAULT_SERVICE_IDS['prod-warehouse']}`,
      `/v1/organizations/${DEFAULT_ORGANIZATION_ID}/services/${STAGING}`,
    ].sort(),
  );
});

for (const state of ['stopped', 'idle']) {
  test(`clickhouse-cloud, staging ${state}: backup.paused (info) and the state, no backup.stale`, async () => {
    const r = await report({ api: 'clickhouse-cloud', state });
    assert.is(r.code, 0, r.stderr);
    assert.equal(ids(r.report), ['service.state info', 'backup.paused info']);
    assert.is(staging(r.report).state, state);
    const paused = staging(r.report).findings.find((f) => f.id === 'backup.paused')!;
    assert.match(paused.message, new RegExp(`^newest finished backup is 40h old .*: the service is ${state} and takes no backups until it runs again`));
  });
}

test('seed profile (no service read in its document): backup.stale, and the service is never asked', async () => {
  const r = await report({ api: 'seed', state: 'stopped' });
  assert.is(r.code, 0, r.stderr);
  assert.equal(ids(r.report), ['backup.stale error']);
  assert.is(staging(r.report).state, undefined);
  assert.equal(r.servicePaths, []);
});

for (const [status, error] of [
  [403, 'the API key has no access to this service'],
  [404, 'service not found'],
  [500, 'internal error'],
] as const) {
  test(`clickhouse-cloud, the service GET answers ${status}: the report is written, the state unknown, backup.stale kept, exit 1`, async () => {
    const r = await report({
      api: 'clickhouse-cloud',
      state: 'stopped',
      serviceAnswer: { status, body: JSON.stringify({ status, error, requestId: '5f0f6c1e-3d2b-4c1a-9e8f-7a6b5c4d3e2f' }) },
    });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, /1 read failed, so the review is incomplete/);
    assert.not.match(r.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(ids(r.report), ['read.failed error', 'backup.stale error']);
    const failed = staging(r.report).findings[0]!;
    assert.match(
      failed.message,
      new RegExp(`^could not read the service: .*${status}.*\\(its state is unknown, so backups are checked as for a running service\\)$`),
    );
    assert.equal(
      staging(r.report).readFailures.map((f) => f.part),
      ['service'],
    );
    assert.is(staging(r.report).state, undefined);
  });
}

test.run();
