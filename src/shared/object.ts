/** A JSON object (a mapping): not null, not a list. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets `out[key]` as an own data member: a key named `__proto__` stays a member instead of setting the prototype. */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
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
