/**
 * Whether JSON carries the value unchanged: strings, finite numbers other than -0, booleans, null, arrays
 * and plain objects only (JSON.parse reads `1e999` as Infinity and YAML has .nan, .inf and -0, which JSON
 * would write as null and 0). An explicit stack: any depth is safe.
 */
export function isExactJson(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return false;
      continue;
    }
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
      continue;
    }
    return false;
  }
  return true;
}
