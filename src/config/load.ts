import { isAbsolute, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import { ConfigError, type Issue } from '../errors.ts';
import { checkSemantics } from '../schema/semantic.ts';
import { expandTemplates, originKey, templatePointer } from '../templates/expand.ts';
import { offsetInScalar } from '../templates/position.ts';
import { openParseCache, type CacheStats } from './cache.ts';
import { credentialValues, secretLookingValues, variablePolicy } from './credentials.ts';
import type { FileSystem } from './fs.ts';
import { isGlobTooLarge } from '../shared/files.ts';
import type { Env } from './interpolate.ts';
import type { ParallelOptions } from './parse-pool.ts';
import { globCost } from './file-role.ts';
import { findProjectFile, loadProject, type Project } from './project.ts';
import { readResourceFiles, realRoots } from './read-files.ts';
import type { AnyResource } from '../model/resource.ts';
import { pointerSegments } from '../shared/pointer.ts';
import { locate, MAX_FILE_BYTES, parseYamlFile, type SourceDoc } from './source.ts';
import { pushAll } from '../shared/arrays.ts';

/** How many times the same problem (same message) is listed before the rest are only counted. */
export const MAX_REPEATED_ISSUES = 20;

export interface LoadDeps {
  fs: FileSystem;
  env: Env;
  cwd: string;
  /** The run's signal (Ctrl-C, SIGTERM): a parse on worker threads stops when it aborts (parse-pool.ts). */
  signal?: AbortSignal;
}

export interface Loaded {
  project: Project | undefined;
  /** Every file read, absolute. */
  files: string[];
  resources: AnyResource[];
  /** Every problem (errors and warnings), positions resolved, file paths relative to cwd. */
  issues: Issue[];
  /** How the files were read: from the parse cache, parsed here, parsed on how many worker threads. */
  stats: LoadStats;
  /** Where a pointer of a loaded document is (line, col), for problems found after loading. */
  position(file: string, index: number, pointer: string, atKey?: boolean): { line: number; col: number };
  /** The same, as an Issue with the file relative to cwd. */
  issueAt(file: string, index: number, pointer: string, message: string, severity?: 'error' | 'warning'): Issue;
}

export interface LoadStats {
  /** Resource files read (the project file not counted). */
  files: number;
  /** Files parsed (not answered by the cache). */
  parsed: number;
  /** Worker threads used to parse (0: all in this thread). */
  workers: number;
  /** undefined when no cache was used. */
  cache: CacheStats | undefined;
}

export interface LoadOptions {
  config?: string;
  envName?: string;
  paths?: string[];
  requireProject?: boolean;
  /**
   * Use the parse cache under the project's `.steward/cache/` (default false here; the CLI turns it on
   * unless `--no-cache` or STEWARD_NO_CACHE=1). Without a project there is no cache.
   */
  cache?: boolean;
  /** How old a file's last change must be before the cache may skip reading it (default SETTLE_MS; tests). */
  cacheSettleMs?: number;
  /** Worker threads for large projects (see parse-pool.ts); `{ workers: 0 }` parses in this thread. */
  parallel?: ParallelOptions;
  /**
   * Called once the project file is loaded, before the resource files are read (plan starts its reads).
   * `false`: the command will stop after the files are read (it cannot connect): it leaves nothing behind,
   * so the parse cache is read but not saved.
   */
  onProject?(project: Project): boolean | void;
}

/**
 * Loads what a command works on. With a project (found from cwd or `--config`), its resource globs; with
 * explicit paths, those files and folders. Returns every problem rather than stopping at the first.
 */
export async function loadWorkspace(deps: LoadDeps, opts: LoadOptions): Promise<Loaded> {
  const paths = (opts.paths ?? []).map((p) => resolve(deps.cwd, p));
  let projectFile: string | undefined;
  let explicitFiles: string[] | undefined;

  if (opts.config !== undefined) projectFile = findProjectFile(deps.fs, deps.cwd, opts.config);
  else if (paths.length === 1 && deps.fs.stat(paths[0]!)?.isDirectory && hasProjectFile(deps.fs, paths[0]!)) {
    projectFile = findProjectFile(deps.fs, paths[0]!);
  } else if (paths.length > 0) {
    explicitFiles = await expandPaths(deps.fs, paths, deps.cwd);
    projectFile = findProjectFile(deps.fs, deps.cwd);
  } else {
    projectFile = findProjectFile(deps.fs, deps.cwd);
  }

  if (!projectFile && (opts.requireProject || !explicitFiles)) {
    throw new ConfigError(`no steward.yaml in ${deps.cwd} or any folder above it: run steward in your project, or pass --config path/to/steward.yaml`);
  }

  const project = projectFile ? loadProject(deps.fs, projectFile, deps.env, opts.envName) : undefined;
  let keepCache = true;
  if (project && opts.onProject) {
    keepCache = opts.onProject(project) !== false;
    // A few turns of the event loop, so the requests just started connect and go out before this thread
    // reads the cache and the files (synchronous, ~0.3 s at 10,000): the server works on them meanwhile.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  }
  const issues: Issue[] = [];
  let files: string[];
  // Where resources may come from: the project folder, or each folder or file given on the command line.
  const roots = realRoots(deps.fs, explicitFiles ? paths : [project!.dir]);
  if (explicitFiles) files = explicitFiles;
  else {
    files = [];
    for (const [i, pattern] of project!.resources.entries()) {
      const unusable = outsideProblem(pattern) ?? globProblem(pattern);
      if (unusable) {
        const pointer = `/spec/resources/${i}`;
        issues.push({
          ...project!.locate(pointer),
          pointer,
          // Quoted whole or not at all: a ${VAR} of the Project document may put a secret in it, and a cut
          // quote kept its start where the output's redaction no longer found it (red team).
          message: `${pattern.length > 120 ? `a pattern of ${pattern.length} characters` : `pattern "${pattern}"`} cannot be used as a glob: ${unusable}`,
          severity: 'error',
        });
        continue;
      }
      let matched: string[];
      try {
        matched = await deps.fs.glob([pattern], project!.dir);
      } catch (e) {
        if (!isGlobTooLarge(e)) throw e;
        const pointer = `/spec/resources/${i}`;
        issues.push({
          ...project!.locate(pointer),
          pointer,
          message: `${pattern.length > 120 ? `a pattern of ${pattern.length} characters` : `pattern "${pattern}"`} ${e.message}`,
          severity: 'error',
        });
        continue;
      }
      // Only patterns the user wrote: the defaults (dashboards/, alerts/, cloud/) may well be unused.
      if (matched.length === 0 && project!.spec.resources !== undefined) {
        issues.push({
          ...project!.locate('/spec/resources'),
          pointer: '/spec/resources',
          message: `pattern "${pattern}" matches no file`,
          severity: 'warning',
        });
      }
      pushAll(files, matched);
    }
    files = [...new Set(files)].filter((f) => f !== project!.file).sort();
  }

  const resources: AnyResource[] = project && !explicitFiles ? [...project.inlineResources] : [];
  // Unchanged files come from the cache; the others are parsed (on worker threads when there are many).
  // What resource files may read; part of every cache key, so a newly named credential (or a new prefix) is
  // never served from an entry made before it.
  const variables = variablePolicy(project?.spec);
  const cache =
    opts.cache && project
      ? openParseCache(deps.fs, project.dir, deps.env, {
          variables,
          api: project.spec.observability?.api ?? 'seed',
          // A file that reads a secret's value is not kept in the pack, which is plain text in the work tree.
          secrets: [...credentialValues(variables.deny, deps.env), ...secretLookingValues(deps.env)],
          ...(opts.cacheSettleMs !== undefined ? { settleMs: opts.cacheSettleMs } : {}),
        })
      : undefined;
  const read = await readResourceFiles(deps, files, {
    roots,
    projectFile,
    cache,
    parallel: deps.signal ? { ...opts.parallel, signal: deps.signal } : opts.parallel,
    variables,
    markerTag: project?.markerTag,
    api: project ? (project.spec.observability?.api ?? 'seed') : undefined,
  });
  if (keepCache) cache?.save({ partial: explicitFiles !== undefined });
  for (const out of read.outputs) {
    pushAll(resources, out.resources);
    pushAll(issues, out.issues);
  }

  // Templates are expanded here, between reading and the checks that see every resource (src/templates/).
  const expanded = expandTemplates(resources);

  // Semantic positions are found by parsing the file again: keeping every file's syntax tree in memory would
  // cost far more than re-reading the few files that have a problem. Documents are indexed, so finding one is
  // constant time however many a file holds (100,000 duplicates in 3 files were quadratic).
  const treeCache = new Map<string, Map<number, SourceDoc>>();
  // The file was read and checked once already; read again under the same cap, and if it is gone or was
  // replaced by something unreadable since, the problem is still reported, at 1:1.
  const reread = (file: string): Buffer | undefined => {
    try {
      return deps.fs.readFile(file, { maxBytes: MAX_FILE_BYTES });
    } catch {
      return undefined;
    }
  };
  const positionIn = (file: string, index: number, pointer: string, atKey?: boolean, offset?: number) => {
    let docs = treeCache.get(file);
    if (!docs) {
      const bytes = reread(file);
      treeCache.set(file, (docs = new Map(bytes ? parseYamlFile(file, bytes).docs.map((d) => [d.index, d]) : [])));
    }
    const src = docs.get(index);
    const bytes = src && offset !== undefined && !atKey ? reread(file) : undefined;
    if (src && bytes && offset !== undefined) {
      // A problem inside a string (a template's reference): at that character when the text shows it as is.
      const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
      const at = offsetInScalar(src.doc, text, pointerSegments(pointer), offset);
      if (at !== undefined) return src.lineCounter.linePos(at);
    }
    return src ? locate(src, pointerSegments(pointer), { key: atKey }) : { line: 1, col: 1 };
  };
  /** Where a pointer of a document is; a stamped resource's pointers are in its template (the note says which stamp). */
  const where = (file: string, index: number, pointer: string, atKey?: boolean, offset?: number) => {
    const origin = index < 0 ? expanded.origins.get(originKey(file, index)) : undefined;
    if (!origin) return { file, ...positionIn(file, index, pointer, atKey, offset), note: '' };
    const ip = positionIn(origin.instance.file, origin.instance.index, origin.instance.item);
    const note = ` (in ${origin.kind} ${origin.name}, stamped by ${rel(deps.cwd, origin.instance.file)}:${ip.line}:${ip.col})`;
    return { file: origin.template.file, ...positionIn(origin.template.file, origin.template.index, templatePointer(origin, pointer), atKey), note };
  };
  const position = (file: string, index: number, pointer: string, atKey?: boolean) => {
    const w = where(file, index, pointer, atKey);
    return { line: w.line, col: w.col };
  };
  // The same problem many times over (a file copied a thousand times) is shown MAX_REPEATED_ISSUES times,
  // the last saying how many more there are.
  const repeats = new Map<string, { count: number; last: Issue }>();
  for (const p of [...expanded.problems, ...checkSemantics(expanded.resources, { api: project?.spec.observability?.api })]) {
    const key = `${p.severity}\u0000${p.message}`;
    const seen = repeats.get(key);
    if (seen && seen.count >= MAX_REPEATED_ISSUES) {
      seen.count++;
      continue;
    }
    const w = where(p.file, p.index, p.pointer, p.atKey, p.offset);
    let message = p.message + w.note;
    if (p.related) {
      const rp = where(p.related.file, p.related.index, p.related.pointer);
      message += ` (${p.relatedLabel ?? 'first at'} ${rel(deps.cwd, rp.file)}:${rp.line}:${rp.col})`;
    }
    const issue: Issue = { file: w.file, line: w.line, col: w.col, pointer: p.pointer, message, severity: p.severity };
    issues.push(issue);
    if (seen) {
      seen.count++;
      seen.last = issue;
    } else repeats.set(key, { count: 1, last: issue });
  }
  for (const { count, last } of repeats.values()) {
    if (count > MAX_REPEATED_ISSUES) last.message += `; and ${count - MAX_REPEATED_ISSUES} more like it`;
  }

  return {
    project,
    files: projectFile && !explicitFiles ? [projectFile, ...files] : files,
    resources: expanded.resources,
    issues: issues.map((i) => ({ ...i, file: rel(deps.cwd, i.file) })),
    stats: { files: files.length, parsed: read.parsed, workers: read.workers, cache: cache?.stats },
    position,
    issueAt: (file, index, pointer, message, severity = 'error') => {
      const w = where(file, index, pointer);
      return { file: rel(deps.cwd, w.file), line: w.line, col: w.col, pointer, message: message + w.note, severity };
    },
  };
}

/**
 * Why a glob cannot be used, or undefined. Checked before globbing: a pattern whose expression is too large
 * throws inside the directory walk's callback, where no caller can catch it (the process died).
 */
function globProblem(pattern: string): string | undefined {
  const cost = globCost(pattern);
  if (cost !== undefined) return cost;
  try {
    picomatch(pattern)('dashboards/a.yaml');
    return undefined;
  } catch (e) {
    const m = e instanceof Error ? e.message : String(e);
    return /too large|exceeds maximum/i.test(m)
      ? `it is too long (${pattern.length} characters); split it into shorter patterns`
      : m.split('\n')[0]!.slice(0, 120);
  }
}

/**
 * Why a resource pattern may not be used: absolute, or climbing out with `..` (in any segment or brace
 * alternative). Resources stay inside the project folder; matches are also checked after resolving links.
 */
function outsideProblem(pattern: string): string | undefined {
  if (isAbsolute(pattern) || /^[A-Za-z]:[\\/]/.test(pattern) || pattern.startsWith('~')) {
    return 'it is absolute; resource patterns are relative to the project folder, and resources stay inside it';
  }
  if (/(^|[\\/{,])\.\.($|[\\/},])/.test(pattern)) return 'it climbs out with ".."; resources stay inside the project folder';
  return undefined;
}

function hasProjectFile(fs: FileSystem, dir: string): boolean {
  return fs.stat(resolve(dir, 'steward.yaml'))?.isFile === true || fs.stat(resolve(dir, 'steward.yml'))?.isFile === true;
}

async function expandPaths(fs: FileSystem, paths: string[], cwd: string): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const st = fs.stat(p);
    if (!st) throw new ConfigError(`${rel(cwd, p)}: no such file or folder`);
    if (st.isDirectory) {
      let found: string[];
      try {
        found = await fs.glob(['**/*.{yaml,yml}'], p);
      } catch (e) {
        if (!isGlobTooLarge(e)) throw e;
        throw new ConfigError(`${rel(cwd, p)}: ${e.message}`);
      }
      // A folder named on the command line is something to check: one with nothing in it is a mistyped path
      // (or a folder named like a file), which would otherwise pass as "valid: 0 files".
      if (found.length === 0) throw new ConfigError(`${rel(cwd, p)}: a folder with no .yaml or .yml file in it`);
      pushAll(out, found);
    } else out.push(p);
  }
  return [...new Set(out)].sort();
}

function rel(cwd: string, file: string): string {
  const r = relative(cwd, file);
  return r === '' ? file : r.startsWith('..') && r.split('/').filter((s) => s === '..').length > 2 ? file : r;
}
