import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { CliError } from '../errors.ts';
import { makeDirs } from './files.ts';
import { gitFolderName } from './path-fold.ts';

/** Whether `path` is `root` or below it, by the names alone (no links resolved). */
export function isInside(root: string, path: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/**
 * Why a file under `.git` is never read as a resource or the project file: git's own folder is no steward
 * file, and it can hold credentials (actions/checkout keeps the job's token in .git/config unless told not
 * to), which a YAML error would quote. A pattern or a link in a pull request could name it (red team, round 12).
 */
export const IN_GIT = "is inside .git, git's own folder (it can hold credentials); not read";

/** Whether a path goes through a `.git` folder, as any file system names it (src/shared/path-fold.ts). */
export { inGitFolder } from './path-fold.ts';

/** Windows device names (COM¹-³ and LPT¹-³ too): a file named so, whatever its extension, is the device there. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$)$/i;

/**
 * Whether a file of this name can be checked out on Windows: not a device name, with or without an
 * extension (`con.yaml`, `Nul.yaml`, `aux.tar.gz`: what comes before the first dot names the device), and
 * not ending in a dot or a space (Windows drops them, so `a.` is `a`). git on Windows refuses such a file.
 */
export function isPortableFileName(name: string): boolean {
  if (/[. ]$/.test(name)) return false;
  return !WINDOWS_DEVICE.test(name.split('.')[0]!.replace(/ +$/, ''));
}

/**
 * Where a path really leads: the deepest part of it that exists with every link resolved, and the rest
 * (not created yet) appended as named.
 */
export function realPathOf(path: string): string {
  const rest: string[] = [];
  let cur = path;
  for (;;) {
    try {
      return join(realpathSync.native(cur), ...rest.reverse());
    } catch {
      const up = dirname(cur);
      if (up === cur) return path;
      rest.push(cur.slice(up.length).replace(/^[/\\]+/, ''));
      cur = up;
    }
  }
}

/**
 * The folder, outside `root`, that a symbolic link inside `root` makes `path` lead to; undefined when the
 * path stays inside (or is outside by name: a path the user chose to be outside is theirs to choose).
 */
export function linkEscape(root: string, path: string): string | undefined {
  if (!isInside(root, path)) return undefined;
  const real = realPathOf(path);
  return isInside(realPathOf(root), real) ? undefined : real;
}

/**
 * Refuses an output of steward's (`what`: the plan, the report, dashboards) that `path` would put inside a
 * `.git` folder, by its name or where links lead: a file there is git's own (`--out .git/config` left the
 * clone unusable, `.git/hooks/...` is code git runs, and a worktree's `.git` file points git at its
 * repository). As the reads refuse it (IN_GIT), by every name a file system takes for `.git` (`.GIT`).
 * Only the part below `root` counts for a path inside it, so a project kept under such a folder still works.
 * @throws CliError
 */
export function refuseGitOutput(root: string, path: string, what: string): void {
  for (const [r, p] of [
    [root, path],
    [realPathOf(root), realPathOf(path)],
  ] as const) {
    const name = gitFolderName(isInside(r, p) ? relative(r, p) : p);
    const shown = (f: string) => (isInside(root, f) && f !== root ? relative(root, f) : f);
    if (name !== undefined)
      throw new CliError(
        `refusing to write ${what} to ${shown(path)}: ${p === path ? 'it' : `it leads to ${shown(p)}, which`} is inside ${JSON.stringify(name)}, git's own folder (a file there changes what git does); name a path outside it`,
        { code: 'usage' },
      );
  }
}

/**
 * Creates the folder `dir` (with its parents) for `what`, refusing one that a symbolic link inside `root`
 * takes outside it, and naming a file that stands where the folder should be.
 * @throws CliError
 */
export function makeFolderInside(root: string, dir: string, what: string): void {
  refuseGitOutput(root, dir, what);
  const escape = linkEscape(root, dir);
  if (escape !== undefined)
    throw new CliError(`refusing to write ${what} into ${dir}: a symbolic link takes it outside ${root} (to ${escape})`, { code: 'usage' });
  try {
    makeDirs(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(
      code === 'EEXIST' || code === 'ENOTDIR' ? `cannot write ${what} into ${dir}: it is a file, not a folder` : `cannot create ${dir}: ${code ?? String(e)}`,
      { code: 'usage', cause: e },
    );
  }
}

/**
 * The `$schema` path a modeline in a file of `fileDir` gives for `schemaFile`: relative when the schema is
 * inside the project (steward installed there with `npm install -D`, so the line holds in every clone), else
 * the installation's absolute path. init, import and import --template write the same line for one project.
 */
export function schemaModelinePath(schemaFile: string, fileDir: string, projectDir: string): string {
  const target = schemaFile.replace(/[\\/]$/, '');
  const r = relative(projectDir, target);
  const inside = r !== '' && !r.startsWith('..') && !isAbsolute(r);
  return (inside ? relative(fileDir, target) : target).split(/[\\/]/).join('/');
}
