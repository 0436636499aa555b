/**
 * A backup whose status the server sent in a shape the schema refuses (a number, an object) is kept
 * without that member, as every malformed item is. A backup without a status reads as done when it has
 * finishedAt (the seed contract has none): the failed or running backup was counted as a fresh finished
 * one, so backup.stale and backup.failed went unsaid. It is a backup of an unknown status instead.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readItem, readItems } from '../../src/clients/cloud-items.ts';
import { readService } from '../../src/report/read.ts';
import { checkService } from '../../src/report/checks.ts';
import type { CloudReader } from '../../src/report/types.ts';
import type { CloudServiceSpec } from '../../src/schema/kinds.ts';

const ORG = '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31';
const SVC = '0b6a2c1e-6d3f-4e8a-9b7c-5a1d2e3f4a5b';
const NOW = new Date('2026-11-20T12:00:00.000Z');
const SPEC = { organizationId: ORG, serviceId: SVC, backups: { maxAgeHours: 24 } } as unknown as CloudServiceSpec;

function reader(backups: unknown[], got: (id: string) => unknown = (id) => backups.find((b) => (b as { id?: string }).id === id)): CloudReader {
  const empty = async () => readItems('clickPipe', []) as never;
  return {
    listIngestPipes: empty,
    listReversePrivateEndpoints: async () => readItems('clickPipesReversePrivateEndpoint', []) as never,
    listBackups: async () => readItems('clickhouseCloudBackup', backups) as never,
    getBackup: async (_o, _s, id) => readItem('clickhouseCloudBackup', got(id)) as never,
  };
}

const old = { id: 'b-old', status: 'done', startedAt: '2026-11-10T00:00:00.000Z', finishedAt: '2026-11-10T01:00:00.000Z' };

for (const [name, status] of [
  ['a number', 3],
  ['an object', { value: 'error' }],
  ['a list', ['error']],
] as const) {
  for (const where of ['an older backup in the list', 'the newest backup, in the list and in its GET'] as const) {
    test(`a backup whose status is ${name} (${where}) is no finished backup: its status is unknown`, async () => {
      const bad = { id: 'b-bad', status, startedAt: '2026-11-20T00:00:00.000Z', finishedAt: '2026-11-20T01:00:00.000Z' };
      // As an older one: the newest is a good, finished backup that is stale anyway.
      const list =
        where === 'an older backup in the list' ? [{ ...bad, startedAt: '2026-11-01T00:00:00.000Z', finishedAt: '2026-11-01T01:00:00.000Z' }, old] : [old, bad];
      const observed = await readService(reader(list), { organizationId: ORG, serviceId: SVC });
      const findings = checkService(SPEC, observed, NOW);
      const ids = findings.map((f) => `${f.id} ${f.object.name}`);
      assert.ok(ids.includes('read.malformed-item b-bad'), ids.join('\n'));
      assert.ok(ids.includes('backup.unknown-status b-bad'), ids.join('\n'));
      // The newest finished backup is b-old, 10 days old: stale (before, b-bad counted as finished an hour ago).
      const stale = findings.find((f) => f.id === 'backup.stale');
      assert.ok(stale, ids.join('\n'));
      assert.is(stale!.object.name, 'b-old');
      const unknown = findings.find((f) => f.id === 'backup.unknown-status')!;
      assert.match(unknown.message, /malformed/);
    });
  }
}

test('the newest backup listed as done but whose GET (its body without an id) sends a bad status is not counted as finished', async () => {
  const fresh = { id: 'b-new', status: 'done', startedAt: '2026-11-20T00:00:00.000Z', finishedAt: '2026-11-20T01:00:00.000Z' };
  const { id: _id, ...body } = { ...fresh, status: 7 };
  const observed = await readService(
    reader([old, fresh], (id) => (id === 'b-new' ? body : old)),
    { organizationId: ORG, serviceId: SVC },
  );
  const findings = checkService(SPEC, observed, NOW);
  const ids = findings.map((f) => `${f.id} ${f.object.name}`);
  assert.ok(ids.includes('backup.unknown-status b-new'), ids.join('\n'));
  assert.is(findings.find((f) => f.id === 'backup.stale')?.object.name, 'b-old', ids.join('\n'));
});

test('a backup kept without some other member (a bad size) keeps its status', async () => {
  const list = [{ ...old, id: 'b-new', startedAt: '2026-11-20T00:00:00.000Z', finishedAt: '2026-11-20T01:00:00.000Z', sizeInBytes: 'big' }, old];
  const observed = await readService(reader(list), { organizationId: ORG, serviceId: SVC });
  const findings = checkService(SPEC, observed, NOW);
  const ids = findings.map((f) => `${f.id} ${f.object.name}`);
  assert.ok(ids.includes('read.malformed-item b-new'), ids.join('\n'));
  assert.not.ok(
    ids.some((i) => i.startsWith('backup.')),
    ids.join('\n'),
  );
});

test.run();
