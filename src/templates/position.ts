import { isScalar, Scalar, type Document } from 'yaml';

/**
 * The absolute character offset of `offset` characters into the string value at `segments`, when the
 * file's text shows that value as written (a one-line plain scalar, or a quoted one without escapes), so a
 * problem with one `$(...)` of a longer string points at that reference rather than at the string's start.
 * Undefined otherwise (the caller then points at the string). Pure.
 */
export function offsetInScalar(doc: Document.Parsed, text: string, segments: readonly string[], offset: number): number | undefined {
  const node = doc.getIn(segments, true);
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
  const [start, end] = node.range;
  const raw = text.slice(start, end);
  if (node.type === Scalar.PLAIN && raw === node.value) return start + offset;
  if ((node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE) && raw.slice(1, -1) === node.value) return start + 1 + offset;
  return undefined;
}
