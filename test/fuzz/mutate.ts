/**
 * Mutations of valid documents, as fast-check arbitraries: on the value before it is rendered (wrong types,
 * unknown and missing keys, deep nesting, unicode, huge strings, another kind) and on the text after
 * (truncation, stray tabs, colons and brackets, duplicated lines, anchors and aliases, broken UTF-8).
 * Plus the property every problem report must keep: a file, a line and column inside it, a message.
 */
import fc from 'fast-check';
import * as assert from 'uvu/assert';
import type { Issue } from '../../src/errors.ts';
import { NASTY_CHARS, text } from './arbitraries.ts';

type Path = Array<string | number>;

/** Every path to a value inside `root` (root itself is []). */
function pathsOf(root: unknown): Path[] {
  const out: Path[] = [[]];
  const walk = (v: unknown, p: Path) => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => {
        out.push([...p, i]);
        walk(x, [...p, i]);
      });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        out.push([...p, k]);
        walk(x, [...p, k]);
      }
    }
  };
  walk(root, []);
  return out;
}

function getAt(root: unknown, p: Path): unknown {
  let cur = root;
  for (const k of p) cur = (cur as Record<string | number, unknown>)[k];
  return cur;
}

/** Sets (or with `undefined`, deletes) the value at a path; the root cannot be deleted. */
function setAt(root: unknown, p: Path, value: unknown): unknown {
  if (p.length === 0) return value;
  const parent = getAt(root, p.slice(0, -1)) as Record<string | number, unknown> | unknown[];
  const key = p[p.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete (parent as Record<string, unknown>)[key as string];
  } else if (key === '__proto__') {
    Object.defineProperty(parent, key, { value, enumerable: true, configurable: true, writable: true });
  } else (parent as Record<string | number, unknown>)[key] = value;
  return root;
}

const KNOWN_KEYS = [
  'apiVersion',
  'kind',
  'metadata',
  'spec',
  'name',
  'id',
  'tiles',
  'tags',
  'series',
  'threshold',
  'thresholdType',
  'interval',
  'source',
  'tile',
  'channel',
  'webhookId',
  'dashboard',
  'organizationId',
  'serviceId',
  'backups',
  'pipes',
  'expected',
  'resources',
  'observability',
  'cloud',
  'environments',
  'token',
  'env',
];

/** Keys a user (or an attacker) might add. */
const unknownKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '<<',
    '',
    ' ',
    '0',
    '-1',
    '1e3',
    'true',
    'null',
    '~',
    '/',
    '~1',
    'a/b',
    'a~b',
    '$ref',
    'x'.repeat(300),
  ),
  // near misses of real keys: "did you mean"
  fc.tuple(fc.constantFrom(...KNOWN_KEYS), fc.nat()).map(([k, n]) => {
    const i = n % k.length;
    return n % 3 === 0 ? k.slice(0, i) + k.slice(i + 1) : n % 3 === 1 ? k.toUpperCase() : k + 's';
  }),
  text({ minLength: 1, maxLength: 12 }),
);

/** Values of the wrong type (or the right type with the wrong content) for any field. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -0,
    -1,
    1.5,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    NaN,
    Infinity,
    -Infinity,
    '',
    ' ',
    '0',
    'yes',
    'no',
    'null',
    '~',
    '2026-01-01',
    '0x1F',
    '1e3',
    [],
    {},
    [[]],
    [{}],
    { a: { b: {} } },
  ),
  fc.integer(),
  fc.double(),
  text({ maxLength: 30 }),
  fc.array(fc.oneof(fc.integer(), text()), { maxLength: 4 }),
  fc.dictionary(unknownKey, fc.oneof(fc.integer(), text()), { maxKeys: 3, noNullPrototype: true }),
);

function nest(depth: number, asList: boolean, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asList ? [v] : { n: v };
  return v;
}

export type ValueMutation =
  | { op: 'type'; pick: number; value: unknown }
  | { op: 'delete'; pick: number }
  | { op: 'unknown'; pick: number; key: string; value: unknown }
  | { op: 'nest'; pick: number; depth: number; asList: boolean }
  | { op: 'unicode'; pick: number; chars: string; at: number }
  | { op: 'huge'; pick: number; size: number; unit: string }
  | { op: 'kind'; kind: unknown };

export const valueMutation: fc.Arbitrary<ValueMutation> = fc.oneof(
  fc.record({ op: fc.constant('type' as const), pick: fc.nat(), value: wrongValue }),
  fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ op: fc.constant('unknown' as const), pick: fc.nat(), key: unknownKey, value: wrongValue }),
  fc.record({
    op: fc.constant('nest' as const),
    pick: fc.nat(),
    depth: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 60, max: 70 }), fc.integer({ min: 100, max: 400 })),
    asList: fc.boolean(),
  }),
  fc.record({
    op: fc.constant('unicode' as const),
    pick: fc.nat(),
    chars: fc.array(fc.constantFrom(...NASTY_CHARS), { minLength: 1, maxLength: 5 }).map((a) => a.join('')),
    at: fc.nat(),
  }),
  fc.record({
    op: fc.constant('huge' as const),
    pick: fc.nat(),
    // Mostly large but under the 4 MiB file limit; sometimes over it.
    size: fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1000, max: 200_000 }) }, { weight: 1, arbitrary: fc.integer({ min: 4_200_000, max: 4_400_000 }) }),
    unit: fc.constantFrom('a', 'é', '𝔘', '\u202e', ' ', '\n'),
  }),
  fc.record({
    op: fc.constant('kind' as const),
    kind: fc.oneof(fc.constantFrom('Dashboard', 'Alert', 'CloudService', 'Project', 'dashboard', 'Dashbord', '', null, 1, ['Alert']), text()),
  }),
);

/** Applies value mutations to a copy of `doc`. */
export function mutateValue(doc: unknown, muts: readonly ValueMutation[]): unknown {
  let root = structuredClone(doc);
  for (const m of muts) {
    if (m.op === 'kind') {
      if (root !== null && typeof root === 'object' && !Array.isArray(root)) (root as Record<string, unknown>)['kind'] = m.kind;
      continue;
    }
    const paths = pathsOf(root);
    const p = paths[m.pick % paths.length]!;
    const cur = getAt(root, p);
    switch (m.op) {
      case 'type':
        root = setAt(root, p, m.value);
        break;
      case 'delete':
        if (p.length > 0) root = setAt(root, p, undefined);
        break;
      case 'unknown':
        if (cur !== null && typeof cur === 'object' && !Array.isArray(cur)) setAt(cur, [m.key], m.value);
        else if (Array.isArray(cur)) cur.push(m.value);
        break;
      case 'nest':
        root = setAt(root, p, nest(m.depth, m.asList, cur ?? 'leaf'));
        break;
      case 'unicode': {
        // Object.prototype.toString, not String(): an object the mutations gave a `toString: 0` key cannot be
        // converted (TypeError, a fault of this harness, not of steward; soak run 2026-11-27).
        const s = typeof cur === 'string' ? cur : cur !== null && typeof cur === 'object' ? Object.prototype.toString.call(cur) : String(cur);
        const i = m.at % (s.length + 1);
        root = setAt(root, p, s.slice(0, i) + m.chars + s.slice(i));
        break;
      }
      case 'huge':
        root = setAt(root, p, m.unit.repeat(Math.ceil(m.size / m.unit.length)));
        break;
    }
  }
  return root;
}

export type TextMutation =
  | { op: 'truncate'; at: number }
  | { op: 'insert'; at: number; what: string }
  | { op: 'duplicateLine'; line: number }
  | { op: 'deleteLine'; line: number }
  | { op: 'indent'; line: number; by: number }
  | { op: 'anchor'; a: number; b: number; name: string }
  | { op: 'aliasBomb' }
  | { op: 'bytes'; at: number; bytes: readonly number[] };

const STRAY = [
  '\t',
  ':',
  ': ',
  ':\n',
  '[',
  ']',
  '{',
  '}',
  ',',
  '"',
  "'",
  '&a ',
  '*a',
  '*a ',
  '*undefined ',
  '!!binary ',
  '!!int ',
  '!!map ',
  '!foo ',
  '!<tag:x> ',
  '? ',
  '- ',
  '|',
  '|-\n',
  '>',
  '#',
  '%YAML 1.1\n',
  '%TAG ! tag:x,2000:\n',
  '---\n',
  '...\n',
  '\n',
  '\r',
  '\r\n',
  '\u0000',
  '\ufeff',
  '<<: *a\n',
  '<<: {a: 1}\n',
  '   ',
  '\\',
  '${',
  '${X',
  '${1}',
  '$${',
  '\u2028',
  '\u0085',
  '@',
  '`',
];

export const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    what: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...STRAY) }, { weight: 1, arbitrary: fc.constantFrom(...NASTY_CHARS) }),
  }),
  fc.record({ op: fc.constant('duplicateLine' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('deleteLine' as const), line: fc.nat() }),
  fc.record({ op: fc.constant('indent' as const), line: fc.nat(), by: fc.integer({ min: -4, max: 4 }) }),
  fc.record({ op: fc.constant('anchor' as const), a: fc.nat(), b: fc.nat(), name: fc.constantFrom('a', 'x1', 'ä', 'a]') }),
  fc.constant({ op: 'aliasBomb' as const }),
  fc.record({
    op: fc.constant('bytes' as const),
    at: fc.nat(),
    bytes: fc.constantFrom([0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x00], [0x0d]),
  }),
);

const BOMB = `a: &a ["x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
`;

/** Applies text mutations; returns the bytes of the file. */
export function mutateText(input: string, muts: readonly TextMutation[]): Buffer {
  let s = input;
  const byteOps: Array<Extract<TextMutation, { op: 'bytes' }>> = [];
  for (const m of muts) {
    const lines = s.split('\n');
    switch (m.op) {
      case 'truncate':
        s = s.slice(0, m.at % (s.length + 1));
        break;
      case 'insert': {
        const i = m.at % (s.length + 1);
        s = s.slice(0, i) + m.what + s.slice(i);
        break;
      }
      case 'duplicateLine': {
        const i = m.line % lines.length;
        lines.splice(i, 0, lines[i]!);
        s = lines.join('\n');
        break;
      }
      case 'deleteLine':
        lines.splice(m.line % lines.length, 1);
        s = lines.join('\n');
        break;
      case 'indent': {
        const i = m.line % lines.length;
        const l = lines[i]!;
        lines[i] = m.by >= 0 ? ' '.repeat(m.by) + l : l.replace(new RegExp(`^ {0,${-m.by}}`), '');
        s = lines.join('\n');
        break;
      }
      case 'anchor': {
        // `&name` in front of one value, `*name` in place of another.
        const values = [...s.matchAll(/: (?=\S)/g)].map((x) => x.index! + 2);
        if (values.length === 0) break;
        const a = values[m.a % values.length]!;
        const b = values[m.b % values.length]!;
        if (a === b) {
          s = s.slice(0, a) + `&${m.name} ` + s.slice(a);
        } else {
          const endB = s.indexOf('\n', b) === -1 ? s.length : s.indexOf('\n', b);
          const replaced = s.slice(0, b) + `*${m.name}` + s.slice(endB);
          const a2 = a < b ? a : a - (endB - b) + m.name.length + 1;
          s = replaced.slice(0, a2) + `&${m.name} ` + replaced.slice(a2);
        }
        break;
      }
      case 'aliasBomb':
        s = BOMB + s;
        break;
      case 'bytes':
        byteOps.push(m);
        break;
    }
  }
  let buf = Buffer.from(s, 'utf8');
  for (const m of byteOps) {
    const i = m.at % (buf.length + 1);
    buf = Buffer.concat([buf.subarray(0, i), Buffer.from(m.bytes), buf.subarray(i)]);
  }
  return buf;
}

/**
 * The contract of every problem report: the file it names, a line from 1 to the file's last line, a
 * column from 1 to one past that line's end, and a message. Lines are counted as `\n` separated; the
 * column bound is the line's length in bytes (an upper bound for columns counted in characters too).
 */
export function assertIssuesWellFormed(issues: readonly Issue[], files: ReadonlyMap<string, Uint8Array>, context: () => string): void {
  const counted = new Map<string, number[]>();
  for (const i of issues) {
    // The context is built only for a failure: it can be megabytes.
    const ensure = (ok: boolean, what: string) => {
      if (!ok) assert.unreachable(`${what}: ${JSON.stringify(i).slice(0, 1000)}\n${context()}`);
    };
    const bytes = files.get(i.file);
    ensure(bytes !== undefined, 'issue names a file that was not given');
    ensure(typeof i.message === 'string' && i.message.trim().length > 0, 'empty message');
    ensure(i.severity === 'error' || i.severity === 'warning', 'severity');
    ensure(typeof i.pointer === 'string', 'pointer');
    ensure(Number.isInteger(i.line) && i.line >= 1, 'line < 1');
    ensure(Number.isInteger(i.col) && i.col >= 1, 'col < 1');
    let lines = counted.get(i.file);
    if (!lines) counted.set(i.file, (lines = lineLengths(bytes!)));
    ensure(i.line <= lines.length, `line ${i.line} beyond the file's ${lines.length} lines`);
    ensure(i.col <= lines[i.line - 1]! + 1, `col ${i.col} beyond line ${i.line}'s ${lines[i.line - 1]} bytes`);
  }
}

/** Byte length of each `\n`-separated line. */
export function lineLengths(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a) {
      out.push(i - start);
      start = i + 1;
    }
  }
  out.push(bytes.length - start);
  return out;
}
