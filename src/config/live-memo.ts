/**
 * The live memo: what normalizing a live dashboard gave (the digest of its normalized form and the fields
 * normalization left out), keyed by the dashboard's JSON text, so that a warm plan of an unchanged service
 * compares digests without normalizing the live side again (issue 15: ~0.6 s at 10,000 dashboards).
 *
 * - The key is sha256 of the marker tag and the dashboard's text as the fingerprint hashes it (`dashboardText`:
 *   `JSON.stringify` of the dashboard as parsed from the list, tagged where that would write Infinity as null):
 *   an entry can only answer for exactly that dashboard, so a changed dashboard is a miss, never a stale answer. A miss, or a digest other than the file's, normalizes
 *   as before; the memo can only spare work that would have found the same.
 * - `.steward/cache/live.memo`, beside the parse pack and trusted the same way (cache-trust.ts): HMAC under
 *   the machine key of its own kind, the code identity (which covers normalize.ts and fingerprint.ts, the
 *   code whose results it holds) and the entries; a forged, foreign, damaged, stale-code or git-tracked
 *   memo is empty. Nothing in it names the project: an entry means the same in any project.
 * - Beside the entries, what the memo knows of whole list bodies (`getBody`): keyed by the sha256 of the bytes
 *   the service sent (and the API and marker tag), the list's live digest (src/plan/fingerprint.ts) and each
 *   dashboard's entry by its place in the list. A plan whose list body is the last plan's neither writes the
 *   dashboards as JSON nor hashes them (issue 15: ~0.25 s at 10,000); any other body is a miss, answered
 *   dashboard by dashboard as above.
 * - Written atomically and only when it changed, pruned to the dashboards of the last plan, safe to delete.
 */
import { hash } from 'node:crypto';
import { join } from 'node:path';
import { cacheHome, ensureIgnored } from './cache.ts';
import { authenticatedText, gitTracks, readAuthenticated } from './cache-trust.ts';
import type { FileSystem } from './fs.ts';
import { summaryOf, type LiveSummary } from '../clients/lazy-list.ts';
import type { Env } from './interpolate.ts';
import { isObject } from '../shared/object.ts';
import { utf8Text } from '../shared/text.ts';

const MAGIC = 'steward-live-memo';
export const MEMO_FILE = 'live.memo';

/** What normalizeLive and normalDigest gave for one live dashboard. */
export interface LiveMemoEntry {
  digest: string;
  ignored: readonly string[];
}

/** What the memo knows of one list body: its live digest, and the entries of its dashboards by place in the list. */
export interface BodyMemo {
  liveDigest: string;
  entries: ReadonlyMap<number, LiveMemoEntry>;
  /** Every dashboard of the list, in order, as matching reads it: the list need not be parsed (lazy-list.ts). */
  summaries?: readonly LiveSummary[];
}

/** What a save did: written (maybe without the list's summaries), nothing new to write, or why not. */
export type MemoSaved =
  'written' | 'written without the list (it holds a secret)' | 'unchanged' | 'not written: it would hold a secret' | `not written: ${string}`;

export interface LiveMemoStats {
  hits: number;
  misses: number;
  stored: number;
}

export interface LiveMemo {
  /** The key of a live dashboard's JSON text under a marker tag. */
  keyOf(text: string, markerTag: string): string;
  get(key: string): LiveMemoEntry | undefined;
  set(key: string, entry: LiveMemoEntry): void;
  /** The key of a list body (`bodyDigestOf`, src/clients/body-digest.ts) under a marker tag. */
  bodyKeyOf(bodyDigest: string, markerTag: string): string;
  /** What a list body gave last time; a hit keeps every dashboard entry the memo holds (none was looked up). */
  getBody(key: string): BodyMemo | undefined;
  setBody(key: string, body: BodyMemo): void;
  /**
   * Writes the memo when this plan added or left out entries; keeps only those it used or added. Never throws.
   * `safe`: whether a text holds no secret; the summaries of a list (text the service sent) are left out when
   * they hold one, and nothing is written when the rest does. Says what it did, for `--debug`.
   */
  save(safe?: (text: string) => boolean): MemoSaved;
  readonly stats: LiveMemoStats;
}

/**
 * The memo of the project in `projectDir`, or undefined when there can be none (no machine key, no code
 * identity, a file system that cannot write, a cache folder that links out of the project).
 */
export function openLiveMemo(fs: FileSystem, projectDir: string, env: Env, opts: { identity?: string; key?: Buffer } = {}): LiveMemo | undefined {
  const home = cacheHome(fs, projectDir, env, opts);
  if (!home) return undefined;
  const { id, write, key, dir } = home;
  const path = join(dir, MEMO_FILE);
  const loaded = readEntries(readAuthenticated(fs, path, MAGIC, id, key, () => gitTracks(dir, MEMO_FILE, env)));
  const used = new Map<string, LiveMemoEntry>();
  /** The body this plan used or added (one list per plan): the only one a save keeps. */
  let body: { key: string; memo: BodyMemo; stored: boolean } | undefined;
  /** A body hit: no entry was looked up, so a save keeps all of them. */
  let keepAll = false;
  const recall = (k: string): LiveMemoEntry | undefined => used.get(k) ?? loaded.get(k);
  const stats: LiveMemoStats = { hits: 0, misses: 0, stored: 0 };
  return {
    stats,
    // One-shot hash: 10,000 createHash objects cost more than the hashing (issue 15).
    keyOf: (text, markerTag) => hash('sha256', `${markerTag}\u0000${text}`, 'base64url'),
    get(k) {
      const e = recall(k);
      if (e === undefined) {
        stats.misses++;
        return undefined;
      }
      stats.hits++;
      used.set(k, e);
      return e;
    },
    set(k, entry) {
      const had = recall(k);
      if (!had || had.digest !== entry.digest || had.ignored.join('\u0000') !== entry.ignored.join('\u0000')) stats.stored++;
      used.set(k, { digest: entry.digest, ignored: [...entry.ignored] });
    },
    bodyKeyOf: (digest, markerTag) => hash('sha256', `body\u0000${markerTag}\u0000${digest}`, 'base64url'),
    getBody(k) {
      const memo = body?.key === k ? body.memo : loaded.body(k);
      if (memo && !body) {
        body = { key: k, memo, stored: false };
        keepAll = true;
      }
      return memo;
    },
    setBody(k, memo) {
      body = { key: k, memo, stored: true };
    },
    save(safe) {
      const sameBodies = body ? !body.stored && loaded.bodies() === 1 && loaded.body(body.key) !== undefined : loaded.bodies() === 0;
      if (stats.stored === 0 && sameBodies && (keepAll || used.size === loaded.size())) return 'unchanged';
      try {
        if (keepAll) for (const k of loaded.keys()) if (!used.has(k)) used.set(k, loaded.get(k)!);
        // The lists of ignored fields repeat (most dashboards of a service have the same extras): each once.
        const lists: string[] = [];
        const listIndex = new Map<string, number>();
        const entries: Record<string, [string, number]> = {};
        const listOf = (e: LiveMemoEntry) => {
          const text = JSON.stringify(e.ignored);
          let i = listIndex.get(text);
          if (i === undefined) {
            i = lists.length;
            lists.push(text);
            listIndex.set(text, i);
          }
          return i;
        };
        for (const [k, e] of used) entries[k] = [e.digest, listOf(e)];
        const rows = body ? [...body.memo.entries].map(([i, e]): [number, string, number] => [i, e.digest, listOf(e)]) : [];
        const textOf = (withSummaries: boolean) => {
          const bodies: Record<string, [string, Array<[number, string, number]>, ...unknown[]]> = {};
          if (body) {
            const { liveDigest, summaries } = body.memo;
            const row = (d: LiveSummary) => (d.whole ? [d.id, d.name, d.tags ? [...d.tags] : null, d.whole] : [d.id, d.name, d.tags ? [...d.tags] : null]);
            bodies[body.key] = summaries && withSummaries ? [liveDigest, rows, summaries.map(row)] : [liveDigest, rows];
          }
          return `{"lists":[${lists.join(',')}],"entries":${JSON.stringify(entries)},"bodies":${JSON.stringify(bodies)}}`;
        };
        // What the service sent (names, tags, whole dashboards) is written only when it holds no secret: a
        // server that echoes a credential into a dashboard's name must not have it land on disk.
        let text: string | undefined = textOf(true);
        let saved: MemoSaved = 'written';
        if (safe && !safe(text)) {
          // Without the summaries, or not at all.
          const bare = body?.memo.summaries ? textOf(false) : undefined;
          text = bare !== undefined && safe(bare) ? bare : undefined;
          saved = 'written without the list (it holds a secret)';
        }
        if (text === undefined) return 'not written: it would hold a secret';
        ensureIgnored(fs, dir);
        write(path, authenticatedText(MAGIC, id, key, text, used.size));
        return saved;
      } catch (e) {
        // A memo that cannot be written only costs the next plan the normalizing.
        return `not written: ${e instanceof Error ? e.message : String(e)}`;
      }
    },
  };
}

interface LoadedMemo {
  get(k: string): LiveMemoEntry | undefined;
  size(): number;
  /** Keys of the entries (each checked by `get`). */
  keys(): string[];
  body(k: string): BodyMemo | undefined;
  bodies(): number;
}

/** The entries of an authentic memo body, each checked when it is asked for (anything malformed is a miss). */
function readEntries(body: Buffer | undefined): LoadedMemo {
  const none: LoadedMemo = { get: () => undefined, size: () => 0, keys: () => [], body: () => undefined, bodies: () => 0 };
  if (!body) return none;
  let parsed: unknown;
  try {
    parsed = JSON.parse(utf8Text(body));
  } catch {
    return none;
  }
  const { lists, entries, bodies } = (parsed ?? {}) as { lists?: unknown; entries?: unknown; bodies?: unknown };
  if (!Array.isArray(lists) || !isObject(entries)) return none;
  const table = entries;
  const bodyTable = isObject(bodies) ? bodies : {};
  const okLists = lists.map((l) => (Array.isArray(l) && l.every((x) => typeof x === 'string') ? (l as string[]) : undefined));
  // Not copied into a Map: a warm plan asks for every entry once, so checking each then costs one pass less.
  const get = (k: string): LiveMemoEntry | undefined => {
    const v = Object.hasOwn(table, k) ? table[k] : undefined;
    if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'string' || !Number.isInteger(v[1])) return undefined;
    const ignored = okLists[v[1] as number];
    return ignored ? { digest: v[0], ignored } : undefined;
  };
  return {
    get,
    size: () => Object.keys(table).length,
    keys: () => Object.keys(table).filter((k) => get(k) !== undefined),
    bodies: () => Object.keys(bodyTable).length,
    body(k) {
      const v = Object.hasOwn(bodyTable, k) ? bodyTable[k] : undefined;
      if (!Array.isArray(v) || v.length < 2 || v.length > 3 || typeof v[0] !== 'string' || !Array.isArray(v[1])) return undefined;
      const out = new Map<number, LiveMemoEntry>();
      for (const e of v[1] as unknown[]) {
        if (!Array.isArray(e) || e.length !== 3 || !Number.isInteger(e[0]) || typeof e[1] !== 'string' || !Number.isInteger(e[2])) return undefined;
        const ignored = okLists[e[2] as number];
        if (!ignored) return undefined;
        out.set(e[0] as number, { digest: e[1], ignored });
      }
      const summaries = v.length === 3 ? readSummaries(v[2]) : undefined;
      return { liveDigest: v[0], entries: out, ...(summaries ? { summaries } : {}) };
    },
  };
}

/** Stored summaries ([id, name, tags or null, and the whole dashboard for some] per dashboard), or undefined when any row is malformed. */
function readSummaries(rows: unknown): LiveSummary[] | undefined {
  if (!Array.isArray(rows)) return undefined;
  const out: LiveSummary[] = [];
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length < 3 || row.length > 4) return undefined;
    const whole = row[3] as unknown;
    if (row.length === 4 && !isObject(whole)) return undefined;
    const s = summaryOf({ id: row[0], name: row[1], tags: row[2] === null ? undefined : row[2] });
    // A whole dashboard must be the one its summary describes.
    if (!s || (isObject(whole) && summaryOf(whole)?.id !== s.id)) return undefined;
    out.push(isObject(whole) ? { ...s, whole } : s);
  }
  return out;
}
