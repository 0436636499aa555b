/**
 * What a path is to a project, for a file steward is asked to write there (spec.state, spec.journal, plan --out,
 * report --out): the names it must not replace or append to, compared as written and as macOS and Windows
 * compare names (src/shared/path-fold.ts). Pure.
 */
import { join, relative, sep } from 'node:path';
import picomatch from 'picomatch';
import { CACHE_DIR } from './cache.ts';
import { comparePaths, foldedNote, foldPath, hasStreamSuffix } from '../shared/path-fold.ts';

/**
 * What of a project `path` is, for a file steward is asked to write there: the project file, the state file,
 * the state's lock or its takeover guard, the journal, a file of steward's cache folder or a resource file (a
 * path a resources pattern reads); undefined when none. `self` is the file being checked, which is not its own
 * rival (the state file named as the state). A name that is one of them only as macOS and Windows compare
 * names (`STEWARD.yaml`, `steward.yaml::$DATA`, path-fold.ts) is refused too, with a note saying so.
 *
 * The guard: a lock takeover creates `<state>.lock.takeover` exclusively and deletes it, and deletes one older
 * than a few seconds as left by a crash, so a journal of that name was deleted by the next apply after a
 * crash, with the records the crash left in it. The cache folder: the caches replace their files there and
 * git ignores it (its .gitignore is `*`), so a state there was replaced by the parse pack, or never committed.
 */
export function projectFileRole(
  p: { file: string; dir: string; resources: readonly string[]; statePath: string; journalPath?: string; self?: string },
  path: string,
): string | undefined {
  const shown = (f: string) => relative(p.dir, f).split(sep).join('/') || f;
  const rivals: Array<[string | undefined, string]> = [
    [p.file, 'the project file'],
    [path === p.self ? undefined : p.statePath, 'the state file'],
    [`${p.statePath}.lock`, "the state's lock file"],
    [`${p.statePath}.lock.takeover`, "the guard of the state lock's takeover (apply deletes it)"],
    [p.journalPath, 'the journal'],
  ];
  for (const [rival, what] of rivals) {
    const how = rival === undefined ? undefined : comparePaths(path, rival);
    if (how === 'same') return what;
    if (how === 'folded') return `${what} (${foldedNote(shown(path), shown(rival!))})`;
  }
  const cache = foldPath(join(p.dir, CACHE_DIR));
  if (foldPath(path) === cache || foldPath(path).startsWith(`${cache}/`))
    return `a file of steward's cache folder (${CACHE_DIR}: the caches replace their files there, and git ignores it)`;
  const pattern = resourcePattern(p.resources, p.dir, path);
  if (pattern !== undefined) return `a resource file (it matches ${JSON.stringify(pattern)})`;
  const folded = resourcePattern(p.resources, p.dir, path, { fold: true });
  return folded === undefined
    ? undefined
    : `a resource file as ${hasStreamSuffix(shown(path)) ? 'Windows reads a stream name' : 'macOS and Windows compare names'} (it matches ${JSON.stringify(folded)} but for ${hasStreamSuffix(shown(path)) ? 'a ":stream" suffix' : 'case, Unicode form or trailing dots'}; refused on every system)`;
}

/**
 * The pattern of `resources` (globs relative to `dir`) that makes `path` a resource file, or undefined when
 * none does. A `!pattern` takes files out: a path it matches is no resource, whatever else matches it.
 * `fold`: match as a case-insensitive, normalizing file system would read the names (foldPath).
 */
export function resourcePattern(resources: readonly string[], dir: string, path: string, opts: { fold?: boolean } = {}): string | undefined {
  const rel = relative(dir, path).split(sep).join('/');
  const subject = opts.fold ? foldPath(rel) : rel;
  const matches = (g: string) => {
    try {
      return opts.fold ? picomatch(g.normalize('NFC'), { nocase: true })(subject) : picomatch(g)(subject);
    } catch {
      return false; // a bad pattern is reported where the resources are read
    }
  };
  if (resources.some((g) => g.startsWith('!') && matches(g.slice(1)))) return undefined;
  return resources.find((g) => !g.startsWith('!') && matches(g));
}
