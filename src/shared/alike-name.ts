/**
 * A name as a service that normalizes names may store it: Unicode NFC, spaces trimmed and runs of them made one,
 * case folded. Two names alike this way may be one dashboard on such a service (apply: a create looked for
 * after a lost answer; plan: a create beside a listed dashboard of the project with a name alike).
 */
export function alikeName(name: string): string {
  return name.normalize('NFC').trim().replace(/\s+/gu, ' ').toLowerCase();
}
