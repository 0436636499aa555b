import { createHash, type Hash } from 'node:crypto';
import { isExactJson } from '../shared/json.ts';
import type { LiveDashboardInput, StateFile } from './types.ts';

/** Text already written, on the work stack of canonicalJson. */
class Lit {
  constructor(readonly text: string) {}
}

/** Nesting beyond which canonicalJson leaves recursion for its explicit stack. */
const RECURSION_LIMIT = 200;
const TOO_DEEP: unique symbol = Symbol('too deep');

/**
 * JSON with object keys sorted, so equal values always give equal text. Values nested up to
 * RECURSION_LIMIT deep (every normalized dashboard) are written recursively, 2-3x faster than the work
 * stack; anything deeper is written again with the stack, so a deeply nested value cannot overflow the
 * call stack. Both give the same text.
 */
export function canonicalJson(value: unknown): string {
  try {
    return canonicalRecursive(value, 0);
  } catch (e) {
    if (e !== TOO_DEEP) throw e;
    return canonicalIterative(value);
  }
}

function canonicalRecursive(v: unknown, depth: number): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (depth > RECURSION_LIMIT) throw TOO_DEEP;
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i > 0 ? ',' : '') + canonicalRecursive(v[i], depth + 1);
    return out + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = sortedKeysOf(o);
  let out = '{';
  let first = true;
  for (const k of keys) {
    const x = o[k];
    if (x === undefined) continue;
    out += (first ? '' : ',') + quotedKey(k) + ':' + canonicalRecursive(x, depth + 1);
    first = false;
  }
  return out + '}';
}

/**
 * An object's keys in sorted order, for the canonical writers here and in normalize.ts. The objects hashed
 * come in runs of one shape (10,000 plan items, the tiles of a dashboard): when the keys are the last
 * object's, in the same order, its sorted keys are reused; keys already in order (the normalized forms are
 * built so) need no sort. The arrays returned are never changed.
 */
let lastKeys: string[] = [];
let lastSorted: string[] = [];
export function sortedKeysOf(o: object): string[] {
  const keys = Object.keys(o);
  if (keys.length === lastKeys.length) {
    let same = true;
    for (let i = 0; i < keys.length && same; i++) same = keys[i] === lastKeys[i];
    if (same) return lastSorted;
  }
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!;
  lastKeys = keys;
  lastSorted = sorted ? keys : [...keys].sort();
  return lastSorted;
}

/**
 * A key as JSON writes it, remembered for the few dozen names plans, states and normalized forms use
 * (bounded: a live dashboard's own keys could be anything).
 */
const quotedKeys = new Map<string, string>();
export function quotedKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
}

/** canonicalJson with an explicit stack (no recursion), for values of any depth. */
export function canonicalIterative(value: unknown): string {
  let out = '';
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof Lit) {
      out += v.text;
      continue;
    }
    if (v === null || typeof v !== 'object') {
      out += JSON.stringify(v) ?? 'null';
      continue;
    }
    if (Array.isArray(v)) {
      stack.push(new Lit(']'));
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(v[i]);
        if (i > 0) stack.push(new Lit(','));
      }
      out += '[';
      continue;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined);
    stack.push(new Lit('}'));
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push(o[keys[i]!]);
      stack.push(new Lit(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`));
    }
    out += '{';
  }
  return out;
}

/**
 * A digest of everything a plan was computed from on the service side: the live dashboards (whole, in id
 * order) and the alert records. Apply recomputes it before writing; any difference means the plan is stale.
 *
 * Two steps (format 3): `liveDigest` of the dashboards, then `fingerprintOf` that digest, the alert records
 * and the live alerts. The first step is the costly one at scale (each dashboard written as JSON, ~0.25 s at
 * 10,000), so the live memo keeps it per list body (src/workflows/live-side.ts): a plan of a service that
 * sent the same bytes as last time hashes the bytes, not the dashboards (issue 15).
 */
export function fingerprintLive(
  live: readonly LiveDashboardInput[],
  state: StateFile,
  liveAlerts?: ReadonlyArray<{ id: string }>,
  textOf: (d: LiveDashboardInput) => string = dashboardText,
): string {
  const f = liveFingerprint(live);
  f.hashUpTo(live.length, textOf);
  return fingerprintOf(f.digest(), state, liveAlerts);
}

/** The fingerprint of a list whose `liveDigest` is known, the alert records and (profiles that read them) the live alerts. */
export function fingerprintOf(liveDigest: string, state: StateFile, liveAlerts?: ReadonlyArray<{ id: string }>): string {
  const h = createHash('sha256').update(`fingerprint/3\u0000${liveDigest}\u0000`);
  h.update(exactCanonicalText(state.alerts));
  // Profiles that read alerts: the live alerts are part of what the plan was computed from.
  if (liveAlerts) {
    h.update('\u0000');
    h.update(exactCanonicalText([...liveAlerts].sort(byId)));
  }
  return `sha256:${h.digest('hex')}`;
}

/**
 * The digest of the live dashboards, hashed as the JSON they were parsed from says them (`JSON.stringify`,
 * keys in the order the server sent them), not a key-sorted canonical form: 5-10x cheaper on a large service
 * (issue 15), and still exact: any change of a value changes the text. A server that reorders the keys of an
 * unchanged dashboard between two reads would make a plan stale (a refusal, never a wrong write). The sort by
 * id keeps the server's list order out of it.
 *
 * In steps, so that a caller that needs each dashboard's text for something else (the live memo's key) makes
 * it once: `order` is the dashboards in the order they are hashed, `hashUpTo(n, textOf)` hashes them up to the
 * n-th and calls `textOf` once for each, `digest` hashes the rest and gives the digest. The same digest
 * whatever the steps.
 */
export function liveFingerprint(live: readonly LiveDashboardInput[]): {
  order: readonly LiveDashboardInput[];
  hashUpTo(n: number, textOf: (d: LiveDashboardInput) => string): void;
  digest(textOf?: (d: LiveDashboardInput) => string): string;
} {
  const order = [...live].sort(byId);
  const h = createHash('sha256').update('live/3[');
  const s = sliceHasher(order, h);
  let digest: string | undefined;
  return {
    order,
    // Once finished, a late step (a prepare that resumes after the plan took the digest) hashes nothing.
    hashUpTo: (n, textOf) => void (digest === undefined && s.hashUpTo(n, textOf)),
    digest(textOf = dashboardText) {
      if (digest !== undefined) return digest;
      s.hashUpTo(order.length, textOf);
      digest = h.update(']').digest('hex');
      return digest;
    },
  };
}

/**
 * Hashes dashboards in slices of 1,000, each as the text JSON.stringify gives the slice (an array of objects:
 * its members' texts between commas), written per dashboard: no string of the whole list (it would pass V8's
 * maximum string length at 100,000 dashboards).
 */
function sliceHasher(order: readonly LiveDashboardInput[], h: Hash) {
  let next = 0;
  return {
    hashUpTo(n: number, textOf: (d: LiveDashboardInput) => string) {
      for (; next < Math.min(n, order.length); next++) {
        const inSlice = next % 1000;
        h.update(inSlice === 0 ? '[' : ',');
        h.update(textOf(order[next]!));
        if (inSlice === 999 || next === order.length - 1) h.update(']\u0000');
      }
    },
  };
}

/**
 * The fingerprint as steward wrote it before format 3 (one hash over the dashboards and the alert records).
 * Only to tell whether a plan saved by an earlier version still holds; never written now.
 */
export function legacyFingerprint(live: readonly LiveDashboardInput[], state: StateFile, liveAlerts?: ReadonlyArray<{ id: string }>): string {
  const h = createHash('sha256').update('live/2[');
  sliceHasher([...live].sort(byId), h).hashUpTo(live.length, dashboardText);
  h.update(']\u0000');
  h.update(exactCanonicalText(state.alerts));
  if (liveAlerts) {
    h.update('\u0000');
    h.update(exactCanonicalText([...liveAlerts].sort(byId)));
  }
  return `sha256:${h.digest('hex')}`;
}

/** Whether a saved plan's fingerprint is the one of this live state: format 3, or the format before it. */
export function fingerprintHolds(
  saved: string,
  now: string,
  live: readonly LiveDashboardInput[],
  state: StateFile,
  liveAlerts?: ReadonlyArray<{ id: string }>,
): boolean {
  return saved === now || saved === legacyFingerprint(live, state, liveAlerts);
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * A live dashboard's text as the fingerprint (and the live memo's key) hashes it: `JSON.stringify`, as an
 * array member says it, where that says the value exactly. JSON.parse reads `1e999` as Infinity, which
 * `JSON.stringify` writes as `null`: a dashboard holding one gets the tagged text of `inexactText`, so a
 * server changing `null` into `1e999` changes the fingerprint and misses the memo (red team, round 3).
 * Only a text holding `null` can hide a non-finite number, so the walk runs for those alone.
 */
export function dashboardText(d: LiveDashboardInput): string {
  const text = JSON.stringify(d) ?? 'null';
  return text.includes('null') && !isExactJson(d) ? inexactText(d, false) : text;
}

/** canonicalJson where that says the value exactly, else the tagged text of `inexactText` (sorted keys). */
function exactCanonicalText(v: unknown): string {
  const text = canonicalJson(v);
  return text.includes('null') && !isExactJson(v) ? inexactText(v, true) : text;
}

/**
 * A text that tells apart values JSON cannot say exactly (NaN, ±Infinity and -0 as tagged strings; a
 * string that could look tagged escaped), prefixed by `~`, which no JSON text starts with: it never equals
 * an exact text nor another value's.
 */
function inexactText(v: unknown, sortKeys: boolean): string {
  const text =
    JSON.stringify(v, (_k, x: unknown) => {
      if (typeof x === 'number') return Number.isFinite(x) && !Object.is(x, -0) ? x : `\u0000n:${Object.is(x, -0) ? '-0' : String(x)}`;
      if (typeof x === 'string' && x.startsWith('\u0000')) return `\u0000s:${x}`;
      return x;
    }) ?? 'null';
  return `~${sortKeys ? canonicalJson(JSON.parse(text)) : text}`;
}
