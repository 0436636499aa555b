import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readCloud, readService, type CloudServiceTarget } from '../../src/report/read.ts';
import type { ObservedBackup } from '../../src/model/cloud.ts';
import type { CloudReader } from '../../src/report/types.ts';
import { defaultSeed, ORG, PROD, PROD_SPEC, STAGING, STAGING_SPEC, type CloudData } from './seed.ts';

/**
 * An in-memory CloudReader over seed data. It records every call, keeps count of the services with a call in
 * flight (to prove the concurrency bound), and fails what `fail` names.
 */
function fakeReader(
  data: CloudData,
  opts: { delayMs?: number; fail?: (method: string, serviceId: string) => Error | undefined; getBackup?: (b: ObservedBackup) => unknown } = {},
) {
  const calls: string[] = [];
  const inFlight = new Map<string, number>();
  let maxServices = 0;
  const call = async <T>(method: string, org: string, svc: string, f: () => T): Promise<T> => {
    calls.push(`${method} ${svc}`);
    inFlight.set(svc, (inFlight.get(svc) ?? 0) + 1);
    maxServices = Math.max(maxServices, inFlight.size);
    try {
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 0));
      const err = opts.fail?.(method, svc);
      if (err) throw err;
      if (!data[org]?.[svc]) throw new Error(`HTTP 404: no service ${svc}`);
      return f();
    } finally {
      const n = inFlight.get(svc)! - 1;
      if (n === 0) inFlight.delete(svc);
      else inFlight.set(svc, n);
    }
  };
  const reader: CloudReader = {
    listIngestPipes: (org, svc) => call('listIngestPipes', org, svc, () => ({ items: structuredClone(data[org]![svc]!.pipes), malformed: [] })),
    listReversePrivateEndpoints: (org, svc) =>
      call('listReversePrivateEndpoints', org, svc, () => ({ items: structuredClone(data[org]![svc]!.endpoints), malformed: [] })),
    listBackups: (org, svc) => call('listBackups', org, svc, () => ({ items: structuredClone(data[org]![svc]!.backups), malformed: [] })),
    getBackup: (org, svc, id) =>
      call('getBackup', org, svc, () => {
        const b = data[org]![svc]!.backups.find((x) => x.id === id);
        if (!b) throw new Error(`HTTP 404: no backup ${id}`);
        return { item: (opts.getBackup ? opts.getBackup(structuredClone(b)) : structuredClone(b)) as ObservedBackup, malformed: undefined };
      }),
  };
  return { reader, calls, maxServices: () => maxServices };
}

const targets: CloudServiceTarget[] = [
  { name: 'prod-warehouse', spec: PROD_SPEC },
  { name: 'staging-warehouse', spec: STAGING_SPEC },
];

test('reads pipes, endpoints and backups of every service, and GETs the newest backup by id', async () => {
  const data = defaultSeed();
  const { reader, calls } = fakeReader(data);
  const reads = await readCloud({ reader }, targets);
  assert.equal(
    reads.map((r) => r.name),
    ['prod-warehouse', 'staging-warehouse'],
  );
  const prod = reads[0]!.observed;
  assert.equal(prod.failures, []);
  assert.is(prod.pipes!.length, 5);
  assert.is(prod.endpoints!.length, 2);
  assert.is(prod.backups!.length, 30);
  // The newest by start time is the running one, listed last in the seed.
  const newest = data[ORG]![PROD]!.backups.at(-1)!;
  assert.is(prod.newestBackupId, newest.id);
  assert.equal(
    calls.filter((c) => c.startsWith('getBackup')),
    [`getBackup ${PROD}`, `getBackup ${STAGING}`],
  );
  assert.is(calls.length, 8);
});

test('the newest backup is found by start time whatever the list order, and the GET answer replaces it', async () => {
  const data = defaultSeed();
  const backups = data[ORG]![PROD]!.backups;
  const newestId = backups.at(-1)!.id;
  data[ORG]![PROD]!.backups = [...backups].reverse().sort((a, b) => (a.id < b.id ? 1 : -1)); // scrambled
  const { reader } = fakeReader(data, { getBackup: (b) => ({ ...b, status: 'done', finishedAt: '2026-03-01T05:59:00.000Z', durationInSeconds: 1140 }) });
  const obs = await readService(reader, PROD_SPEC);
  assert.is(obs.newestBackupId, newestId);
  const fresh = obs.backups!.find((b) => b.id === newestId)!;
  assert.is(fresh.status, 'done');
  assert.is(fresh.finishedAt, '2026-03-01T05:59:00.000Z');
  assert.is(obs.backups!.length, 30);
});

test('no backups: no GET', async () => {
  const data = defaultSeed();
  data[ORG]![PROD]!.backups = [];
  const { reader, calls } = fakeReader(data);
  const obs = await readService(reader, PROD_SPEC);
  assert.equal(obs.backups, []);
  assert.is(obs.newestBackupId, undefined);
  assert.not.ok(calls.some((c) => c.startsWith('getBackup')));
});

test('services are read concurrently, never more at once than the bound', async () => {
  const data: CloudData = { [ORG]: {} };
  const many: CloudServiceTarget[] = [];
  for (let i = 0; i < 10; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    data[ORG]![id] = {
      pipes: [],
      endpoints: [],
      backups: [{ id: `b-${i}`, status: 'done', startedAt: '2026-02-28T00:00:00Z', finishedAt: '2026-02-28T00:30:00Z' }],
    };
    many.push({ name: `svc-${i}`, spec: { organizationId: ORG, serviceId: id } });
  }
  const bounded = fakeReader(data, { delayMs: 5 });
  const reads = await readCloud({ reader: bounded.reader, concurrency: 3 }, many);
  assert.is(bounded.maxServices(), 3);
  assert.equal(
    reads.map((r) => r.name),
    many.map((t) => t.name),
  );
  assert.ok(reads.every((r) => r.observed.failures.length === 0));

  const serial = fakeReader(data, { delayMs: 1 });
  await readCloud({ reader: serial.reader, concurrency: 1 }, many);
  assert.is(serial.maxServices(), 1);
});

test("one service failing becomes that service's failure; the others are read in full", async () => {
  const data = defaultSeed();
  const { reader } = fakeReader(data, { fail: (m, svc) => (svc === PROD && m === 'listIngestPipes' ? new Error('GET /ingestpipes: HTTP 500') : undefined) });
  const reads = await readCloud({ reader, concurrency: 2 }, targets);
  const prod = reads[0]!.observed;
  assert.equal(prod.failures, [{ part: 'pipes', message: 'GET /ingestpipes: HTTP 500' }]);
  assert.is(prod.pipes, undefined);
  assert.is(prod.endpoints!.length, 2);
  assert.is(prod.backups!.length, 30);
  assert.equal(reads[1]!.observed.failures, []);
  assert.is(reads[1]!.observed.pipes!.length, 2);
});

test('a service the API does not know fails all its reads, others go on', async () => {
  const { reader } = fakeReader(defaultSeed());
  const unknown: CloudServiceTarget = { name: 'ghost', spec: { organizationId: ORG, serviceId: '11111111-1111-4111-8111-111111111111' } };
  const reads = await readCloud({ reader }, [unknown, ...targets]);
  assert.equal(
    reads[0]!.observed.failures.map((f) => f.part),
    ['pipes', 'endpoints', 'backups'],
  );
  assert.equal(reads[1]!.observed.failures, []);
});

test('the newest-backup GET failing keeps the listed backups', async () => {
  const { reader } = fakeReader(defaultSeed(), { fail: (m) => (m === 'getBackup' ? new Error('HTTP 404: gone') : undefined) });
  const obs = await readService(reader, PROD_SPEC);
  assert.equal(obs.failures, [{ part: 'newest-backup', message: 'HTTP 404: gone' }]);
  assert.is(obs.backups!.length, 30);
});

test('tolerant reading: a non-list fails that read with a clear message; a non-object item is malformed, the others read; items without their key get a label', async () => {
  const list = (items: unknown[]) => ({ items, malformed: [] }) as never;
  const reader: CloudReader = {
    listIngestPipes: async () => ({ not: 'a list' }) as never,
    listReversePrivateEndpoints: async () => list([{ status: 'Ready' }, { id: 'ep-2', status: 'Ready' }]),
    listBackups: async () => list([{ status: 'done' }, 'junk']),
    getBackup: async () => undefined as never,
  };
  const obs = await readService(reader, PROD_SPEC);
  assert.equal(obs.failures, [{ part: 'pipes', message: 'expected a list of ingest pipes, got an object' }]);
  assert.equal(obs.malformed, [{ part: 'backups', position: 2, name: '(unnamed #2)', problems: ['must be an object, got a string'], kept: false }]);
  assert.equal(
    obs.backups!.map((b) => b.id),
    ['(unnamed #1)'],
  );
  assert.equal(
    obs.endpoints!.map((e) => e.description),
    ['(unnamed #1)', '(unnamed ep-2)'],
  );

  const odd: CloudReader = {
    ...reader,
    listIngestPipes: async () => list([]),
    listBackups: async () => list([{ id: 'b1', startedAt: '2026-01-01T00:00:00Z' }]),
  };
  const o2 = await readService(odd, PROD_SPEC);
  assert.equal(o2.failures, [{ part: 'newest-backup', message: 'GET backup b1: expected an object, got nothing' }]);
});

test('an aborted signal stops starting services', async () => {
  const { reader, calls } = fakeReader(defaultSeed());
  const ac = new AbortController();
  ac.abort(new Error('interrupted'));
  try {
    await readCloud({ reader, signal: ac.signal }, targets);
    assert.unreachable();
  } catch (e) {
    assert.is((e as Error).message, 'interrupted');
  }
  assert.is(calls.length, 0);
});

test.run();
