/** A MongoDB ObjectId, as HyperDX and ClickStack give ids: its first 4 bytes are the second it was made. */
const OBJECT_ID = /^[0-9a-f]{24}$/i;

/**
 * Copies of one name, oldest first: by the second their ObjectIds carry, then in the order listed. Which copy
 * stays after a race (adopted after a lost answer, kept by the duplicate check) must be the same for every
 * runner and must be the first made, or two runners can each remove the copy the other keeps. Neither API
 * promises that its list is in creation order; the ids say it to the second, and within a second the list
 * order (MongoDB's natural order, insertion order in practice) decides. Ids of another shape: list order.
 */
export function oldestFirst<T extends { id: string }>(copies: readonly T[]): T[] {
  if (copies.length < 2 || !copies.every((c) => OBJECT_ID.test(c.id))) return [...copies];
  return copies
    .map((copy, at) => ({ copy, at, second: parseInt(copy.id.slice(0, 8), 16) }))
    .sort((a, b) => a.second - b.second || a.at - b.at)
    .map((x) => x.copy);
}
