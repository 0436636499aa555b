import { userInfo } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ConfigError, ValidationError, type Issue, type SourcePos } from '../errors.ts';
import type { ProjectSpec } from '../schema/kinds.ts';
import { didYouMean } from '../schema/did-you-mean.ts';
import type { FileSystem } from './fs.ts';
import type { Env } from './interpolate.ts';
import type { AnyResource } from '../model/resource.ts';
import { MAX_LIVE_TAG_LENGTH } from '../model/dashboard.ts';
import { processFile } from './resources.ts';
import { projectFileRole, resourcePattern } from './file-role.ts';
import { isObject as isPlainObject } from '../shared/object.ts';
import { IN_GIT, inGitFolder, isInside, linkEscape } from '../shared/paths.ts';
import { comparePaths, gitFolderName, showName } from '../shared/path-fold.ts';
import { pointerSegments } from '../shared/pointer.ts';
import { locate, MAX_FILE_BYTES, type SourceDoc } from './source.ts';

export const PROJECT_FILE_NAMES = ['steward.yaml', 'steward.yml'] as const;
export const DEFAULT_RESOURCES = ['dashboards/**/*.{yaml,yml}', 'alerts/**/*.{yaml,yml}', 'cloud/**/*.{yaml,yml}'];
export const DEFAULT_MARKER_TAG = 'managed-by:steward';

/**
 * The marker tag of a project that sets none: `managed-by:steward/<metadata.name>`, one per project, so that
 * two projects on one service never take each other's dashboards for orphans. Without a name, the shared
 * `managed-by:steward` (as before 0.2; docs/projects.md has the migration note).
 */
export function defaultMarkerTag(projectName: string | undefined): string {
  return projectName ? `${DEFAULT_MARKER_TAG}/${projectName}` : DEFAULT_MARKER_TAG;
}

/** The project file, loaded and with the `--env` overlay applied. */
export interface Project {
  file: string;
  dir: string;
  /** The environment overlay applied, if any. */
  envName: string | undefined;
  /** The spec with the overlay merged; connection settings still hold their `${VAR}` references. */
  spec: ProjectSpec;
  resources: string[];
  statePath: string;
  journalPath: string;
  /**
   * The state files and journals the project's other environments (and the project without --env) use:
   * never an output's (projectFileRole), though this run neither reads nor writes them.
   */
  otherStateFiles?: Array<{ path: string; what: 'state' | 'journal'; env: string | undefined }>;
  markerTag: string;
  concurrency: number | undefined;
  /** Resources written inside the project file itself, after the Project document. */
  inlineResources: AnyResource[];
  /** Where a pointer of the project document is, for errors found after loading (connection settings). */
  locate(pointer: string): SourcePos;
}

export { projectFileRole, resourcePattern };

/** steward.yaml in `cwd` or the nearest folder above, or the file `--config` names. */
/**
 * The marker tag goes on every dashboard, and HyperDX and ClickStack take tags of at most 32 characters: a
 * longer one is refused by the server on every write. An issue for the commands that write or check
 * dashboards (validate, plan, apply, import), not for report, which sends no tags.
 */
export function markerTagIssue(project: Project): Issue | undefined {
  const obs = project.spec.observability;
  if (obs?.api === undefined || obs.api === 'seed' || project.markerTag.length <= MAX_LIVE_TAG_LENGTH) return undefined;
  const own = obs.markerTag !== undefined;
  const pointer = own ? '/spec/observability/markerTag' : '/metadata/name';
  return {
    ...project.locate(pointer),
    pointer,
    severity: 'error',
    message: `the marker tag "${project.markerTag}" is ${project.markerTag.length} characters; the ${obs.api} API takes tags of at most ${MAX_LIVE_TAG_LENGTH}: ${own ? 'shorten observability.markerTag' : 'set observability.markerTag to a shorter one (like managed-by:steward), or shorten metadata.name'}`,
  };
}

export function findProjectFile(fs: FileSystem, cwd: string, explicit?: string): string | undefined {
  if (explicit !== undefined) {
    const p = resolve(cwd, explicit);
    const st = fs.stat(p);
    if (st?.isDirectory) {
      for (const n of PROJECT_FILE_NAMES) if (fs.stat(join(p, n))?.isFile) return join(p, n);
      throw new ConfigError(`--config ${explicit}: no steward.yaml in that folder`);
    }
    if (!st) throw new ConfigError(`--config ${explicit}: no such file`);
    if (!st.isFile) throw new ConfigError(`--config ${explicit}: not a regular file (a device, fifo or socket); not read`);
    return p;
  }
  const start = resolve(cwd);
  let dir = start;
  for (;;) {
    for (const n of PROJECT_FILE_NAMES) {
      const st = fs.stat(join(dir, n));
      if (!st?.isFile) continue;
      // Found above the working folder, in a shared folder (/tmp: others may write there), in a file another
      // user owns: another local user's /tmp/steward.yaml would send this user's token to a server of theirs.
      // A project folder of another owner that only its owner writes (a checkout mounted into a container run
      // as root) is read, and so is a file named with --config: git's blanket refusal broke exactly those.
      if (dir !== start && st.uid !== undefined && isForeign(st.uid) && sharedFolder(fs.stat(dir)?.mode))
        throw new ConfigError(
          `${join(dir, n)} was found above this folder, in a folder others may write to, and belongs to another user (uid ${st.uid}); not read: run steward in the project's folder, or name the file with --config if you trust it`,
        );
      return placeProjectFile(fs, join(dir, n));
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** A folder others than its owner may write to (group or world), or with the sticky bit /tmp has. */
function sharedFolder(mode: number | undefined): boolean {
  return mode !== undefined && (mode & 0o1022) !== 0;
}

/** Whether a file of owner `uid` belongs to another user than this process's (never where there are no user ids: Windows). */
function isForeign(uid: number): boolean {
  try {
    const own = userInfo().uid;
    return own >= 0 && uid !== own;
  } catch {
    return false;
  }
}

/**
 * A project file found by its name (not named with --config) is read only when it really lies in its folder,
 * outside .git: a pull request can commit steward.yaml as a link, and the file it leads to (.git/config with
 * the job's token, ~/.git-credentials, a kubeconfig) was parsed and quoted by its YAML and schema errors. As
 * for resources, the error names the file, never its contents or where it leads (red team, round 12).
 */
function placeProjectFile(fs: FileSystem, file: string): string {
  if (!fs.realpath) return file;
  let real: string;
  let dir: string;
  try {
    real = fs.realpath(file);
    dir = fs.realpath(dirname(file));
  } catch {
    throw new ConfigError('the project file cannot be resolved (a broken link?); not read', { file, line: 1, col: 1 });
  }
  if (!isInside(dir, real))
    throw new ConfigError('the project file is a link to a file outside its folder; not read (name a project file elsewhere with --config)', {
      file,
      line: 1,
      col: 1,
    });
  if (inGitFolder(relative(dir, real))) throw new ConfigError(`the project file ${IN_GIT}`, { file, line: 1, col: 1 });
  return file;
}

/**
 * Loads the project file: one Project document (other documents in it are resources), schema-checked,
 * then the environment overlay. Throws ValidationError with every problem, or ConfigError.
 */
export function loadProject(fs: FileSystem, file: string, env: Env, envName?: string): Project {
  const bytes = readOrThrow(fs, file);
  const r = processFile(file, bytes, env, { isProjectFile: true });
  const errors = r.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new ValidationError(r.issues);
  if (r.projects.length !== 1) {
    const second = r.projects[1];
    throw new ConfigError(
      r.projects.length === 0
        ? 'no Project document: steward.yaml must hold one document with kind: Project'
        : 'more than one Project document in the project file',
      second ? { file, ...locate(second.src, ['kind']) } : { file, line: 1, col: 1 },
    );
  }
  const pd = r.projects[0]!;
  const src: SourceDoc = pd.src;
  let spec: ProjectSpec = pd.doc.spec;
  refuseMarkerVariables(file, src, spec);
  if (envName !== undefined) {
    const envs = spec.environments ?? {};
    const overlay = Object.prototype.hasOwnProperty.call(envs, envName) ? envs[envName] : undefined;
    if (!overlay) {
      const names = Object.keys(envs);
      const hint = didYouMean(envName, names);
      throw new ConfigError(
        `--env ${envName}: no such environment in spec.environments${hint ? `; did you mean "${hint}"?` : names.length ? ` (there are: ${names.join(', ')})` : ' (the project defines none)'}`,
        { file, ...locate(src, ['spec', 'environments'], { key: true }) },
      );
    }
    spec = mergeOverlay(spec, overlay as Record<string, unknown>);
  }
  const dir = dirname(file);
  const statePath = resolve(dir, spec.state ?? '.steward/state.json');
  const journalPath = resolve(dir, spec.journal ?? '.steward/journal.jsonl');
  for (const [key, path] of [
    ['state', statePath],
    ['journal', journalPath],
  ] as const) {
    const at = envName !== undefined && spec !== pd.doc.spec ? ['spec', 'environments', envName, key] : ['spec', key];
    // Not into git's own folder: apply appended journal lines to .git/config (git then refuses to run) and wrote
    // its state as any file there it named (red team).
    // Any name git's folder has somewhere: `.GIT` is .git on macOS and Windows (path-fold.ts).
    const gitName = isInside(dir, path) ? gitFolderName(relative(dir, path)) : undefined;
    if (gitName !== undefined)
      throw new ConfigError(
        `spec.${key} names a file inside .git, git's own folder, which steward never writes${gitName === '.git' ? '' : ` (${showName(gitName)} is that folder on macOS or Windows, which ignore case and some characters in names; refused on every system)`}; give it a file of its own (default ${key === 'state' ? '.steward/state.json' : '.steward/journal.jsonl'})`,
        { file, ...locate(src, at) },
        `/spec/${key}`,
      );
    refuseLinkedFolder(fs, dir, path, key, spec[key] === undefined ? { file, line: 1, col: 1, unset: true } : { file, ...locate(src, at) });
    // The project file may not make steward read or write outside the project (docs/security.md): the
    // state is read back and committed, the journal and the lock beside the state are written.
    const escape = isInside(dir, path) ? linkEscape(dir, path) : path;
    if (escape === undefined) continue;
    throw new ConfigError(
      isInside(dir, path)
        ? `spec.${key} leads outside the project folder through a symbolic link (to ${escape}); keep it inside the project`
        : `spec.${key} must be a path inside the project folder (it names ${path}); steward reads and writes only inside the project`,
      { file, ...locate(src, at) },
      `/spec/${key}`,
    );
  }
  // apply appends to the journal and replaces the state: neither may be a file the project reads as its own,
  // nor what another environment keeps as the other of the two (staging's state the default's journal).
  const resources = spec.resources ?? DEFAULT_RESOURCES;
  const others = otherStateFiles(dir, pd.doc.spec, { state: statePath, journal: journalPath });
  for (const [key, path] of [
    ['state', statePath],
    ['journal', journalPath],
  ] as const) {
    const otherKind = others.filter((o) => o.what !== key);
    const what = projectFileRole({ file, dir, resources, statePath, otherStateFiles: otherKind, ...(key === 'journal' ? {} : { self: statePath }) }, path);
    if (what === undefined) continue;
    const mine = writtenAt(pd.doc.spec, envName, key);
    // Another environment's file: the clash may be written only there (`qa: { journal: .steward/state.json }`
    // refused every run without --env at line 1, where nothing is written), so the message names both places
    // and points at one that is written.
    const rival = otherKind.find((o) => comparePaths(path, o.path) !== undefined);
    const theirs = rival ? writtenAt(pd.doc.spec, rival.env, rival.what) : undefined;
    const where = (at: string[] | undefined) => (at ? `${at.join('.')} (line ${locate(src, at).line})` : 'the default');
    const both = rival ? `; this run's comes from ${where(mine)}, that one from ${where(theirs)}` : '';
    throw new ConfigError(
      `spec.${key} names ${what}, which apply would overwrite with its own records${both}; give it a file of its own (default ${key === 'state' ? '.steward/state.json' : '.steward/journal.jsonl'})`,
      { file, ...locate(src, mine ?? theirs ?? ['spec', key]) },
      `/spec/${key}`,
    );
  }
  const markerTag = spec.observability?.markerTag ?? defaultMarkerTag(pd.doc.metadata?.name);
  return {
    file,
    dir,
    envName,
    spec,
    resources,
    statePath,
    journalPath,
    otherStateFiles: others,
    markerTag,
    concurrency: spec.concurrency,
    inlineResources: r.resources,
    locate: (pointer) => ({ file, ...locate(src, pointerSegments(pointer)) }),
  };
}

/**
 * The check loadProject makes of the folders on the way to the state and the journal, made again right before
 * apply writes there: a `.steward` replaced by a link after the project was loaded (while apply planned,
 * waited at its prompt or sent its requests) took the state file, replaced by a rename, into the folder the
 * link names, outside the project too (red team). The window left is between this check and the write.
 * @throws ConfigError naming the folder
 */
export function refuseLinkedStateFolders(fs: FileSystem, project: Pick<Project, 'file' | 'dir' | 'statePath' | 'journalPath'>): void {
  for (const [key, path] of [
    ['state', project.statePath],
    ['journal', project.journalPath],
  ] as const)
    refuseLinkedFolder(fs, project.dir, path, key, { file: project.file, line: 1, col: 1, unset: true });
}

/**
 * Refuses a symbolic link among the folders from the project folder to the state or journal file (`.steward`
 * by default): apply, import and plan wrote the state, journal, lock and caches through it, into another
 * folder of the project (where a resource pattern or git could take them) or outside it. A link that leads
 * out was refused as leaving the project; one that stays in was followed. Folders not made yet end the walk,
 * so a project without .steward loads as before. Only where links can be seen (a FileSystem with lstat).
 * @throws ConfigError at spec.state / spec.journal when written, else naming the folder
 */
function refuseLinkedFolder(fs: FileSystem, dir: string, path: string, key: 'state' | 'journal', at: SourcePos & { unset?: boolean }): void {
  if (!fs.lstat || !fs.realpath || !isInside(dir, path)) return;
  let cur = dir;
  for (const seg of relative(dir, dirname(path)).split(sep).filter(Boolean)) {
    cur = join(cur, seg);
    let link: boolean | undefined;
    try {
      link = fs.lstat(cur)?.isLink;
    } catch {
      return; // under a file: what uses the path says so
    }
    if (link === undefined) return;
    if (!link) continue;
    let to = '';
    try {
      const real = fs.realpath(cur);
      const root = fs.realpath(dir);
      to = ` (to ${isInside(root, real) ? relative(root, real).split(sep).join('/') || '.' : real})`;
    } catch {
      to = ' (to nothing)';
    }
    const rel = relative(dir, cur).split(sep).join('/');
    const shown = at.unset ? cur : rel;
    const message =
      rel === '.steward'
        ? `${shown} is a symbolic link${to}: steward keeps its state, journal, lock and caches in .steward and follows no link there; remove the link (steward makes .steward itself)`
        : `spec.${key} goes through ${shown}, a symbolic link${to}: steward follows no link to its state, journal and lock; remove the link, or name a folder that is no link`;
    throw new ConfigError(message, at.unset ? undefined : { file: at.file, line: at.line, col: at.col }, at.unset ? '' : `/spec/${key}`);
  }
}

/**
 * The marker tag is literal: `${VAR}` in it is refused, in the spec and in every environment (used or not).
 * The observability section is read before variables are resolved, so the text `${VAR}` itself became the
 * tag on every dashboard. Not resolved either: the tag decides which dashboards are steward's (plan's
 * orphans, what --prune deletes), so it must read the same in review and on every runner whatever its
 * environment, and a tag is sent to the server and printed, so a variable in it would publish a CI secret.
 */
function refuseMarkerVariables(file: string, src: SourceDoc, spec: ProjectSpec): void {
  const places: Array<[readonly string[], string | undefined]> = [[['spec', 'observability', 'markerTag'], spec.observability?.markerTag]];
  for (const [name, overlay] of Object.entries(spec.environments ?? {})) {
    places.push([['spec', 'environments', name, 'observability', 'markerTag'], overlay?.observability?.markerTag]);
  }
  for (const [at, tag] of places) {
    if (typeof tag !== 'string' || !tag.includes('${')) continue;
    throw new ConfigError(
      `${at.join('.')} is ${JSON.stringify(tag)}: the marker tag is taken as written, \${...} is not resolved there; write the tag itself (like managed-by:steward/team-a)`,
      { file, ...locate(src, at) },
      '/' + at.join('/'),
    );
  }
}

/** Where the project file writes an environment's state or journal (its overlay's, else the project's); undefined: the default. */
function writtenAt(base: ProjectSpec, env: string | undefined, key: 'state' | 'journal'): string[] | undefined {
  const overlay = env === undefined ? undefined : (base.environments?.[env] as { state?: unknown; journal?: unknown } | undefined);
  if (typeof overlay?.[key] === 'string') return ['spec', 'environments', env!, key];
  return typeof base[key] === 'string' ? ['spec', key] : undefined;
}

/**
 * The state file and journal of the project without --env and of each environment (an overlay without its
 * own takes the project's), but those in `mine` (this run's): for Project.otherStateFiles.
 */
function otherStateFiles(dir: string, base: ProjectSpec, mine: { state: string; journal: string }): NonNullable<Project['otherStateFiles']> {
  const out: NonNullable<Project['otherStateFiles']> = [];
  // Environments may share a state file or a journal; one environment's state that is another's journal is
  // listed (loadProject refuses it).
  const seen = new Set([`state:${mine.state}`, `journal:${mine.journal}`]);
  const add = (path: string, what: 'state' | 'journal', env: string | undefined) => {
    if (seen.has(`${what}:${path}`)) return;
    seen.add(`${what}:${path}`);
    out.push({ path, what, env });
  };
  const envs: Array<[string | undefined, { state?: unknown; journal?: unknown } | undefined]> = [
    [undefined, base],
    ...Object.entries(base.environments ?? {}).map(([name, o]) => [name, o as { state?: unknown; journal?: unknown } | undefined] as [string, typeof o]),
  ];
  for (const [env, o] of envs) {
    const state = typeof o?.state === 'string' ? o.state : (base.state ?? '.steward/state.json');
    const journal = typeof o?.journal === 'string' ? o.journal : (base.journal ?? '.steward/journal.jsonl');
    add(resolve(dir, state), 'state', env);
    add(resolve(dir, journal), 'journal', env);
  }
  return out;
}

/** Objects merge key by key; anything else in the overlay replaces. Prototype keys are never copied. */
function mergeOverlay<T extends object>(base: T, overlay: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(overlay)) {
    if (k === '__proto__' || k === 'constructor' || k === 'prototype') continue;
    const cur = out[k];
    out[k] = isPlainObject(cur) && isPlainObject(v) ? mergeOverlay(cur, v) : v;
  }
  return out as T;
}

export function readOrThrow(fs: FileSystem, file: string): Buffer {
  try {
    // Bounded and regular files only, like resources (a project file linked to /dev/zero cannot hang steward).
    return fs.readFile(file, { maxBytes: MAX_FILE_BYTES });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : code === 'ENOTREG' ? 'not a regular file' : String(code ?? e)}`,
      undefined,
      '',
      e,
    );
  }
}
