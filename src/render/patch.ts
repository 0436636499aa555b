import type { Operation } from 'fast-json-patch';

/** A value on one line, cut to `max` characters. */
export function short(v: unknown, max = 80): string {
  const s = v === undefined ? 'undefined' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v);
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function pointerToPath(p: string): string {
  return p
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join(' › ');
}

function valueAt(doc: unknown, pointer: string): unknown {
  let cur = doc;
  for (const seg of pointer.split('/').slice(1)) {
    const k = seg.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

export interface PatchLine {
  sign: '+' | '-' | '~';
  path: string;
  text: string;
}

/** Field-level lines for a patch: `~ tiles › Errors › w: 12 → 6`. */
export function patchLines(patch: readonly Operation[], before: unknown, max = 80): PatchLine[] {
  return patch.map((op) => {
    const path = pointerToPath(op.path);
    switch (op.op) {
      case 'add':
        return { sign: '+', path, text: `${path}: ${short(op.value, max)}` };
      case 'remove':
        return { sign: '-', path, text: `${path}: ${short(valueAt(before, op.path), max)}` };
      case 'replace':
        return { sign: '~', path, text: `${path}: ${short(valueAt(before, op.path), max / 2)} → ${short(op.value, max / 2)}` };
      default:
        return { sign: '~', path, text: `${op.op} ${path}` };
    }
  });
}
