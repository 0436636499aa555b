import { Scalar, visit, type Document } from 'yaml';
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
 * A document's YAML text (no folding), with every unsafe character of a string (value or key) written as a
 * `\u` (or `\U`) escape of a double-quoted scalar: the file reads back as the very same strings, and shows in
 * an editor, a terminal or a diff as what it holds. The document is left as it was.
 */
export function yamlText(doc: Document): string {
  const plain = doc.toString({ lineWidth: 0 });
  if (!UNSAFE_BEYOND_C0.test(plain)) return plain;
  const mark = MARKS.find(([open, close]) => !plain.includes(open) && !plain.includes(close));
  // Every mark is in the text already (a hostile value holding all six): refuse rather than write raw.
  if (!mark) throw new Error('cannot write this YAML safely: its strings hold every private-use marker steward escapes with');
  const [open, close] = mark;
  // The scalars are marked for writing, and put back as they were after: the document is the caller's.
  const changed: Array<[Scalar, string, Scalar['type']]> = [];
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string' || !UNSAFE_BEYOND_C0.test(node.value)) return;
      changed.push([node, node.value, node.type]);
      node.value = node.value.replace(UNSAFE_ALL, (c) => `${open}${c.codePointAt(0)!.toString(16)}${close}`);
      node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  let text: string;
  try {
    text = doc.toString({ lineWidth: 0 });
  } finally {
    for (const [node, value, type] of changed) {
      node.value = value;
      node.type = type;
    }
  }
  const marked = new RegExp(`${open}([0-9a-f]+)${close}`, 'gu');
  return text.replace(marked, (_m, hex: string) => (hex.length <= 4 ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`));
}
