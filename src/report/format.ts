/** Small, locale-independent formatting shared by the checks' messages and the renderers. */

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** 1536 -> "1.5 KiB"; three significant digits at most. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  let v = Math.abs(bytes);
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = u === 0 || v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${bytes < 0 ? '-' : ''}${v.toFixed(digits)} ${UNITS[u]}`;
}

/** 5400 -> "1h 30m", 75 -> "1m 15s", 42 -> "42s". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return String(seconds);
  const s = Math.round(Math.abs(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const sign = seconds < 0 ? '-' : '';
  if (h > 0) return `${sign}${h}h${m ? ` ${m}m` : ''}`;
  if (m > 0) return `${sign}${m}m${sec ? ` ${sec}s` : ''}`;
  return `${sign}${sec}s`;
}

/** Rounds to one decimal for display and for the report's numbers (stable goldens). */
export function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** "2026-03-01T06:00:00.000Z" -> "2026-03-01 06:00 UTC"; anything unparseable is returned as given. */
export function formatTime(iso: string | undefined): string {
  if (iso === undefined) return '-';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
