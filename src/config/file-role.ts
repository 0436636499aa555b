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
  p: {
    file: string;
    dir: string;
    resources: readonly string[];
    statePath: string;
    journalPath?: string;
    self?: string;
    /** The state files and journals of the other environments (Project.otherStateFiles). */
    otherStateFiles?: ReadonlyArray<{ path: string; what: 'state' | 'journal'; env: string | undefined }>;
  },
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
  // Another environment's (`plan --out .steward/state.staging.json` without --env replaced staging's state).
  for (const o of p.otherStateFiles ?? []) {
    const of = o.env === undefined ? 'of the project without --env' : `of --env ${o.env}`;
    if (o.what === 'journal') rivals.push([o.path, `the journal ${of}`]);
    else rivals.push([o.path, `the state file ${of}`], [`${o.path}.lock`, `the state's lock file ${of}`]);
  }
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
    if (globCost(g) !== undefined) return false; // refused where the resources are read, never run
    try {
      return opts.fold ? picomatch(g.normalize('NFC'), { nocase: true })(subject) : picomatch(g)(subject);
    } catch {
      return false; // a bad pattern is reported where the resources are read
    }
  };
  if (resources.some((g) => g.startsWith('!') && matches(g.slice(1)))) return undefined;
  return resources.find((g) => !g.startsWith('!') && matches(g));
}

/**
 * Why a resources glob would cost too much to match, or undefined. picomatch turns a glob into a backtracking
 * regular expression, and a pull request writes both the patterns and the file names: every `*` (and `**`,
 * and each brace group's alternatives) that can take the same characters as another multiplies the ways a
 * name is tried, so the time grows as the name's length to their number. `*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b.yaml`
 * against a file named with 60 a's kept validate at full CPU for hours, deaf to SIGTERM (red team). Within
 * these bounds the worst names take milliseconds: at most 3 wildcards, at most 2 of them `**`, at most 4
 * wildcards and brace groups together, and no group (`(a|b)`, an extglob `+(…)`) nor `+` after `[...]`.
 * Counted on the text, so an escaped `\*` counts too. A leading `!` (a pattern that takes files out) is not.
 */
export function globCost(pattern: string): string | undefined {
  const g = pattern.startsWith('!') ? pattern.slice(1) : pattern;
  // picomatch passes a group `(a|aa)` and a `+` after a class or group through as the regular expression's own:
  // `(a|aa)+b`, or thirty `(a|aa)`, against a name of a's ran for hours like the wildcards below.
  if (/\(|\]\+/.test(g))
    return 'parentheses (groups, extglobs such as +(…)) and a + after [...] repeat or choose inside the glob matcher and can take exponential time to match; use * and {a,b}';
  const globstars = g.match(/\*\*/g)?.length ?? 0;
  // Without ** (and with no brace group spanning a /), a segment's matches end at its /, so a segment of one
  // * and no brace group matches a name's segment one way only and multiplies nothing:
  // `services/*/teams/*/dashboards/*.yaml` costs as much as `*.yaml`. Only the other segments count.
  const counted =
    globstars === 0 && !/\{[^}]*\//.test(g)
      ? g
          .split('/')
          .filter((seg) => (seg.match(/\*+/g)?.length ?? 0) > 1 || seg.includes('{'))
          .join('/')
      : g;
  const wildcards = counted.match(/\*+/g)?.length ?? 0;
  const braces = counted.match(/\{/g)?.length ?? 0;
  if (wildcards <= 3 && globstars <= 2 && wildcards + braces <= 4) return undefined;
  return `it has ${wildcards} wildcard${wildcards === 1 ? '' : 's'} (${globstars} of them **) and ${braces} brace group${braces === 1 ? '' : 's'}: matching such a glob can take hours for a file name chosen for it, so steward takes at most 3 wildcards (2 of them **) and 4 wildcards and brace groups together; split it into simpler patterns`;
}
