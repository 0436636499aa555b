import { getHeapStatistics } from 'node:v8';

/**
 * Whether JSON carries the value unchanged: strings, finite numbers other than -0, booleans, null, arrays
 * and plain objects only (JSON.parse reads `1e999` as Infinity and YAML has .nan, .inf and -0, which JSON
 * would write as null and 0). An explicit stack: any depth is safe.
 */
export function isExactJson(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return false;
      continue;
    }
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
      continue;
    }
    return false;
  }
  return true;
}

/**
 * Heap bytes JSON.parse takes at most, measured on Node 20: per object or array opened (an empty `{}` takes
 * 64 with its slot, an array nested in an array 58), and per member or element more (`,` and `:`).
 */
const HEAP_PER_CONTAINER = 64;
const HEAP_PER_SLOT = 16;

/**
 * Heap bytes per body byte at worst (every byte opens an array, and two for the text): a body whose worst
 * case fits in what is free is parsed without counting (a 28 MB list with Node's usual 4 GiB heap).
 */
const WORST_HEAP_PER_BYTE = HEAP_PER_CONTAINER + 2;

/**
 * Whether `JSON.parse` of a body would fit in `free` bytes of heap; when not, what it would need. The
 * size limit is a tenth of the heap (src/cli/deps.ts), which holds for real lists (a dashboard list takes
 * 1.6 bytes of heap per byte) but not for JSON a hostile server chooses: `{},` takes 64 bytes per 3, and a
 * 400 MiB body of it ran Node out of heap after ten minutes, with a native stack trace (red team round 10,
 * F1), and so did a saved plan of 192 MiB of it given to `show` or `apply` (round 16). Counted without
 * decoding (one pass, no allocation), every `{` and `[` as a container and every `,` and `:` as a slot: an overestimate (those inside strings count too), plus two bytes per byte for the text.
 */
export function parseRoom(body: Uint8Array, free: number = freeHeap()): { values: number; need: number; free: number } | undefined {
  if (body.length * WORST_HEAP_PER_BYTE <= free) return undefined;
  let containers = 0;
  let slots = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === 0x7b || c === 0x5b) containers++;
    else if (c === 0x2c || c === 0x3a) slots++;
  }
  const need = body.length * 2 + containers * HEAP_PER_CONTAINER + slots * HEAP_PER_SLOT;
  return need > free ? { values: containers + slots, need, free: Math.max(0, free) } : undefined;
}

/** A byte count as the heap messages give it: whole MiB, rounded up (`3 MiB`). */
export const mib = (n: number): string => `${Math.ceil(n / 1048576).toLocaleString('en-US')} MiB`;

/** Bytes the heap may still grow by before Node stops with "heap out of memory". */
export function freeHeap(): number {
  const h = getHeapStatistics();
  return h.heap_size_limit - h.used_heap_size;
}
