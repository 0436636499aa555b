import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { glob } from 'tinyglobby';

/** The file-system reads loading needs; injected so tests and benchmarks can swap them. */
export interface FileSystem {
  readFile(path: string): Buffer;
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
  readFile: (p) => readFileSync(p),
  stat: (p) => {
    try {
      const s = statSync(p);
      return { isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size };
    } catch {
      return undefined;
    }
  },
  glob: async (patterns, cwd) =>
    (await glob(patterns, { cwd, absolute: true, onlyFiles: true, dot: false, expandDirectories: false })).sort(),
  writeFileAtomic: (path, data) => {
    mkdirSync(dirname(path), { recursive: true });
    // A random suffix, so two steward runs writing at once never share a temp file; the last rename wins.
    const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      writeFileSync(tmp, data, { mode: 0o644 });
      renameSync(tmp, path);
    } catch (e) {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing to clean up
      }
      throw e;
    }
  },
};
