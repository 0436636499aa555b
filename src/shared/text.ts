/** `1 file`, `2 files`: for words whose plural takes an s. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Code-unit order (not locale order): the same on every machine, so outputs stay byte-identical. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Names for a message, comma-separated: at most `max` of them, then how many more. A server's list (or a
 * dashboard's tiles) can be any length, and a message must stay one readable line.
 */
export function listSome(items: readonly string[], max = 10): string {
  if (items.length <= max) return items.join(', ');
  return `${items.slice(0, max).join(', ')}, … and ${items.length - max} more`;
}
