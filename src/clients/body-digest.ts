import { createHash } from 'node:crypto';

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

/**
 * sha256 (base64url) of a body with the string value of its top-level `requestId` set aside, for an envelope
 * like ClickHouse Cloud's `{"status":200,"requestId":"<new every call>","result":[...]}`: two answers that
 * differ only there parse to the same list (steward reads nothing of requestId, and its schema takes any
 * string), so they get one digest, and the plan's live memo can know a list it saw before. Only members
 * before the first object or array value are looked at (the envelope's head, never the list); anything
 * else about the body (a requestId that is no plain string, no requestId there) hashes the bytes whole.
 * The place of the value is hashed too, so one digest is never two ways of cutting different bodies.
 */
export function digestWithoutRequestId(body: Buffer): string {
  const span = requestIdSpan(body);
  if (!span) return createHash('sha256').update(body).digest('base64url');
  return createHash('sha256').update(`requestId@${span[0]}\u0000`).update(body.subarray(0, span[0])).update(body.subarray(span[1])).digest('base64url');
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const REQUEST_ID = Buffer.from('"requestId"');

/** [start, end) of the top-level requestId's string value (quotes included), or undefined. */
export function requestIdSpan(b: Buffer): [number, number] | undefined {
  let i = 0;
  const ws = () => {
    while (i < b.length && WS.has(b[i]!)) i++;
  };
  /** End (after the closing quote) of the string starting at i, or -1. */
  const stringEnd = (from: number): number => {
    for (let j = from + 1; j < b.length; j++) {
      const c = b[j]!;
      if (c === 0x5c) j++;
      else if (c === 0x22) return j + 1;
      else if (c < 0x20) return -1;
    }
    return -1;
  };
  ws();
  if (b[i] !== 0x7b) return undefined;
  i++;
  for (;;) {
    ws();
    if (b[i] !== 0x22) return undefined;
    const keyEnd = stringEnd(i);
    if (keyEnd < 0) return undefined;
    const isRequestId = keyEnd - i === REQUEST_ID.length && b.subarray(i, keyEnd).equals(REQUEST_ID);
    i = keyEnd;
    ws();
    if (b[i] !== 0x3a) return undefined;
    i++;
    ws();
    const c = b[i];
    if (c === 0x22) {
      const end = stringEnd(i);
      if (end < 0) return undefined;
      if (isRequestId) return [i, end];
      i = end;
    } else if (c === 0x7b || c === 0x5b || c === undefined) {
      // The list (or another nested value): the head is over.
      return undefined;
    } else {
      // A number, true, false or null: up to the next separator.
      while (i < b.length && b[i] !== 0x2c && b[i] !== 0x7d && !WS.has(b[i]!)) i++;
    }
    ws();
    if (b[i] !== 0x2c) return undefined;
    i++;
  }
}
