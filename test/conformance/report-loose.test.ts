/**
 * The loose spots of the ClickHouse Cloud spec (docs/profiles.md): it marks no member required, so a real
 * server may leave out what the report keys on. Each case is served as the smallest answer the spec allows,
 * and the report must stand: label what has no name, skip what cannot be fetched, and say which read it
 * could not use (never a crash, never a stack trace).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { formatViolations, usePrism } from '../helpers/prism.ts';
import { cloudProject, runReport, SVC } from './cloud.ts';

const test = suite('conformance: ClickHouse Cloud loose spots');
// Prism with only what the spec requires: nothing at all, so every body is `{}` (no `result`).
const [bare] = usePrism(test, [{ spec: 'clickhouse-cloud-2026-07-31', dynamic: true, seed: 1, jsf: { requiredOnly: true } }]);

test('bodies without `result` (allowed: the envelope requires nothing): each read fails alone, the report is written', async () => {
  const s = bare.server;
  s.clear();
  const { code, stderr, report } = await runReport(cloudProject('clickhouse-cloud'), s.url);
  await s.settle();
  assert.equal(s.violations(), [], formatViolations(s.violations()));
  assert.is(code, 1);
  assert.match(stderr, /4 reads failed, so the review is incomplete/);
  assert.not.match(stderr, /\n\s+at /, 'no stack trace');
  const svc = report.services[0]!;
  // The service itself too (its state): unknown, so backups are checked as for a running service.
  assert.equal(
    svc.readFailures.map((f) => f.part),
    ['service', 'pipes', 'endpoints', 'backups'],
  );
  for (const f of svc.readFailures) assert.match(f.message, /: result: is required but missing$/);
});

/** Answers the five reads with the smallest items the real spec allows. */
async function minimalCloud(bodies: Record<string, unknown>): Promise<{ url: string; paths: string[]; close: () => Promise<void> }> {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    paths.push(path);
    // The service itself (`…/services/{serviceId}`, its state): `{result: {}}` unless a case says otherwise.
    const all: Record<string, unknown> = { [`/services/${SVC}`]: { result: {} }, ...bodies };
    const key = Object.keys(all).find((k) => path.endsWith(k));
    res.writeHead(key ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(key ? all[key] : { status: 404, error: 'not found' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, paths, close: () => new Promise((r) => server.close(() => r())) };
}

test('items without name, description, id, status or times: labelled, checked, never fetched by a missing id', async () => {
  const cloud = await minimalCloud({
    '/clickpipes': { result: [{}, { id: 'a7c1d0d6-0000-4000-8000-000000000001', state: 'Running' }] },
    '/clickpipesReversePrivateEndpoints': { result: [{}] },
    '/backups': { result: [{}, { status: 'done' }] },
  });
  try {
    const { code, stderr, report } = await runReport(cloudProject('clickhouse-cloud'), cloud.url);
    assert.is(code, 0, stderr);
    const svc = report.services[0]!;
    assert.equal(svc.readFailures, []);
    // A service without a state (the spec requires none): said, and backups checked as for a running one.
    assert.ok(
      svc.findings.some((f) => f.id === 'service.state' && f.severity === 'warning' && /state is unknown: the answer has no state/.test(f.message)),
      JSON.stringify(svc.findings),
    );
    assert.equal(
      svc.pipes.map((p) => p.name),
      ['(unnamed #1)', '(unnamed a7c1d0d6-0000-4000-8000-000000000001)'],
    );
    // The expected pipe and endpoint are missing; the unnamed ones are unlisted.
    assert.ok(svc.findings.some((f) => /pipe "my_postgres_pipe" is not on the service/.test(f.message)));
    assert.ok(svc.findings.some((f) => /reverse private endpoint "My reverse private endpoint" is not on the service/.test(f.message)));
    assert.ok(svc.findings.some((f) => /\(unnamed #1\)/.test(f.message)));
    // No backup has an id, so none is fetched on its own.
    assert.not.ok(
      cloud.paths.some((p) => /\/backups\/./.test(p)),
      cloud.paths.join('\n'),
    );
    assert.is(svc.backups.length, 2);
  } finally {
    await cloud.close();
  }
});

test('a member of the wrong type makes its item malformed, with its path (types are still checked); the rest is read', async () => {
  const cloud = await minimalCloud({
    '/clickpipes': { result: [{ name: 42 }, { name: 'ok', state: 'Running' }] },
    '/clickpipesReversePrivateEndpoints': { result: [] },
    '/backups': { result: [] },
  });
  try {
    const { code, stderr, report } = await runReport(cloudProject('clickhouse-cloud'), cloud.url);
    assert.is(code, 1);
    assert.match(stderr, /1 item malformed, so the review is incomplete/);
    const svc = report.services[0]!;
    assert.equal(svc.readFailures, []);
    assert.equal(svc.malformedItems, [{ part: 'pipes', position: 1, name: '(unnamed #1)', problems: ['name: must be string, got 42'], kept: true }]);
    assert.ok(svc.findings.some((f) => f.id === 'read.malformed-item' && f.object.kind === 'pipe'));
    assert.equal(
      svc.pipes.map((p) => p.name),
      ['(unnamed #1)', 'ok'],
    );
  } finally {
    await cloud.close();
  }
});

test.run();
