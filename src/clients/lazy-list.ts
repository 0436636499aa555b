/**
 * A dashboard list planned on without parsing it (issue 15). When the plan's live memo knows the very bytes
 * the service sent (the same digest, the same API: see body-digest.ts), it knows what matching needs of
 * each dashboard (its id, name and tags) and the digest of each one's normalized form; a plan of unchanged
 * dashboards reads nothing else. So the list is built from that summary, each dashboard a stand-in that
 * answers `id`, `name` and `tags` from it; anything else asked of any of them (a changed dashboard's
 * fields, a key listing, JSON.stringify) parses the whole body once, with every check a parsed list gets,
 * and every stand-in answers from then on as the parsed dashboard in its place.
 */
import { isExactJson } from '../shared/json.ts';

/** What the memo keeps of a live dashboard to match it without its body. */
export interface LiveSummary {
  id: string;
  name: string;
  /** Absent when the dashboard had no tags array. */
  tags?: readonly string[];
  /**
   * The whole dashboard, for the few whose tiles the plan reads anyway (those the project's alerts are on):
   * it stands in for itself, and reading it parses nothing.
   */
  whole?: object;
}

const SUMMARY_KEYS = new Set<PropertyKey>(['id', 'name', 'tags']);

/** The summary of a parsed dashboard: undefined when it cannot be one (an id or name that is not a string). */
export function summaryOf(d: { id?: unknown; name?: unknown; tags?: unknown }, whole = false): LiveSummary | undefined {
  if (typeof d.id !== 'string' || typeof d.name !== 'string') return undefined;
  // Kept whole only where JSON says it exactly: a `1e999` parsed as Infinity would come back from the memo
  // as null (such a dashboard stays a stand-in, read from the body).
  const w = whole && isExactJson(d) ? { whole: d } : {};
  if (d.tags === undefined) return { id: d.id, name: d.name, ...w };
  if (!Array.isArray(d.tags) || !d.tags.every((t) => typeof t === 'string')) return undefined;
  return { id: d.id, name: d.name, tags: d.tags as string[], ...w };
}

/** Whether any stand-in of this list parsed its body (for a list lazyList did not make: undefined). */
export function lazyListParsed(list: object): boolean | undefined {
  return parsedState.get(list)?.();
}

const parsedState = new WeakMap<object, () => boolean>();

/**
 * The list of `summaries.length` stand-ins; `parse` gives the real list (throwing as a parse of it would),
 * and must give one of the same length whose dashboards the summaries describe, or the stand-ins throw.
 */
export function lazyList<T extends object>(summaries: readonly LiveSummary[], parse: () => readonly T[]): T[] {
  let real: readonly T[] | undefined;
  const list = (): readonly T[] => {
    if (real) return real;
    const parsed = parse();
    if (parsed.length !== summaries.length) {
      throw new Error(`the live memo described ${summaries.length} dashboards for a list of ${parsed.length}: delete .steward/cache and run again`);
    }
    real = parsed;
    return real;
  };
  const out = summaries.map((s, i) => {
    if (s.whole) return s.whole as T;
    const at = (): T => list()[i]!;
    const handler: ProxyHandler<object> = {
      get: (_t, k) => (real === undefined && SUMMARY_KEYS.has(k) ? s[k as keyof LiveSummary] : Reflect.get(at(), k)),
      has: (_t, k) => Reflect.has(at(), k),
      ownKeys: () => Reflect.ownKeys(at()),
      getOwnPropertyDescriptor: (_t, k) => {
        const d = Reflect.getOwnPropertyDescriptor(at(), k);
        // A proxy may not report as non-configurable what its (empty) target lacks.
        return d ? { ...d, configurable: true } : undefined;
      },
      set: (_t, k, v) => Reflect.set(at(), k, v),
      defineProperty: (_t, k, d) => Reflect.defineProperty(at(), k, d),
      deleteProperty: (_t, k) => Reflect.deleteProperty(at(), k),
    };
    return new Proxy({}, handler) as T;
  });
  parsedState.set(out, () => real !== undefined);
  return out;
}
