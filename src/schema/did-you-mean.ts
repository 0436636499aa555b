/**
 * Typo hints. Both the word and the candidates can come from files a pull request controls (an alert's tile
 * name, a template's enum values) or from a server, so the work is bounded: a hint is only looked for among
 * words of at most MAX_HINT_LENGTH characters, each comparison stops as soon as it cannot give a hint, and a
 * budget of compared characters is shared by every hint of one pass (checkSemantics, expandTemplates, the
 * name resolution of a plan). Before, one alert naming a tile of 8,000 characters took 25 s and 5 GB to say
 * it had no hint, and thousands of unknown references each compared against thousands of names.
 */

/** Longest word (and candidate) a hint is looked for: typos are in names and keys people type. */
export const MAX_HINT_LENGTH = 128;

/**
 * Characters compared (cells of the edit-distance table) by the hints of one pass: about a tenth of a second.
 * Enough for a typo among 10,000 names of 30 characters; beyond it the remaining problems get no hint.
 */
export const HINT_BUDGET_CELLS = 20_000_000;

/** What the hints of one pass may still compare; `hintBudget()` makes one, didYouMean spends it. */
export interface HintBudget {
  cells: number;
}

export function hintBudget(cells = HINT_BUDGET_CELLS): HintBudget {
  return { cells };
}

const SCRATCH = [new Int32Array(MAX_HINT_LENGTH + 1), new Int32Array(MAX_HINT_LENGTH + 1), new Int32Array(MAX_HINT_LENGTH + 1)];

/**
 * Edit distance where swapping two neighbouring letters counts as one edit (optimal string alignment):
 * "shpo" is one typo away from "shop", not two. With `max`, gives max + 1 as soon as the distance is known to
 * exceed it. Memory is three rows of the table, not the table.
 */
export function editDistance(a: string, b: string, max = Infinity, budget?: HintBudget): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const cols = b.length + 1;
  // Hints compare short words by the thousand: their rows are reused rather than allocated each time.
  const short = cols <= MAX_HINT_LENGTH + 1;
  let before = short ? SCRATCH[0]! : new Int32Array(cols);
  let prev = short ? SCRATCH[1]! : new Int32Array(cols);
  let cur = short ? SCRATCH[2]! : new Int32Array(cols);
  for (let j = 0; j < cols; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j < cols; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = prev[j - 1]! + (ai === bj ? 0 : 1);
      if (prev[j]! + 1 < v) v = prev[j]! + 1;
      if (cur[j - 1]! + 1 < v) v = cur[j - 1]! + 1;
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj && before[j - 2]! + 1 < v) v = before[j - 2]! + 1;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (budget) budget.cells -= b.length;
    // Every path to the last cell goes through this row, and costs never decrease along a path.
    if (rowMin > max) return max + 1;
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[cols - 1]!;
}

/** How far a candidate may be from the word to be offered: about a third of the longer one. */
function typoDistance(word: string, candidate: string): number {
  return Math.max(1, Math.floor(Math.max(word.length, candidate.length) / 3));
}

/**
 * The closest candidate within a typo's distance of the word (about a third of the longer of the two may
 * differ; the first of equals), or undefined. Words and candidates over MAX_HINT_LENGTH characters are not
 * compared, and once `budget` is spent no hint is given (pass one budget to every hint of a pass).
 */
export function didYouMean(word: string, candidates: readonly string[], budget: HintBudget = hintBudget()): string | undefined {
  if (word.length > MAX_HINT_LENGTH) return undefined;
  let best: string | undefined;
  let bestD = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    // Every candidate costs at least one: a long list is not free even when its names are skipped.
    if (--budget.cells < 0) return undefined;
    if (c.length > MAX_HINT_LENGTH) continue;
    const limit = Math.min(typoDistance(word, c), bestD - 1);
    if (Math.abs(w.length - c.length) > limit) continue;
    const d = editDistance(w, c.toLowerCase(), limit, budget);
    if (d <= limit) {
      bestD = d;
      best = c;
    }
  }
  return best;
}
