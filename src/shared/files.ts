import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Reads a regular file, at most `maxBytes + 1` bytes of it. Opened without blocking (a fifo swapped in
 * after a stat cannot hang the read) and checked on the open descriptor, so what is read is what was checked.
 */
export function readRegularFile(path: string, maxBytes = Number.MAX_SAFE_INTEGER, opts: { noFollow?: boolean } = {}): Buffer {
  // noFollow: a link at `path` is refused by open itself (ELOOP), not read through.
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (opts.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error(`${path}: not a regular file`), { code: st.isDirectory() ? 'EISDIR' : 'ENOTREG' });
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
