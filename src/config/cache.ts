/**
 * The parse cache: what `processFile` made of a file that had no problem, so an unchanged file is not
 * parsed again (YAML parsing is most of the time `plan` and `validate` spend on a large project).
 *
 * - Keyed by the file's bytes and the values of the `${VAR}`s they mention (sha256): any change of either is
 *   another key. The file's path is not part of the key; the loader puts it back.
 * - One pack file per project, `.steward/cache/parse.pack`: a header line naming the code that wrote it
 *   (cache format, steward and yaml versions, the text of the loading and schema modules) and an HMAC of
 *   the entries, then the entries as JSON. Any mismatch or damage: the whole pack is ignored, as if empty.
 * - The HMAC key is per machine and user, outside the work tree: `$XDG_CACHE_HOME/steward/cache.key` (or
 *   `~/.cache/steward/cache.key`), 32 random bytes created with mode 0600. A pack from anywhere else (a
 *   commit, a pull request, another machine) fails authentication, so the cache can never make steward
 *   use values that are not in the YAML. A pack that git tracks is ignored too. No key (no
 *   XDG_CACHE_HOME and no HOME, or an unusable key file): no cache.
 * - Only files without any problem (no error, no warning) are stored, so every problem is always found by
 *   a fresh parse and carries its position. Semantic checks run after loading, on every resource, cached
 *   or not.
 * - Written atomically, pruned to the files of the last full load, safe to delete at any time.
 */
import { createHash, hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { RESOURCE_KINDS, type ResourceKind } from '../schema/kinds.ts';
import type { FileSystem } from './fs.ts';
import type { VariablePolicy } from './credentials.ts';
import type { Env } from './interpolate.ts';
import type { AnyResource } from '../model/resource.ts';
import { linkEscape } from '../shared/paths.ts';
import { authenticatedChunks, gitTracks, machineKey, readAuthenticated } from './cache-trust.ts';
import { mayHideReference } from './reference-scan.ts';
import { isExactJson } from '../shared/json.ts';
import { utf8Text } from '../shared/text.ts';

/** Bump when the meaning of an entry changes in a way the code identity below cannot see. */
const CACHE_FORMAT = 3;
const MAGIC = 'steward-parse-cache';

/** The cache folder, relative to the project folder. */
export const CACHE_DIR = '.steward/cache';
export const PACK_FILE = 'parse.pack';

/** What is stored per document: a Resource without its file. */
export interface CachedResource {
  kind: ResourceKind;
  name: string;
  index: number;
  doc: unknown;
  /** Dashboards: [marker tag, digest of the normalized desired form] (src/plan/normalize.ts), so a warm plan need not normalize. */
  nd?: [string, string];
}

export interface CacheStats {
  /** Files answered from the cache. */
  hits: number;
  /** Files looked up and not found. */
  misses: number;
  /** Entries added by this load. */
  stored: number;
}

/**
 * What identifies a file's version without reading it (device, inode, size, modification and change
 * times), and when it last changed: see `ParseCache.keyOfUnchanged`.
 */
export interface FileVersion {
  signature: string;
  changedMs: number;
}

export interface ParseCache {
  /**
   * The entry key of a file's bytes under the current environment. With `at`, the file's path and version
   * are remembered with what the key was made of, so a later load can skip reading it (`keyOfUnchanged`).
   */
  keyOf(bytes: Uint8Array, at?: { file: string; version: FileVersion }): string | undefined;
  /**
   * The key of a file whose version is the one its bytes were last read at, under the current environment,
   * without reading them; undefined when it was not read then, or its version differs. A version is only
   * remembered once it is SETTLE_MS old (its times cannot then be those of a later change within the
   * file system's timestamp granularity), and the change time cannot be set back by a user.
   */
  keyOfUnchanged(file: string, version: FileVersion): string | undefined;
  /** The cached documents of a key, or undefined. */
  get(key: string): CachedResource[] | undefined;
  /** Whether `get` would answer (not counted in the stats). */
  has(key: string): boolean;
  /** Stores the resources of a file that had no problem at all. Values JSON cannot carry are not stored. */
  set(key: string, resources: readonly AnyResource[], digests?: ReadonlyArray<[string, string] | undefined>): void;
  /**
   * Writes the pack when it changed. `partial`: this load read only some of the project's files (explicit
   * paths), so entries it did not use are kept; otherwise they are dropped. Never throws.
   */
  save(opts: { partial: boolean }): void;
  readonly stats: CacheStats;
}

/** The cache is on unless the flag says no (`--no-cache`) or STEWARD_NO_CACHE is set (to anything but '' or '0'). */
export function cacheWanted(flag: boolean | undefined, env: Env): boolean {
  const off = env['STEWARD_NO_CACHE'];
  return flag !== false && (off === undefined || off === '' || off === '0');
}

let identity: string | null | undefined;

/**
 * The code that turns bytes into cached values: cache format, steward and yaml versions, and the text of
 * the modules that parse, interpolate and validate (the compiled schemas among them). A changed schema or
 * loader, or a development build, never reads entries written by other code. null when it cannot be read.
 */
export function codeIdentity(): string | null {
  if (identity !== undefined) return identity;
  try {
    const h = createHash('sha256').update(`${MAGIC}/${CACHE_FORMAT}\u0000`);
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const require = createRequire(import.meta.url);
    h.update(readFileSync(new URL('../../package.json', import.meta.url)));
    h.update(readFileSync(require.resolve('yaml/package.json')));
    h.update(readFileSync(require.resolve('js-yaml/package.json')));
    for (const m of [
      './resources',
      './source',
      './fast-parse',
      '../plan/normalize',
      '../plan/fingerprint',
      '../shared/json',
      './interpolate',
      './cache',
      './cache-trust',
      './live-memo',
      // What a list body parses to, and what the live memo keeps of it (its body entries).
      '../clients/observability',
      '../clients/validate',
      '../workflows/live-side',
      '../schema/validator',
      '../schema/validators.gen',
      '../schema/kinds',
    ]) {
      h.update(`\u0000${m}\u0000`);
      h.update(readFileSync(new URL(m + ext, import.meta.url)));
    }
    identity = h.digest('hex');
  } catch {
    identity = null;
  }
  return identity;
}

const VAR_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)/g;
const DOLLAR_BRACE = Buffer.from('${');

/** Files whose last change is less than this old are read every time (see `ParseCache.keyOfUnchanged`). */
export const SETTLE_MS = 3000;

/** What a file's key is made of besides the environment: sha256 of its bytes, and the variables it names. */
interface KeyParts {
  hash: string;
  names: string[];
}

function keyParts(bytes: Uint8Array): KeyParts | undefined {
  // The variables it reads are found in its text; where an escape could hide one, they are not known
  // before parsing, so the file has no key (it is parsed every time, never served stale).
  if (mayHideReference(bytes)) return undefined;
  const hash = createHash('sha256').update(bytes).digest('hex');
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const names = buf.indexOf(DOLLAR_BRACE) === -1 ? [] : [...new Set(Array.from(buf.toString('latin1').matchAll(VAR_REF), (m) => m[1]!))].sort();
  return { hash, names };
}

/** The text of a variable policy in a key, per policy (the same for every file of a load). */
const policyTexts = new WeakMap<VariablePolicy, string>();

function keyFromParts(parts: KeyParts, env: Env, variables?: VariablePolicy): string {
  let text = parts.hash;
  // What resource files may read changes what a file means (a reference to a denied variable is an error).
  if (variables) {
    let policy = policyTexts.get(variables);
    if (policy === undefined) {
      policy = '\u0000variables\u0000' + JSON.stringify([[...variables.deny].sort(), variables.allowPrefix ?? null]);
      policyTexts.set(variables, policy);
    }
    text += policy;
  }
  for (const name of parts.names) {
    const value = env[name];
    text += '\u0000' + JSON.stringify([name, value === undefined || value === '' ? null : value]);
  }
  // One-shot: 10,000 files of a warm load, each a createHash object, cost more than the hashing (issue 15).
  return hash('sha256', text, 'hex');
}

/**
 * The key of a file: sha256 of its bytes' sha256 and of every variable it mentions with its value ('' and
 * unset are one case, as interpolation treats them). Names are found in the raw text, comments and `$${`
 * escapes included: a superset of what interpolation reads, so a change can only cost a parse, never
 * serve a stale value. Undefined when an escape could hide a reference (`mayHideReference`): not cached.
 */
export function cacheKey(bytes: Uint8Array, env: Env, variables?: VariablePolicy): string | undefined {
  const parts = keyParts(bytes);
  return parts && keyFromParts(parts, env, variables);
}

/**
 * What a cache file of the project needs (the parse pack, the live memo): the code identity, a way to write
 * atomically, this machine's key and the cache folder. Undefined when any is missing, or when .steward or
 * .steward/cache links out of the project: steward would write (and trust) a file elsewhere, so there is
 * no cache then, which only costs a parse.
 */
export function cacheHome(
  fs: FileSystem,
  projectDir: string,
  env: Env,
  opts: { identity?: string; key?: Buffer } = {},
): { id: string; write: (path: string, text: string | Iterable<string>) => void; key: Buffer; dir: string } | undefined {
  const id = opts.identity ?? codeIdentity();
  const write = fs.writeFileAtomic?.bind(fs);
  const key = opts.key ?? machineKey(env);
  if (!id || !write || !key) return undefined;
  const dir = join(projectDir, CACHE_DIR);
  if (fs.realpath && linkEscape(projectDir, dir) !== undefined) return undefined;
  return { id, write, key, dir };
}

/**
 * Opens the cache of the project in `projectDir`. Returns undefined when the file system cannot write
 * or the code identity cannot be read (loading then simply parses everything).
 */
export function openParseCache(
  fs: FileSystem,
  projectDir: string,
  env: Env,
  opts: { identity?: string; variables?: VariablePolicy; key?: Buffer; settleMs?: number; now?: () => number } = {},
): ParseCache | undefined {
  const home = cacheHome(fs, projectDir, env, opts);
  if (!home) return undefined;
  const { id, write, key, dir } = home;
  const path = join(dir, PACK_FILE);
  const entries = readPack(fs, path, id, key, () => gitTracks(dir, PACK_FILE, env));
  // The files read before, by path: [version signature, bytes' sha256, variables named]. Its own member of
  // the pack (no entry key has this form), authenticated with the rest.
  const recorded = new Map<string, [string, string, string[]]>();
  const files = entries[FILES_KEY];
  delete entries[FILES_KEY];
  if (typeof files === 'object' && files !== null && !Array.isArray(files)) {
    for (const [f, v] of Object.entries(files as Record<string, unknown>)) if (isRecord(v)) recorded.set(f, v);
  }
  const loadedCount = Object.keys(entries).length;
  /** Files this load read or found unchanged: what a full save keeps of `recorded`. */
  const seenFiles = new Map<string, [string, string, string[]]>();
  const settleMs = opts.settleMs ?? SETTLE_MS;
  const now = opts.now ?? Date.now;
  /** Entries used (parsed) or added (as JSON text) by this load: what a full save keeps. */
  const used = new Map<string, CachedResource[] | string>();
  const stats: CacheStats = { hits: 0, misses: 0, stored: 0 };

  return {
    stats,
    keyOf(bytes, at) {
      const parts = keyParts(bytes);
      if (at) {
        if (parts && at.version.changedMs <= now() - settleMs) seenFiles.set(at.file, [at.version.signature, parts.hash, parts.names]);
        else seenFiles.delete(at.file);
      }
      return parts && keyFromParts(parts, env, opts.variables);
    },
    keyOfUnchanged(file, version) {
      const r = recorded.get(file);
      if (!r || r[0] !== version.signature) return undefined;
      seenFiles.set(file, r);
      return keyFromParts({ hash: r[1], names: r[2] }, env, opts.variables);
    },
    has(key) {
      return used.has(key) || (Object.prototype.hasOwnProperty.call(entries, key) && isEntry(entries[key]));
    },
    get(key) {
      const seen = used.get(key);
      if (seen !== undefined) {
        // Two files with the same bytes: each gets its own copy, so no document is shared.
        stats.hits++;
        return typeof seen === 'string' ? (JSON.parse(seen) as CachedResource[]) : structuredClone(seen);
      }
      const e = Object.prototype.hasOwnProperty.call(entries, key) ? entries[key] : undefined;
      if (e === undefined || !isEntry(e)) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      used.set(key, e);
      return e;
    },
    set(key, resources, digests) {
      const e: CachedResource[] = resources.map((r, i) => ({
        kind: r.kind,
        name: r.name,
        index: r.index,
        doc: r.doc,
        ...(digests?.[i] ? { nd: digests[i] } : {}),
      }));
      if (!e.every((r) => isExactJson(r.doc))) return;
      // Kept as text: later stages may change the loaded objects, the cache must not follow them.
      used.set(key, JSON.stringify(e));
      stats.stored++;
    },
    save({ partial }) {
      const keep = new Map<string, unknown>(partial ? Object.entries(entries) : []);
      for (const [k, v] of used) keep.set(k, v);
      const keepFiles = new Map(partial ? recorded : []);
      for (const [f, r] of seenFiles) keepFiles.set(f, r);
      const filesChanged = keepFiles.size !== recorded.size || [...keepFiles].some(([f, r]) => recorded.get(f)?.join('\u0000') !== r.join('\u0000'));
      if (stats.stored === 0 && keep.size === loadedCount && !filesChanged) return;
      try {
        const filesPart = `${JSON.stringify(FILES_KEY)}:${JSON.stringify(Object.fromEntries(keepFiles))}`;
        // The body's parts, made twice (for the MAC, then for the file) rather than joined into one string.
        function* parts() {
          yield '{';
          for (const [k, v] of keep) yield `${JSON.stringify(k)}:${typeof v === 'string' ? v : JSON.stringify(v)},`;
          yield `${filesPart}}`;
        }
        ensureIgnored(fs, dir);
        write(path, authenticatedChunks(MAGIC, id, key, parts, keep.size));
      } catch {
        // A cache that cannot be written (read-only checkout, full disk) only costs the next run a parse.
      }
    },
  };
}

/** Writes the cache folder's .gitignore when it has none (the folder's files are never to be committed). */
export function ensureIgnored(fs: FileSystem, dir: string): void {
  if (!fs.stat(join(dir, '.gitignore'))) fs.writeFileAtomic?.(join(dir, '.gitignore'), '# steward parse cache: safe to delete, never commit\n*\n');
}

/**
 * The entries of a pack written by this code on this machine, or none: a missing, foreign, stale, damaged,
 * unauthenticated or git-tracked pack is empty.
 */
function readPack(fs: FileSystem, path: string, id: string, key: Buffer, tracked: () => boolean): Record<string, unknown> {
  const empty: Record<string, unknown> = {};
  const body = readAuthenticated(fs, path, MAGIC, id, key, tracked);
  if (!body) return empty;
  try {
    const parsed: unknown = JSON.parse(utf8Text(body));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : empty;
  } catch {
    return empty;
  }
}

/** The pack's member that records files read (entry keys are 64 hex digits). */
const FILES_KEY = 'files';

function isRecord(v: unknown): v is [string, string, string[]] {
  return (
    Array.isArray(v) &&
    v.length === 3 &&
    typeof v[0] === 'string' &&
    typeof v[1] === 'string' &&
    Array.isArray(v[2]) &&
    (v[2] as unknown[]).every((n) => typeof n === 'string')
  );
}

function isEntry(e: unknown): e is CachedResource[] {
  return (
    Array.isArray(e) &&
    e.every((r: Partial<CachedResource> | null) => {
      if (typeof r !== 'object' || r === null) return false;
      const doc = r.doc as { metadata?: { name?: unknown } } | null | undefined;
      return (
        (RESOURCE_KINDS as readonly unknown[]).includes(r.kind) &&
        typeof r.name === 'string' &&
        Number.isInteger(r.index) &&
        typeof doc === 'object' &&
        doc !== null &&
        (r.nd === undefined || (Array.isArray(r.nd) && r.nd.length === 2 && r.nd.every((x) => typeof x === 'string'))) &&
        doc.metadata?.name === r.name
      );
    })
  );
}
