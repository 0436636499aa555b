import type { BackupSummary } from '../report/types.ts';
import { maxOf, minOf } from '../shared/arrays.ts';

/** One point of a backup chart: when the backup started and its value (undefined: nothing to plot). */
export interface ChartPoint {
  id: string;
  /** Milliseconds since the epoch; undefined when the backup has no start time. */
  t: number | undefined;
  value: number | undefined;
  status: BackupSummary['status'];
}

/** Backup sizes in bytes, oldest first. Only finished backups have a meaningful size. */
export function sizeSeries(backups: readonly BackupSummary[]): ChartPoint[] {
  return backups.map((b) => ({ id: b.id, t: time(b.startedAt), value: b.status === 'done' ? b.sizeInBytes : undefined, status: b.status }));
}

/**
 * Backup durations in seconds, oldest first: a running backup has the time so far, and a failed one the time
 * it ran before failing (a failed backup of 7 minutes is not a 0 s backup).
 */
export function durationSeries(backups: readonly BackupSummary[]): ChartPoint[] {
  return backups.map((b) => ({
    id: b.id,
    t: time(b.startedAt),
    value: b.status === 'done' || b.status === 'in_progress' || b.status === 'error' ? b.durationSeconds : undefined,
    status: b.status,
  }));
}

/** Which chart a backup finding is about: sizes, durations, or neither (its own mark shows it). */
export function chartOfFinding(findingId: string): 'size' | 'duration' | undefined {
  if (findingId === 'backup.size-jump') return 'size';
  if (findingId === 'backup.slow') return 'duration';
  return undefined;
}

/**
 * Short, distinct x-axis labels: `MM-DD` where one backup a day, `MM-DD HH:MM` where a day has several
 * (a repeated label would merge points), `?` numbered where the start is unknown.
 */
export function axisLabels(backups: readonly BackupSummary[]): string[] {
  const day = (b: BackupSummary) => (b.startedAt ? b.startedAt.slice(5, 10) : undefined);
  const perDay = new Map<string, number>();
  for (const b of backups) {
    const d = day(b);
    if (d !== undefined) perDay.set(d, (perDay.get(d) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  return backups.map((b, i) => {
    const d = day(b);
    if (d === undefined) return `?${i + 1}`;
    let label = (perDay.get(d) ?? 0) > 1 ? `${d} ${b.startedAt!.slice(11, 16)}` : d;
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    if (n > 1) label = `${label} #${n}`;
    return label;
  });
}

const BARS = '▁▂▃▄▅▆▇█';

/** Backups drawn in sparklines and charts: the newest this many (one character or point each; a list is unbounded). */
export const MAX_DRAWN_BACKUPS = 120;

/**
 * A one-line text chart: one character per point, scaled between the smallest and largest value so that a
 * jump shows; `·` where there is nothing to plot (a failed backup).
 */
export function sparkline(values: readonly (number | undefined)[]): string {
  const present = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (present.length === 0) return values.map(() => '·').join('');
  const min = minOf(present);
  const max = maxOf(present);
  return values
    .map((v) => {
      if (v === undefined || !Number.isFinite(v)) return '·';
      if (max === min) return BARS[3];
      return BARS[Math.min(BARS.length - 1, Math.floor(((v - min) / (max - min)) * BARS.length))];
    })
    .join('');
}

/** A "nice" axis maximum at or above `v`, counted in `unit`s (GiB, hours…): 1, 2 or 5 times a power of ten of them. */
export function niceMaxIn(v: number, unit: number): number {
  return niceMax(v / unit) * unit;
}

/** The unit a byte axis is counted in: the largest power of 1024 not above `max`. */
export function byteUnit(max: number): number {
  let u = 1;
  while (max >= u * 1024 && u < 1024 ** 5) u *= 1024;
  return u;
}

/** The unit a duration axis (seconds) is counted in: hours from two hours up, else minutes. */
export function durationUnit(max: number): number {
  return max >= 7200 ? 3600 : 60;
}

/**
 * Labels for the backups findings are about: when the backup started, else the start of its id. Indexed
 * once per service: a search of the list per finding took minutes for 50,000 failed backups among 100,000.
 */
export function backupLabeller(backups: readonly BackupSummary[]): (id: string | undefined, fallback: string) => string {
  const byId = new Map<string, BackupSummary>();
  for (const b of backups) if (!byId.has(b.id)) byId.set(b.id, b);
  return (id, fallback) => {
    const b = id === undefined ? undefined : byId.get(id);
    if (b?.startedAt) return b.startedAt.slice(0, 16).replace('T', ' ');
    return id ? id.slice(0, 8) : fallback;
  };
}

/** A "nice" axis maximum at or above `v`: 1, 2 or 5 times a power of ten. */
function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function time(iso: string | undefined): number | undefined {
  if (iso === undefined) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
}
