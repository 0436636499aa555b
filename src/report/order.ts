import type { ObservedBackup } from '../model/cloud.ts';

/** An ISO 8601 date or date-time: `T` or a space between, seconds and fractions optional, `Z` or an offset optional. */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * Milliseconds since the epoch, or undefined for a missing or unparseable timestamp. Only ISO 8601 is read
 * (the API's `date-time`), and a time without an offset is UTC, as the API means it: Date.parse read one as
 * this machine's local time (the same backup 14 hours staler in Kiritimati than in CI), took `1` for 2001 and
 * `2026-02-30` for March 2nd.
 */
export function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = ISO_TIME.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((x) => (x === undefined ? undefined : Number(x)));
  const fraction = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > daysIn(y!, mo!) || h! > 23 || mi! > 59 || s! > 59) return undefined;
  const offsetMinutes = m[9] === undefined ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11] ?? 0));
  if (m[9] !== undefined && (Number(m[10]) > 23 || Number(m[11] ?? 0) > 59)) return undefined;
  const utc = new Date(0);
  utc.setUTCFullYear(y!, mo! - 1, d!);
  utc.setUTCHours(h!, mi!, s!, fraction);
  return utc.getTime() - offsetMinutes * 60_000;
}

/** Days in a month (1-12) of a year, any year (Date.UTC reads years 0-99 as 1900-1999). */
function daysIn(year: number, month: number): number {
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return last.getUTCDate();
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
