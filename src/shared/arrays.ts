/**
 * Array helpers for data of any length. `a.push(...b)` and `Math.max(...b)` pass every element as an
 * argument, and V8 throws "Maximum call stack size exceeded" beyond about 120,000 of them: a server's list,
 * a glob's matches or a file's documents can be that long (docs/security.md: bounded work on any input).
 */

/** Appends every item of `items` to `target` (in order); returns `target`. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const x of items) target.push(x);
  return target;
}

/** The least of `values`; `Infinity` when there is none (as `Math.min()`). */
export function minOf(values: Iterable<number>): number {
  let m = Infinity;
  for (const v of values) if (v < m || Number.isNaN(v)) m = v;
  return m;
}

/** The greatest of `values`; `-Infinity` when there is none (as `Math.max()`). */
export function maxOf(values: Iterable<number>): number {
  let m = -Infinity;
  for (const v of values) if (v > m || Number.isNaN(v)) m = v;
  return m;
}

/** The items of a list by key, each group in list order. */
export function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = out.get(k);
    if (group) group.push(item);
    else out.set(k, [item]);
  }
  return out;
}
