import { lstatSync, realpathSync, statSync } from 'node:fs';
import { readRegularFile } from '../shared/files.ts';
import { writeFileAtomic } from '../atomic-write.ts';
import { glob } from 'tinyglobby';
import type { FileVersion } from './cache.ts';

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
  stat(path: string): { isFile: boolean; isDirectory: boolean; size: number; uid?: number; mode?: number } | undefined;
  /**
   * The path itself, a link not followed; undefined when it does not exist. With `realpath`, lets loading
   * resolve each folder once instead of every file (a file that is no link is where its folder really is).
   */
  lstat?(path: string): { isLink: boolean; isFile: boolean; isDirectory: boolean; size: number; version?: FileVersion } | undefined;
  /** Absolute paths of files matching the globs under cwd, sorted. */
  glob(patterns: string[], cwd: string): Promise<string[]>;
  /**
   * Writes a file atomically (a temp file beside it, then a rename), creating its folder: a reader sees
   * the old file or the new one, never half of one. Not flushed to disk (a crash may leave an empty file),
   * so readers must check what they read. Only the parse cache writes; a file system without this method
   * simply has no cache.
   */
  writeFileAtomic?(path: string, data: string | Uint8Array | Iterable<string>): void;
}

export const nodeFileSystem: FileSystem = {
  readFile: (p, opts) => readRegularFile(p, opts?.maxBytes),
  realpath: (p) => realpathSync.native(p),
  stat: (p) => {
    try {
      const s = statSync(p);
      return { isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size, uid: s.uid, mode: s.mode };
    } catch {
      return undefined;
    }
  },
  lstat: (p) => {
    const s = lstatSync(p, { throwIfNoEntry: false });
    return (
      s && {
        isLink: s.isSymbolicLink(),
        isFile: s.isFile(),
        isDirectory: s.isDirectory(),
        size: s.size,
        version: { signature: `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`, changedMs: Math.max(s.mtimeMs, s.ctimeMs) },
      }
    );
  },
  glob: async (patterns, cwd) => (await glob(patterns, { cwd, absolute: true, onlyFiles: true, dot: false, expandDirectories: false })).sort(),
  // Not flushed (see the interface): an fsync of a 30 MB pack was ~15 ms of a first plan of 10,000.
  writeFileAtomic: (path, data) => writeFileAtomic(path, data, { flush: false }),
};
