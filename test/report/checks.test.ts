import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkService } from '../../src/report/checks.ts';
import { buildReport } from '../../src/report/report.ts';
import type { ObservedBackup, ObservedEndpoint, ObservedPipe } from '../../src/model/cloud.ts';
import type { Finding, ObservedService } from '../../src/report/types.ts';
import type { CloudServiceSpec } from '../../src/schema/kinds.ts';
import { NOW, ORG, PROD } from './seed.ts';

const H = 3_600_000;
const iso = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * H).toISOString();

const spec = (over: Partial<CloudServiceSpec> = {}): CloudServiceSpec => ({ organizationId: ORG, serviceId: PROD, ...over });
const observed = (over: Partial<ObservedService> = {}): ObservedService => ({ pipes: [], endpoints: [], backups: [], failures: [], malformed: [], ...over });

/** A backup that finished `finishedHoursAgo` ago after `minutes`. */
function backup(id: string, finishedHoursAgo: number, over: Partial<ObservedBackup> & { minutes?: number } = {}): ObservedBackup {
  const { minutes = 30, ...rest } = over;
  return {
    id,
    status: 'done',
    startedAt: iso(finishedHoursAgo + minutes / 60),
    finishedAt: iso(finishedHoursAgo),
    durationInSeconds: minutes * 60,
    sizeInBytes: 1000,
    ...rest,
  };
}

const pipe = (name: string, over: Partial<ObservedPipe> = {}): ObservedPipe => ({
  id: `id-${name}`,
  name,
  state: 'Running',
  source: { kafka: { topics: 't' } },
  ...over,
});
const endpoint = (description: string, status?: string): ObservedEndpoint => ({
  id: `id-${description}`,
  description,
  ...(status !== undefined ? { status } : {}),
});

interface Case {
  name: string;
  spec: CloudServiceSpec;
  observed: ObservedService;
  /** Every finding, as "id severity object-name", in the report's order. */
  expect: string[];
  check?: (findings: Finding[]) => void;
}

const line = (f: Finding) => `${f.id} ${f.severity} ${f.object.name}`;
const one = (fs: Finding[], id: string) => {
  const f = fs.find((x) => x.id === id);
  assert.ok(f, `no ${id} finding`);
  return f!;
};

const cases: Case[] = [
  // ----------------------------------------------------------------- backups: age and count
  {
    name: 'stale: newest finished exactly maxAgeHours ago is still fresh',
    spec: spec({ backups: { maxAgeHours: 26 } }),
    observed: observed({ backups: [backup('b1', 50), backup('b2', 26)] }),
    expect: [],
  },
  {
    name: 'stale: a second past maxAgeHours is stale, measured from the newest finished backup',
    spec: spec({ backups: { maxAgeHours: 26 } }),
    observed: observed({ backups: [backup('b2', 26 + 1 / 3600), backup('b1', 50)] }),
    expect: ['backup.stale error b2'],
    check: (fs) => {
      const f = one(fs, 'backup.stale');
      assert.equal(f.expected, { maxAgeHours: 26 });
      assert.equal(f.actual, { finishedAt: iso(26 + 1 / 3600), ageHours: 26 });
    },
  },
  {
    name: 'zero backups: stale (none finished) and too few',
    spec: spec({ backups: { maxAgeHours: 26, minCount: 7 } }),
    observed: observed({ backups: [] }),
    expect: ['backup.stale error (none)', 'backup.too-few warning (all)'],
    check: (fs) => {
      assert.is(one(fs, 'backup.stale').actual, null);
      assert.match(one(fs, 'backup.stale').message, /no finished backup; expected one within 26h/);
      assert.equal(one(fs, 'backup.too-few').actual, { count: 0, listed: 0 });
    },
  },
  {
    name: 'zero backups and no expectations: nothing',
    spec: spec(),
    observed: observed({ backups: [] }),
    expect: [],
  },
  {
    name: 'minCount 0 accepts zero backups',
    spec: spec({ backups: { minCount: 0 } }),
    observed: observed({ backups: [] }),
    expect: [],
  },
  {
    name: 'one backup: fresh, enough for minCount 1, nothing to compare sizes with',
    spec: spec({ backups: { maxAgeHours: 26, minCount: 1, maxSizeChangePercent: 10 } }),
    observed: observed({ backups: [backup('b1', 2)] }),
    expect: [],
  },
  {
    name: 'one backup: fewer than minCount 2',
    spec: spec({ backups: { minCount: 2 } }),
    observed: observed({ backups: [backup('b1', 2)] }),
    expect: ['backup.too-few warning (all)'],
    check: (fs) => assert.match(one(fs, 'backup.too-few').message, /^1 finished backup; expected at least 2$/),
  },
  {
    name: 'too-few counts finished backups only (failed and running ones are listed but not counted)',
    spec: spec({ backups: { minCount: 3 } }),
    observed: observed({ backups: [backup('b1', 50), backup('b2', 26, { status: 'error' }), { id: 'b3', status: 'in_progress', startedAt: iso(1) }] }),
    expect: ['backup.failed error b2', 'backup.too-few warning (all)', 'backup.in-progress info b3'],
    check: (fs) => assert.equal(one(fs, 'backup.too-few').actual, { count: 1, listed: 3 }),
  },
  {
    name: 'in progress without finishedAt: info, and the newest finished one decides the age',
    spec: spec({ backups: { maxAgeHours: 26, maxDurationMinutes: 90 } }),
    observed: observed({ backups: [backup('b1', 20), { id: 'b2', status: 'in_progress', startedAt: iso(0.5) }] }),
    expect: ['backup.in-progress info b2'],
    check: (fs) => {
      const f = one(fs, 'backup.in-progress');
      assert.equal(f.actual, { status: 'in_progress', startedAt: iso(0.5), runningSeconds: 1800 });
      assert.match(f.message, /running for 30m/);
    },
  },
  {
    name: 'only a running backup: nothing finished yet is stale',
    spec: spec({ backups: { maxAgeHours: 26 } }),
    observed: observed({ backups: [{ id: 'b1', status: 'in_progress', startedAt: iso(0.1) }] }),
    expect: ['backup.stale error (none)', 'backup.in-progress info b1'],
    check: (fs) => assert.match(one(fs, 'backup.stale').message, /no finished backup among 1 listed/),
  },
  {
    name: 'no status (the seed contract has none): finishedAt means done, its absence means running',
    spec: spec({ backups: { maxAgeHours: 26, minCount: 1 } }),
    observed: observed({
      backups: [
        { id: 'b1', startedAt: iso(3), finishedAt: iso(2.5) },
        { id: 'b2', startedAt: iso(0.2) },
      ],
    }),
    expect: ['backup.in-progress info b2'],
  },
  {
    name: 'a running backup already past maxDurationMinutes is slow (still running)',
    spec: spec({ backups: { maxDurationMinutes: 90 } }),
    observed: observed({ backups: [{ id: 'b1', status: 'in_progress', startedAt: iso(2), durationInSeconds: 7200 }] }),
    expect: ['backup.slow warning b1', 'backup.in-progress info b1'],
    check: (fs) => assert.match(one(fs, 'backup.slow').message, /is still running after 2h; expected at most 1h 30m/),
  },
  {
    name: 'unknown backup status: a warning, and left out of the other checks',
    spec: spec({ backups: { minCount: 1, maxDurationMinutes: 60 } }),
    observed: observed({ backups: [backup('b1', 5), backup('b2', 2, { status: 'queued', minutes: 600 })] }),
    expect: ['backup.unknown-status warning b2'],
    check: (fs) => assert.match(one(fs, 'backup.unknown-status').message, /status "queued"/),
  },
  {
    name: 'status spelled differently (DONE, in-progress) is understood',
    spec: spec({ backups: { minCount: 1 } }),
    observed: observed({ backups: [backup('b1', 5, { status: 'DONE' }), { id: 'b2', status: 'in-progress', startedAt: iso(0.1) }] }),
    expect: ['backup.in-progress info b2'],
  },
  // ----------------------------------------------------------------- backups: failed
  {
    name: 'failed backup superseded by a later success: warning',
    spec: spec(),
    observed: observed({ backups: [backup('b1', 48, { status: 'error' }), backup('b2', 24)] }),
    expect: ['backup.failed warning b1'],
  },
  {
    name: 'failed backup with nothing good after it: error, reported even without expectations',
    spec: spec(),
    observed: observed({ backups: [backup('b1', 48), backup('b2', 24, { status: 'error' })] }),
    expect: ['backup.failed error b2'],
    check: (fs) => assert.equal(one(fs, 'backup.failed').actual, { status: 'error', startedAt: iso(24.5) }),
  },
  // ----------------------------------------------------------------- backups: duration
  {
    name: 'slow: exactly maxDurationMinutes is fine, one second more is slow',
    spec: spec({ backups: { maxDurationMinutes: 90 } }),
    observed: observed({ backups: [backup('b1', 48, { minutes: 90 }), backup('b2', 24, { minutes: 90 + 1 / 60 })] }),
    expect: ['backup.slow warning b2'],
    check: (fs) => assert.equal(one(fs, 'backup.slow').actual, { durationMinutes: 90, status: 'done' }),
  },
  {
    name: 'slow: without durationInSeconds the timestamps give the duration',
    spec: spec({ backups: { maxDurationMinutes: 60 } }),
    observed: observed({ backups: [{ id: 'b1', status: 'done', startedAt: iso(5), finishedAt: iso(2) }] }),
    expect: ['backup.slow warning b1'],
    check: (fs) => assert.match(one(fs, 'backup.slow').message, /took 3h;/),
  },
  {
    name: 'a failed backup is not also slow',
    spec: spec({ backups: { maxDurationMinutes: 1 } }),
    observed: observed({ backups: [backup('b1', 48, { status: 'error', minutes: 600 }), backup('b2', 2, { minutes: 1 })] }),
    expect: ['backup.failed warning b1'],
  },
  // ----------------------------------------------------------------- backups: size
  {
    name: 'size change exactly at maxSizeChangePercent is fine; above it is a jump; drops count too',
    spec: spec({ backups: { maxSizeChangePercent: 50 } }),
    observed: observed({
      backups: [
        backup('b1', 96, { sizeInBytes: 1000 }),
        backup('b2', 72, { sizeInBytes: 1500 }),
        backup('b3', 48, { sizeInBytes: 2251 }),
        backup('b4', 24, { sizeInBytes: 1000 }),
      ],
    }),
    expect: ['backup.size-jump warning b3', 'backup.size-jump warning b4'],
    check: (fs) => {
      const [up, down] = fs;
      assert.equal(up!.actual, { changePercent: 50.1, sizeInBytes: 2251, previousSizeInBytes: 1500, previousId: 'b2' });
      assert.equal((down!.actual as { changePercent: number }).changePercent, -55.6);
    },
  },
  {
    name: 'size: failed backups, missing sizes and zero sizes are skipped; full and incremental are compared apart',
    spec: spec({ backups: { maxSizeChangePercent: 50 } }),
    observed: observed({
      backups: [
        backup('b1', 120, { sizeInBytes: 0 }),
        backup('b2', 96, { sizeInBytes: 1000, type: 'full' }),
        backup('b3', 72, { sizeInBytes: 10, type: 'incremental' }),
        backup('b4', 48, { status: 'error', sizeInBytes: 5 }),
        backup('b5', 36, { sizeInBytes: undefined, type: 'full' }),
        backup('b6', 24, { sizeInBytes: 1100, type: 'full' }),
        backup('b7', 12, { sizeInBytes: 12, type: 'incremental' }),
      ],
    }),
    expect: ['backup.failed warning b4'],
  },
  {
    name: 'backups listed in any order are checked oldest first',
    spec: spec({ backups: { maxSizeChangePercent: 50 } }),
    observed: observed({
      backups: [backup('b3', 24, { sizeInBytes: 3000 }), backup('b1', 72, { sizeInBytes: 1000 }), backup('b2', 48, { sizeInBytes: 1000 })],
    }),
    expect: ['backup.size-jump warning b3'],
  },
  {
    name: 'missing optional backup fields (no times, no size, no duration): no crash, no finding',
    spec: spec({ backups: { maxDurationMinutes: 60, maxSizeChangePercent: 10 } }),
    observed: observed({
      backups: [
        { id: 'b1', status: 'done' },
        { id: 'b2', status: 'done', startedAt: 'not a date' },
      ],
    }),
    expect: [],
  },
  // ----------------------------------------------------------------- pipes
  {
    name: 'expected pipe missing: error; the rest of the pipes are fine',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }, { name: 'b' }] } }),
    observed: observed({ pipes: [pipe('a')] }),
    expect: ['pipe.missing error b'],
    check: (fs) => assert.equal(one(fs, 'pipe.missing').expected, { name: 'b' }),
  },
  {
    name: 'pipe in another state: error',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }] } }),
    observed: observed({ pipes: [pipe('a', { state: 'Failed' })] }),
    expect: ['pipe.state error a'],
    check: (fs) => {
      const f = one(fs, 'pipe.state');
      assert.is(f.expected, 'Running');
      assert.is(f.actual, 'Failed');
      assert.equal(f.object, { kind: 'pipe', name: 'a', id: 'id-a' });
    },
  },
  {
    name: 'state compared without regard to case',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'running' }] } }),
    observed: observed({ pipes: [pipe('a')] }),
    expect: [],
  },
  ...['Provisioning', 'Setup', 'Snapshot', 'Modifying', 'Resync', 'Starting', 'Resuming'].map((state): Case => ({
    name: `transitional state ${state}: in progress (info), not drift`,
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }] } }),
    observed: observed({ pipes: [pipe('a', { state })] }),
    expect: ['pipe.in-progress info a'],
  })),
  // The spec names where Stopping and Pausing end (Stopped, Paused): in progress only towards that state.
  ...(
    [
      ['Stopping', 'Running', 'pipe.state error a', /is Stopping, on its way to Stopped; expected Running$/],
      ['Pausing', 'Running', 'pipe.state error a', /is Pausing, on its way to Paused; expected Running$/],
      ['pausing', 'Stopped', 'pipe.state error a', /is pausing, on its way to Paused; expected Stopped$/],
      ['Resuming', 'Paused', 'pipe.state error a', /is Resuming, on its way to Running; expected Paused$/],
      ['Stopping', 'Stopped', 'pipe.in-progress info a', /is Stopping, in progress \(expected Stopped once it settles\)$/],
      ['Pausing', 'paused', 'pipe.in-progress info a', /is Pausing, in progress \(expected paused once it settles\)$/],
      ['Resuming', 'Running', 'pipe.in-progress info a', /is Resuming, in progress/],
    ] as const
  ).map(([state, declared, finding, message]): Case => ({
    name: `${state} while the file expects ${declared}: ${finding.split(' ').slice(0, 2).join(' ')}`,
    spec: spec({ pipes: { expected: [{ name: 'a', state: declared }] } }),
    observed: observed({ pipes: [pipe('a', { state })] }),
    expect: [finding],
    check: (fs) => {
      assert.match(fs[0]!.message, message);
      if (fs[0]!.id === 'pipe.state') assert.equal([fs[0]!.expected, fs[0]!.actual], [declared, state]);
    },
  })),
  {
    name: 'Stopping or Pausing without a declared state: in progress (info)',
    spec: spec({ pipes: { expected: [{ name: 'a' }, { name: 'b' }] } }),
    observed: observed({ pipes: [pipe('a', { state: 'Stopping' }), pipe('b', { state: 'Pausing' })] }),
    expect: ['pipe.in-progress info a', 'pipe.in-progress info b'],
  },
  {
    name: 'Completed is not transitional: expecting Running, it is a state finding',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }] } }),
    observed: observed({ pipes: [pipe('a', { state: 'Completed' })] }),
    expect: ['pipe.state error a'],
  },
  // A name an object has of its own was looked up as a transitional state: SETTLES_AT.constructor, an internal error.
  ...['constructor', '__proto__', 'toString'].map((state): Case => ({
    name: `a state named as an object's own member (${state}): a state steward does not know, never a crash`,
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }] } }),
    observed: observed({ pipes: [pipe('a', { state })] }),
    expect: ['pipe.state error a'],
    check: (fs) => assert.match(one(fs, 'pipe.state').message, `is ${state} (a state steward does not know); expected Running`),
  })),
  {
    name: 'a state steward does not know: a finding that says so, never a crash',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }] } }),
    observed: observed({ pipes: [pipe('a', { state: 'Hibernating' })] }),
    expect: ['pipe.state error a'],
    check: (fs) => assert.match(one(fs, 'pipe.state').message, /is Hibernating \(a state steward does not know\); expected Running/),
  },
  {
    name: 'declared state equal to an unknown state: fine',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Hibernating' }] } }),
    observed: observed({ pipes: [pipe('a', { state: 'Hibernating' })] }),
    expect: [],
  },
  {
    name: 'no state declared: unhealthy or unknown states are warnings, healthy ones pass',
    spec: spec({ pipes: { expected: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }, { name: 'e' }] } }),
    observed: observed({
      pipes: [
        pipe('a', { state: 'Failed' }),
        pipe('b', { state: 'Degraded' }),
        pipe('c', { state: 'Weird' }),
        pipe('d', { state: 'Stopped' }),
        pipe('e', { state: 'Snapshot' }),
      ],
    }),
    expect: ['pipe.state warning a', 'pipe.state warning b', 'pipe.state warning c', 'pipe.in-progress info e'],
  },
  {
    name: "no state declared: the API's Unknown, or no state at all, is a warning (it cannot pass as healthy)",
    spec: spec({ pipes: { expected: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] } }),
    observed: observed({
      pipes: [pipe('a', { state: 'Unknown' }), { name: 'b', id: 'id-b' }, pipe('c', { state: 'unknown' }), pipe('d', { state: 'Paused' })],
    }),
    expect: ['pipe.state warning a', 'pipe.state warning b', 'pipe.state warning c'],
    check: (fs) => {
      assert.match(fs[0]!.message, /^pipe "a" is Unknown \(the service does not know its state\) \(the file declares no state\)$/);
      assert.is(fs[0]!.actual, 'Unknown');
      assert.match(fs[1]!.message, /^pipe "b" reports no state \(the file declares no state\)$/);
      assert.is(fs[1]!.actual, null);
    },
  },
  {
    name: 'a pipe that reports no state, against a declared one',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }] } }),
    observed: observed({ pipes: [{ name: 'a' }] }),
    expect: ['pipe.state error a'],
    check: (fs) => {
      assert.is(one(fs, 'pipe.state').actual, null);
      assert.match(one(fs, 'pipe.state').message, /reports no state/);
    },
  },
  {
    name: 'field drift: declared scaling differs, shown as a JSON Patch from live to file',
    spec: spec({ pipes: { expected: [{ name: 'a', scaling: { replicas: 2 }, destination: { database: 'default', table: 'events' } }] } }),
    observed: observed({
      pipes: [pipe('a', { scaling: { replicas: 1, concurrency: 3 }, destination: { database: 'default', table: 'events', managedTable: true } })],
    }),
    expect: ['pipe.field-drift warning a'],
    check: (fs) => {
      const f = one(fs, 'pipe.field-drift');
      assert.equal(f.patch, [{ op: 'replace', path: '/scaling/replicas', value: 2 }]);
      assert.equal(f.expected, { scaling: { replicas: 2 }, destination: { database: 'default', table: 'events' } });
      assert.equal(f.actual, { scaling: { replicas: 1 }, destination: { database: 'default', table: 'events' } });
    },
  },
  {
    name: 'field drift: subset match ignores what the file does not declare',
    spec: spec({ pipes: { expected: [{ name: 'a', source: { kafka: { topics: 't' } }, settings: { streaming_max_insert_wait_ms: 5000 } }] } }),
    observed: observed({
      pipes: [
        pipe('a', { source: { kafka: { topics: 't', brokers: 'x:9092', consumerGroup: 'g' } }, settings: { streaming_max_insert_wait_ms: 5000, other: 1 } }),
      ],
    }),
    expect: [],
  },
  {
    name: 'field drift: a declared field the server leaves out is an add; a missing block is added whole',
    spec: spec({ pipes: { expected: [{ name: 'a', scaling: { replicas: 2 }, destination: { managedTable: true } }] } }),
    observed: observed({ pipes: [pipe('a', { scaling: { concurrency: 1 } })] }),
    expect: ['pipe.field-drift warning a'],
    check: (fs) => {
      const ops = one(fs, 'pipe.field-drift')
        .patch!.map((o) => `${o.op} ${o.path}`)
        .sort();
      assert.equal(ops, ['add /destination', 'add /scaling/replicas']);
    },
  },
  {
    name: 'field drift: credentials in the declaration are never compared',
    spec: spec({ pipes: { expected: [{ name: 'a', source: { objectStorage: { url: 'u', connectionString: 'file-side' } } }] } }),
    observed: observed({ pipes: [pipe('a', { source: { objectStorage: { url: 'u', connectionString: 'server-side' } } })] }),
    expect: [],
  },
  {
    name: 'unlisted pipes reported by default; unknown source kinds are info',
    spec: spec({ pipes: { expected: [{ name: 'a' }] } }),
    observed: observed({ pipes: [pipe('z', { state: 'Stopped' }), pipe('a'), pipe('m', { source: { snowflake: { account: 'x' } } })] }),
    expect: ['pipe.unlisted warning m', 'pipe.unlisted warning z', 'pipe.unknown-source-kind info m'],
    check: (fs) => {
      assert.equal(fs[1]!.actual, { state: 'Stopped', sourceKinds: ['kafka'] });
      assert.equal(one(fs, 'pipe.unknown-source-kind').actual, ['snowflake']);
    },
  },
  {
    name: 'reportUnlisted: false keeps unlisted pipes quiet',
    spec: spec({ pipes: { reportUnlisted: false, expected: [] } }),
    observed: observed({ pipes: [pipe('z')] }),
    expect: [],
  },
  {
    name: 'unknown source kind on an expected pipe; a known kind beside it, or no source at all, is fine',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }, { name: 'b' }, { name: 'c' }] } }),
    observed: observed({
      pipes: [
        pipe('a', { source: { azureeventgrid: {}, validateSamples: true } }),
        pipe('b', { source: { kafka: {}, newthing: {} } }),
        { name: 'c', state: 'Running' },
      ],
    }),
    expect: ['pipe.unknown-source-kind info a'],
  },
  {
    // Which one the file means cannot be told: each is checked, so a Failed one cannot hide behind a Running one
    // whatever their ids (red team round 5: the first by id was checked, and the gate passed).
    name: 'two live pipes with one name: a warning, and each is checked',
    spec: spec({ pipes: { expected: [{ name: 'a', state: 'Running' }] } }),
    observed: observed({ pipes: [pipe('a', { id: 'id-2', state: 'Failed' }), pipe('a', { id: 'id-1' })] }),
    expect: ['pipe.state error a', 'pipe.duplicate-name warning a'],
    check: (fs) => {
      assert.equal(fs[1]!.actual, { ids: ['id-1', 'id-2'] });
      assert.is(fs[0]!.object.id, 'id-2');
    },
  },
  {
    name: 'pipes with only a name (missing optional fields): no crash',
    spec: spec({ pipes: { expected: [{ name: 'a', scaling: { replicas: 1 }, source: { kafka: { topics: 't' } } }] } }),
    observed: observed({ pipes: [{ name: 'a' }, { name: 'b' }] }),
    expect: ['pipe.state warning a', 'pipe.field-drift warning a', 'pipe.unlisted warning b'],
  },
  // ----------------------------------------------------------------- endpoints
  {
    name: 'endpoint missing: error; expected status defaults to Ready',
    spec: spec({ reversePrivateEndpoints: { expected: [{ description: 'a' }, { description: 'b' }] } }),
    observed: observed({ endpoints: [endpoint('a', 'Ready')] }),
    expect: ['endpoint.missing error b'],
    check: (fs) => assert.equal(fs[0]!.expected, { description: 'b', status: 'Ready' }),
  },
  {
    name: 'endpoint status: waiting ones are warnings, others errors, no status is an error',
    spec: spec({
      reversePrivateEndpoints: {
        expected: [{ description: 'a' }, { description: 'b' }, { description: 'c' }, { description: 'd' }, { description: 'e', status: 'Provisioning' }],
      },
    }),
    observed: observed({
      endpoints: [endpoint('a', 'Pending'), endpoint('b', 'Failed'), endpoint('c'), endpoint('d', 'PendingAcceptance'), endpoint('e', 'provisioning')],
    }),
    expect: ['endpoint.status error b', 'endpoint.status error c', 'endpoint.status warning a', 'endpoint.status warning d'],
  },
  {
    name: 'unlisted endpoints are quiet by default and reported when asked',
    spec: spec({ reversePrivateEndpoints: { reportUnlisted: true, expected: [{ description: 'a' }] } }),
    observed: observed({ endpoints: [endpoint('a', 'Ready'), endpoint('x', 'Ready')] }),
    expect: ['endpoint.unlisted warning x'],
  },
  {
    name: 'unlisted endpoints default to not reported',
    spec: spec({ reversePrivateEndpoints: { expected: [] } }),
    observed: observed({ endpoints: [endpoint('x', 'Failed')] }),
    expect: [],
  },
  {
    name: 'two endpoints with one description: a warning, and each is checked',
    spec: spec({ reversePrivateEndpoints: { expected: [{ description: 'a' }] } }),
    observed: observed({ endpoints: [endpoint('a', 'Ready'), { ...endpoint('a', 'Failed'), id: 'id-b' }] }),
    expect: ['endpoint.status error a', 'endpoint.duplicate-description warning a'],
  },
  // ----------------------------------------------------------------- read failures
  {
    name: 'a list that could not be read: one error, and its checks are skipped (no false "missing")',
    spec: spec({ pipes: { expected: [{ name: 'a' }] }, reversePrivateEndpoints: { expected: [{ description: 'e' }] }, backups: { minCount: 3 } }),
    observed: observed({
      pipes: undefined,
      endpoints: undefined,
      backups: undefined,
      failures: [
        { part: 'pipes', message: 'HTTP 500' },
        { part: 'endpoints', message: 'HTTP 403' },
        { part: 'backups', message: 'timeout' },
      ],
    }),
    expect: ['read.failed error pipes', 'read.failed error endpoints', 'read.failed error backups'],
    check: (fs) => {
      assert.match(fs[0]!.message, /could not list ingest pipes: HTTP 500 \(pipe checks skipped\)/);
      assert.equal(fs[0]!.object, { kind: 'service', name: 'pipes', id: PROD });
    },
  },
  // ----------------------------------------------------------------- order
  {
    name: 'findings are ordered by severity, then service, backups, pipes, endpoints',
    spec: spec({
      backups: { maxAgeHours: 1 },
      pipes: { expected: [{ name: 'p', state: 'Running' }] },
      reversePrivateEndpoints: { expected: [{ description: 'e' }] },
    }),
    observed: observed({
      backups: [backup('b1', 5)],
      pipes: [pipe('p', { state: 'Snapshot' }), pipe('q')],
      endpoints: [],
      failures: [{ part: 'newest-backup', message: '404' }],
    }),
    expect: ['read.failed error newest-backup', 'backup.stale error b1', 'endpoint.missing error e', 'pipe.unlisted warning q', 'pipe.in-progress info p'],
  },
];

for (const c of cases) {
  test(c.name, () => {
    const findings = checkService(c.spec, c.observed, NOW);
    assert.equal(findings.map(line), c.expect);
    for (const f of findings) {
      assert.type(f.message, 'string');
      assert.ok(f.message.length > 0 && !f.message.includes('\n'), `one-line message: ${f.message}`);
    }
    c.check?.(findings);
  });
}

test('checkService does not change its inputs', () => {
  const s = spec({ pipes: { expected: [{ name: 'a', scaling: { replicas: 2 } }] }, backups: { maxAgeHours: 1, maxSizeChangePercent: 1 } });
  const o = observed({ pipes: [pipe('b'), pipe('a')], backups: [backup('b2', 3, { sizeInBytes: 5 }), backup('b1', 9)] });
  const before = JSON.stringify([s, o]);
  checkService(s, o, NOW);
  assert.is(JSON.stringify([s, o]), before);
});

test('checks never throw on odd values a server may send', () => {
  const odd = [null, 0, '', 'x', [], {}, { kafka: null }, Number.NaN];
  for (const v of odd) {
    const o = observed({
      pipes: [{ name: 'a', state: v as never, scaling: v as never, source: v as never, destination: v as never, settings: v as never }],
      endpoints: [{ description: 'e', status: v as never }],
      backups: [{ id: 'b', status: v as never, startedAt: v as never, finishedAt: v as never, sizeInBytes: v as never, durationInSeconds: v as never }],
    });
    const s = spec({
      backups: { maxAgeHours: 1, minCount: 1, maxDurationMinutes: 1, maxSizeChangePercent: 1 },
      pipes: { expected: [{ name: 'a', state: 'Running', scaling: { replicas: 1 }, source: { kafka: { topics: 't' } } }] },
      reversePrivateEndpoints: { expected: [{ description: 'e' }] },
    });
    checkService(s, o, NOW);
  }
});

test('backup times no date can hold, or in the future: no throw, never counted as fresh', () => {
  const s = spec({ backups: { maxAgeHours: 26 } });
  const CASES: Array<[string, ObservedBackup[], string[]]> = [
    ['a huge duration and no startedAt', [{ id: 'b', status: 'done', finishedAt: iso(5), durationInSeconds: 1e20 }], []],
    [
      'null durations (the schema allows them): finishedAt stands for the start, so a failure a later backup superseded is a warning',
      [
        { id: 'a', status: 'error', finishedAt: iso(10), durationInSeconds: null as never },
        { id: 'b', status: 'done', finishedAt: iso(5), durationInSeconds: null as never },
      ],
      ['backup.failed warning a'],
    ],
    [
      'a huge negative duration and no finishedAt',
      [{ id: 'b', status: 'done', startedAt: iso(5 * 24), durationInSeconds: -1e20 }],
      ['backup.stale error (none)'],
    ],
    [
      'a huge duration and no finishedAt (an end 10^12 years ahead)',
      [{ id: 'b', status: 'done', startedAt: iso(5 * 24), durationInSeconds: 1e20 }],
      ['backup.stale error (none)'],
    ],
    ['finishedAt in the future', [{ id: 'b', status: 'done', startedAt: iso(5 * 24), finishedAt: iso(-48) }], ['backup.stale error (none)']],
  ];
  for (const [name, backups, expect] of CASES) {
    const r = buildReport([{ name: 'svc', spec: s, observed: observed({ backups }) } as never], { now: NOW });
    assert.equal(r.services[0]!.findings.map(line), expect, name);
  }
});

test.run();
