/**
 * The fast parse path (issue 15). The line reader (line-parse.ts) answers first for the plainest files, with
 * the plain scalar resolver below. For the rest, js-yaml 4 reads a file's documents several times faster than
 * `yaml`, but keeps no positions and differs from `yaml` in corners (YAML 1.1 forms, merge keys, tags,
 * anchors, non-string keys). So it is used only where it reads a file exactly as `yaml` would, and says "not sure" everywhere
 * else: the caller then parses with `yaml` (src/config/source.ts), which also gives every position.
 *
 * How sameness is kept:
 * - Plain scalars are resolved by `yaml`'s own core-schema resolvers (null, bool, int, float), in `yaml`'s
 *   order, so `1.0`, `0x1F`, `~`, `.inf` are the values `yaml` gives. Forms that YAML 1.1 reads otherwise
 *   (yes/no/on/off, 0777, 1:30, 2024-01-01, 1_000, 0b1, `=`, `<<`) and integers beyond 2^53 (or
 *   with more than 15 digits) make the file "not sure".
 * - Mapping keys: js-yaml 4 turns a scalar key into a string with String(), as `yaml`'s toJS does, except
 *   for null (`yaml` gives ''), so null and empty keys are screened out; `<<` and `__proto__` too. A
 *   duplicate key is js-yaml's error. Complex keys (a list or mapping as a key) are screened out.
 * - Before parsing, the text is screened: tags (`!`), anchors and aliases (`&`, `*`), explicit keys (`?`),
 *   directives (`%`), document ends (`...`), tabs, carriage returns, the Unicode line breaks (U+0085,
 *   U+2028, U+2029), and lines over 1,000 characters (`yaml` limits implicit keys to 1,024) are "not sure".
 * - Every document must be a non-empty value and the count of documents must match the `---` markers, so
 *   document indexes are `yaml`'s.
 * The differential test (test/config/fast-parse.test.ts) runs both parsers over the fuzz arbitraries, the
 * examples and a table of tricky cases, and requires the same values (and key order) wherever this path
 * answers.
 */
import { FAILSAFE_SCHEMA, loadAll, Type, type LoadOptions } from 'js-yaml';
import { isScalar, Schema } from 'yaml';
import { lineLoadAll } from './line-parse.ts';
import { maxOf } from '../shared/arrays.ts';

/** Thrown inside js-yaml by a resolver that is not sure; any throw means "use yaml". */
class NotSure extends Error {}

interface CoreTag {
  test: RegExp;
  resolve: (str: string, onError: (msg: string) => void, opts: { intAsBigInt: boolean }) => unknown;
}

/** `yaml`'s core-schema scalar tags that resolve plain scalars, in its order (the first match wins there). */
const CORE_TAGS: CoreTag[] = (new Schema({ schema: 'core' }).tags as unknown as Array<Partial<CoreTag> & { default?: boolean | string }>).filter(
  (t): t is CoreTag & { default: true } => t.default === true && t.test instanceof RegExp && typeof t.resolve === 'function',
);

/** Plain scalars YAML 1.1 (or a lenient reader) would read as something else than the core schema does. */
const DOUBTFUL = [
  // YAML 1.1 booleans. Not `y`/`n`: tiles use `y` as a key everywhere, and `yaml` reads them as strings
  // like every 1.2 reader (only a %YAML 1.1 directive would change that, and directives fall back).
  /^(?:yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF)$/,
  /^[-+]?0[0-9_]/, // 1.1 octal (0777) or a zero-padded number
  /^[-+]?0b/i, // binary
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/, // sexagesimal
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}/, // timestamps
  /^[-+.]?[0-9][0-9_.eE+-]*_/, // digits with underscores
  /^(?:=|<<)$/, // value and merge keys
];

const NO_OPTIONS = { intAsBigInt: false };
const onError = () => {
  throw new NotSure();
};

/** What resolvePlain answers for a plain scalar that is a string. */
const PLAIN_STRING = Symbol('plain string');

/** Whole numbers of up to 15 digits without a leading zero: the core int tag's value, exactly (x, y, w, h). */
const PLAIN_INT = /^-?[1-9][0-9]{0,14}$|^0$/;
const WORDS = new Map<string, unknown>([
  ...['null', 'Null', 'NULL'].map((w) => [w, null] as const),
  ...['true', 'True', 'TRUE'].map((w) => [w, true] as const),
  ...['false', 'False', 'FALSE'].map((w) => [w, false] as const),
  ...['yes', 'Yes', 'YES', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF'].map((w) => [w, NotSure] as const),
]);
const LONGEST_WORD = maxOf(Array.from(WORDS.keys(), (w) => w.length));

/**
 * First characters of the plain scalars that DOUBTFUL or a core tag could match other than by a whole word
 * (numbers, `.inf`, `~`, `=`, `<<`): every other scalar is one of WORDS or a string, as the regexes would say.
 * By the first character's code, `/^[-+.=<~0-9]/` without a regex: called for every plain scalar of every file.
 */
function numericStart(c: number): boolean {
  // - + . = < ~ 0-9
  return c === 45 || c === 43 || c === 46 || c === 61 || c === 60 || c === 126 || (c >= 48 && c <= 57);
}

function resolvePlain(source: string): unknown {
  if (source !== '' && !numericStart(source.charCodeAt(0))) {
    // No word is longer than `false`: most names and texts are, and need no lookup.
    if (source.length > LONGEST_WORD) return PLAIN_STRING;
    // No word maps to undefined: one lookup says both whether it is one and what it is.
    const word = WORDS.get(source);
    if (word === undefined) return PLAIN_STRING;
    if (word === NotSure) throw new NotSure();
    return word;
  }
  if (PLAIN_INT.test(source)) return Number(source);
  for (const d of DOUBTFUL) if (d.test(source)) throw new NotSure();
  for (const tag of CORE_TAGS) {
    if (!tag.test.test(source)) continue;
    const r = tag.resolve(source, onError, NO_OPTIONS);
    const value = isScalar(r) ? r.value : r;
    // Beyond 15 significant digits a number is rounded; where exactly may differ between readers.
    if (
      typeof value === 'number' &&
      Number.isFinite(value) &&
      Number.isInteger(value) &&
      (Math.abs(value) > Number.MAX_SAFE_INTEGER || significantDigits(source) > 15)
    )
      throw new NotSure();
    return value;
  }
  return PLAIN_STRING;
}

/** A plain scalar's value as yaml's core schema gives it (the source when a string); throws NotSure. */
function plainValue(source: string): unknown {
  const v = resolvePlain(source);
  return v === PLAIN_STRING ? source : v;
}

function significantDigits(source: string): number {
  if (/^0[xo]/.test(source)) return 0;
  return source.replace(/^[-+]/, '').split(/[eE]/)[0]!.replace('.', '').replace(/^0+/, '').length;
}

/**
 * js-yaml 4 tries its implicit types on plain scalars only (quoted ones stay strings), calling construct right
 * after a resolve that said yes: so the value resolve computed is kept for construct, not computed twice.
 */
let resolved: unknown;
const coreType = new Type('tag:steward/core', {
  kind: 'scalar',
  resolve: (source: string) => {
    resolved = resolvePlain(source);
    return resolved !== PLAIN_STRING;
  },
  construct: () => resolved,
});

// str, seq and map from the failsafe schema; every plain scalar through yaml's resolvers above.
const SCHEMA = FAILSAFE_SCHEMA.extend({ implicit: [coreType] });

/**
 * Token starts js-yaml and yaml could read differently, or that carry what this path does not keep. Each
 * alternative starts at its rare character and looks behind for the boundary: the same matches as a
 * boundary-first pattern (checked on two million random strings) at a fifth of the cost, since a pattern
 * that starts with a whitespace class is tried at every indent.
 */
const SCREEN =
  /[!&*](?<=(?:^|[\s[\]{},])[!&*])|\?(?<=(?:^|[\s[\]{},])\?)(?=\s|$)|^%|^\.\.\.|^---[^\s]|-(?<=^[ ]*-)(?=[ \r]*(?:#|$))|\r(?!\n)|<<|__proto__|:(?<=(?:^|[\s[{,])(?:~|null|Null|NULL)?[ \t]*:)(?=[\s,[\]{}]|$)|:(?<=[\]}][ \t]*:)|[,}](?<=(?:^|[\s[{,])(?:~|null|Null|NULL)[ \t]*[,}])|^---[ \t]+[^#\s]/m;
const DOC_START = /^---(?=\s|$)/gm;
const MAX_LINE = 1000;

const QUOTE = 34;
const APOSTROPHE = 39;
const BACKSLASH = 92;

/** Characters below 128 that simpleLines looks at outside a quoted scalar; all others are plain text to it. */
const MARK = new Uint8Array(128);
for (const c of [9, 10, 13, 32, 34, 35, 39, 44, 62, 91, 93, 123, 124, 125]) MARK[c] = 1;
/** Characters that end a run inside a double-quoted scalar (tab, line feed, quote, backslash). */
const IN_DOUBLE = new Uint8Array(128);
for (const c of [9, 10, QUOTE, BACKSLASH]) IN_DOUBLE[c] = 1;

/**
 * One pass over the text, true when each line is one js-yaml and `yaml` read alike: at most MAX_LINE
 * characters; no tab; not blanks only; no block scalar indentation indicator (`|2`, `>-1`); and every quoted
 * scalar and flow collection closed on the line that opens it, with no comment glued to a closing quote or bracket.
 * Multi-line quoted scalars, multi-line flow collections, indentation indicators, blank-only lines and tabs
 * are where the two differ in value or in what they accept (red team, round 7: `"x\⏎⏎ y"`, `|2` with a
 * trailing blank line, `"x"#c`, `[⏎a]`). A quote opens a scalar only where one can start (line start, after a
 * blank or `[{,:`); brackets count outside quotes and comments; a stray closer is not simple either.
 */
export function simpleLines(text: string): boolean {
  const n = text.length;
  let lineStart = 0;
  let depth = 0;
  // The open brackets of this line, innermost last, and whether the next thing begins a flow entry.
  const open: number[] = [];
  let entry = false;
  let quote = 0;
  let spaces = false;
  let other = false;
  for (let i = 0; i <= n; i++) {
    let c = i < n ? text.charCodeAt(i) : 10;
    // Runs of characters that change nothing but the line's flags are skipped in tight loops (issue 15: this
    // check ran over every byte of every file, ~0.17 s a parse worker at 10,000 files; now ~2.7x faster).
    if (quote === 0) {
      for (;;) {
        if (c === 32) {
          spaces = true;
          do c = ++i < n ? text.charCodeAt(i) : 10;
          while (c === 32);
        }
        if (c < 128 && MARK[c] !== 0) break;
        // A run of plain text: it is "other" text, and no flow entry begins right after it.
        other = true;
        entry = false;
        do c = ++i < n ? text.charCodeAt(i) : 10;
        while (c >= 128 || MARK[c] === 0);
      }
    } else if (quote === QUOTE) {
      // Inside a quoted scalar only its end, an escape, a tab and the line's end count.
      while (c >= 128 || IN_DOUBLE[c] === 0) c = ++i < n ? text.charCodeAt(i) : 10;
    } else {
      while (c !== APOSTROPHE && c !== 10 && c !== 9) c = ++i < n ? text.charCodeAt(i) : 10;
    }
    if (c === 10) {
      if (i - lineStart > MAX_LINE || quote !== 0 || depth !== 0 || (spaces && !other)) return false;
      lineStart = i + 1;
      spaces = other = entry = false;
      continue;
    }
    if (c === 9) return false;
    if (c === 32) spaces = true;
    else if (c !== 13) other = true;
    if (quote === QUOTE) {
      if (c === QUOTE) quote = 0;
      else if (c === BACKSLASH) {
        const next = text.charCodeAt(i + 1);
        // \U: js-yaml takes code points yaml refuses (\U00110000, \UFFFFFFFF).
        if (next === 10 || next === 13 || next === 85) return false;
        i++;
        other = true;
      }
      continue;
    }
    if (quote === APOSTROPHE) {
      if (c === APOSTROPHE) {
        if (text.charCodeAt(i + 1) === APOSTROPHE) i++;
        else quote = 0;
      }
      continue;
    }
    const prev = i === lineStart ? 32 : text.charCodeAt(i - 1);
    const startsEntry = entry;
    if (c !== 32) entry = false;
    switch (c) {
      case 35: // #
        if (prev === QUOTE || prev === APOSTROPHE || prev === 93 || prev === 125) return false;
        if (prev === 32) {
          const nl = text.indexOf('\n', i);
          i = (nl === -1 ? n : nl) - 1;
        }
        break;
      case QUOTE:
      case APOSTROPHE:
        if (prev === 32 || prev === 91 || prev === 123 || prev === 44 || prev === 58) quote = c;
        break;
      case 91: // [
      case 123: // {
        // A collection as a flow mapping's key ({[a]}, {x, {}}): js-yaml writes "[object Object]" or "".
        if (startsEntry && open[open.length - 1] === 123) return false;
        open.push(c);
        depth++;
        entry = true;
        break;
      case 93: // ]
      case 125: // }
        if (--depth < 0 || open.pop() !== c - 2) return false;
        break;
      case 44: // ,
        if (depth > 0) entry = true;
        break;
      case 124: // |
      case 62: {
        // >
        if (prev !== 32) break;
        let j = i + 1;
        let d = text.charCodeAt(j);
        if (d === 43 || d === 45) d = text.charCodeAt(++j);
        if (d >= 48 && d <= 57) return false;
        break;
      }
    }
  }
  return true;
}

/** Nesting at which js-yaml stops; `yaml` allows MAX_DEPTH (64), so deeper files are left to it. */
const FAST_MAX_DEPTH = 48;
// maxDepth came with js-yaml 4.3; @types/js-yaml 4.0.9 predates it.
const LOAD_OPTIONS: LoadOptions & { maxDepth: number } = { schema: SCHEMA, maxDepth: FAST_MAX_DEPTH, json: false };

/** What the line reader alone answers for `text` (for the differential test). */
export function lineReaderLoadAll(text: string): unknown[] | undefined {
  return lineLoadAll(text, plainValue);
}

/**
 * The documents of `text` (a decoded file without BOM) as `yaml` would give them, or undefined when this
 * path is not sure (then parse with `yaml`). Never throws.
 */
export function fastLoadAll(text: string): unknown[] | undefined {
  // The line reader first (~4x js-yaml on a dashboard; it screens for itself), js-yaml for the shapes it leaves.
  const plain = lineLoadAll(text, plainValue);
  if (plain) return plain;
  // Lines first: they bound every run SCREEN's look-behinds may scan.
  if (!simpleLines(text) || SCREEN.test(text)) return undefined;
  let docs: unknown[];
  try {
    docs = loadAll(text, null, LOAD_OPTIONS);
  } catch {
    return undefined;
  }
  if (docs.length === 0 || docs.some((d) => d === null || d === undefined)) return undefined;
  // Each `---` starts a document; text before the first marker (other than comments) is one more.
  const markers = text.match(DOC_START)?.length ?? 0;
  const firstContent = /^(?:[ \t]*(?:#.*)?\n)*(.*)/.exec(text)?.[1] ?? '';
  const expected = /^---(?:\s|$)/.test(firstContent) ? markers : markers + 1;
  if (docs.length !== expected) return undefined;
  return docs;
}
