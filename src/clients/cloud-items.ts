/**
 * Reading the items of a cloud list one by one. The envelope is checked whole (a `result` that is not a list
 * fails the read); each item is then checked on its own against its profile's schema, so one item a server
 * got wrong does not hide the others (a Failed pipe beside a pipe with `replicaCpuMillicores: "500m"` is still
 * reported).
 *
 * - `null` is read as absent, at any depth: the ClickHouse Cloud spec marks no member of these objects
 *   required, and real servers send `null` for members they leave empty (`dnsNames: null`, a backup's
 *   `type: null`), also where the spec gives no `null`. A `null` the seed's schemas require is "missing".
 * - An item that still breaks its schema is malformed. The members at fault are left out (the nearest
 *   member of an object above the problem: a bad entry of a list leaves the list out) and the rest is kept
 *   when it then passes; otherwise the item is left out whole. Either way the caller gets it back in
 *   `malformed`, with its problems, so it can say so (the report makes a finding of each).
 */
import { isObject, withoutNulls } from '../shared/object.ts';
import { checkItem, type ItemProblem, type SchemaName } from './validate.ts';

/** An item the server sent that its profile's schema refuses. */
export interface MalformedItem {
  /** Its position in the list (0-based); undefined for an object read on its own. */
  index: number | undefined;
  /** The item as sent (nulls removed), for naming it: its `id`, `name`, `description`. */
  item: unknown;
  /** What is wrong, each located in the item (`scaling.replicaCpuMillicores`), with the value sent there. */
  problems: ItemProblemSent[];
  /** The item was kept with the members at fault left out (false: left out whole). */
  kept: boolean;
}

/** A problem, and what the server sent at that place (absent for a missing member). */
export interface ItemProblemSent extends ItemProblem {
  value?: unknown;
}

/** The items of a list that passed (some with members left out), and the malformed ones. */
export interface CloudList<T> {
  items: T[];
  malformed: MalformedItem[];
}

/** One object read on its own: the item (undefined when it had to be left out) and its problems. */
export interface CloudItem<T> {
  item: T | undefined;
  malformed: MalformedItem | undefined;
}

export function readItems<T>(schema: SchemaName, values: readonly unknown[]): CloudList<T> {
  const out: CloudList<T> = { items: [], malformed: [] };
  values.forEach((raw, index) => {
    const r = readItem<T>(schema, raw, index);
    if (r.item !== undefined) out.items.push(r.item);
    if (r.malformed) out.malformed.push(r.malformed);
  });
  return out;
}

export function readItem<T>(schema: SchemaName, raw: unknown, index?: number): CloudItem<T> {
  const value = withoutNulls(raw);
  const problems = checkItem(schema, value);
  if (problems.length === 0) return { item: value as T, malformed: undefined };
  const repaired = leaveOut(value, problems);
  const kept = repaired !== undefined && checkItem(schema, repaired).length === 0;
  const sent = problems.map((p): ItemProblemSent => (p.missing ? p : { ...p, value: at(value, p.pointer) }));
  return { item: kept ? (repaired as T) : undefined, malformed: { index, item: value, problems: sent, kept } };
}

/**
 * A copy of `item` without the members the problems point at (the nearest object member above each), or
 * undefined when a problem is the item itself (not an object, or lacking a required member).
 */
function leaveOut(item: unknown, problems: readonly ItemProblem[]): unknown {
  if (!isObject(item)) return undefined;
  const copy = structuredClone(item);
  for (const p of problems) {
    const segments = p.pointer
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    // Up to the nearest member of an object: a bad entry of a list leaves the whole list out.
    let parent: unknown = copy;
    let member: string | undefined;
    const parents: unknown[] = [];
    for (const s of segments) {
      parents.push(parent);
      parent = Array.isArray(parent) ? parent[Number(s)] : isObject(parent) ? parent[s] : undefined;
    }
    for (let i = segments.length - 1; i >= 0; i--) {
      if (isObject(parents[i])) {
        parent = parents[i];
        member = segments[i];
        break;
      }
    }
    if (member === undefined) return undefined;
    delete (parent as Record<string, unknown>)[member];
  }
  return copy;
}

/** The value at a JSON pointer, or undefined. */
function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const raw of pointer.split('/').slice(1)) {
    const s = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    v = Array.isArray(v) ? v[Number(s)] : isObject(v) && Object.hasOwn(v, s) ? v[s] : undefined;
  }
  return v;
}
