import { parse, Scalar, visit, type Document } from 'yaml';
import { UNSAFE_BEYOND_C0 } from './escape.ts';

/**
 * A YAML file steward writes never holds a character of UNSAFE_BEYOND_C0 raw (`yaml` escapes only C0, and YAML
 * counts neither DEL nor C1 printable): a bidirectional override would make a reviewer read a reordered line
 * in a pull request ("Trojan Source").
 */
const UNSAFE_ALL = new RegExp(UNSAFE_BEYOND_C0.source, 'gu');

/** Private-use pairs that stand for an escape while `yaml` writes the text; the first absent from it is used. */
const MARKS: ReadonlyArray<[string, string]> = [
  ['\ue000', '\ue001'],
  ['\uf8fe', '\uf8ff'],
  ['\u{10fffc}', '\u{10fffd}'],
];

/**
 * A plain string a YAML 1.1 reader takes for something else: `yes`, `No`, `on`, `OFF` (booleans), `1_000`,
 * `0b101`, `012`, `1:30` (numbers), `2026-11-27` (a date). The single letters `y` and `n`, booleans in the 1.1
 * spec but strings to PyYAML and most readers, stay plain: quoting every `y` would churn users' tag lists. steward reads YAML 1.2, where they are strings, but
 * the files it writes also go through yamllint, PyYAML, Ansible or Helm, which read 1.1: an alert named `yes`
 * would be `true` there. The screen keeps the 1.1 parse to the few strings that could need it.
 */
const MAYBE_11 = /^(?:[-+.~0-9][-+.:_0-9a-fA-FoxX ]{0,39}|[Yy]es|YES|[Nn]o|NO|[Oo]n|ON|[Oo]ff|OFF|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
function readsOtherwiseIn11(s: string): boolean {
  if (!MAYBE_11.test(s)) return false;
  try {
    return parse(s, { version: '1.1' }) !== s;
  } catch {
    return false;
  }
}

/**
 * A document's YAML text (no folding), with every unsafe character of a string (value or key) written as a
 * `\u` (or `\U`) escape of a double-quoted scalar, and every string value a YAML 1.1 reader would take for
 * something else quoted, where steward chose the style (a scalar read from the user's file keeps theirs; keys stay
 * plain: `y:` of a tile is a key, never a value). The file reads back as the
 * very same strings under 1.2 and 1.1, and shows in an editor, a terminal or a diff as what it holds. The
 * document is left as it was.
 */
export function yamlText(doc: Document): string {
  // The scalars are restyled for writing, and put back as they were after: the document is the caller's.
  const changed: Array<[Scalar, string, Scalar['type']]> = [];
  let unsafe = false;
  visit(doc, {
    Scalar(key, node) {
      if (typeof node.value !== 'string') return;
      if (UNSAFE_BEYOND_C0.test(node.value)) unsafe = true;
      else if (key !== 'key' && node.type === undefined && readsOtherwiseIn11(node.value)) {
        changed.push([node, node.value, node.type]);
        node.type = Scalar.QUOTE_DOUBLE;
      }
    },
  });
  try {
    return unsafe ? escapedText(doc, changed) : doc.toString({ lineWidth: 0 });
  } finally {
    for (const [node, value, type] of changed) {
      node.value = value;
      node.type = type;
    }
  }
}

/** The text with each unsafe character marked while `yaml` writes it, then the marks made escapes. */
function escapedText(doc: Document, changed: Array<[Scalar, string, Scalar['type']]>): string {
  const plain = doc.toString({ lineWidth: 0 });
  const mark = MARKS.find(([open, close]) => !plain.includes(open) && !plain.includes(close));
  // Every mark is in the text already (a hostile value holding all six): refuse rather than write raw.
  if (!mark) throw new Error('cannot write this YAML safely: its strings hold every private-use marker steward escapes with');
  const [open, close] = mark;
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string' || !UNSAFE_BEYOND_C0.test(node.value)) return;
      changed.push([node, node.value, node.type]);
      node.value = node.value.replace(UNSAFE_ALL, (c) => `${open}${c.codePointAt(0)!.toString(16)}${close}`);
      node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  const text = doc.toString({ lineWidth: 0 });
  const marked = new RegExp(`${open}([0-9a-f]+)${close}`, 'gu');
  return text.replace(marked, (_m, hex: string) => (hex.length <= 4 ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`));
}
