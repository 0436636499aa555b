/** A MongoDB ObjectId, as HyperDX and ClickStack give ids: its first 4 bytes are the second it was made. */
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** ObjectId counters are 3 bytes and start anywhere: a step back of more than half the range is a wrap. */
const COUNTER_RANGE = 0x1000000;

/**
 * Copies of one name, oldest first: by the second their ObjectIds carry; within a second, by the counter when
 * the same server process made both (the next 5 bytes, its random value, are equal); then in the order listed.
 * Which copy stays after a race (adopted after a lost answer, kept by the duplicate check) must be the same for
 * every runner and must be the first made, or two runners can each remove the copy the other keeps. Neither
 * API promises that its list is in creation order, nor the same order to two runners listing at different
 * times; the ids say it to the second, and for one process to the id. Across processes in one second the list
 * order (MongoDB's natural order, insertion order in practice) decides. Ids of another shape: list order.
 */
export function oldestFirst<T extends { id: string }>(copies: readonly T[]): T[] {
  if (copies.length < 2 || !copies.every((c) => OBJECT_ID.test(c.id))) return [...copies];
  return copies
    .map((copy, at) => ({
      copy,
      at,
      second: parseInt(copy.id.slice(0, 8), 16),
      process: copy.id.slice(8, 18).toLowerCase(),
      counter: parseInt(copy.id.slice(18), 16),
    }))
    .sort((a, b) => a.second - b.second || (a.process === b.process ? counterOrder(a.counter, b.counter) : 0) || a.at - b.at)
    .map((x) => x.copy);
}

/** Negative when counter `a` came before `b` (one process, one second), allowing for one wrap. */
function counterOrder(a: number, b: number): number {
  if (a === b) return 0;
  const ahead = (b - a + COUNTER_RANGE) % COUNTER_RANGE;
  return ahead < COUNTER_RANGE / 2 ? -1 : 1;
}
