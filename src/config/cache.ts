/**
 * The parse cache: what `processFile` made of a file that had no problem, so an unchanged file is not
 * parsed again (YAML parsing is most of the time `plan` and `validate` spend on a large project).
 *
 * - Keyed by the file's bytes and the values of the `${VAR}`s they mention (sha256): any change of either is
 *   another key. The file's path is not part of the key; the loader puts it back.
 * - One pack file per project, `.steward/cache/parse.pack`: a header line naming the code that wrote it
 *   (cache format, steward and yaml versions, the text of the loading and schema modules) and an HMAC of
 *   the rest; then the entries as one line of JSON, each document's kind, name and index, where its text is,
 *   and for a dashboard its facts (what the checks and the plan read of it: src/model/resource.ts); then the
 *   documents' texts, one after the other. A document is parsed only when something reads it: a warm plan of
 *   unchanged dashboards reads none (issue 15). Any mismatch or damage: the whole pack is ignored, as if empty.
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
import { ALL_KINDS, RESOURCE_KINDS } from '../schema/kinds.ts';
import type { FileSystem } from './fs.ts';
import type { VariablePolicy } from './credentials.ts';
import type { Env } from './interpolate.ts';
import type { AnyResource, DashboardFacts } from '../model/resource.ts';
import { headOf, lazyResource, textRowsOf, type RowHead, type TextRow } from './rows.ts';
import { realPathOf } from '../shared/paths.ts';
import { authenticatedChunks, gitTracks, machineKey, readAuthenticated } from './cache-trust.ts';
import { mayHideReference } from './reference-scan.ts';
import { utf8Text } from '../shared/text.ts';
import { packageFile } from '../shared/package-root.ts';

/** Bump when the meaning of an entry changes in a way the code identity below cannot see. */
const CACHE_FORMAT = 4;
const MAGIC = 'steward-parse-cache';

/** The cache folder, relative to the project folder. */
export const CACHE_DIR = '.steward/cache';
export const PACK_FILE = 'parse.pack';

/** What is stored per document besides its text: a Resource without its file and document. */
type CachedRow = (RowHead & { at: [number, number] }) | TextRow;

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
  /**
   * The cached resources of a key, as found in `file`, or undefined. Each document is parsed when first
   * read (a dashboard's facts answer the checks and the plan without it); each resource has its own.
   */
  get(key: string, file: string): AnyResource[] | undefined;
  /** Whether `get` would answer (not counted in the stats). */
  has(key: string): boolean;
  /** Stores the resources of a file that had no problem at all. Values JSON cannot carry are not stored. */
  set(key: string, resources: readonly AnyResource[], digests?: ReadonlyArray<[string, string] | undefined>): void;
  /** `set` for resources already as text (a parse worker's answer, src/config/rows.ts). */
  setRows(key: string, rows: TextRow[]): void;
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
 * The modules are named from the root of the code tree, one folder up from this one in src/, dist/ and
 * dist/bundle/ alike: from the bundle that is dist/, the tsc output the bundle is made of.
 */
export function codeIdentity(): string | null {
  if (identity !== undefined) return identity;
  try {
    const h = createHash('sha256').update(`${MAGIC}/${CACHE_FORMAT}\u0000`);
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    const require = createRequire(import.meta.url);
    h.update(readFileSync(packageFile('package.json')));
    h.update(readFileSync(require.resolve('yaml/package.json')));
    h.update(readFileSync(require.resolve('js-yaml/package.json')));
    for (const m of [
      'config/resources',
      'config/source',
      'config/fast-parse',
      'plan/normalize',
      'plan/fingerprint',
      'shared/json',
      'config/interpolate',
      'config/credentials',
      'config/cache',
      'config/cache-trust',
      // Resources as text rows, made here or on a parse worker.
      'config/rows',
      'config/parse-pool',
      'config/live-memo',
      // What a list body parses to, and what the live memo keeps of it (its body entries).
      'clients/observability',
      'clients/body-digest',
      'clients/lazy-list',
      'clients/validate',
      'workflows/live-side',
      'schema/validator',
      'schema/kinds',
      // A dashboard's facts: what the checks find in it, and where it names sources.
      'schema/semantic',
      'schema/filter-checks',
      'model/dashboard',
    ]) {
      h.update(`\u0000${m}\u0000`);
      h.update(readFileSync(new URL(`../${m}${ext}`, import.meta.url)));
    }
    // The compiled schemas (scripts/generate.ts), the same files in src/ and dist/.
    for (const kind of ALL_KINDS) {
      h.update(`\u0000schema/validators/${kind}\u0000`);
      h.update(readFileSync(new URL(`../schema/validators/${kind}.gen.cjs`, import.meta.url)));
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
  // One-shot, as keyFromParts: a createHash object per file cost more than hashing its few KB.
  const digest = hash('sha256', bytes, 'hex');
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const names = buf.indexOf(DOLLAR_BRACE) === -1 ? [] : [...new Set(Array.from(buf.toString('latin1').matchAll(VAR_REF), (m) => m[1]!))].sort();
  return { hash: digest, names };
}

/** The text of a variable policy in a key, per policy (the same for every file of a load). */
const policyTexts = new WeakMap<VariablePolicy, string>();

function keyFromParts(parts: KeyParts, env: Env, variables?: VariablePolicy): string {
  // A file that names no variable means what its bytes say whatever the environment and the policy: its
  // key is its bytes' sha256 (a second hash of it cost 40 ms of a warm plan of 10,000 files, issue 15).
  if (parts.names.length === 0) return parts.hash;
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
 * .steward/cache is a link, out of the project or into another folder of it: steward would write (and trust)
 * a file elsewhere, and its `*` .gitignore there (a committed .steward/cache -> ../dashboards made git
 * ignore every new dashboard file), so there is no cache then, which only costs a parse.
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
  if (fs.realpath && realPathOf(dir) !== join(realPathOf(projectDir), CACHE_DIR)) return undefined;
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
  opts: {
    identity?: string;
    variables?: VariablePolicy;
    key?: Buffer;
    settleMs?: number;
    now?: () => number;
    /** The project's observability API: dashboards' facts hold its checks. */
    api?: string;
    /**
     * Values no entry may hold (credentials, and values of variables whose names say they are secrets): a
     * file that reads a variable holding one is parsed every time instead. The pack is plain text in the work
     * tree, and with spec.resourceVariablePrefix a file may read `${DASH_API_KEY}` (red team, round 11).
     */
    secrets?: readonly string[];
  } = {},
): ParseCache | undefined {
  const home = cacheHome(fs, projectDir, env, opts);
  if (!home) return undefined;
  const { id, write, key, dir } = home;
  const path = join(dir, PACK_FILE);
  const { entries, texts } = readPack(fs, path, id, key, () => gitTracks(dir, PACK_FILE, env));
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
  /** Entries used or added by this load: what a full save keeps. */
  const used = new Map<string, CachedRow[]>();
  const rowsOf = (key: string): CachedRow[] | undefined => {
    const seen = used.get(key);
    if (seen) return seen;
    const e = Object.prototype.hasOwnProperty.call(entries, key) ? entries[key] : undefined;
    return e !== undefined && isEntry(e, texts.length) ? e : undefined;
  };
  /** A stored document's text: as added by this load, or where it is among the pack's texts. */
  const textOf = (r: CachedRow) => ('text' in r ? r.text : utf8Text(texts.subarray(r.at[0], r.at[0] + r.at[1])));
  const stats: CacheStats = { hits: 0, misses: 0, stored: 0 };
  const secrets = (opts.secrets ?? []).filter((v) => v !== '');
  /** Keys of files that read a variable holding a secret: never stored. */
  const unstorable = new Set<string>();
  const keyOfParts = (parts: KeyParts) => {
    const k = keyFromParts(parts, env, opts.variables);
    if (secrets.length > 0 && parts.names.some((n) => holdsSecret(env[n], secrets))) unstorable.add(k);
    return k;
  };

  return {
    stats,
    keyOf(bytes, at) {
      const parts = keyParts(bytes);
      if (at) {
        if (parts && at.version.changedMs <= now() - settleMs) seenFiles.set(at.file, [at.version.signature, parts.hash, parts.names]);
        else seenFiles.delete(at.file);
      }
      return parts && keyOfParts(parts);
    },
    keyOfUnchanged(file, version) {
      const r = recorded.get(file);
      if (!r || r[0] !== version.signature) return undefined;
      seenFiles.set(file, r);
      return keyOfParts({ hash: r[1], names: r[2] });
    },
    has(key) {
      return rowsOf(key) !== undefined;
    },
    get(key, file) {
      const rows = rowsOf(key);
      if (rows === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      used.set(key, rows);
      // Each resource parses its own copy of its text, so no document is shared (two files of the same bytes).
      return rows.map((r) => lazyResource('text' in r ? headOf(r) : r, file, () => textOf(r)));
    },
    set(key, resources, digests) {
      if (unstorable.has(key)) return;
      // Kept as text: later stages may change the loaded objects, the cache must not follow them. A document
      // whose name is not its resource's is never stored (it could not be told from another).
      const rows = textRowsOf(resources, digests, opts.api ?? 'seed');
      if (rows) this.setRows(key, rows);
    },
    setRows(key, rows) {
      if (unstorable.has(key)) return;
      used.set(key, rows);
      stats.stored++;
    },
    save({ partial }) {
      const keep = new Map<string, unknown>(partial ? Object.entries(entries) : []);
      for (const [k, v] of used) keep.set(k, v);
      const keepFiles = new Map(partial ? recorded : []);
      for (const [f, r] of seenFiles) keepFiles.set(f, r);
      const filesChanged = keepFiles.size !== recorded.size || [...keepFiles].some(([f, r]) => !sameRecord(recorded.get(f), r));
      if (stats.stored === 0 && keep.size === loadedCount && !filesChanged) return;
      try {
        const filesPart = `${JSON.stringify(FILES_KEY)}:${JSON.stringify(Object.fromEntries(keepFiles))}`;
        const kept = [...keep].filter((e): e is [string, CachedRow[]] => isEntry(e[1], texts.length));
        // The entries (one line: JSON.stringify writes no line break), each document's place among the texts
        // in bytes: made once (3 MB at 10,000 files), written twice (for the MAC, then for the file).
        let offset = 0;
        const lines = kept.map(([k, rows]) => {
          const heads = rows.map((r) => {
            const { kind, name, index, nd } = r;
            const length = 'text' in r ? Buffer.byteLength(r.text) : r.at[1];
            const factsText = 'text' in r ? r.factsText : r.facts && JSON.stringify(r.facts);
            const head = JSON.stringify({ kind, name, index, ...(nd ? { nd } : {}), at: [offset, length] });
            offset += length;
            return factsText === undefined ? head : `${head.slice(0, -1)},"facts":${factsText}}`;
          });
          return `${JSON.stringify(k)}:[${heads.join(',')}],`;
        });
        // Then the texts, each made when it is written rather than all joined into one string.
        function* parts() {
          yield '{';
          yield* lines;
          yield `${filesPart}}\n`;
          for (const [, rows] of kept) for (const r of rows) yield textOf(r);
        }
        ensureIgnored(fs, dir);
        write(path, authenticatedChunks(MAGIC, id, key, parts, kept.length));
      } catch {
        // A cache that cannot be written (read-only checkout, full disk) only costs the next run a parse.
      }
    },
  };
}

/** Whether a variable's value holds one of the secrets (the value itself, or a longer text around it). */
function holdsSecret(value: string | undefined, secrets: readonly string[]): boolean {
  return value !== undefined && value !== '' && secrets.some((s) => value.includes(s));
}

/** Writes the cache folder's .gitignore when it has none (the folder's files are never to be committed). */
export function ensureIgnored(fs: FileSystem, dir: string): void {
  if (!fs.stat(join(dir, '.gitignore'))) fs.writeFileAtomic?.(join(dir, '.gitignore'), '# steward parse cache: safe to delete, never commit\n*\n');
}

/**
 * The entries of a pack written by this code on this machine, or none: a missing, foreign, stale, damaged,
 * unauthenticated or git-tracked pack is empty.
 */
function readPack(fs: FileSystem, path: string, id: string, key: Buffer, tracked: () => boolean): { entries: Record<string, unknown>; texts: Buffer } {
  const empty = { entries: {}, texts: Buffer.alloc(0) };
  const body = readAuthenticated(fs, path, MAGIC, id, key, tracked);
  if (!body) return empty;
  const nl = body.indexOf(10);
  if (nl === -1) return empty;
  try {
    const parsed: unknown = JSON.parse(utf8Text(body.subarray(0, nl)));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? { entries: parsed as Record<string, unknown>, texts: body.subarray(nl + 1) }
      : empty;
  } catch {
    return empty;
  }
}

/**
 * Whether two records of a file read say the same: compared member by member (a warm load of 10,000 files
 * compares every one; joining each into a string was 4 MB of garbage).
 */
function sameRecord(a: [string, string, string[]] | undefined, b: [string, string, string[]]): boolean {
  if (!a || a[0] !== b[0] || a[1] !== b[1] || a[2].length !== b[2].length) return false;
  for (let i = 0; i < a[2].length; i++) if (a[2][i] !== b[2][i]) return false;
  return true;
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

function isEntry(e: unknown, textBytes: number): e is CachedRow[] {
  return (
    Array.isArray(e) &&
    e.every((r: Partial<RowHead> & { at?: unknown; text?: unknown }) => {
      if (typeof r !== 'object' || r === null) return false;
      const at = r.at as unknown[] | undefined;
      const placed =
        typeof r.text === 'string' ||
        (Array.isArray(at) &&
          at.length === 2 &&
          at.every((n) => Number.isInteger(n) && (n as number) >= 0) &&
          (at[0] as number) + (at[1] as number) <= textBytes);
      return (
        placed &&
        (RESOURCE_KINDS as readonly unknown[]).includes(r.kind) &&
        typeof r.name === 'string' &&
        Number.isInteger(r.index) &&
        (r.nd === undefined || (Array.isArray(r.nd) && r.nd.length === 2 && r.nd.every((x) => typeof x === 'string'))) &&
        // Added by this load: facts as text; read from the pack: as parsed (and checked).
        (typeof r.text === 'string'
          ? r.kind === 'Dashboard'
            ? typeof (r as { factsText?: unknown }).factsText === 'string'
            : true
          : r.kind === 'Dashboard'
            ? isFacts(r.facts)
            : r.facts === undefined)
      );
    })
  );
}

/** The shape of stored facts (their meaning is this code's: the pack is authenticated and keyed by code identity). */
function isFacts(f: unknown): f is DashboardFacts {
  if (typeof f !== 'object' || f === null) return false;
  const x = f as Partial<DashboardFacts>;
  return (
    typeof x.specName === 'string' &&
    (x.id === undefined || typeof x.id === 'string') &&
    typeof x.sourceNames === 'boolean' &&
    (x.local === undefined ||
      (Array.isArray(x.local) && x.local.length === 2 && typeof x.local[0] === 'string' && Array.isArray(x.local[1]) && x.local[1].length === 2))
  );
}
