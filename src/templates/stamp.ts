/**
 * Stamping one template entry: every reference replaced, within a budget on the size of what all the
 * instances of a project stamp. Counting stamps (MAX_STAMPED) is not enough: the size of each stamp is the
 * template's times what its parameters bring, so two small files could still ask for gigabytes. A list
 * parameter of 16,000 items used 16,000 times (a 224 KB file) took validate 35 s and 2.2 GB; a template of
 * 1,200 tiles stamped for 1,200 items (155 KB) 850 MB, and four times that runs Node out of memory (red team,
 * round 12). The size is counted as the stamp is made, and a value is counted before it is copied or written
 * into a text, so no more than the budget is ever built.
 */
import type { Token } from './references.ts';
import { substituteString } from './references.ts';
import { escapeSegment as esc } from '../shared/pointer.ts';

/**
 * What all instances of a project may stamp, in characters of the stamped documents' JSON text (about; escapes
 * are not counted): 64 MiB, twice the 10,000 dashboards of 12 tiles that bench/ plans (about 3 KB each), or
 * 2,000 stamps of the largest example template. Validate holds about four times that in memory.
 */
export const MAX_STAMPED_SIZE = 64 * 1024 * 1024;

/** What is left of the budget; one for a whole expansion. */
export interface StampBudget {
  left: number;
}

/** Thrown by stampValue when the budget runs out; expandTemplates turns it into a problem at the instance. */
export class StampBudgetExceeded extends Error {
  constructor() {
    super('template stamps over budget');
  }
}

type Lookup = (ns: 'params' | 'self', name: string) => unknown;

function spend(budget: StampBudget, n: number): void {
  budget.left -= n;
  if (budget.left < 0) throw new StampBudgetExceeded();
}

/** About the length of a value's JSON text (strings without their escapes). */
export function jsonSize(v: unknown): number {
  if (typeof v === 'string') return v.length + 2;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + jsonSize(x) + 1, 2);
  if (v && typeof v === 'object') return Object.entries(v).reduce((n: number, [k, x]) => n + k.length + 4 + jsonSize(x), 2);
  return String(v).length;
}

/** The length of the text a string with references becomes, without making it. */
function textLength(s: string, tokens: readonly Token[], value: Lookup): number {
  let n = s.length;
  for (const t of tokens) {
    n -= t.end - t.start;
    if (t.type === 'escape') n += 2;
    else if (t.type === 'ref') n += String(value(t.ns, t.name)).length;
  }
  return n;
}

/**
 * A template value with every reference replaced (`tokens` keyed by the pointer the template check walked),
 * spending the budget on what it makes. A list parameter is copied into each place it is used.
 * @throws {StampBudgetExceeded} before the budget would be passed.
 */
export function stampValue(v: unknown, pointer: string, tokens: Map<string, Token[]>, value: Lookup, budget: StampBudget): unknown {
  if (typeof v === 'string') {
    const t = tokens.get(pointer);
    if (!t) {
      spend(budget, v.length + 2);
      return v;
    }
    const only = t[0]!;
    if (t.length === 1 && only.type === 'ref' && only.start === 0 && only.end === v.length) {
      const whole = value(only.ns, only.name);
      spend(budget, jsonSize(whole));
      return structuredClone(whole);
    }
    spend(budget, textLength(v, t, value) + 2);
    return substituteString(v, t, value);
  }
  if (Array.isArray(v)) {
    spend(budget, 2 + v.length);
    return v.map((x, i) => stampValue(x, `${pointer}/${i}`, tokens, value, budget));
  }
  if (v && typeof v === 'object') {
    spend(budget, 2);
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      spend(budget, k.length + 4);
      const stamped = stampValue(x, `${pointer}/${esc(k)}`, tokens, value, budget);
      // An own "__proto__" key stays one (assigning it would set the copy's prototype instead).
      Object.defineProperty(o, k, { value: stamped, enumerable: true, writable: true, configurable: true });
    }
    return o;
  }
  spend(budget, String(v).length);
  return v;
}
