/**
 * Every string of a plain JSON value (values and keys) passed through `redact`; the value itself when none
 * changes. Pure: the state file's records are written, and compared, this way (src/apply/state.ts,
 * src/plan/alerts.ts).
 */
export function redactStrings<T>(value: T, redact: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) {
      const out = v.map(walk);
      return out.every((x, i) => x === v[i]) ? v : out;
    }
    if (v !== null && typeof v === 'object') {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        const rk = redact(k);
        const rx = walk(x);
        if (rk !== k || rx !== x) changed = true;
        out[rk] = rx;
      }
      return changed ? out : v;
    }
    return v;
  };
  return walk(value) as T;
}
