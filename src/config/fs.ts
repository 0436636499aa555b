import { lstatSync, readdir, realpath, realpathSync, stat, statSync, type Dirent, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { GLOB_TOO_LARGE, readRegularFile } from '../shared/files.ts';
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
  glob: globInside,
  // Not flushed (see the interface): an fsync of a 30 MB pack was ~15 ms of a first plan of 10,000.
  writeFileAtomic: (path, data) => writeFileAtomic(path, data, { flush: false }),
};

/**
 * The files under `cwd` that match, as tinyglobby lists them, but never walking a folder outside `cwd` through a
 * symbolic link (red team, round 14). tinyglobby follows links, and a pull request's `dashboards/root -> /`
 * had every plan walk the runner's whole file system (validate took 50 s on a small container and listed
 * thousands of files, one error line each, naming `.yaml` files anywhere on the machine). A link to a folder
 * whose real path is outside `cwd` is listed itself, where the walk would have gone into it, and not entered:
 * the loader refuses it as it refuses a link to a file outside (read-files.ts). Links that stay inside are
 * followed as before, and links to files are listed as before.
 */
export async function globInside(patterns: string[], cwd: string, bounds: GlobBounds = GLOB_BOUNDS): Promise<string[]> {
  let root: string;
  try {
    root = realpathSync.native(cwd);
  } catch {
    root = cwd;
  }
  const inside = (p: string) => p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);
  // Where a link out of `cwd` leads, as the walker is told: a name that is no folder of this machine, whose
  // listing records the link (the walk would have entered it) and is empty.
  const outsideLinks = new Map<string, { link: string; real: string }>();
  const entered = new Set<string>();
  const marked = (p: string) => outsideLinks.get(p.endsWith('/') ? p.slice(0, -1) : p);
  type Callback<T> = (error: NodeJS.ErrnoException | null, value: T) => void;
  const fsHooks = {
    realpath: (p: string, cb: Callback<string>) => {
      // Past the bound no link is followed (the walk ends; the glob is refused below).
      if (++links > bounds.links) return cb(Object.assign(new Error('too many links'), { code: 'ELOOP' }), '');
      realpath(p, (error, real) => {
        if (error || inside(real)) return cb(error, real);
        const mark = `${OUTSIDE_MARK}${outsideLinks.size}_`;
        outsideLinks.set(mark, { link: p, real });
        cb(null, mark);
      });
    },
    stat: (p: string, cb: Callback<Stats>) => stat(marked(p)?.real ?? p, cb),
    readdir: (p: string, opts: { withFileTypes: true }, cb: Callback<Dirent[]>) => {
      const link = marked(p);
      if (link) {
        entered.add(link.link);
        return cb(null, []);
      }
      // Past the bound with a link followed, every folder lists as empty: the walk ends at once, and the glob
      // is refused below.
      if (links > 0 && walked > bounds.entries) return cb(null, []);
      readdir(p, opts, (error, entries) => {
        walked += entries?.length ?? 0;
        cb(error, entries);
      });
    },
  };
  let walked = 0;
  let links = 0;
  const found = await glob(patterns, {
    cwd,
    absolute: true,
    onlyFiles: true,
    dot: false,
    expandDirectories: false,
    fs: fsHooks as never,
  });
  const out = [...new Set([...found, ...entered])].sort();
  // Links inside the project are followed, and each names its folder's files again: a pull request of 1,000
  // links to one folder of 1,000 small files (links to `.` alike) made a million files to read, growing with
  // the square of what it added (200 of each: 40,000 files, 15 s of validate). Bounded, and said.
  // A walk that followed no link lists the tree as committed, once: linear, and not bounded (issue 15: a project
  // of 100,000 dashboards in files of their own plans). The file and entry bounds are for walks that links
  // multiplied.
  if (links > bounds.links || (links > 0 && (walked > bounds.entries || out.length > bounds.files))) {
    const what =
      links > bounds.links
        ? `meets more than ${bounds.links.toLocaleString('en')} symbolic links on its way, more than steward follows`
        : walked > bounds.entries
          ? `walks more than ${bounds.entries.toLocaleString('en')} files and folders, more than steward lists`
          : `matches ${out.length.toLocaleString('en')} files, more than steward reads (${bounds.files.toLocaleString('en')})`;
    throw Object.assign(new Error(`${what}; are there links that lead to folders again?`), {
      code: GLOB_TOO_LARGE,
    });
  }
  return out;
}

/** What one glob may do (see globInside); a parameter so that tests can use small ones. */
export interface GlobBounds {
  /** Files one glob that followed a link may match. */
  files: number;
  /** Entries one glob that followed a link may list on its way. */
  entries: number;
  /** Links one glob may resolve. */
  links: number;
}

/**
 * Files: five times the 10,000 dashboards bench/ plans (each in a file of its own). Entries: a project beside a
 * large node_modules walks many that match nothing. Links: each is two system calls, met again in every copy
 * of its folder a link makes (520 links to `.` took 90 s to walk before any file was read).
 */
export const GLOB_BOUNDS: GlobBounds = { files: 50_000, entries: 500_000, links: 10_000 };

/** The prefix of the names outsideLinks gives: a folder no machine has at its root. */
const OUTSIDE_MARK = '/:steward-link-outside:/';
