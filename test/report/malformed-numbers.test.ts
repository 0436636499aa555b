/**
 * A backup's size or duration that is no size or duration (-75 GB, 1.5 bytes, 2^53 bytes, -60 s) passes
 * the schema ("number") but is malformed: before, a negative size was a size change of "-115.4%" and the
 * next backup one of "+32562160970033.3%" against "2 B". Now the backup is kept without that member and is
 * a read.malformed-item finding naming it (one record per backup, with the client's own problems); no
 * size-jump or slow finding is made of it, and the review is incomplete. Pure stages, table-driven; the
 * built CLI against the emulator at the end.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readItem, readItems } from '../../src/clients/cloud-items.ts';
import { defaultSeedFor } from '../../src/emulator/index.ts';
import { checkService } from '../../src/report/checks.ts';
import { backupNumberProblems } from '../../src/report/numbers.ts';
import { readService } from '../../src/report/read.ts';
import { buildReport } from '../../src/report/report.ts';
import type { CloudReader, ObservedService, Report } from '../../src/report/types.ts';
import type { CloudServiceSpec } from '../../src/schema/kinds.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const ORG = '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31';
const SVC = '0b6a2c1e-6d3f-4e8a-9b7c-5a1d2e3f4a5b';
const NOW = new Date('2026-11-20T12:00:00.000Z');
const SPEC = {
  organizationId: ORG,
  serviceId: SVC,
  backups: { maxAgeHours: 48, maxSizeChangePercent: 50, maxDurationMinutes: 90 },
} as unknown as CloudServiceSpec;

test('backupNumberProblems: what a size and a duration may be', () => {
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['sane numbers', { sizeInBytes: 488_966_997_293, durationInSeconds: 1320.5 }, []],
    ['zero is a size and a duration', { sizeInBytes: 0, durationInSeconds: 0 }, []],
    ['the largest exact size', { sizeInBytes: Number.MAX_SAFE_INTEGER }, []],
    ['absent members', {}, []],
    ['not numbers (the schema says so, not this)', { sizeInBytes: 'big', durationInSeconds: null }, []],
    ['a negative size', { sizeInBytes: -75_000_000_000 }, ['sizeInBytes -75000000000']],
    ['a fraction of a byte', { sizeInBytes: 1.5 }, ['sizeInBytes 1.5']],
    ['a size past 2^53 - 1', { sizeInBytes: 2 ** 53 }, ['sizeInBytes 9007199254740992']],
    ['an infinite size', { sizeInBytes: Infinity }, ['sizeInBytes Infinity']],
    ['NaN bytes', { sizeInBytes: NaN }, ['sizeInBytes NaN']],
    ['a negative duration', { durationInSeconds: -60 }, ['durationInSeconds -60']],
    ['an infinite duration', { durationInSeconds: -Infinity }, ['durationInSeconds -Infinity']],
    // Finite, but one decimal of it (round1) is Infinity: null in report.json, "null – 4.7e+303h" in report.md.
    ['a duration past what a date spans', { durationInSeconds: 1e308 }, ['durationInSeconds 1e+308']],
    ['the longest duration believed', { durationInSeconds: 8.64e12 }, []],
    ['both', { sizeInBytes: -1, durationInSeconds: NaN }, ['sizeInBytes -1', 'durationInSeconds NaN']],
  ];
  for (const [name, item, want] of cases) {
    const got = backupNumberProblems(item);
    assert.equal(
      got.map((p) => `${p.field} ${String(p.value)}`),
      want,
      name,
    );
    for (const p of got) assert.match(p.message, p.field === 'sizeInBytes' ? /whole number of bytes, 0 or more/ : /number of seconds, 0 or more/, name);
  }
  assert.equal(backupNumberProblems('not an object'), []);
});

/** Finished backups a day apart, the newest last; sizes around 450 GB, 20 minutes each. */
function backups(n = 4): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const day = String(15 + i).padStart(2, '0');
    return {
      id: `b${i + 1}`,
      status: 'done',
      startedAt: `2026-11-${day}T05:00:00.000Z`,
      finishedAt: `2026-11-${day}T05:20:00.000Z`,
      sizeInBytes: 450_000_000_000 + i * 1_000_000_000,
      durationInSeconds: 1200,
    };
  });
}

/** A reader as the cloud client is one (each item checked against the schema), or a looser one. */
function reader(list: unknown[], opts: { loose?: boolean; got?: (id: string) => unknown } = {}): CloudReader {
  const got = opts.got ?? ((id: string) => list.find((b) => (b as { id?: string }).id === id));
  return {
    listIngestPipes: async () => readItems('clickPipe', []) as never,
    listReversePrivateEndpoints: async () => readItems('clickPipesReversePrivateEndpoint', []) as never,
    listBackups: async () => (opts.loose ? { items: structuredClone(list), malformed: [] } : readItems('clickhouseCloudBackup', list)) as never,
    getBackup: async (_o, _s, id) =>
      (opts.loose ? { item: structuredClone(got(id)), malformed: undefined } : readItem('clickhouseCloudBackup', got(id))) as never,
  };
}

interface Case {
  name: string;
  /** Changes to the backups b1..b4 (b4 is the newest: it is fetched by id too). */
  change: (bs: Record<string, unknown>[]) => void;
  /** What the GET of the newest answers, when not what the list says. */
  got?: (b: Record<string, unknown>) => Record<string, unknown>;
  loose?: boolean;
  /** The malformed records: part, name, position, kept, problems. */
  malformed: unknown[];
  /** Each size-jump and slow finding: id and backup. */
  findings: string[];
}

const NEG = 'sizeInBytes: must be a whole number of bytes, 0 or more, got -75000000000';
const cases: Case[] = [
  {
    name: 'a negative size of the newest backup (was backup.size-jump -115.4%)',
    change: (bs) => void (bs[3]!['sizeInBytes'] = -75_000_000_000),
    malformed: [
      ['backups', 'b4', 4, true, [NEG]],
      ['newest-backup', 'b4', undefined, true, [NEG]],
    ],
    findings: [],
  },
  {
    name: 'a negative size of an older backup (was -115.4%, then +32562160970033.3% against 2 B)',
    change: (bs) => {
      bs[1]!['sizeInBytes'] = -75_000_000_000;
      bs[2]!['sizeInBytes'] = 1.5;
    },
    malformed: [
      ['backups', 'b2', 2, true, [NEG]],
      ['backups', 'b3', 3, true, ['sizeInBytes: must be a whole number of bytes, 0 or more, got 1.5']],
    ],
    findings: [],
  },
  {
    name: 'a size past 2^53 - 1 bytes',
    change: (bs) => void (bs[2]!['sizeInBytes'] = 2 ** 60),
    malformed: [['backups', 'b3', 3, true, ['sizeInBytes: must be a whole number of bytes, 0 or more, got 1152921504606847000']]],
    findings: [],
  },
  {
    name: 'a real jump beside a malformed size is still a jump, against the last good size',
    change: (bs) => {
      bs[1]!['sizeInBytes'] = -1;
      bs[2]!['sizeInBytes'] = 900_000_000_000;
    },
    malformed: [['backups', 'b2', 2, true, ['sizeInBytes: must be a whole number of bytes, 0 or more, got -1']]],
    findings: ['backup.size-jump b3'],
  },
  {
    name: 'a negative duration: the backup took finishedAt - startedAt (20 minutes, not slow)',
    change: (bs) => void (bs[1]!['durationInSeconds'] = -60),
    malformed: [['backups', 'b2', 2, true, ['durationInSeconds: must be a number of seconds, 0 or more, got -60']]],
    findings: [],
  },
  {
    name: 'a bad status and a bad size in one backup are one record, with both problems',
    change: (bs) => {
      bs[1]!['status'] = 3;
      bs[1]!['sizeInBytes'] = -75_000_000_000;
    },
    malformed: [['backups', 'b2', 2, true, ['status: must be string, got 3', NEG]]],
    findings: [],
  },
  {
    name: 'a backup left out whole before it does not shift the place named',
    change: (bs) => {
      (bs as unknown[])[0] = 'not a backup';
      bs[2]!['sizeInBytes'] = -75_000_000_000;
    },
    malformed: [
      ['backups', '(unnamed #1)', 1, false, ['the item: must be object, got "not a backup"']],
      ['backups', 'b3', 3, true, [NEG]],
    ],
    findings: [],
  },
  {
    name: 'the newest backup listed well but fetched with a negative size',
    change: () => {},
    got: (b) => ({ ...b, sizeInBytes: -75_000_000_000 }),
    malformed: [['newest-backup', 'b4', undefined, true, [NEG]]],
    findings: [],
  },
  {
    name: 'a looser reader (no schema check): NaN and infinite numbers too',
    loose: true,
    change: (bs) => {
      bs[1]!['sizeInBytes'] = NaN;
      bs[2]!['durationInSeconds'] = Infinity;
      bs[3]!['sizeInBytes'] = -75_000_000_000;
    },
    malformed: [
      ['backups', 'b2', 2, true, ['sizeInBytes: must be a whole number of bytes, 0 or more, got NaN']],
      ['backups', 'b3', 3, true, ['durationInSeconds: must be a number of seconds, 0 or more, got Infinity']],
      ['backups', 'b4', 4, true, [NEG]],
      ['newest-backup', 'b4', undefined, true, [NEG]],
    ],
    findings: [],
  },
];

for (const c of cases) {
  test(`malformed numbers: ${c.name}`, async () => {
    const list = backups();
    c.change(list);
    const newest = list[3]!;
    const got = c.got ? (id: string) => (id === 'b4' ? c.got!(newest) : list.find((b) => b['id'] === id)) : undefined;
    const observed = await readService(reader(list, { ...(c.loose ? { loose: true } : {}), ...(got ? { got } : {}) }), { organizationId: ORG, serviceId: SVC });
    assert.equal(
      observed.malformed.map((m) => [m.part, m.name, m.position, m.kept, m.problems]),
      c.malformed,
    );
    const findings = checkService(SPEC, observed, NOW);
    assert.equal(
      findings.filter((f) => f.id === 'backup.size-jump' || f.id === 'backup.slow').map((f) => `${f.id} ${f.object.name}`),
      c.findings,
      findings.map((f) => f.message).join('\n'),
    );
    // One read.malformed-item per record, an error; no message quotes a percentage of a malformed size.
    const bad = findings.filter((f) => f.id === 'read.malformed-item');
    assert.is(bad.length, c.malformed.length);
    for (const f of findings) assert.not.match(f.message, /-115|32562160970033|-69\.8 GiB/, f.message);
    const report = buildReport([{ name: 'svc', spec: SPEC, observed }], { now: NOW });
    assert.is(report.summary.malformedItems, c.malformed.length);
    for (const b of report.services[0]!.backups) {
      if (b.sizeInBytes !== undefined) assert.ok(Number.isSafeInteger(b.sizeInBytes) && b.sizeInBytes >= 0, JSON.stringify(b));
      if (b.durationSeconds !== undefined) assert.ok(Number.isFinite(b.durationSeconds) && b.durationSeconds >= 0, JSON.stringify(b));
    }
  });
}

test('the checks on their own (observed by hand) make no size-jump or slow finding of a malformed number', () => {
  const list = backups();
  list[1]!['sizeInBytes'] = -75_000_000_000;
  list[2]!['sizeInBytes'] = 1.5;
  list[3]!['durationInSeconds'] = -1e9;
  const observed = { pipes: [], endpoints: [], backups: list, failures: [], malformed: [] } as unknown as ObservedService;
  const findings = checkService({ ...SPEC, backups: { maxSizeChangePercent: 50, maxDurationMinutes: 10 } } as CloudServiceSpec, observed, NOW);
  assert.equal(
    findings.filter((f) => f.id === 'backup.size-jump').map((f) => f.object.name),
    [],
  );
  // b4 took 20 minutes by its times (over 10), not -1e9 seconds.
  assert.equal(
    findings.filter((f) => f.id === 'backup.slow').map((f) => [f.object.name, f.actual]),
    ['b1', 'b2', 'b3', 'b4'].map((n) => [n, { durationMinutes: 20, status: 'done' }]),
  );
});

test('steward report (built CLI) against the emulator: a negative backup size is a malformed item, not a size change; exit 1', async () => {
  const seed = structuredClone(defaultSeedFor('seed')) as { organizations: { services: { name: string; backups: Record<string, unknown>[] }[] }[] };
  const prod = seed.organizations.flatMap((o) => o.services).find((s) => s.name === 'prod-warehouse')!;
  const done = prod.backups.filter((b) => b['status'] === 'done' && typeof b['sizeInBytes'] === 'number');
  const target = done[0]!;
  target['sizeInBytes'] = -75_000_000_000;
  const x = await examplesWithEmulator({ data: seed as never });
  try {
    const r = await steward(['report', '--out', 'reports'], { cwd: x.dir, env: x.env, spawn: true });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, /error: 1 item malformed, so the review is incomplete/);
    const id = String(target['id']);
    assert.match(
      r.stdout,
      new RegExp(
        `error\\s+read\\.malformed-item\\s+the server sent backup "${id}" malformed: sizeInBytes: must be a whole number of bytes, 0 or more, got -75000000000; checked without that member`,
      ),
    );
    assert.not.match(r.stdout, /-1\d\d(\.\d)?% against|-69\.8 GiB/);
    const report = JSON.parse(readFileSync(join(x.dir, 'reports', 'report.json'), 'utf8')) as Report;
    const p = report.services.find((s) => s.name === 'prod-warehouse')!;
    assert.equal(
      p.malformedItems.map((m) => [m.part, m.name, m.kept, m.problems]),
      [['backups', id, true, ['sizeInBytes: must be a whole number of bytes, 0 or more, got -75000000000']]],
    );
    assert.not.ok(p.findings.some((f) => f.id === 'backup.size-jump' && (f.actual as { sizeInBytes?: number }).sizeInBytes! < 0));
    assert.is(p.backups.find((b) => b.id === id)?.sizeInBytes, undefined);
  } finally {
    await x.cleanup();
  }
});

test.run();
