import pMap from 'p-map';

/**
 * Runs fn over items with at most `limit` at once; results in input order. After a failure or an abort no
 * new item starts; those in flight finish (p-map: a well-kept pool instead of a third hand-written one).
 */
export function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  return pMap(items, fn, { concurrency: Math.max(1, Math.floor(limit)), ...(signal ? { signal } : {}) });
}
