import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Reads a regular file, at most `maxBytes + 1` bytes of it. Opened without blocking (a fifo swapped in
 * after a stat cannot hang the read) and checked on the open descriptor, so what is read is what was checked.
 */
export function readRegularFile(
  path: string,
  maxBytes = Number.MAX_SAFE_INTEGER,
  opts: { noFollow?: boolean; oneName?: boolean; tail?: number } = {},
): Buffer & { cut?: true } {
  // noFollow: a link at `path` is refused by open itself (ELOOP), not read through; oneName: so is a hard link
  // (a second name of a file elsewhere), with EHARDLINK. tail: only the file's last `tail` bytes are read when
  // it is longer (marked `cut`).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (opts.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error(`${path}: not a regular file`), { code: st.isDirectory() ? 'EISDIR' : 'ENOTREG' });
    if (opts.oneName && st.nlink > 1) throw Object.assign(new Error(`${path}: a hard link`), { code: 'EHARDLINK' });
    if (opts.tail !== undefined && st.size > opts.tail) {
      const buf = Buffer.allocUnsafe(opts.tail);
      let len = 0;
      while (len < buf.length) {
        const n = readSync(fd, buf, len, buf.length - len, st.size - opts.tail + len);
        if (n === 0) break;
        len += n;
      }
      return Object.assign(buf.subarray(0, len), { cut: true as const });
    }
    const cap = maxBytes + 1;
    let buf = Buffer.allocUnsafe(Math.max(1, Math.min(st.size + 1, cap)));
    let len = 0;
    for (;;) {
      if (len === buf.length) {
        if (buf.length >= cap) break;
        const next = Buffer.allocUnsafe(Math.min(cap, buf.length * 2));
        buf.copy(next, 0, 0, len);
        buf = next;
      }
      const n = readSync(fd, buf, len, buf.length - len, null);
      if (n === 0) break;
      len += n;
    }
    return buf.subarray(0, len);
  } finally {
    closeSync(fd);
  }
}

/**
 * `mkdirSync(dir, { recursive: true })`, which ends: Node 20's recursive mkdir loops forever where a parent
 * exists but refuses a child with ENOENT (`/proc/nope/x`: `init /proc/nope/x` spun at 100% CPU; red team,
 * round 11). Each folder is tried once, parents first when it is missing; the error of the one that cannot be
 * made is thrown (EEXIST when a file stands where a folder should, ENOTDIR under a file, as Node's).
 */
export function makeDirs(dir: string, mode?: number): void {
  const opts = mode === undefined ? undefined : { mode };
  try {
    mkdirSync(dir, opts);
    return;
  } catch (e) {
    if (!missingParent(e, dir, () => statSync(dir).isDirectory())) return;
  }
  makeDirs(dirname(dir), mode);
  try {
    mkdirSync(dir, opts);
  } catch (e) {
    // Made by someone else in between: as good.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(dir).isDirectory()) throw e;
  }
}

/**
 * After a first mkdir of `dir` failed with `e`: true when its parent must be made first (ENOENT below the
 * root); false when `dir` is already a folder (EEXIST); any other failure is thrown.
 */
function missingParent(e: unknown, dir: string, isFolder: () => boolean): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'EEXIST' && isFolder()) return false;
  if (code === 'ENOENT' && dirname(dir) !== dir) return true;
  throw e;
}

/** The code of the error a resources glob throws when it reaches too far (src/config/fs.ts; load.ts says it at the pattern). */
export const GLOB_TOO_LARGE = 'ESTEWARD_GLOB_TOO_LARGE';

/** Whether an error is that one (a glob that reached too far), not a fault to pass on. */
export function isGlobTooLarge(e: unknown): e is Error {
  return e instanceof Error && (e as { code?: unknown }).code === GLOB_TOO_LARGE;
}
