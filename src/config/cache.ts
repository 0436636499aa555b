/**
 * The parse cache: what `processFile` made of a file that had no problem, so an unchanged file is not
 * parsed again (YAML parsing is most of the time `plan` and `validate` spend on a large project).
 *
 * - Keyed by the file's bytes and the values of the `${VAR}`s they mention (sha256): any change of either is
 *   another key. The file's path is not part of the key; the loader puts it back.
 * - One pack file per project, `.steward/cache/parse.pack`: a header line naming the code that wrote it
 *   (cache format, steward and yaml versions, the text of the loading and schema modules) and a checksum,
 *   then the entries as JSON. Any mismatch or damage: the whole pack is ignored, as if empty.
 * - Only files without any problem (no error, no warning) are stored, so every problem is always found by
 *   a fresh parse and carries its position. Semantic checks run after loading, on every resource, cached
 *   or not.
 * - Written atomically, pruned to the files of the last full load, safe to delete at any time.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { RESOURCE_KINDS, type ResourceKind } from '../schema/kinds.ts';
import type { FileSystem } from './fs.ts';
import type { Env } from './interpolate.ts';
import type { AnyResource } from './resources.ts';

/** Bump when the meaning of an entry changes in a way the code identity below cannot see. */
const CACHE_FORMAT = 1;
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

export interface ParseCache {
  /** The entry key of a file's bytes under the current environment. */
  keyOf(bytes: Uint8Array): string;
  /** The cached documents of a key, or undefined. */
  get(key: string): CachedResource[] | undefined;
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
    for (const m of ['./resources', './source', './fast-parse', '../plan/normalize', '../plan/fingerprint', './interpolate', './cache', '../schema/validator', '../schema/validators.gen', '../schema/kinds']) {
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

/**
 * The key of a file: sha256 of its bytes and of every variable it mentions with its value ('' and unset
 * are one case, as interpolation treats them). Names are found in the raw text, comments and `$${`
 * escapes included: a superset of what interpolation reads, so a change can only cost a parse, never
 * serve a stale value.
 */
export function cacheKey(bytes: Uint8Array, env: Env, credentials: readonly string[] = []): string {
  const h = createHash('sha256').update(bytes);
  // The variables resource files may not read change what a file means (a reference to one is an error).
  if (credentials.length > 0) h.update('\u0000credentials\u0000' + JSON.stringify([...credentials].sort()));
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.indexOf(DOLLAR_BRACE) !== -1) {
    const names = [...new Set(Array.from(buf.toString('latin1').matchAll(VAR_REF), (m) => m[1]!))].sort();
    for (const name of names) {
      const value = env[name];
      h.update('\u0000' + JSON.stringify([name, value === undefined || value === '' ? null : value]));
    }
  }
  return h.digest('hex');
}

/**
 * Opens the cache of the project in `projectDir`. Returns undefined when the file system cannot write
 * or the code identity cannot be read (loading then simply parses everything).
 */
export function openParseCache(fs: FileSystem, projectDir: string, env: Env, opts: { identity?: string; credentials?: readonly string[] } = {}): ParseCache | undefined {
  const id = opts.identity ?? codeIdentity();
  const write = fs.writeFileAtomic?.bind(fs);
  if (!id || !write) return undefined;
  const dir = join(projectDir, CACHE_DIR);
  const path = join(dir, PACK_FILE);
  const entries = readPack(fs, path, id);
  const loadedCount = Object.keys(entries).length;
  /** Entries used (parsed) or added (as JSON text) by this load: what a full save keeps. */
  const used = new Map<string, CachedResource[] | string>();
  const stats: CacheStats = { hits: 0, misses: 0, stored: 0 };

  return {
    stats,
    keyOf: (bytes) => cacheKey(bytes, env, opts.credentials),
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
      const e: CachedResource[] = resources.map((r, i) => ({ kind: r.kind, name: r.name, index: r.index, doc: r.doc, ...(digests?.[i] ? { nd: digests[i] } : {}) }));
      if (!e.every((r) => isJsonSafe(r.doc))) return;
      // Kept as text: later stages may change the loaded objects, the cache must not follow them.
      used.set(key, JSON.stringify(e));
      stats.stored++;
    },
    save({ partial }) {
      const keep = new Map<string, unknown>(partial ? Object.entries(entries) : []);
      for (const [k, v] of used) keep.set(k, v);
      if (stats.stored === 0 && keep.size === loadedCount) return;
      try {
        const parts: string[] = [];
        for (const [k, v] of keep) parts.push(`${JSON.stringify(k)}:${typeof v === 'string' ? v : JSON.stringify(v)}`);
        const body = Buffer.from(`{${parts.join(',')}}`, 'utf8');
        const sum = createHash('sha256').update(body).digest('hex');
        const header = Buffer.from(`${MAGIC} ${id} ${sum} ${keep.size}\n`, 'utf8');
        if (!fs.stat(join(dir, '.gitignore'))) write(join(dir, '.gitignore'), '# steward parse cache: safe to delete, never commit\n*\n');
        write(path, Buffer.concat([header, body]));
      } catch {
        // A cache that cannot be written (read-only checkout, full disk) only costs the next run a parse.
      }
    },
  };
}

/** The entries of a pack written by this code, or none: a missing, foreign, stale or damaged pack is empty. */
function readPack(fs: FileSystem, path: string, id: string): Record<string, unknown> {
  const empty: Record<string, unknown> = {};
  if (!fs.stat(path)?.isFile) return empty;
  try {
    const buf = fs.readFile(path);
    const nl = buf.indexOf(10);
    if (nl === -1) return empty;
    const [magic, fileId, sum] = buf.subarray(0, nl).toString('utf8').split(' ');
    if (magic !== MAGIC || fileId !== id) return empty;
    const body = buf.subarray(nl + 1);
    if (createHash('sha256').update(body).digest('hex') !== sum) return empty;
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : empty;
  } catch {
    return empty;
  }
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

/** Whether JSON carries the value unchanged: no NaN, Infinity or -0 (YAML has .nan, .inf and -0). */
function isJsonSafe(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return false;
      continue;
    }
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
      continue;
    }
    return false;
  }
  return true;
}
