import { setUnique } from './object.ts';

/**
 * A copy of a plain JSON value with every string passed through `redact`, keys too (a renderer may wrap a
 * key's text over two lines, where a redaction of the finished text would no longer see it; red team, round
 * 3). Keys that redact to the same text are kept apart (setUnique). Used where a value becomes a file or a
 * name (import, the state file's records) and where those records are compared (src/plan/alerts.ts).
 */
export function redactStrings<T>(value: T, redact: (s: string) => string): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value), (_k, v: unknown) => {
    if (typeof v === 'string') return redact(v);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return redactKeys(v as Record<string, unknown>, redact);
    return v;
  }) as T;
}

/** The object itself when no key changes under `redact`; else a copy with redacted keys (setUnique). */
function redactKeys(o: Record<string, unknown>, redact: (k: string) => string): Record<string, unknown> {
  const keys = Object.keys(o);
  if (keys.every((k) => redact(k) === k)) return o;
  const out: Record<string, unknown> = {};
  for (const k of keys) setUnique(out, redact(k), o[k]);
  return out;
}
