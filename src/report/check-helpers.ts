/** Small helpers the report checks share. */

export { groupBy } from '../shared/arrays.ts';

/** Names the API spells in any case compare equal. */
export const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
export const isIn = (list: readonly string[], s: string | undefined) => s !== undefined && list.some((x) => same(x, s));
