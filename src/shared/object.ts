/** A JSON object (a mapping): not null, not a list. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Sets `out[key]` as an own data member: a key named `__proto__` stays a member instead of setting the
 * prototype. Only that key needs defineProperty (~20x slower than an assignment, and this runs per member of
 * every normalized form): for a plain object any other key assigned makes the same own, writable member.
 */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

/**
 * A deep copy of plain data (arrays, plain objects, and what they hold, -0 and holes kept), anything else
 * through structuredClone: the same result as structuredClone for a document, without its serialization
 * (a create body of 12 tiles was copied ~3x faster).
 */
export function copyPlain<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(copyPlain) as T;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v)) setOwn(out, k, copyPlain((v as Record<string, unknown>)[k]));
  return out as T;
}

/**
 * Sets `value` under `key` as an own member, numbering a key already taken (`key #2`, `key #3`...): two keys
 * that a redaction made equal both stay.
 */
export function setUnique(out: Record<string, unknown>, key: string, value: unknown): void {
  let name = key;
  for (let n = 2; Object.hasOwn(out, name); n++) name = `${key} #${n}`;
  setOwn(out, name, value);
}

/**
 * `value` with every `null` member and list entry removed, at any depth (a copy; the input is not changed).
 * Real servers send `null` where a contract says a member may be absent; readers that treat the two alike
 * use this so they only ever see a value or nothing.
 */
export function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(withoutNulls) as T;
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) setOwn(out, k, withoutNulls(v));
    return out as T;
  }
  return value;
}
