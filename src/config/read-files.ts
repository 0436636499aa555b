/**
 * Reading a project's resource files: one call that decides, per file, whether the parse cache answers it
 * or it is parsed (in this thread, or on worker threads when there are many: parse-pool.ts), and that keeps
 * the cache and the dashboards' normalized digests up to date. `load.ts` sees only the outputs.
 *
 * What may be read is decided before reading: links out of the roots, anything but a regular file and files
 * over the size limit are refused with a problem, never read.
 */
import { basename, dirname, sep } from 'node:path';
import type { Issue } from '../errors.ts';
import { rememberDesiredDigest } from '../plan/normalize.ts';
import type { FileVersion, ParseCache } from './cache.ts';
import type { VariablePolicy } from './credentials.ts';
import type { FileSystem } from './fs.ts';
import type { Env } from './interpolate.ts';
import { markedDigests, processFiles, type ParallelOptions, type ParseJob, type ParseOutput } from './parse-pool.ts';
import { headOf, lazyResource } from './rows.ts';
import { IN_GIT, inGitFolder } from '../shared/paths.ts';
import { MAX_FILE_BYTES } from './source.ts';

export interface ReadFilesOptions {
  /** Where resources may come from, links resolved (`realRoots`). */
  roots: readonly string[];
  /** The project file, when it is among the files: parsed as a resource file but never cached. */
  projectFile: string | undefined;
  /** The parse cache, when one is used; the caller saves it. */
  cache: ParseCache | undefined;
  parallel: ParallelOptions | undefined;
  variables: VariablePolicy;
  /** The project's marker tag: dashboards' normalized digests are made for it (plan skips normalizing them). */
  markerTag: string | undefined;
  /**
   * The project's observability API, when there is a project: parse workers then answer with text rows,
   * their dashboards' facts checked under it (src/config/rows.ts).
   */
  api?: string | undefined;
}

export interface ReadFiles {
  /** One per file, in the files' order. */
  outputs: ParseOutput[];
  /** Files parsed (not answered by the cache). */
  parsed: number;
  /** Worker threads used to parse (0: all in this thread). */
  workers: number;
}

/** Files checked (and taken from the cache) between two turns of the event loop: a few milliseconds' work. */
const YIELD_EVERY = 250;

/** Reads, parses (or takes from the cache) and checks each file; every problem is in its file's output. */
export async function readResourceFiles(deps: { fs: FileSystem; env: Env }, files: readonly string[], o: ReadFilesOptions): Promise<ReadFiles> {
  const { cache, markerTag } = o;
  const outputs: Array<ParseOutput | undefined> = new Array(files.length);
  const jobs: Array<ParseJob & { slot: number; key: string | undefined }> = [];
  const realDirs = new Map<string, string | null>();
  for (const [slot, file] of files.entries()) {
    // Now and then a turn of the event loop: the live list arriving meanwhile (28 MB at 10,000 dashboards)
    // is read off the socket as it comes, instead of waiting in the kernel with the server held up.
    if (slot % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    const placed = placeResourceFile(deps.fs, file, o.roots, realDirs);
    if ('issue' in placed) {
      outputs[slot] = { resources: [], issues: [placed.issue] };
      continue;
    }
    const isProjectFile = file === o.projectFile;
    const useCache = cache !== undefined && !isProjectFile;
    // A file whose version is the one last read need not be read again: its key is known.
    let key = useCache && placed.version ? cache.keyOfUnchanged(file, placed.version) : undefined;
    let hit = key !== undefined && cache!.has(key) ? cache!.get(key, file) : undefined;
    let bytes: Buffer | undefined;
    if (!hit) {
      const read = readPlacedFile(deps.fs, file);
      if ('issue' in read) {
        outputs[slot] = { resources: [], issues: [read.issue] };
        continue;
      }
      bytes = read.bytes;
      key = useCache ? cache.keyOf(bytes, placed.version ? { file, version: placed.version } : undefined) : undefined;
      hit = key !== undefined ? cache!.get(key, file) : undefined;
    }
    // Each dashboard's facts carry the digest of its normalized form, made when the file was parsed: plan
    // skips normalizing it, and reads its document only if the live one differs.
    if (hit) outputs[slot] = { resources: hit, issues: [] };
    else jobs.push({ file, bytes: bytes!, isProjectFile, slot, key });
  }
  const results = await processFiles(jobs, deps.env, o.parallel, o.variables, markerTag, o.api);
  jobs.forEach((job, i) => {
    const out = results.outputs[i]!;
    const { resources: parsed, issues: found, rows } = out;
    if (rows) {
      // A worker's text rows: resources whose documents are parsed when read, as the cache's are.
      outputs[job.slot] = { resources: rows.map((r) => lazyResource(headOf(r), job.file, () => r.text)), issues: [] };
      if (cache && job.key !== undefined) cache.setRows(job.key, rows);
      return;
    }
    outputs[job.slot] = { resources: parsed, issues: found };
    // The digests made beside the parse: plan need not normalize these dashboards, nor a later load parse them.
    const digests = markedDigests(out, markerTag);
    parsed.forEach((r, k) => {
      const d = digests[k];
      if (d) rememberDesiredDigest((r.doc as { spec: object }).spec, d[0], d[1]);
    });
    // A file with any problem is never cached: its positions are always computed afresh.
    if (cache && job.key !== undefined && found.length === 0) cache.set(job.key, parsed, digests);
  });
  return { outputs: outputs as ParseOutput[], parsed: jobs.length, workers: results.workers };
}

const refusal = (file: string, message: string): { issue: Issue } => ({ issue: { file, line: 1, col: 1, pointer: '', message, severity: 'error' } });

/**
 * Whether a resource file may be read, and its version when it is no link (for the parse cache), or why it
 * is refused, without reading what is refused: a path whose real path (links resolved) is outside every
 * root, anything but a regular file (a fifo, /dev/zero), a file over the size limit. Messages never quote
 * the file's contents or where its link points. `roots` are real paths already (see `realRoots`).
 */
function placeResourceFile(
  fs: FileSystem,
  file: string,
  roots: readonly string[],
  realDirs: Map<string, string | null>,
): { version: FileVersion | undefined } | { issue: Issue } {
  const refuse = (message: string) => refusal(file, message);
  let st: { isFile: boolean; isDirectory: boolean; size: number; version?: FileVersion } | undefined;
  if (fs.realpath) {
    let real: string | undefined;
    // A file that is no link is really where its folder really is: one lstat instead of resolving every
    // component of its path again (10,000 files: 0.2 s). Links, and folders that cannot be resolved, as before.
    const own = fs.lstat?.(file);
    if (own && !own.isLink) {
      const dir = dirname(file);
      let realDir = realDirs.get(dir);
      if (realDir === undefined) {
        try {
          realDir = fs.realpath(dir);
        } catch {
          realDir = null;
        }
        realDirs.set(dir, realDir);
      }
      if (realDir !== null) {
        real = (realDir.endsWith(sep) ? realDir : realDir + sep) + basename(file);
        st = own;
      }
    }
    try {
      real ??= fs.realpath(file);
    } catch {
      return refuse('cannot resolve this path (a broken link?); not read');
    }
    const root = roots.find((r) => real === r || real.startsWith(r.endsWith(sep) ? r : r + sep));
    if (root === undefined)
      return refuse(
        fs.stat(file)?.isDirectory
          ? 'is a link to a folder outside the project folder; not followed (resources stay inside the project)'
          : 'is a link to a file outside the project folder; not read (resources stay inside the project)',
      );
    if (inGitFolder(real.slice(root.length))) return refuse(IN_GIT);
  }
  st ??= fs.stat(file);
  if (!st) return refuse('no such file');
  if (!st.isFile) return refuse(st.isDirectory ? 'is a folder, not a file' : 'is not a regular file (a device, fifo or socket); not read');
  if (st.size > MAX_FILE_BYTES)
    return refuse(`file is ${(st.size / 1048576).toFixed(1)} MiB; steward reads files up to ${MAX_FILE_BYTES / 1048576} MiB (split it into several files)`);
  return { version: st.version };
}

/** The bytes of a file placeResourceFile accepted (at most limit + 1 bytes, in case it grew after the check). */
function readPlacedFile(fs: FileSystem, file: string): { bytes: Buffer } | { issue: Issue } {
  const refuse = (message: string) => refusal(file, message);
  try {
    return { bytes: fs.readFile(file, { maxBytes: MAX_FILE_BYTES }) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return refuse(
      code === 'ENOTREG'
        ? 'is not a regular file (a device, fifo or socket); not read'
        : `cannot read it: ${code === 'EACCES' ? 'permission denied' : String(code ?? 'error')}`,
    );
  }
}

/** The roots with their links resolved, once per load (resolving them per file cost 10,000 realpath calls at 10,000 files). */
export function realRoots(fs: FileSystem, roots: readonly string[]): string[] {
  return roots.map((root) => {
    try {
      return fs.realpath ? fs.realpath(root) : root;
    } catch {
      return root;
    }
  });
}
