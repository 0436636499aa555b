import {
  LineCounter,
  isMap,
  isScalar,
  isSeq,
  isPair,
  parseAllDocuments,
  visit,
  YAMLParseError,
  type Document,
  type Node,
  type Pair,
  type YAMLError,
  type YAMLMap,
} from 'yaml';
import type { Issue } from '../errors.ts';
import { freeHeap, mib } from '../shared/json.ts';

/** Larger files are refused: steward files are small, and a huge one is almost always a mistake. */
export const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** Deeper documents are refused before conversion, so no stage below can overflow the stack. */
export const MAX_DEPTH = 64;

/** One parsed YAML document with what is needed to point back into its file. */
export interface SourceDoc {
  file: string;
  /** 0-based index of the document in its file. */
  index: number;
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

export interface ParsedFile {
  file: string;
  docs: SourceDoc[];
  issues: Issue[];
}

export function issueAt(file: string, lc: LineCounter, offset: number, pointer: string, message: string): Issue {
  const { line, col } = lc.linePos(offset);
  return { file, line, col, pointer, message, severity: 'error' };
}

/**
 * Decodes and parses a file into YAML documents, keeping positions. Never throws for bad input: every
 * problem (not UTF-8, too large, YAML syntax, too deep) becomes an Issue with a line and column.
 */
export function parseYamlFile(file: string, bytes: Uint8Array): ParsedFile {
  const issues: Issue[] = [];
  const at = (line: number, col: number, message: string): Issue => ({ file, line, col, pointer: '', message, severity: 'error' });
  if (bytes.byteLength > MAX_FILE_BYTES) {
    issues.push(
      at(
        1,
        1,
        `file is ${(bytes.byteLength / 1048576).toFixed(1)} MiB; steward reads files up to ${MAX_FILE_BYTES / 1048576} MiB (split it into several files)`,
      ),
    );
    return { file, docs: [], issues };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const { line, col } = lineColOfByte(bytes, bad);
    issues.push(at(line, col, `file is not valid UTF-8 (byte 0x${(bytes[bad] ?? 0).toString(16).padStart(2, '0')} at offset ${bad}); save it as UTF-8`));
    return { file, docs: [], issues };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\u0000')) {
    const { line, col } = lineColOfByte(bytes, new TextEncoder().encode(text.slice(0, text.indexOf('\u0000'))).byteLength);
    issues.push(at(line, col, 'file contains a NUL byte: it looks binary, not YAML'));
    return { file, docs: [], issues };
  }
  const room = yamlRoom(bytes, freeHeap());
  if (room) {
    issues.push(
      at(
        1,
        1,
        `file holds up to ${room.values.toLocaleString('en-US')} YAML values in ${mib(bytes.byteLength)}; reading them would take about ${mib(room.need)}, more than the ${mib(room.free)} this process has left (Node's heap limit; NODE_OPTIONS=--max-old-space-size raises it): split it into several files`,
      ),
    );
    return { file, docs: [], issues };
  }
  const lineCounter = countLines(text);
  // logLevel error: the yaml package would otherwise print a Node warning on stderr for a collection used
  // as a key; the schema check reports that key as unknown (at the mapping that holds it).
  // Duplicate keys are found by markDuplicateKeys, not by the parser's uniqueKeys: that compares each key with
  // every key before it in its mapping, and 40,000 keys took 49 s (a 4 MiB file of them, hours).
  const parsed = parseAllDocuments(text, { prettyErrors: false, uniqueKeys: false, strict: true, logLevel: 'error' });
  const list = Array.isArray(parsed) ? parsed : [];
  for (const doc of list) markDuplicateKeys(doc);
  const docs: SourceDoc[] = [];
  const directivesSeen = new Set<number>();
  list.forEach((doc, index) => {
    const problems = [...doc.errors, ...doc.warnings];
    // A set, not doc.errors.includes per problem: a file can hold hundreds of thousands of errors.
    const isError = new Set<unknown>(doc.errors);
    // The parser recurses per level: nesting deep enough overflows its stack, which it reports as an error
    // of its own. That is the depth limit's case, said once, at the first place it happened.
    const overflow = problems.find((e) => /Maximum call stack/i.test(e.message));
    if (overflow) {
      issues.push(
        issueAt(file, lineCounter, overflow.pos[0], '', `nesting deeper than ${MAX_DEPTH} levels: steward documents are shallow; this looks like a mistake`),
      );
      return;
    }
    // After an unquoted ${VAR} inside { } the parser reports every later token of that line too (seven
    // errors for one mistake): on such a line the first is the one to fix, and it carries the hint.
    const linesSeen = new Set<number>();
    // Once a flow collection broke on an unquoted ${VAR}, the parser's recovery misreads the rest of the
    // document: what follows are echoes of that one mistake, not problems of their own.
    let brokeOnVariable = false;
    for (const e of problems) {
      if (brokeOnVariable && isError.has(e)) continue;
      const lineText = text.slice(text.lastIndexOf('\n', e.pos[0] - 1) + 1, text.indexOf('\n', e.pos[0]) === -1 ? undefined : text.indexOf('\n', e.pos[0]));
      if (isError.has(e) && lineText.includes('${')) {
        const line = lineCounter.linePos(e.pos[0]).line;
        if (linesSeen.has(line)) continue;
        linesSeen.add(line);
      }
      const opened = openerOf(doc, e);
      let message = opened ? opened.message(lineCounter.linePos(e.pos[0])) : yamlMessage(e.code, e.message);
      if (lineText.includes('${') && /flow/.test(message)) {
        message += ' (inside { } or [ ], write "${VAR}" in quotes, or use block style for numbers)';
        brokeOnVariable = true;
      }
      issues.push({ ...issueAt(file, lineCounter, opened?.offset ?? e.pos[0], '', message), severity: isError.has(e) ? 'error' : 'warning' });
    }
    if (doc.errors.length > 0) return;
    if (doc.directives?.yaml.explicit && doc.directives.yaml.version !== '1.2') {
      // Under %YAML 1.1 the parser reads `y`, `yes` and `on` as true and dates as timestamps: a tile's `y: 0`
      // would come out as `true: 0`, reported as an unknown key "true" and a missing "y". Named once, here.
      const start = doc.range?.[0] ?? 0;
      const at = text.lastIndexOf('%YAML', start);
      // The parser keeps a directive's version for the documents after it: the directive is said once.
      if (at >= 0 && directivesSeen.has(at)) return;
      directivesSeen.add(at);
      issues.push(
        issueAt(
          file,
          lineCounter,
          at < 0 ? start : at,
          '',
          `%YAML ${doc.directives.yaml.version}: steward reads YAML 1.2 (where y, yes and on are plain strings and there are no merge keys); remove the directive`,
        ),
      );
      return;
    }
    const refused = refusedShape(doc.contents);
    if (refused) {
      issues.push(issueAt(file, lineCounter, refused.offset, '', refused.message));
      return;
    }
    docs.push({ file, index, doc, lineCounter });
  });
  return { file, docs, issues };
}

/**
 * Line starts taken from the text itself. The parser's own LineCounter misses newlines it consumes while
 * recovering from a syntax error, which put later problems on an earlier line at a column past its end.
 */
function countLines(text: string): LineCounter {
  const lc = new LineCounter();
  lc.addNewLine(0);
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lc.addNewLine(i + 1);
  return lc;
}

function yamlMessage(code: string, message: string): string {
  const first = message.split('\n')[0] ?? message;
  const hints: Record<string, string> = {
    DUPLICATE_KEY: 'a key appears twice in the same mapping',
    TAB_AS_INDENT: 'tabs are not allowed for indentation in YAML; use spaces',
  };
  return `YAML: ${hints[code] ?? first.replace(/ at line \d+, column \d+.*$/, '')}`;
}

/**
 * The parser notices an unclosed string or bracket only where it gives up (often the end of the file); the
 * mistake is where the string or bracket was opened, so that is where the problem is reported.
 */
function openerOf(doc: Document.Parsed, e: YAMLError): { offset: number; message: (gaveUp: { line: number; col: number }) => string } | undefined {
  const pos = e.pos[0];
  const quote = e.code === 'MISSING_CHAR' ? /Missing closing (["'])quote/.exec(e.message)?.[1] : undefined;
  const flow = e.code === 'BAD_INDENT' ? /^Flow (sequence|map) in block collection/.exec(e.message)?.[1] : undefined;
  if (!quote && !flow) return undefined;
  let found: Node | undefined;
  visit(doc, {
    Node(_key, node) {
      const r = node.range;
      if (!r || r[0] >= pos || r[1] < pos) return;
      const match = quote
        ? isScalar(node) && node.type === (quote === '"' ? 'QUOTE_DOUBLE' : 'QUOTE_SINGLE')
        : (flow === 'map' ? isMap(node) : isSeq(node)) && (node as { flow?: boolean }).flow === true;
      // The innermost match wins: the walk goes outside in, so a later match lies inside an earlier one.
      if (match) found = node;
    },
  });
  if (!found?.range) return undefined;
  const open = quote ?? (flow === 'map' ? '{' : '[');
  const close = quote ?? (flow === 'map' ? '}' : ']');
  return {
    offset: found.range[0],
    message: (at) =>
      quote
        ? `YAML: this ${quote}-quoted string is never closed (the parser reached line ${at.line}, col ${at.col} looking for its closing ${close})`
        : `YAML: this ${open} is never closed: end it with ${close} before line ${at.line}, col ${at.col} (a flow ${flow} that continues on the next lines must be indented more than its key)`,
  };
}

/**
 * Where a conversion error (toJS) belongs: an alias whose anchor is not defined before it, or the document
 * itself, never the top of the file (a later document in a file starts further down).
 */
export function conversionErrorOffset(doc: Document.Parsed): number {
  let offset: number | undefined;
  visit(doc, {
    Alias(_key, node) {
      if (offset === undefined && node.resolve(doc) === undefined) {
        offset = node.range?.[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return offset ?? doc.contents?.range?.[0] ?? doc.range[0];
}

/**
 * The parser's uniqueKeys check in linear time: a scalar key whose value an earlier key of the same mapping
 * has (compared as the parser compares them, `===` on the values) is its DUPLICATE_KEY error, at the same
 * offset and in source order among the document's errors, so every message stays as it was. Collection and
 * alias keys are never equal to another there, nor here. Iterative, like findTooDeep.
 */
function markDuplicateKeys(doc: Document.Parsed): void {
  const found: YAMLParseError[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!isMap(node) && !isSeq(node)) continue;
    const seen = isMap(node) ? new Set<unknown>() : undefined;
    for (const item of node.items as unknown[]) {
      if (!isPair(item)) {
        stack.push(item);
        continue;
      }
      stack.push(item.key, item.value);
      const key = item.key;
      if (!seen || !isScalar(key) || (typeof key.value === 'number' && Number.isNaN(key.value))) continue;
      if (!seen.has(key.value)) seen.add(key.value);
      else if (key.range) found.push(new YAMLParseError([key.range[0], key.range[0] + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
    }
  }
  if (found.length === 0) return;
  // Each before the first error of the parser's that lies after it (one merge: a file of the same key
  // 400,000 times has as many errors).
  found.sort((a, b) => a.pos[0] - b.pos[0]);
  const merged: YAMLError[] = [];
  let next = 0;
  for (const x of doc.errors) {
    while (next < found.length && found[next]!.pos[0] < x.pos[0]) merged.push(found[next++]!);
    merged.push(x);
  }
  while (next < found.length) merged.push(found[next++]!);
  doc.errors.length = 0;
  for (const e of merged) doc.errors.push(e as (typeof doc.errors)[number]);
}

/** Iterative walk (no recursion), so pathological nesting cannot overflow the stack here. */
function findTooDeep(root: unknown): Node | undefined {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_DEPTH) return node as Node;
    if (isMap(node) || isSeq(node)) {
      for (const item of node.items as unknown[]) {
        if (isPair(item)) stack.push([item.value, depth + 1]);
        else stack.push([item, depth + 1]);
      }
    }
  }
  return undefined;
}

/** The first plain `<<` key (a YAML 1.1 merge key), walking the tree as written (aliases are not followed). */
function findMergeKey(root: unknown): Node | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node) || isSeq(node)) {
      for (const item of [...(node.items as unknown[])].reverse()) {
        if (isPair(item)) {
          if (isScalar(item.key) && item.key.value === '<<' && item.key.type === 'PLAIN') return item.key;
          stack.push(item.value);
        } else stack.push(item);
      }
    }
  }
  return undefined;
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  const dec = new TextDecoder('utf-8', { fatal: true });
  // Binary search on the longest prefix that decodes (a prefix may end mid-character; stream mode tolerates that).
  let lo = 0;
  let hi = bytes.byteLength;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      dec.decode(bytes.subarray(0, mid), { stream: true });
      dec.decode();
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return Math.min(lo, bytes.byteLength - 1);
}

function lineColOfByte(bytes: Uint8Array, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}

/**
 * The node a JSON pointer names, or the nearest ancestor that exists, and whether the key itself is wanted.
 * `key: true` returns the key node of the last segment (for "unknown key" messages).
 */
export function locate(src: SourceDoc, segments: readonly (string | number)[], opts: { key?: boolean } = {}): { line: number; col: number } {
  let node: unknown = src.doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const last = i === segments.length - 1;
    if (isMap(node)) {
      const pair = pairOf(node as YAMLMap<unknown, unknown>, String(seg));
      if (!pair) break;
      if (last && opts.key) {
        offset = rangeStart(pair.key) ?? offset;
        break;
      }
      node = pair.value;
      offset = rangeStart(node) ?? rangeStart(pair.key) ?? offset;
    } else if (isSeq(node)) {
      const item = node.items[Number(seg)];
      if (item === undefined) break;
      node = item;
      offset = rangeStart(node) ?? offset;
    } else break;
  }
  return src.lineCounter.linePos(offset);
}

/** Per large mapping, its first pair of each key (as String() writes it), for locate. */
const pairIndex = new WeakMap<YAMLMap<unknown, unknown>, { size: number; first: Map<string, Pair<unknown, unknown>> }>();

/**
 * The first pair of `map` whose scalar key reads as `key`. A mapping of many keys is indexed once: every
 * problem is located through this, and a file of 40,000 unknown keys searched the mapping once per key
 * (68 s). A hit is checked against the pair as it is now, and a miss or a changed mapping searches it.
 */
function pairOf(map: YAMLMap<unknown, unknown>, key: string): Pair<unknown, unknown> | undefined {
  const matches = (p: Pair<unknown, unknown>) => isScalar(p.key) && String(p.key.value) === key;
  if (map.items.length < 32) return map.items.find(matches);
  let index = pairIndex.get(map);
  if (!index || index.size !== map.items.length) {
    const first = new Map<string, Pair<unknown, unknown>>();
    for (const p of map.items) if (isScalar(p.key) && !first.has(String(p.key.value))) first.set(String(p.key.value), p);
    index = { size: map.items.length, first };
    pairIndex.set(map, index);
  }
  const hit = index.first.get(key);
  return hit && matches(hit) ? hit : map.items.find(matches);
}

function rangeStart(node: unknown): number | undefined {
  const r = (node as { range?: [number, number, number] } | null)?.range;
  return r ? r[0] : undefined;
}

/**
 * What makes a parsed document unusable as a whole, said once at its place: nesting too deep, or a merge key
 * (`<<`). Kept, a merge key would read as an unknown key "<<" plus every key it was to bring in reported
 * missing, none of which names the cause.
 */
function refusedShape(contents: unknown): { offset: number; message: string } | undefined {
  const deep = findTooDeep(contents);
  if (deep)
    return { offset: deep.range?.[0] ?? 0, message: `nesting deeper than ${MAX_DEPTH} levels: steward documents are shallow; this looks like a mistake` };
  const merge = findMergeKey(contents);
  if (merge)
    return {
      offset: merge.range?.[0] ?? 0,
      message:
        'merge keys (<<) are YAML 1.1, and steward reads YAML 1.2, where << is an ordinary key: write the keys out (a Template repeats tiles and alerts; see docs/templates.md)',
    };
  return undefined;
}

/**
 * Heap bytes the YAML parser takes per value at most, measured on Node 20 with yaml 2 (its tokens, tree and
 * positions, then the plain value): about 900 for a number in a flow list (`1,`), 1,000 for an empty flow
 * mapping (`{},`, two marks), less for block mappings.
 */
const YAML_HEAP_PER_MARK = 1024;

/**
 * Whether parsing a file's YAML would fit in `free` bytes of heap; when not, what it would need. 4 MiB of `{},`
 * (within the size bound) stopped validate after 30 s with V8's "heap out of memory" and a native stack trace
 * on a 1 GiB heap (red team, round 16): yaml keeps about a kilobyte per value. Counted without decoding, every
 * byte that may start or separate a value (`,` `[` `{` `:` `-` and line ends) as one: an overestimate, as
 * those inside text count too, and a file whose every byte is one fits without counting. A file of real
 * resources holds about one per six bytes.
 */
export function yamlRoom(bytes: Uint8Array, free: number): { values: number; need: number; free: number } | undefined {
  if (bytes.byteLength * (YAML_HEAP_PER_MARK + 2) <= free) return undefined;
  let marks = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x2c || c === 0x5b || c === 0x7b || c === 0x3a || c === 0x2d || c === 0x0a) marks++;
  }
  const need = bytes.byteLength * 2 + marks * YAML_HEAP_PER_MARK;
  return need > free ? { values: marks, need, free: Math.max(0, free) } : undefined;
}
