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

/**
 * What `redactStrings` makes of `value`, for a caller that only serializes it as JSON: `value` itself when
 * `redact` changes none of its strings and keys, which is almost always (no secret in it), and the copy
 * otherwise. The journal writes a line per create and per send; the copy (a JSON round trip) was most of
 * a line's cost (33 µs against 4, issue 15). Serialized, both give the same text (test/shared/redact-strings).
 */
export function redactedForJson<T>(value: T, redact: (s: string) => string): T {
  return unchanged(value, redact, 0) ? value : redactStrings(value, redact);
}

/** Depth past which the check gives up and the copy decides (a journal entry is three levels deep). */
const CHECK_DEPTH = 32;

/** Whether `v` is plain JSON data (what JSON.stringify writes as it is) with nothing `redact` changes. */
function unchanged(v: unknown, redact: (s: string) => string, depth: number): boolean {
  if (typeof v === 'string') return redact(v) === v;
  if (v === null || v === undefined || typeof v === 'number' || typeof v === 'boolean') return true;
  if (typeof v !== 'object' || depth > CHECK_DEPTH) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!unchanged(v[i], redact, depth + 1)) return false;
    return true;
  }
  // A Date, a class or anything with toJSON: JSON.stringify writes what toJSON returns; the copy decides.
  const proto = Object.getPrototypeOf(v) as unknown;
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in v) return false;
  for (const k of Object.keys(v)) if (redact(k) !== k || !unchanged((v as Record<string, unknown>)[k], redact, depth + 1)) return false;
  return true;
}
