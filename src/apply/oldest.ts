/** A MongoDB ObjectId, as HyperDX and ClickStack give ids: its first 4 bytes are the second it was made. */
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** ObjectId counters are 3 bytes and start anywhere: the counters of one process may wrap. */
const COUNTER_RANGE = 0x1000000;

interface Copy<T> {
  copy: T;
  at: number;
  second: number;
  process: string;
  counter: number;
}

/**
 * Copies of one name, oldest first: by the second their ObjectIds carry; within a second, by the counter when
 * the same server process made both (the next 5 bytes, its random value, are equal); then in the order listed.
 * Which copy stays after a race (adopted after a lost answer, kept by the duplicate check) must be the same for
 * every runner and must be the first made, or two runners can each remove the copy the other keeps. Neither
 * API promises that its list is in creation order, nor the same order to two runners listing at different
 * times; the ids say it to the second, and for one process to the id. Across processes in one second the list
 * order (MongoDB's natural order, insertion order in practice) decides. Ids of another shape: list order.
 *
 * Within a second the copies keep the places the list gave them, and each process's copies are put in those of
 * its places in counter order: a total order whatever the sort, the same for a list and any part of it. A
 * comparator that put one process's copies by counter and others' by list order was no order at all when the
 * list mixed processes (counter says X before Z, the list Z before Y before X): the sort's result then depended
 * on the order it was given, and two runners given the list in two orders kept two different copies, each
 * deleting the other's (red team, round 11).
 */
export function oldestFirst<T extends { id: string }>(copies: readonly T[]): T[] {
  if (copies.length < 2 || !copies.every((c) => OBJECT_ID.test(c.id))) return [...copies];
  const sorted: Copy<T>[] = copies
    .map((copy, at) => ({
      copy,
      at,
      second: parseInt(copy.id.slice(0, 8), 16),
      process: copy.id.slice(8, 18).toLowerCase(),
      counter: parseInt(copy.id.slice(18), 16),
    }))
    .sort((a, b) => a.second - b.second || a.at - b.at);
  for (let start = 0; start < sorted.length;) {
    let end = start + 1;
    while (end < sorted.length && sorted[end]!.second === sorted[start]!.second) end++;
    byCounterInPlace(sorted, start, end);
    start = end;
  }
  return sorted.map((x) => x.copy);
}

/** Within sorted[start, end) (one second), each process's copies into its own places, in counter order. */
function byCounterInPlace<T>(sorted: Copy<T>[], start: number, end: number): void {
  const places = new Map<string, number[]>();
  for (let i = start; i < end; i++) {
    const p = places.get(sorted[i]!.process);
    if (p) p.push(i);
    else places.set(sorted[i]!.process, [i]);
  }
  for (const at of places.values()) {
    if (at.length < 2) continue;
    const ordered = counterOrder(at.map((i) => sorted[i]!));
    at.forEach((i, k) => (sorted[i] = ordered[k]!));
  }
}

/**
 * One process's copies of one second in the order it made them: by counter, starting after the widest gap
 * between two counters going round the range (a wrap: ffffff came before 000001). Equal counters (the same id
 * listed twice) keep their places.
 */
function counterOrder<T>(group: Copy<T>[]): Copy<T>[] {
  const up = [...group].sort((a, b) => a.counter - b.counter || a.at - b.at);
  let from = 0;
  let widest = up[0]!.counter + COUNTER_RANGE - up[up.length - 1]!.counter;
  for (let k = 1; k < up.length; k++) {
    const gap = up[k]!.counter - up[k - 1]!.counter;
    if (gap > widest) [widest, from] = [gap, k];
  }
  return [...up.slice(from), ...up.slice(0, from)];
}
