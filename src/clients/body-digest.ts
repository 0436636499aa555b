/**
 * The digest of the body a list was parsed from, kept beside the list without changing it (a WeakMap, not a
 * property that JSON.stringify or a deep compare would see). The plan's live memo keys what it remembers of
 * a list by it (src/workflows/live-side.ts): the same bytes from the same API parse to the same list.
 */
const digests = new WeakMap<object, string>();

/** Records `digest` (the API's name and the sha256 of the body's bytes) for a list parsed from that body. */
export function rememberBodyDigest(list: object, digest: string): void {
  digests.set(list, digest);
}

/** The digest recorded for this very list object; undefined for any other (a copy, a list built in a test). */
export function bodyDigestOf(list: object): string | undefined {
  return digests.get(list);
}
