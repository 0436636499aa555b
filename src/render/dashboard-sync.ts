import { isMap, isScalar, isSeq, parseAllDocuments, parseDocument, type Document, type Node } from 'yaml';
import { isObject as isPlainObject } from '../shared/object.ts';
import { yamlText } from './yaml-text.ts';

/**
 * Rewrites one Dashboard document inside a file so that its spec says what `wanted` says, keeping everything
 * else: the other documents, metadata (description, id pin), comments, quoting, flow style, key order. Only
 * what differs is changed: maps key by key, lists of named items (tiles, filters) by name, other lists by
 * position, scalars in place. Pure: text in, text out, and the list of changes to try undoing.
 */
export interface SyncResult {
  text: string;
  changes: Change[];
}

export interface Change {
  path: Array<string | number>;
  /** What was there before (undefined: nothing). */
  was: unknown;
  /** The value written (undefined: deleted). */
  now: unknown;
  /** Whether `undo` may be tried alone (map keys and scalars; list items shift indices). */
  undoable: boolean;
}

const named = (v: unknown): v is { name: string } => typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string';

/** Syncs document `index` of `text` to `wantedSpec`; returns the new text and every change made. */
export function syncDashboardSpec(text: string, index: number, wantedSpec: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): SyncResult {
  const docs = parseAllDocuments(text, { keepSourceTokens: false });
  if (!Array.isArray(docs)) throw new Error('not a YAML stream');
  const doc = docs[index];
  if (!doc) throw new Error(`document ${index} not found`);
  const changes: Change[] = [];
  syncNode(doc, ['spec'], doc.getIn(['spec'], true) as Node | undefined, wantedSpec, changes, skip);
  return { text: keepFormatting(text, joinDocs(docs)), changes };
}

/** Puts back one change (by path) in the text made by syncDashboardSpec. */
export function undoChange(text: string, index: number, change: Change): string {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) return text;
  const doc = docs[index]!;
  if (change.was === undefined) doc.deleteIn(change.path);
  else setKeepingStyle(doc, change.path, change.was);
  return keepFormatting(text, joinDocs(docs));
}

/**
 * The yaml library writes every line again in its own style (`[a, b]` as `[ a, b ]`, one space before a
 * comment). Lines of the new text that differ from the old only in that style are taken from the old text,
 * so a rewrite shows in `git diff` as the lines whose values changed and nothing else.
 */
function keepFormatting(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const norm = (l: string) =>
    l
      .replace(/([[{])\s+/g, '$1')
      .replace(/\s+([\]}])/g, '$1')
      .replace(/\s+#/g, ' #')
      .replace(/\s+$/, '');
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return after;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) lcs[i]![j] = norm(a[i]!) === norm(b[j]!) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  // Lines that did change follow the file's own style for flow lists and maps where it has one.
  const unpadded = (open: string, close: string) => before.includes(open) && !before.includes(`${open} `) && !before.includes(` ${close}`);
  const seqs = unpadded('[', ']');
  const maps = unpadded('{', '}');
  const restyle = (l: string) => {
    let r = l;
    if (seqs) r = r.replace(/\[ (?=\S)/g, '[').replace(/(?<=\S) \]/g, ']');
    if (maps) r = r.replace(/\{ (?=\S)/g, '{').replace(/(?<=\S) \}/g, '}');
    return r;
  };
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (j < m) {
    if (i < n && norm(a[i]!) === norm(b[j]!)) {
      out.push(sameLine(a[i]!, b[j]!) ? a[i]! : b[j]!);
      i++;
      j++;
    } else if (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!) i++;
    else {
      const r = restyle(b[j]!);
      out.push(sameLine(r, b[j]!) ? r : b[j]!);
      j++;
    }
  }
  const kept = out.join('\n');
  // Both steps read whole lines, quoted text included: `"arr[ 1 ]"` kept from the old line for `"arr[1]"`, or
  // restyled to it, is another value. The text is kept only when it reads as the new one; else the new text as is.
  return sameValues(kept, after) ? kept : after;
}

/**
 * Whether a line may stand for another: the same indentation and list markers, and the rest read alone as
 * YAML gives the same value (`tags: [a]` for `tags: [ a ]`, not `x: "arr[1]"` for `x: "arr[ 1 ]"`). A line
 * that does not read alone (part of a longer scalar) stands only for itself.
 */
function sameLine(a: string, b: string): boolean {
  if (a === b) return true;
  const prefix = (l: string) => /^[ ]*(?:-[ ]+)*/.exec(l)![0];
  const pa = prefix(a);
  if (pa !== prefix(b)) return false;
  const value = (l: string) => {
    try {
      const doc = parseDocument(l.slice(pa.length));
      return doc.errors.length > 0 || doc.warnings.length > 0 ? undefined : JSON.stringify(doc.toJS());
    } catch {
      return undefined;
    }
  };
  const va = value(a);
  return va !== undefined && va === value(b);
}

/** Whether two YAML streams hold the same documents (values, not comments or style). */
function sameValues(a: string, b: string): boolean {
  const read = (t: string) => JSON.stringify(parseAllDocuments(t).map((d) => [d.errors.length, d.toJS()]));
  try {
    return read(a) === read(b);
  } catch {
    return false;
  }
}

function joinDocs(docs: Document[]): string {
  // Each document writes its own '---' marker when it had one; comments (the schema modeline) stay attached.
  return docs.map((d) => yamlText(d)).join('');
}

function syncNode(doc: Document, path: Array<string | number>, node: Node | undefined, wanted: unknown, changes: Change[], skip: ReadonlySet<string>): void {
  const js = node === undefined ? undefined : (node as { toJSON(): unknown }).toJSON();
  if (deepEqual(js, wanted)) return;
  if (isMap(node) && isPlainObject(wanted)) {
    for (const [k, v] of Object.entries(wanted)) {
      const child = node.get(k, true) as Node | undefined;
      if (child === undefined) {
        doc.setIn([...path, k], doc.createNode(v));
        changes.push({ path: [...path, k], was: undefined, now: v, undoable: true });
      } else syncNode(doc, [...path, k], child, v, changes, skip);
    }
    for (const item of [...node.items]) {
      const k = isScalar(item.key) ? String(item.key.value) : String(item.key);
      if (Object.prototype.hasOwnProperty.call(wanted, k) || skip.has(k)) continue;
      const was = (item.value as { toJSON?: () => unknown } | null)?.toJSON?.() ?? item.value;
      node.delete(k);
      changes.push({ path: [...path, k], was, now: undefined, undoable: true });
    }
    return;
  }
  if (isSeq(node) && Array.isArray(wanted)) {
    const old = node.items.map((n) => (n as { toJSON?: () => unknown })?.toJSON?.() ?? n);
    if (old.every(named) && wanted.every(named) && new Set(wanted.map((w) => w.name)).size === wanted.length) {
      // Named items (tiles, filters): matched by name, the file's order kept.
      const byName = new Map(wanted.map((w) => [w.name, w]));
      for (let i = old.length - 1; i >= 0; i--) {
        if (!byName.has((old[i] as { name: string }).name)) {
          node.delete(i);
          changes.push({ path: [...path, i], was: old[i], now: undefined, undoable: false });
        }
      }
      const kept = node.items.map((n) => ((n as { toJSON(): unknown }).toJSON() as { name: string }).name);
      kept.forEach((name, i) => syncNode(doc, [...path, i], node.items[i] as Node, byName.get(name), changes, skip));
      for (const w of wanted) {
        if (kept.includes(w.name)) continue;
        node.add(doc.createNode(w));
        changes.push({ path: [...path, node.items.length - 1], was: undefined, now: w, undoable: false });
      }
      return;
    }
    const n = Math.min(old.length, wanted.length);
    // A short list of scalars (tags, groupBy) is replaced whole, keeping its flow style.
    if (!old.some((o) => typeof o === 'object' && o !== null) && !wanted.some((o) => typeof o === 'object' && o !== null)) {
      setKeepingStyle(doc, path, wanted);
      changes.push({ path, was: old, now: wanted, undoable: true });
      return;
    }
    for (let i = 0; i < n; i++) syncNode(doc, [...path, i], node.items[i] as Node, wanted[i], changes, skip);
    for (let i = old.length - 1; i >= n; i--) {
      node.delete(i);
      changes.push({ path: [...path, i], was: old[i], now: undefined, undoable: false });
    }
    for (let i = n; i < wanted.length; i++) {
      node.add(doc.createNode(wanted[i]));
      changes.push({ path: [...path, i], was: undefined, now: wanted[i], undoable: false });
    }
    return;
  }
  if (isScalar(node) && (wanted === null || typeof wanted !== 'object')) {
    changes.push({ path, was: node.value, now: wanted, undoable: true });
    node.value = wanted;
    return;
  }
  setKeepingStyle(doc, path, wanted);
  changes.push({ path, was: js, now: wanted, undoable: true });
}

/** Sets a value, keeping the flow style ({ } and [ ]) and the comment of the node it replaces. */
function setKeepingStyle(doc: Document, path: Array<string | number>, value: unknown): void {
  const old = doc.getIn(path, true) as (Node & { flow?: boolean; comment?: string | null; commentBefore?: string | null }) | undefined;
  const next = doc.createNode(value) as Node & { flow?: boolean; comment?: string | null; commentBefore?: string | null };
  if (old && (isMap(old) || isSeq(old)) && (isMap(next) || isSeq(next))) {
    next.flow = old.flow ?? false;
  }
  if (old?.comment) next.comment = old.comment;
  if (old?.commentBefore) next.commentBefore = old.commentBefore;
  doc.setIn(path, next);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** The spec of a rendered Dashboard document (renderDashboardYaml's text). */
export function specOf(renderedText: string): Record<string, unknown> {
  return (parseDocument(renderedText).toJS() as { spec: Record<string, unknown> }).spec;
}
