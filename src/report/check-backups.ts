/** Backup checks: age, count, failures, in-progress, duration, size jumps. Pure; `now` is the only clock. */
import type { CloudServiceSpec } from '../schema/kinds.ts';
import { formatBytes, formatDuration, formatTime, round1 } from './format.ts';
import { backupStart, orderBackups, parseTime, shiftedByDuration } from './order.ts';
import type { ObservedBackup } from '../model/cloud.ts';
import type { BackupSummary, Finding, FindingObject } from './types.ts';
import { isByteCount, isSeconds } from './numbers.ts';

type BackupStatus = BackupSummary['status'];

/**
 * `done`, `error` and `in_progress` as the API spells them (any case, `-` or `_`). A backup without a status
 * (the seed contract has none) is done when it has `finishedAt` and in progress otherwise.
 */
function backupStatus(b: ObservedBackup): BackupStatus {
  if (b.status === undefined || b.status === null) return parseTime(b.finishedAt) !== undefined ? 'done' : 'in_progress';
  const s = String(b.status).toLowerCase().replace(/-/g, '_');
  return s === 'done' || s === 'error' || s === 'in_progress' ? s : 'unknown';
}

/** Seconds a backup took (or has been running): durationInSeconds, else finishedAt - startedAt, else now - startedAt while running. */
function backupDuration(b: ObservedBackup, now: Date): number | undefined {
  // A duration that is no time span (-60, NaN) is not one (the reader reports it: src/report/numbers.ts).
  if (isSeconds(b.durationInSeconds)) return b.durationInSeconds;
  const start = parseTime(b.startedAt);
  if (start === undefined) return undefined;
  const end = parseTime(b.finishedAt) ?? (backupStatus(b) === 'in_progress' ? now.getTime() : undefined);
  return end === undefined ? undefined : Math.max(0, (end - start) / 1000);
}

/** How far ahead of this machine's clock a service's may run before its times are not believed. */
const CLOCK_SKEW_MS = 5 * 60_000;

/** When a finished backup finished: finishedAt, else its start plus its duration. */
function backupEnd(b: ObservedBackup): number | undefined {
  const finished = parseTime(b.finishedAt);
  if (finished !== undefined) return finished;
  const start = parseTime(b.startedAt);
  return start === undefined ? undefined : shiftedByDuration(start, b, 1);
}

/** The backups as the report's charts and tables show them, oldest first. */
export function summarizeBackups(backups: readonly ObservedBackup[], now: Date): BackupSummary[] {
  return orderBackups(backups).map((b) => {
    const d = backupDuration(b, now);
    const out: BackupSummary = { id: b.id, status: backupStatus(b) };
    const start = backupStart(b);
    if (start !== undefined) out.startedAt = new Date(start).toISOString();
    const end = parseTime(b.finishedAt);
    if (end !== undefined) out.finishedAt = new Date(end).toISOString();
    if (isByteCount(b.sizeInBytes)) out.sizeInBytes = b.sizeInBytes;
    if (d !== undefined) out.durationSeconds = round1(d);
    if (typeof b.type === 'string') out.type = b.type;
    return out;
  });
}

function backupObject(b: ObservedBackup): FindingObject {
  return { kind: 'backup', name: b.id, id: b.id };
}

function backupLabel(b: ObservedBackup): string {
  const start = backupStart(b);
  return start === undefined ? `backup ${b.id}` : `backup of ${formatTime(new Date(start).toISOString())}`;
}

type BackupExpectations = NonNullable<CloudServiceSpec['backups']>;

/**
 * @param pausedBy the service's state when it is one in which it takes no backups (stopped, idle…; see
 *   check-service.ts): backups older than `maxAgeHours` are then `backup.paused` (info), not `backup.stale`.
 */
export function checkBackups(exp: BackupExpectations, list: readonly ObservedBackup[], now: Date, pausedBy?: string): Finding[] {
  const out: Finding[] = [];
  const backups = orderBackups(list);
  const status = new Map(backups.map((b) => [b, backupStatus(b)] as const));
  const done = backups.filter((b) => status.get(b) === 'done');

  // backup.stale: the newest finished backup, by when it finished.
  if (exp.maxAgeHours !== undefined) {
    let newest: { b: ObservedBackup; end: number } | undefined;
    let future = 0;
    for (const b of done) {
      const end = backupEnd(b);
      // A backup that says it finishes later than now proves nothing about now: it is not counted as fresh.
      if (end !== undefined && end > now.getTime() + CLOCK_SKEW_MS) future++;
      else if (end !== undefined && (newest === undefined || end >= newest.end)) newest = { b, end };
    }
    // A service that is not running (stopped, idle…) takes no backups: its old backups are paused, not stale.
    // The API does not say since when it is stopped, so the age is shown as it is.
    const stale = (f: Omit<Finding, 'id' | 'severity'>): Finding =>
      pausedBy === undefined
        ? { id: 'backup.stale', severity: 'error', ...f }
        : {
            id: 'backup.paused',
            severity: 'info',
            ...f,
            actual: f.actual === null ? { serviceState: pausedBy } : { ...(f.actual as object), serviceState: pausedBy },
            message: `${f.message.replace(/; expected [^;]*$/, '')}: the service is ${pausedBy} and takes no backups until it runs again (expected within ${exp.maxAgeHours}h while it runs)`,
          };
    if (!newest) {
      out.push(
        stale({
          object: { kind: 'backup', name: '(none)' },
          expected: { maxAgeHours: exp.maxAgeHours },
          actual: null,
          message: `no finished backup${backups.length ? ` among ${backups.length} listed` : ''}${future ? ` (${future} finish in the future, by the service's clock)` : ''}; expected one within ${exp.maxAgeHours}h`,
        }),
      );
    } else {
      const ageHours = (now.getTime() - newest.end) / 3_600_000;
      // Exactly maxAgeHours old is still fresh: the limit is "older than".
      if (ageHours > exp.maxAgeHours) {
        out.push(
          stale({
            object: backupObject(newest.b),
            expected: { maxAgeHours: exp.maxAgeHours },
            actual: { finishedAt: new Date(newest.end).toISOString(), ageHours: round1(ageHours) },
            message: `newest finished backup is ${round1(ageHours)}h old (finished ${formatTime(new Date(newest.end).toISOString())}); expected under ${exp.maxAgeHours}h`,
          }),
        );
      }
    }
  }

  // backup.too-few: only finished backups can be restored, so only they count.
  if (exp.minCount !== undefined && done.length < exp.minCount) {
    out.push({
      id: 'backup.too-few',
      severity: 'warning',
      object: { kind: 'backup', name: '(all)' },
      expected: { minCount: exp.minCount },
      actual: { count: done.length, listed: backups.length },
      message: `${done.length} finished backup${done.length === 1 ? '' : 's'}${backups.length !== done.length ? ` (${backups.length} listed)` : ''}; expected at least ${exp.minCount}`,
    });
  }

  const newestDoneStart = done.length ? backupStart(done[done.length - 1]!) : undefined;
  for (const b of backups) {
    const s = status.get(b)!;
    const duration = backupDuration(b, now);

    if (s === 'error') {
      // A failure that a later successful backup superseded is a warning; one with nothing good after it is an error.
      const start = backupStart(b);
      const superseded = newestDoneStart !== undefined && start !== undefined && newestDoneStart > start;
      out.push({
        id: 'backup.failed',
        severity: superseded ? 'warning' : 'error',
        object: backupObject(b),
        expected: { status: 'done' },
        actual: { status: b.status ?? null, startedAt: b.startedAt ?? null },
        message: `${backupLabel(b)} failed${superseded ? ' (a later backup succeeded)' : ' and no later backup succeeded'}`,
      });
    } else if (s === 'in_progress') {
      out.push({
        id: 'backup.in-progress',
        severity: 'info',
        object: backupObject(b),
        actual: { status: b.status ?? null, startedAt: b.startedAt ?? null, ...(duration !== undefined ? { runningSeconds: round1(duration) } : {}) },
        message: `${backupLabel(b)} is in progress${duration !== undefined ? ` (running for ${formatDuration(duration)})` : ''}`,
      });
    } else if (s === 'unknown') {
      out.push({
        id: 'backup.unknown-status',
        severity: 'warning',
        object: backupObject(b),
        expected: { status: ['done', 'error', 'in_progress'] },
        actual: { status: b.status },
        message: `${backupLabel(b)} has status ${JSON.stringify(b.status)}, which steward does not know; it is left out of the other backup checks`,
      });
    }

    // backup.slow: finished backups over the limit, and running ones already past it.
    if (exp.maxDurationMinutes !== undefined && duration !== undefined && (s === 'done' || s === 'in_progress') && duration > exp.maxDurationMinutes * 60) {
      out.push({
        id: 'backup.slow',
        severity: 'warning',
        object: backupObject(b),
        expected: { maxDurationMinutes: exp.maxDurationMinutes },
        actual: { durationMinutes: round1(duration / 60), status: s },
        message: `${backupLabel(b)} ${s === 'done' ? 'took' : 'is still running after'} ${formatDuration(duration)}; expected at most ${formatDuration(exp.maxDurationMinutes * 60)}`,
      });
    }
  }

  // backup.size-jump: consecutive finished backups of the same type (a full backup after incrementals is not a jump).
  if (exp.maxSizeChangePercent !== undefined) {
    const previous = new Map<string, ObservedBackup>();
    for (const b of done) {
      // Only sizes that are sizes (-75 GB, 1.5 bytes are not: the reader reports them, src/report/numbers.ts).
      if (!isByteCount(b.sizeInBytes)) continue;
      const type = typeof b.type === 'string' ? b.type : '';
      const prev = previous.get(type);
      previous.set(type, b);
      if (!prev || !isByteCount(prev.sizeInBytes) || prev.sizeInBytes === 0) continue;
      const change = ((b.sizeInBytes - prev.sizeInBytes) / prev.sizeInBytes) * 100;
      if (Math.abs(change) > exp.maxSizeChangePercent) {
        out.push({
          id: 'backup.size-jump',
          severity: 'warning',
          object: backupObject(b),
          expected: { maxSizeChangePercent: exp.maxSizeChangePercent },
          actual: { changePercent: round1(change), sizeInBytes: b.sizeInBytes, previousSizeInBytes: prev.sizeInBytes, previousId: prev.id },
          message: `${backupLabel(b)} is ${formatBytes(b.sizeInBytes)}, ${change > 0 ? '+' : ''}${round1(change)}% against the previous ${formatBytes(prev.sizeInBytes)}; expected within ±${exp.maxSizeChangePercent}%`,
        });
      }
    }
  }
  return out;
}
