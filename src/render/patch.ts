import type { Operation } from 'fast-json-patch';
import { pointerSegments, valueAt } from '../shared/pointer.ts';
import { pushAll } from '../shared/arrays.ts';

/** A value in full, as JSON on one line. */
function show(v: unknown): string {
  return v === undefined ? 'undefined' : typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
}

/** `/tiles/Errors/w` → `tiles › Errors › w`: how plans name a field. */
export function pointerToPath(p: string): string {
  return pointerSegments(p).join(' › ');
}

export interface PatchLine {
  sign: '+' | '-' | '~';
  path: string;
  text: string;
}

/**
 * Field-level lines for a patch: `~ tiles › Errors › w: 12 → 6`. Values are never cut: a change that does
 * not fit in `width` is written over several lines (same sign, text indented two spaces), long strings as
 * a word diff (`[-old-]{+new+}`, as git's --word-diff) wrapped at spaces, other values as a full `-`
 * line and a full `+` line. Tags are a set: one added tag is one `+ tags: "x"` line, whatever its position.
 */
export function patchLines(patch: readonly Operation[], before: unknown, width = 80): PatchLine[] {
  const w = Math.max(30, width);
  const out: PatchLine[] = [];
  for (const op of patch) {
    const path = /^\/tags\/(\d+|-)$/.test(op.path) ? 'tags' : pointerToPath(op.path);
    switch (op.op) {
      case 'add':
        pushAll(out, valueLines('+', path, op.value, w));
        break;
      case 'remove':
        pushAll(out, valueLines('-', path, valueAt(before, op.path), w));
        break;
      case 'replace':
        pushAll(out, replaceLines(path, valueAt(before, op.path), op.value, w));
        break;
      default:
        out.push({ sign: '~', path, text: `${op.op} ${path}` });
    }
  }
  return out;
}

function valueLines(sign: '+' | '-', path: string, v: unknown, width: number): PatchLine[] {
  const s = show(v);
  const one = `${path}: ${s}`;
  if (one.length <= width) return [{ sign, path, text: one }];
  return [{ sign, path, text: `${path}:` }, ...hardWrap(s, width - 2).map((t) => ({ sign, path, text: `  ${t}` }))];
}

function replaceLines(path: string, before: unknown, after: unknown, width: number): PatchLine[] {
  const one = `${path}: ${show(before)} → ${show(after)}`;
  if (one.length <= width) return [{ sign: '~', path, text: one }];
  const head: PatchLine = { sign: '~', path, text: `${path}:` };
  if (typeof before === 'string' && typeof after === 'string') {
    return [head, ...wrapWords(wordDiff(before, after), width - 2).map((t) => ({ sign: '~' as const, path, text: `  ${t}` }))];
  }
  return [
    head,
    ...hardWrap(show(before), width - 2).map((t) => ({ sign: '-' as const, path, text: `  ${t}` })),
    ...hardWrap(show(after), width - 2).map((t) => ({ sign: '+' as const, path, text: `  ${t}` })),
  ];
}

/** Words and the spaces between them, each a token; JSON escapes (newlines as \n) so every token is one line. */
function tokens(s: string): string[] {
  return (s.match(/\s+|[^\s]+/g) ?? []).map((t) => JSON.stringify(t).slice(1, -1));
}

/**
 * A word-level diff of two strings in one line of text: unchanged words as they are, removed ones as
 * `[-…-]`, added ones as `{+…+}`. Longest common subsequence of tokens; for very long strings the common
 * prefix and suffix only (still never cut before the first difference).
 */
export function wordDiff(a: string, b: string): string {
  const x = tokens(a);
  const y = tokens(b);
  let pre = 0;
  while (pre < x.length && pre < y.length && x[pre] === y[pre]) pre++;
  let suf = 0;
  while (suf < x.length - pre && suf < y.length - pre && x[x.length - 1 - suf] === y[y.length - 1 - suf]) suf++;
  const xm = x.slice(pre, x.length - suf);
  const ym = y.slice(pre, y.length - suf);
  const parts: Array<{ op: '=' | '-' | '+'; t: string }> = [];
  if (xm.length * ym.length <= 250_000) {
    const n = xm.length;
    const m = ym.length;
    const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--) lcs[i]![j] = xm[i] === ym[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && xm[i] === ym[j]) {
        parts.push({ op: '=', t: xm[i++]! });
        j++;
      } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) parts.push({ op: '+', t: ym[j++]! });
      else parts.push({ op: '-', t: xm[i++]! });
    }
  } else {
    for (const t of xm) parts.push({ op: '-', t });
    for (const t of ym) parts.push({ op: '+', t });
  }
  // A lone unchanged space between two changes reads better inside them: "[-a b-]{+c d+}".
  for (let k = 1; k < parts.length - 1; k++) {
    if (parts[k]!.op === '=' && /^\s+$/.test(parts[k]!.t) && parts[k - 1]!.op !== '=' && parts[k + 1]!.op !== '=') {
      parts.splice(k, 1, { op: '-', t: parts[k]!.t }, { op: '+', t: parts[k]!.t });
    }
  }
  let removed = '';
  let added = '';
  let out = x.slice(0, pre).join('');
  const flush = () => {
    if (removed) out += `[-${removed}-]`;
    if (added) out += `{+${added}+}`;
    removed = added = '';
  };
  for (const p of parts) {
    if (p.op === '=') {
      flush();
      out += p.t;
    } else if (p.op === '-') removed += p.t;
    else added += p.t;
  }
  flush();
  return out + x.slice(x.length - suf).join('');
}

/** Greedy wrap at spaces; a word longer than the width is split. Nothing is dropped but the break spaces. */
export function wrapWords(s: string, width: number): string[] {
  const lines: string[] = [];
  let cur = '';
  for (const word of s.split(' ')) {
    const piece = cur === '' ? word : `${cur} ${word}`;
    if (piece.length <= width) {
      cur = piece;
      continue;
    }
    if (cur !== '') lines.push(cur);
    cur = word;
    while (cur.length > width) {
      lines.push(cur.slice(0, width));
      cur = cur.slice(width);
    }
  }
  lines.push(cur);
  return lines;
}

function hardWrap(s: string, width: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < s.length; i += width) lines.push(s.slice(i, i + width));
  return lines.length ? lines : [''];
}
