import type { ObservedBackup } from '../model/cloud.ts';

/** Milliseconds since the epoch, or undefined for a missing or unparseable timestamp. */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : t;
}

/** The largest time a Date holds, in ms either side of the epoch: beyond it toISOString throws. */
const MAX_TIME_MS = 8.64e15;

/** `at` moved by a backup's duration, or undefined when the duration is not a time span or the result no date. */
export function shiftedByDuration(at: number, b: ObservedBackup, sign: 1 | -1): number | undefined {
  const d = b.durationInSeconds;
  if (typeof d !== 'number' || !Number.isFinite(d) || d < 0) return undefined;
  const t = at + sign * d * 1000;
  return Math.abs(t) <= MAX_TIME_MS ? t : undefined;
}

/** When a backup began, as well as can be told: startedAt, else finishedAt minus its duration, else finishedAt. */
export function backupStart(b: ObservedBackup): number | undefined {
  const started = parseTime(b.startedAt);
  if (started !== undefined) return started;
  const finished = parseTime(b.finishedAt);
  if (finished === undefined) return undefined;
  // A server's duration is any number or null: one that is no time span, or that no date can hold, is not
  // used (finishedAt stands for the start, as without one), never a crash.
  return shiftedByDuration(finished, b, -1) ?? finished;
}

/**
 * Backups oldest first. The API does not say how it orders its list, so the report orders by start time;
 * backups without any timestamp keep their list order and come first (they cannot be placed in time), and
 * ties break on id so that the order is deterministic.
 */
export function orderBackups<T extends ObservedBackup>(backups: readonly T[]): T[] {
  return backups
    .map((b, i) => ({ b, i, t: backupStart(b) }))
    .sort((x, y) => {
      if (x.t === undefined || y.t === undefined) return x.t === y.t ? x.i - y.i : x.t === undefined ? -1 : 1;
      return x.t - y.t || (x.b.id < y.b.id ? -1 : x.b.id > y.b.id ? 1 : x.i - y.i);
    })
    .map((x) => x.b);
}

/** The newest backup (latest start), or undefined for an empty list. */
export function newestBackup<T extends ObservedBackup>(backups: readonly T[]): T | undefined {
  const ordered = orderBackups(backups);
  return ordered[ordered.length - 1];
}
