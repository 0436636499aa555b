/**
 * How deep a server's answer may nest. Dashboards, alerts and cloud objects are a few levels deep (a tile's
 * config about ten); anything past this limit is refused as a bad response before a stage that recurses
 * (schema checks, normalization, JSON.stringify) could overflow the stack.
 */
export const MAX_RESPONSE_DEPTH = 100;

/** Whether a parsed JSON value nests deeper than `limit` arrays/objects. Iterative: any depth is safe. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
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
