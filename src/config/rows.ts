/**
 * A resource as text: its head (kind, name, place, and for a dashboard the digest of its normalized form and
 * its facts) and its document as JSON. The parse cache stores resources this way, and a large project's
 * parse workers send them this way (issue 15): the worker writes the text and the facts beside the parse,
 * and this thread never copies a document's object graph out of a message, nor writes it as JSON again for
 * the cache. Either way the document is parsed from its text only when something reads it.
 */
import type { AnyResource, DashboardFacts } from '../model/resource.ts';
import type { ResourceKind } from '../schema/kinds.ts';
import { dashboardFacts } from '../schema/semantic.ts';
import { isExactJson } from '../shared/json.ts';

export interface RowHead {
  kind: ResourceKind;
  name: string;
  index: number;
  /** Dashboards: [marker tag, digest of the normalized desired form] (src/plan/normalize.ts), so a plan need not normalize. */
  nd?: [string, string];
  /** Dashboards: what the checks and the plan read of the document (`dashboardFacts`), so it is not parsed. */
  facts?: DashboardFacts;
}

/**
 * A resource just parsed, as text: its facts as JSON too (objects made from a parsed document's strings can
 * hold on to far larger texts).
 */
export type TextRow = Omit<RowHead, 'facts'> & { text: string; factsText?: string };

/**
 * The rows of a file's resources, or undefined when one cannot be told apart by its text: a document JSON
 * cannot say exactly (NaN, Infinity, -0), or one whose name is not its resource's.
 */
export function textRowsOf(
  resources: readonly AnyResource[],
  digests: ReadonlyArray<[string, string] | undefined> | undefined,
  api: string,
): TextRow[] | undefined {
  if (!resources.every((r) => isExactJson(r.doc) && (r.doc as { metadata?: { name?: unknown } }).metadata?.name === r.name)) return undefined;
  return resources.map((r, i) => ({
    kind: r.kind,
    name: r.name,
    index: r.index,
    ...(digests?.[i] ? { nd: digests[i] } : {}),
    ...(r.kind === 'Dashboard' ? { factsText: JSON.stringify(dashboardFacts(r.doc, api)) } : {}),
    text: JSON.stringify(r.doc),
  }));
}

/** A text row's head, its facts parsed. */
export function headOf(row: TextRow): RowHead {
  const { text: _t, factsText, ...head } = row;
  return factsText === undefined ? head : { ...head, facts: JSON.parse(factsText) as DashboardFacts };
}

/**
 * A resource whose document is parsed from `text()` when first read (then kept, as a plain property). The
 * texts are what this code wrote (the pack is authenticated); one that does not parse is a damaged cache.
 */
export function lazyResource(row: RowHead, file: string, text: () => string): AnyResource {
  const r = { kind: row.kind, name: row.name, file, index: row.index } as AnyResource;
  // Not enumerable: a copy (`{ ...r }`) or a comparison sees the resource as a fresh parse gives it, and a
  // copy that may be changed reads its own document.
  if (row.facts) Object.defineProperty(r, 'facts', { value: row.nd ? { ...row.facts, desired: row.nd } : row.facts, enumerable: false });
  const settle = (doc: unknown) => Object.defineProperty(r, 'doc', { value: doc, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(r, 'doc', {
    enumerable: true,
    configurable: true,
    get() {
      let doc: unknown;
      try {
        doc = JSON.parse(text());
      } catch {
        throw new Error(`the parse cache's text of ${file} does not parse: delete .steward/cache and run again`);
      }
      settle(doc);
      return doc;
    },
    set: settle,
  });
  return r;
}
