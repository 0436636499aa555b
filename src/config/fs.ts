import { readFileSync, statSync } from 'node:fs';
import { glob } from 'tinyglobby';

/** The file-system reads loading needs; injected so tests and benchmarks can swap them. */
export interface FileSystem {
  readFile(path: string): Buffer;
  /** undefined when the path does not exist. */
  stat(path: string): { isFile: boolean; isDirectory: boolean; size: number } | undefined;
  /** Absolute paths of files matching the globs under cwd, sorted. */
  glob(patterns: string[], cwd: string): Promise<string[]>;
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
};
