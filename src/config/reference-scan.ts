/**
 * What a file's bytes say about the `${NAME}` references its scalars may hold, without parsing it: whether
 * interpolation can change anything (most files: no), whether the fast parser may read it, and whether the
 * variables it reads can be listed from its text (the parse cache keys on them).
 */

/** Double-quoted escapes that make a "$". */
const ESCAPED_DOLLARS = ['\\x24', '\\u0024', '\\U00000024'].map((e) => Buffer.from(e));

/**
 * Whether any scalar of the file can hold "${": only if its text has a "$", or a double-quoted escape that
 * makes one. Interpolation walks every node (about a tenth of a file's parse), so files without either,
 * most of them, skip it.
 */
export function mayHoldReference(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.indexOf(0x24) !== -1 || ESCAPED_DOLLARS.some((e) => buf.indexOf(e) !== -1);
}

const DOLLAR_BRACE = Buffer.from('${');

/**
 * Whether any scalar of the file can hold "${" (narrower than mayHoldReference: a `$schema` comment is
 * fine). Only a "${" in the text, an escape that makes a "$", or a "$" with any backslash (a double-quoted
 * line continuation can join "$" and "{") can; otherwise interpolation changes nothing.
 */
export function mayFormReference(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.indexOf(DOLLAR_BRACE) !== -1 || mayHideReference(bytes);
}

/**
 * Whether an escape could make a reference the text does not show as "${NAME}": `"\x24{X}"`, `"$\x7bX}"`,
 * a name with an escaped letter, a "$" and a "{" joined by a double-quoted line continuation. Only with a
 * backslash and a "$" (or an escape that makes one). Then the variables a file reads are known only after
 * parsing it (the parse cache does not keep such a file).
 */
export function mayHideReference(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.indexOf(0x5c) === -1) return false;
  return buf.indexOf(0x24) !== -1 || ESCAPED_DOLLARS.some((e) => buf.indexOf(e) !== -1);
}

const ESCAPES_OF_CODE_UNITS = ['\\u', '\\U'].map((e) => Buffer.from(e));

/**
 * Whether a scalar of the file can hold half a character (a lone surrogate): valid UTF-8 encodes none (the
 * decoder refuses the bytes), so only a double-quoted `\uXXXX` or `\UXXXXXXXX` escape can make one, or a
 * `${VAR}` whose value is inserted as it is. The schema check looks for them only then (validateKind).
 */
export function mayHoldHalfCharacter(bytes: Uint8Array): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return ESCAPES_OF_CODE_UNITS.some((e) => buf.indexOf(e) !== -1) || mayFormReference(bytes);
}
