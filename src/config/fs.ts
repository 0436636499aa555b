import { closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { writeFileAtomic } from '../atomic-write.ts';
import { glob } from 'tinyglobby';

/** The file-system reads loading needs; injected so tests and benchmarks can swap them. */
export interface FileSystem {
  /**
   * The file's bytes. With `maxBytes`, at most maxBytes + 1 are read (so "too large" is still seen, without
   * reading a huge file), and a path that is not a regular file (a fifo, a device such as /dev/zero) throws
   * an error with code ENOTREG instead of being read.
   */
  readFile(path: string, opts?: { maxBytes?: number }): Buffer;
  /** The path with every symbolic link resolved (absent: links are not resolved, nothing is refused). */
  realpath?(path: string): string;
  /** undefined when the path does not exist. */
  stat(path: string): { isFile: boolean; isDirectory: boolean; size: number } | undefined;
  /** Absolute paths of files matching the globs under cwd, sorted. */
  glob(patterns: string[], cwd: string): Promise<string[]>;
  /**
   * Writes a file atomically (a temp file beside it, then a rename), creating its folder: a reader sees
   * the old file or the new one, never half of one. Not flushed to disk (a crash may leave an empty file),
   * so readers must check what they read. Only the parse cache writes; a file system without this method
   * simply has no cache.
   */
  writeFileAtomic?(path: string, data: string | Uint8Array): void;
}

export const nodeFileSystem: FileSystem = {
  readFile: (p, opts) => readBounded(p, opts?.maxBytes),
  realpath: (p) => realpathSync.native(p),
  stat: (p) => {
    try {
      const s = statSync(p);
      return { isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size };
    } catch {
      return undefined;
    }
  },
  glob: async (patterns, cwd) => (await glob(patterns, { cwd, absolute: true, onlyFiles: true, dot: false, expandDirectories: false })).sort(),
  writeFileAtomic: (path, data) => writeFileAtomic(path, data),
};

/**
 * Reads a regular file, at most `maxBytes + 1` bytes of it. Opened without blocking (a fifo swapped in
 * after a stat cannot hang the read) and checked on the open descriptor, so what is read is what was checked.
 */
function readBounded(path: string, maxBytes = Number.MAX_SAFE_INTEGER): Buffer {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
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
