/**
 * The plainest YAML, read line by line (issue 15): block mappings and sequences, one-line scalars (plain,
 * single- or double-quoted) and one-line flow collections: what nearly every dashboard and alert file is
 * made of. js-yaml spent ~1.1 s of each parse worker's ~1.7 s on 10,000 such files; this reads them in a
 * fraction of that. Anything else (a multi-line scalar, a block scalar, an escape JSON does not have, a
 * compact nested sequence, a trailing comma, a key that is not a string) is "not sure": the caller then
 * reads the file with js-yaml or `yaml` as before.
 *
 * It screens for itself (fast-parse.ts's screens stand in front of js-yaml only, and cost as much as this
 * reading): a tag, anchor, alias, directive, `?` key, block scalar or reserved character where a token
 * starts, a null or complex key, a tab, `__proto__`, a line over 1,000 characters, `...` or content after `---`
 * are all "not sure"; plain scalars are resolved by the caller (yaml's core schema, which is not sure of YAML
 * 1.1 forms, `<<` and `=`). The differential test (test/config/fast-parse.test.ts) holds what it answers to
 * `yaml`'s values and key order, over texts full of those forms.
 */

/** Thrown to say "not sure"; caught once at the top. */
class NotPlain extends Error {}
const NOT_PLAIN = new NotPlain('not plain');

function bail(): never {
  throw NOT_PLAIN;
}

/** A plain scalar's value: the source itself when it is a string; throws when the resolver is not sure. */
export type PlainValue = (source: string) => unknown;

const SPACE = 32;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const COMMA = 44;
const QUOTE = 34;
const APOSTROPHE = 39;
const BACKSLASH = 92;
const OPEN_SQUARE = 91;
const CLOSE_SQUARE = 93;
const OPEN_CURLY = 123;
const CLOSE_CURLY = 125;
const CR = 13;

/** Nesting past which js-yaml and yaml are left to decide (fast-parse.ts's FAST_MAX_DEPTH). */
const MAX_DEPTH = 48;

/**
 * What the line reader never reads (fast-parse.ts's screens come after it, in front of js-yaml): a tab, a
 * byte-order mark (yaml drops one at a document's start only), a carriage return without its line feed and
 * the line breaks YAML 1.1 had (U+0085, U+2028, U+2029). `__proto__` too (a key would set the prototype).
 */
const UNSURE = /[\t\u0085\u2028\u2029\ufeff]|\r(?!\n)/;
/** yaml takes implicit keys of up to 1,024 characters; longer lines are left to it. */
const MAX_LINE = 1000;

/** Characters no plain scalar or plain key may start with here (YAML's indicators, `-?:` handled apart). */
const INDICATOR = new Uint8Array(128);
for (const c of ',[]{}#&*!|>\'"%@`') INDICATOR[c.charCodeAt(0)] = 1;
/** Characters that end a plain scalar in a flow collection. */
const FLOW_END = new Uint8Array(128);
for (const c of ',[]{}') FLOW_END[c.charCodeAt(0)] = 1;

/**
 * The documents of `text`, or undefined when it is not made only of the forms above. `plain` resolves each
 * plain scalar (keys too: a key must resolve to a string, or to a number or boolean that String() writes
 * back as its source, as yaml's toJS makes keys strings).
 */
export function lineLoadAll(text: string, plain: PlainValue): unknown[] | undefined {
  if (UNSURE.test(text) || text.includes('__proto__')) return undefined;
  try {
    return new LineReader(text, plain).documents();
  } catch {
    // NOT_PLAIN, or the resolver's own "not sure".
    return undefined;
  }
}

class LineReader {
  /** Per content line (not blank, not a comment, not `---`): where its text starts and ends, its indent. */
  private starts: number[] = [];
  private ends: number[] = [];
  private indents: number[] = [];
  /** The current content line. */
  private at = 0;
  /** Where the last scalar or flow collection read ended (after its closing quote or bracket). */
  private after = 0;
  /** The content lines' count of the document being read. */
  private count = 0;

  constructor(
    private readonly text: string,
    private readonly plain: PlainValue,
  ) {}

  documents(): unknown[] {
    const { text } = this;
    const docs: unknown[] = [];
    const n = text.length;
    let lineStart = 0;
    // Content before the first `---` is a document of its own; an empty one is "not sure" (as fastLoadAll).
    let marked = false;
    while (lineStart <= n) {
      let next = text.indexOf('\n', lineStart);
      if (next === -1) next = n;
      // CRLF: the line ends before its CR.
      const end = next > lineStart && text.charCodeAt(next - 1) === CR ? next - 1 : next;
      if (end - lineStart > MAX_LINE) bail();
      let i = lineStart;
      while (i < end && text.charCodeAt(i) === SPACE) i++;
      if (i === lineStart && (text.startsWith('---', i) || text.startsWith('...', i))) {
        // A marker: `---` alone, or with blanks and a comment after it. `...`, and `---` with content, are left
        // to the others.
        let j = i + 3;
        while (j < end && text.charCodeAt(j) === SPACE) j++;
        if (text.charCodeAt(i) !== DASH || (j < end && !(text.charCodeAt(j) === HASH && j > i + 3))) bail();
        if (this.starts.length > 0) docs.push(this.document());
        else if (marked) bail();
        marked = true;
      } else if (i < end && text.charCodeAt(i) !== HASH) {
        this.starts.push(i);
        this.ends.push(end);
        this.indents.push(i - lineStart);
      }
      lineStart = next + 1;
    }
    // An empty file, or nothing after the last marker (a null document).
    if (this.starts.length === 0) bail();
    docs.push(this.document());
    return docs;
  }

  /** The document of the content lines gathered so far; every one of them must be read. */
  private document(): unknown {
    this.at = 0;
    this.count = this.starts.length;
    const value = this.block(this.indents[0]!, 0);
    if (this.at !== this.count) bail();
    this.starts = [];
    this.ends = [];
    this.indents = [];
    return value;
  }

  private isItem(p: number, end: number): boolean {
    return this.text.charCodeAt(p) === DASH && (p + 1 === end || this.text.charCodeAt(p + 1) === SPACE);
  }

  /** The block node whose first line is the current one, at indent `indent`. */
  private block(indent: number, depth: number): unknown {
    if (depth > MAX_DEPTH) bail();
    const p = this.starts[this.at]!;
    return this.isItem(p, this.ends[this.at]!) ? this.sequence(indent, p, depth) : this.mapping(indent, p, depth);
  }

  /** A block mapping at `indent` whose first key starts at `p` on the current line (mid-line after `- `). */
  private mapping(indent: number, p: number, depth: number): Record<string, unknown> {
    const { text } = this;
    const out: Record<string, unknown> = {};
    for (;;) {
      const end = this.ends[this.at]!;
      let key: string;
      let q: number;
      const c = text.charCodeAt(p);
      if (c === QUOTE || c === APOSTROPHE) {
        key = c === QUOTE ? this.double(p, end) : this.single(p, end);
        q = this.after;
        while (q < end && text.charCodeAt(q) === SPACE) q++;
        if (text.charCodeAt(q) !== COLON) bail();
      } else {
        q = this.keyColon(p, end);
        key = this.plainKey(this.trimmed(p, q));
      }
      // After the colon: a blank (then a value or a comment) or the line's end.
      q++;
      if (q < end && text.charCodeAt(q) !== SPACE) bail();
      // `"\u005f_proto__"` too: the text check cannot see an escaped one, and assigning it sets the prototype.
      if (key === '__proto__' || Object.prototype.hasOwnProperty.call(out, key)) bail();
      while (q < end && text.charCodeAt(q) === SPACE) q++;
      let value: unknown;
      if (q === end || text.charCodeAt(q) === HASH) {
        this.at++;
        const next = this.at < this.count ? this.indents[this.at]! : -1;
        if (next > indent) value = this.block(next, depth + 1);
        // A sequence may sit at its key's own indent.
        else if (next === indent && this.isItem(this.starts[this.at]!, this.ends[this.at]!)) value = this.sequence(indent, this.starts[this.at]!, depth + 1);
        else value = null;
      } else {
        value = this.inline(q, end, depth + 1);
        this.at++;
      }
      out[key] = value;
      if (this.at === this.count) return out;
      const next = this.indents[this.at]!;
      if (next < indent) return out;
      // Deeper: a scalar's continuation or a stray line; at the indent, a sequence item after a value.
      if (next > indent || this.isItem(this.starts[this.at]!, this.ends[this.at]!)) bail();
      p = this.starts[this.at]!;
    }
  }

  /** A block sequence at `indent` whose first `-` is at `p` on the current line. */
  private sequence(indent: number, p: number, depth: number): unknown[] {
    const { text } = this;
    const out: unknown[] = [];
    for (;;) {
      const end = this.ends[this.at]!;
      let q = p + 1;
      while (q < end && text.charCodeAt(q) === SPACE) q++;
      if (q === end || text.charCodeAt(q) === HASH) {
        this.at++;
        const next = this.at < this.count ? this.indents[this.at]! : -1;
        out.push(next > indent ? this.block(next, depth + 1) : null);
      } else if (this.isItem(q, end)) {
        bail();
      } else if (this.startsEntry(q, end)) {
        // `- key: value`: a mapping whose keys stand at the column of this first one.
        out.push(this.mapping(q - this.lineStartOf(this.at), q, depth + 1));
      } else {
        out.push(this.inline(q, end, depth + 1));
        this.at++;
      }
      if (this.at === this.count) return out;
      const next = this.indents[this.at]!;
      if (next < indent) return out;
      if (next > indent) bail();
      p = this.starts[this.at]!;
      if (!this.isItem(p, this.ends[this.at]!)) return out;
    }
  }

  private lineStartOf(line: number): number {
    return this.starts[line]! - this.indents[line]!;
  }

  /** Whether the text at `q` is a block mapping's first entry (a key, then `: ` or a colon ending the line). */
  private startsEntry(q: number, end: number): boolean {
    const { text } = this;
    const c = text.charCodeAt(q);
    if (c === QUOTE || c === APOSTROPHE) {
      if (c === QUOTE) this.double(q, end);
      else this.single(q, end);
      let r = this.after;
      while (r < end && text.charCodeAt(r) === SPACE) r++;
      return text.charCodeAt(r) === COLON;
    }
    return c !== OPEN_SQUARE && c !== OPEN_CURLY && this.plainColon(q, end) !== -1;
  }

  /**
   * Plain text from `p` in a block: where its first mapping colon (`: `, or one ending the line) is, -1 when
   * a comment or the line's end comes first (`after`: where the comment starts, or the line's end).
   */
  private plainColon(p: number, end: number): number {
    const { text } = this;
    for (let i = p; i < end; i++) {
      const d = text.charCodeAt(i);
      if (d === COLON && (i + 1 === end || text.charCodeAt(i + 1) === SPACE)) return i;
      if (d === HASH && text.charCodeAt(i - 1) === SPACE) {
        this.after = i;
        return -1;
      }
    }
    this.after = end;
    return -1;
  }

  /**
   * Whether a plain scalar (or plain key) may start at `p`: not at an indicator, nor at `-`, `?` or `:` before a
   * blank or the end (in a flow collection, before a flow indicator either: `[:]` is a null-keyed mapping).
   */
  private plainStarts(p: number, end: number, flow: boolean): boolean {
    const c = this.text.charCodeAt(p);
    if (p >= end || (c < 128 && INDICATOR[c] === 1)) return false;
    if (c !== DASH && c !== COLON && c !== 63) return true;
    const d = this.text.charCodeAt(p + 1);
    return !(p + 1 >= end || d === SPACE || (flow && d < 128 && FLOW_END[d] === 1));
  }

  /** Where the colon after a plain key starting at `p` is; not sure when the line has none before a comment. */
  private keyColon(p: number, end: number): number {
    if (!this.plainStarts(p, end, false)) bail();
    const i = this.plainColon(p, end);
    return i === -1 ? bail() : i;
  }

  /** A plain key as yaml's toJS makes it a string: only where that string is the source itself. */
  private plainKey(source: string): string {
    if (source === '') bail();
    const v = this.plain(source);
    if (typeof v === 'string') return v;
    if ((typeof v === 'number' || typeof v === 'boolean') && String(v) === source) return source;
    return bail();
  }

  /** A value that fills the rest of a line from `q` (then only blanks and a comment may follow). */
  private inline(q: number, end: number, depth: number): unknown {
    const { text } = this;
    const c = text.charCodeAt(q);
    let value: unknown;
    if (c === QUOTE) value = this.double(q, end);
    else if (c === APOSTROPHE) value = this.single(q, end);
    else if (c === OPEN_SQUARE || c === OPEN_CURLY) value = this.flow(q, end, depth);
    else {
      // A plain scalar: to a comment or the line's end, with no `: ` in it (that is yaml's error).
      if (!this.plainStarts(q, end, false) || this.plainColon(q, end) !== -1) bail();
      return this.plain(this.trimmed(q, this.after));
    }
    let r = this.after;
    while (r < end && text.charCodeAt(r) === SPACE) r++;
    if (r < end && !(text.charCodeAt(r) === HASH && text.charCodeAt(r - 1) === SPACE)) bail();
    return value;
  }

  /** A double-quoted scalar from its quote at `q` (`after`: past its closing quote). Only JSON's escapes. */
  private double(q: number, end: number): string {
    const { text } = this;
    let escaped = false;
    let i = q + 1;
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        const e = text.charCodeAt(++i);
        // \" \\ \/ \b \f \n \r \t mean the same in both; \u only outside the surrogates.
        if (e === 117) {
          const hex = text.slice(i + 1, i + 5);
          if (!/^[0-9a-fA-F]{4}$/.test(hex) || /^[dD][89abAB]/.test(hex)) bail();
          i += 4;
        } else if (!(e === QUOTE || e === BACKSLASH || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116)) bail();
      } else if (c < 32) bail();
    }
    if (i >= end) bail();
    this.after = i + 1;
    if (!escaped) return text.slice(q + 1, i);
    try {
      return JSON.parse(text.slice(q, i + 1)) as string;
    } catch {
      return bail();
    }
  }

  /** A single-quoted scalar from its quote at `q` (`after`: past its closing quote). */
  private single(q: number, end: number): string {
    const { text } = this;
    let out = '';
    let from = q + 1;
    for (let i = q + 1; i < end; i++) {
      if (text.charCodeAt(i) !== APOSTROPHE) continue;
      if (text.charCodeAt(i + 1) === APOSTROPHE) {
        out += text.slice(from, i + 1);
        from = ++i + 1;
        continue;
      }
      this.after = i + 1;
      return out + text.slice(from, i);
    }
    return bail();
  }

  /** A flow collection from its bracket at `q`, closed on this line (`after`: past its closing bracket). */
  private flow(q: number, end: number, depth: number): unknown {
    if (depth > MAX_DEPTH) bail();
    const { text } = this;
    const seq = text.charCodeAt(q) === OPEN_SQUARE;
    const close = seq ? CLOSE_SQUARE : CLOSE_CURLY;
    let i = this.skip(q + 1, end);
    if (text.charCodeAt(i) === close) {
      this.after = i + 1;
      return seq ? [] : {};
    }
    const items: unknown[] | undefined = seq ? [] : undefined;
    const map: Record<string, unknown> | undefined = seq ? undefined : {};
    for (;;) {
      if (items) {
        items.push(this.flowNode(i, end, depth + 1));
      } else {
        let key: string;
        const c = text.charCodeAt(i);
        if (c === QUOTE) key = this.double(i, end);
        else if (c === APOSTROPHE) key = this.single(i, end);
        else key = this.plainKey(this.flowPlain(i, end));
        i = this.skip(this.after, end);
        if (text.charCodeAt(i) !== COLON || text.charCodeAt(i + 1) !== SPACE) bail();
        if (key === '__proto__' || Object.prototype.hasOwnProperty.call(map, key)) bail();
        map![key] = this.flowNode(this.skip(i + 1, end), end, depth + 1);
      }
      i = this.skip(this.after, end);
      const c = text.charCodeAt(i);
      if (c === close) {
        this.after = i + 1;
        return items ?? map;
      }
      if (c !== COMMA) bail();
      i = this.skip(i + 1, end);
      // A trailing comma, or an empty entry.
      if (text.charCodeAt(i) === close || text.charCodeAt(i) === COMMA) bail();
    }
  }

  /** The text from `from` to `to` without trailing spaces (YAML's, not String.trimEnd's: U+00A0 stays). */
  private trimmed(from: number, to: number): string {
    while (to > from && this.text.charCodeAt(to - 1) === SPACE) to--;
    return this.text.slice(from, to);
  }

  private skip(i: number, end: number): number {
    while (i < end && this.text.charCodeAt(i) === SPACE) i++;
    return i;
  }

  /** A node inside a flow collection at `i` (`after`: past it). */
  private flowNode(i: number, end: number, depth: number): unknown {
    const c = this.text.charCodeAt(i);
    if (c === QUOTE) return this.double(i, end);
    if (c === APOSTROPHE) return this.single(i, end);
    if (c === OPEN_SQUARE || c === OPEN_CURLY) return this.flow(i, end, depth);
    return this.plain(this.flowPlain(i, end));
  }

  /** A plain scalar inside a flow collection: its source, trimmed (`after`: where it ends). */
  private flowPlain(i: number, end: number): string {
    const { text } = this;
    if (!this.plainStarts(i, end, true)) bail();
    let e = i + 1;
    for (; e < end; e++) {
      const d = text.charCodeAt(e);
      if (d < 128 && FLOW_END[d] === 1) break;
      if (d === COLON) {
        const next = text.charCodeAt(e + 1);
        if (next === SPACE || (next < 128 && FLOW_END[next] === 1)) break;
      }
      if (d === HASH && text.charCodeAt(e - 1) === SPACE) bail();
    }
    if (e >= end) bail();
    this.after = e;
    return this.trimmed(i, e);
  }
}
