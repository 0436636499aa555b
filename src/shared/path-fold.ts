/**
 * Path names as the file systems steward runs on compare them. macOS (APFS, HFS+) and Windows (NTFS) are
 * case-insensitive by default, macOS takes a name in NFC and in NFD for one file, HFS+ ignores some invisible
 * code points, and Windows drops a name's trailing dots and spaces and reads `name:stream` as a stream of the
 * file `name` (`steward.yaml::$DATA` is its content); Linux can have case-folding folders too.
 * So `spec.state: STEWARD.yaml` is the project file there, and `.GIT/config` git's config. The checks that
 * keep steward off a file compare folded names: two names that fold alike are refused as one file on every
 * system (on Linux they may be two files, but no project needs a file named like a protected one). Pure.
 */

/** Code points HFS+ ignores in names (as git's is_hfs_dotgit lists them): `.g\u200cit` is `.git` there. */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/**
 * One name (no separator) as a case-insensitive, normalizing file system sees it: the file of an NTFS stream
 * name (`steward.yaml::$DATA`, `state.json:x`: what comes before the first `:`, as git reads `.git::$INDEX_ALLOCATION`),
 * without the code points HFS+ ignores, in NFC, case-folded (upper then lower until nothing changes: `ς` and
 * `σ`, `K` and the Kelvin sign, `ẞ`, `ß` and `ss` fold alike), and without trailing dots and spaces (Windows
 * drops them). `.` and `..` stay as they are.
 */
export function foldName(name: string): string {
  if (name === '.' || name === '..') return name;
  // ASCII names (nearly all) fold by lower case alone: no code point HFS+ ignores, NFC and the upper-lower
  // round are the identity on them. The full fold cost 4 µs a name, 45 ms of a warm plan of 10,000 files.
  return dropTrailing(ASCII.test(name) ? name.replace(/:.*$/s, '').toLowerCase() : unicodeFold(name));
}

const ASCII = /^[\x00-\x7f]*$/;

/** foldName's fold of any name, before trailing dots and spaces go: exported for the test that holds the ASCII path to it. */
export function unicodeFold(name: string): string {
  let folded = name.replace(/:.*$/s, '').replace(HFS_IGNORED, '').normalize('NFC');
  for (let last = ''; folded !== last;) [last, folded] = [folded, folded.toUpperCase().toLowerCase().normalize('NFC')];
  return folded;
}

function dropTrailing(folded: string): string {
  return /^[. ]+$/.test(folded) ? folded : folded.replace(/[. ]+$/, '');
}

/** Whether a name (or a path, a drive letter aside) has an NTFS stream suffix (`name:stream`, `name::$DATA`). */
export function hasStreamSuffix(path: string): boolean {
  return path.replace(/^[A-Za-z]:/, '').includes(':');
}

/** A path with each name folded (foldName) and `/` as its only separator: a key for comparing paths. */
export function foldPath(path: string): string {
  return path.split(/[\\/]/).map(foldName).join('/');
}

/**
 * How two paths compare: `same` when equal as written, `folded` when they differ only in what foldPath
 * folds (one file on macOS and Windows), undefined when they are different names everywhere.
 */
export function comparePaths(a: string, b: string): 'same' | 'folded' | undefined {
  if (a === b) return 'same';
  return foldPath(a) === foldPath(b) ? 'folded' : undefined;
}

/**
 * Whether a name is git's folder on some file system: `.git` folded (`.GIT`, `.Git.`, `.g\u200cit`), its
 * Windows short name `git~1`, or `.git` with an NTFS stream (`.git::$INDEX_ALLOCATION`), as git itself
 * refuses them in a tree.
 */
export function isGitName(name: string): boolean {
  const folded = foldName(name);
  return folded === '.git' || folded === 'git~1';
}

/**
 * The first name of `rel` (a path relative to the project folder, or the tail of one) that is git's folder
 * (isGitName), or undefined when it goes through none.
 */
export function gitFolderName(rel: string): string | undefined {
  return rel.split(/[\\/]/).find(isGitName);
}

/** Whether a path (relative to the project folder, or the tail of one) goes through a `.git` folder. */
export function inGitFolder(rel: string): boolean {
  return gitFolderName(rel) !== undefined;
}

/**
 * The words an error adds when a name was refused only as folded: which protected name it is taken for,
 * and that this holds on every system (so a Linux user is told why a distinct-looking name is refused).
 */
export function foldedNote(given: string, protectedName: string): string {
  if (hasStreamSuffix(given))
    return `${showName(given)} is ${showName(protectedName)} on Windows, where a name's ":stream" suffix names a stream of that file ("::$DATA" its content); refused on every system`;
  return `${showName(given)} differs from ${showName(protectedName)} only in case, Unicode form or trailing dots, so macOS and Windows take them for one file; refused on every system`;
}

/** A name quoted for an error, with the code points HFS+ ignores (which show nothing) written as escapes. */
export function showName(name: string): string {
  return JSON.stringify(name).replace(HFS_IGNORED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
