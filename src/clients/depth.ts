/**
 * How deep a server's answer may nest. Dashboards, alerts and cloud objects are a few levels deep (a tile's
 * config about ten); anything past this limit is refused as a bad response before a stage that recurses
 * (schema checks, normalization, JSON.stringify) could overflow the stack.
 */
export const MAX_RESPONSE_DEPTH = 100;

/** Limits up to which `nestsDeeperThan` recurses (the call stack holds far more than this many frames). */
const RECURSION_LIMIT = 1000;

/**
 * Whether a parsed JSON value nests deeper than `limit` arrays/objects. Any depth is safe: recursion stops
 * one level past the limit, and limits beyond RECURSION_LIMIT take an explicit stack. The recursive walk
 * allocates nothing per node (issue 15: a 10,000-dashboard list is ~1 million nodes, walked on every plan).
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  return limit <= RECURSION_LIMIT ? deeper(value, 1, limit) : deeperStack(value, limit);
}

/** Whether `v` (an array or object at `depth`) or anything in it is deeper than `limit`. */
function deeper(v: object, depth: number, limit: number): boolean {
  if (depth > limit) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const c: unknown = v[i];
      if (c !== null && typeof c === 'object' && deeper(c, depth + 1, limit)) return true;
    }
    return false;
  }
  // for-in: own enumerable keys of a parsed value (an inherited enumerable one could only refuse more).
  for (const k in v) {
    const c = (v as Record<string, unknown>)[k];
    if (c !== null && typeof c === 'object' && deeper(c, depth + 1, limit)) return true;
  }
  return false;
}

function deeperStack(value: object, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    for (const c of children) if (c !== null && typeof c === 'object') stack.push([c, depth + 1]);
  }
  return false;
}
