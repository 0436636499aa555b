/**
 * The service's own state (ClickHouse Cloud `Service.state`) and backup staleness: a stopped or idle service
 * takes no backups, so its old backups are `backup.paused` (info), never `backup.stale`; a running one with
 * old backups is still stale; a state that could not be read is said, and staleness stays an error. Pure
 * stage, table-driven.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkService } from '../../src/report/checks.ts';
import type { ObservedBackup } from '../../src/model/cloud.ts';
import type { ObservedService } from '../../src/report/types.ts';
import type { CloudServiceSpec } from '../../src/schema/kinds.ts';
import { NOW, ORG, PROD } from './seed.ts';

const H = 3_600_000;
const iso = (hoursAgo: number) => new Date(NOW.getTime() - hoursAgo * H).toISOString();
const spec: CloudServiceSpec = { organizationId: ORG, serviceId: PROD, backups: { maxAgeHours: 26 } };

function backup(id: string, finishedHoursAgo: number): ObservedBackup {
  return { id, status: 'done', startedAt: iso(finishedHoursAgo + 0.5), finishedAt: iso(finishedHoursAgo), durationInSeconds: 1800, sizeInBytes: 1000 };
}

const OLD = [backup('b1', 100), backup('b2', 76)];
const FRESH = [backup('b1', 30), backup('b2', 6)];

interface Case {
  name: string;
  service?: ObservedService['service'];
  failures?: ObservedService['failures'];
  backups?: ObservedBackup[];
  /** `id severity` of each finding, in order. */
  findings: string[];
  /** A pattern the message of the backup finding must match. */
  message?: RegExp;
}

const cases: Case[] = [
  { name: 'running, old backups: stale, as before', service: { state: 'running' }, findings: ['backup.stale error'] },
  { name: 'running, fresh backups: nothing', service: { state: 'running' }, backups: FRESH, findings: [] },
  {
    name: 'stopped, old backups: paused (info), not stale',
    service: { state: 'stopped' },
    findings: ['service.state info', 'backup.paused info'],
    message:
      /^newest finished backup is 76h old \(finished .*\): the service is stopped and takes no backups until it runs again \(expected within 26h while it runs\)$/,
  },
  { name: 'idle, old backups: paused', service: { state: 'idle' }, findings: ['service.state info', 'backup.paused info'] },
  { name: 'stopping, old backups: paused', service: { state: 'stopping' }, findings: ['service.state info', 'backup.paused info'] },
  {
    name: 'awaking, old backups: paused (the schedule resumes once it runs)',
    service: { state: 'awaking' },
    findings: ['service.state info', 'backup.paused info'],
  },
  {
    name: 'stopped, no backup at all: paused, not stale',
    service: { state: 'stopped' },
    backups: [],
    findings: ['service.state info', 'backup.paused info'],
    message: /^no finished backup: the service is stopped/,
  },
  { name: 'stopped, fresh backups: the state only', service: { state: 'stopped' }, backups: FRESH, findings: ['service.state info'] },
  { name: 'state in another case (Stopped): the same state', service: { state: 'Stopped' }, findings: ['service.state info', 'backup.paused info'] },
  { name: 'degraded (still takes backups): stale, and a warning', service: { state: 'degraded' }, findings: ['backup.stale error', 'service.state warning'] },
  { name: 'partially_running: stale, and a warning', service: { state: 'partially_running' }, findings: ['backup.stale error', 'service.state warning'] },
  { name: 'failed: two errors, the service and its backups', service: { state: 'failed' }, findings: ['service.state error', 'backup.stale error'] },
  {
    name: 'terminated: an error; its old backups are no separate failure',
    service: { state: 'terminated' },
    findings: ['service.state error', 'backup.paused info'],
  },
  { name: 'a state steward does not know: stale, and a warning', service: { state: 'hibernating' }, findings: ['backup.stale error', 'service.state warning'] },
  // A name an object has of its own was read as a known state (severity undefined, "the service undefined").
  ...['constructor', 'toString', '__proto__'].map((state) => ({
    name: `a state named as an object's own member (${state}): a state steward does not know`,
    service: { state },
    findings: ['backup.stale error', 'service.state warning'],
  })),
  { name: 'an answer without a state: stale, and a warning', service: {}, findings: ['backup.stale error', 'service.state warning'] },
  { name: 'a state that is no text: stale, and a warning', service: { stateSent: 3 }, findings: ['backup.stale error', 'service.state warning'] },
  {
    name: 'the service read failed (403, 404, 5xx): said, and stale stays an error',
    failures: [{ part: 'service', message: 'GET /v1/organizations/o/services/s → 403 Forbidden' }],
    findings: ['read.failed error', 'backup.stale error'],
  },
  { name: 'no service read (seed profile): stale, as before', findings: ['backup.stale error'] },
];

for (const c of cases) {
  test(c.name, () => {
    // GIVEN backups older than maxAgeHours (unless the case says otherwise) and the service as read
    const observed: ObservedService = {
      ...(c.service ? { service: c.service } : {}),
      pipes: [],
      endpoints: [],
      backups: c.backups ?? OLD,
      failures: c.failures ?? [],
      malformed: [],
    };
    // WHEN the service is checked
    const findings = checkService(spec, observed, NOW);
    // THEN
    assert.equal(
      findings.map((f) => `${f.id} ${f.severity}`),
      c.findings,
    );
    if (c.message) assert.match(findings.find((f) => f.id.startsWith('backup.'))!.message, c.message);
  });
}

test('the service finding names the state, and a failed read says the state is unknown', () => {
  const base = { pipes: [], endpoints: [], backups: OLD, malformed: [] };
  const stopped = checkService(spec, { ...base, service: { state: 'stopped' }, failures: [] }, NOW);
  const s = stopped.find((f) => f.id === 'service.state')!;
  assert.equal([s.object, s.expected, s.actual], [{ kind: 'service', name: 'state', id: PROD }, { state: 'running' }, 'stopped']);
  assert.match(s.message, /the service is stopped \(state stopped\): it takes no scheduled backups until it runs again/);
  const paused = stopped.find((f) => f.id === 'backup.paused')!;
  assert.equal(paused.actual, { finishedAt: iso(76), ageHours: 76, serviceState: 'stopped' });

  const failed = checkService(spec, { ...base, failures: [{ part: 'service', message: 'HTTP 503' }] }, NOW);
  assert.match(failed[0]!.message, /^could not read the service: HTTP 503 \(its state is unknown, so backups are checked as for a running service\)$/);
});

test.run();
