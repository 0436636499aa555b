import { escapePathComponent, unescapePathComponent } from 'fast-json-patch';

/** `/tiles/0/a~1b` → `['tiles', '0', 'a/b']` (RFC 6901). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer.slice(1).split('/').map(unescapePathComponent);
}

/** One pointer segment, escaped (`a/b` → `a~1b`). */
export const escapeSegment = escapePathComponent;

export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + escapePathComponent(String(s))).join('');
}

/**
 * The value a pointer names, or undefined. Own properties only: a pointer from a file or a server
 * (`/__proto__/x`) never reaches the prototype.
 */
export function valueAt(root: unknown, pointer: string): unknown {
  let cur: unknown = root;
  for (const key of pointerSegments(pointer)) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, key)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
