/** `1 file`, `2 files`: for words whose plural takes an s. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Code-unit order (not locale order): the same on every machine, so outputs stay byte-identical. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
