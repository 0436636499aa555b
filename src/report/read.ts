import pMap from 'p-map';
import type { CloudServiceSpec } from '../schema/kinds.ts';
import { newestBackup } from './order.ts';
import type { ObservedBackup, ObservedEndpoint, ObservedPipe } from '../model/cloud.ts';
import type { CloudReader, MalformedRead, ObservedService, ObservedServiceInfo, ReadFailure, ReadItem, ReadList, ReadPart } from './types.ts';
import type { ItemProblemSent, MalformedItem } from '../clients/cloud-items.ts';
import { isSecretKey } from './redact.ts';
import { isObject, withoutNulls } from '../shared/object.ts';
import { screenBackupItem, screenBackupList, sentPlaces } from './numbers.ts';

/** A CloudService resource: its metadata.name and spec. */
export interface CloudServiceTarget {
  name: string;
  spec: CloudServiceSpec;
}

/** What one service's reads returned, beside the expectations they are checked against. */
export interface ServiceRead extends CloudServiceTarget {
  observed: ObservedService;
}

export interface ReadDeps {
  reader: CloudReader;
  /**
   * How many services are read at once (default 4). Each service has up to three lists (four reads with the service itself) in flight, then the GET
   * of its newest backup; the client's rate limiter spaces the requests themselves.
   */
  concurrency?: number;
  /** Stops starting new services once aborted; services already started finish. */
  signal?: AbortSignal;
}

export const DEFAULT_REPORT_CONCURRENCY = 4;

/**
 * Reads every service: its state (when the API can read it), lists pipes, endpoints and backups, then gets the newest backup by id (the single GET
 * is the freshest word on the backup most likely to be changing). Services are read concurrently, at most
 * `concurrency` at a time. A failed read never stops the others: it is recorded in that service's `failures`
 * and the list it concerns is left undefined. Results come back in the order of `services`.
 *
 * @throws only the signal's reason when aborted before every service started.
 */
export async function readCloud(deps: ReadDeps, services: readonly CloudServiceTarget[]): Promise<ServiceRead[]> {
  const limit = Math.max(1, Math.floor(deps.concurrency ?? DEFAULT_REPORT_CONCURRENCY));
  deps.signal?.throwIfAborted();
  const ids = services.map((s) => s.spec.serviceId.toLowerCase());
  return pMap(
    services,
    async (target) => {
      const others = new Set(ids.filter((id) => id !== target.spec.serviceId.toLowerCase()));
      return { ...target, observed: await readService(deps.reader, target.spec, others) };
    },
    {
      concurrency: limit,
      ...(deps.signal ? { signal: deps.signal } : {}),
    },
  );
}

/** Reads one service; never rejects. */
export async function readService(
  reader: CloudReader,
  spec: Pick<CloudServiceSpec, 'organizationId' | 'serviceId'>,
  /** The serviceIds of the project's other CloudServices (lowercase): an item of one of them is not this service's. */
  others: ReadonlySet<string> = new Set(),
): Promise<ObservedService> {
  const { organizationId: org, serviceId: svc } = spec;
  const failures: ReadFailure[] = [];
  const malformed: MalformedRead[] = [];
  const attempt = async <T>(part: ReadPart, f: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await f();
    } catch (e) {
      failures.push({ part, message: errorMessage(e) });
      return undefined;
    }
  };

  const [service, pipes, endpoints, listed] = await Promise.all([
    // The service's state, when the API can read it: a stopped or idle service takes no backups.
    reader.getService ? attempt('service', () => reader.getService!(org, svc)) : undefined,
    attempt('pipes', async () => keyed(await reader.listIngestPipes(org, svc), 'pipes', pipeKey, malformed, svc, others) as ObservedPipe[]),
    attempt(
      'endpoints',
      async () => keyed(await reader.listReversePrivateEndpoints(org, svc), 'endpoints', endpointKey, malformed, svc, others) as ObservedEndpoint[],
    ),
    // A backup's size and duration are screened as the schema cannot (src/report/numbers.ts): -1 bytes is malformed.
    attempt(
      'backups',
      async () => keyed(screenBackupList(await reader.listBackups(org, svc)), 'backups', backupKey, malformed, svc, others, statusKept) as ObservedBackup[],
    ),
  ]);

  let backups = listed;
  let newestBackupId: string | undefined;
  const newest = listed && newestBackup(listed.filter((b) => !b.id.startsWith(UNNAMED)));
  if (listed && newest) {
    newestBackupId = newest.id;
    const fresh = await attempt('newest-backup', async () => {
      const got = screenBackupItem(await reader.getBackup(org, svc, newest.id));
      if (!isObject(got)) throw new Error(`GET backup ${newest.id}: expected an object, got ${describe(got)}`);
      // The GET answers for the id asked; keep the id the list gave even if the body leaves it out.
      if (got.malformed)
        malformed.push(malformedRead('newest-backup', { ...got.malformed, item: { ...asObject(got.malformed.item), id: newest.id } }, backupKey));
      if (!isObject(got.item)) return undefined;
      const foreign = otherService(got.item, svc, others);
      if (foreign) {
        malformed.push({ part: 'newest-backup', name: newest.id, id: newest.id, problems: [foreign], kept: false });
        return undefined;
      }
      const item = { ...(withoutNulls(got.item) as ObservedBackup), id: newest.id };
      // The GET answers for the id asked, with or without an id in its body.
      return got.malformed ? (statusKept(item, got.malformed, false) as ObservedBackup) : item;
    });
    if (fresh) backups = listed.map((b) => (b === newest ? fresh : b));
  }

  failures.sort((a, b) => PART_ORDER.indexOf(a.part) - PART_ORDER.indexOf(b.part));
  malformed.sort((a, b) => PART_ORDER.indexOf(a.part) - PART_ORDER.indexOf(b.part) || (a.position ?? 0) - (b.position ?? 0));
  return { ...(service ? { service } : {}), pipes, endpoints, backups, ...(newestBackupId !== undefined ? { newestBackupId } : {}), failures, malformed };
}

const PART_ORDER: readonly ReadPart[] = ['service', 'pipes', 'endpoints', 'backups', 'newest-backup'];

/** Prefix of the labels given to items the server sent without their key field. */
const UNNAMED = '(unnamed';

/** The member each kind of item is known by in the report, and the label it gets without it. */
type KeyOf = (item: Record<string, unknown>, i: number) => { member: string; value: string };

const pipeKey: KeyOf = (p, i) => ({ member: 'name', value: typeof p['name'] === 'string' ? p['name'] : label(p, i) });
const endpointKey: KeyOf = (e, i) => ({ member: 'description', value: typeof e['description'] === 'string' ? e['description'] : label(e, i) });
const backupKey: KeyOf = (b, i) => ({ member: 'id', value: typeof b['id'] === 'string' && b['id'] !== '' ? b['id'] : `${UNNAMED} #${i + 1})` });

// The client checks every item (src/clients/cloud-items.ts); these checks keep the report standing when a
// reader is looser: a list that is not a list fails that read with a clear message, an item that is not an
// object is malformed like one the client refused, and an item without its key gets a label.

/**
 * The items of one read, each with its key member set (a label when absent), nulls removed; the malformed
 * ones the reader returned, and items that are not objects, go to `malformed`. `repair` sees each item kept
 * without members at fault beside what was wrong with it.
 */
function keyed(
  list: ReadList<unknown> | undefined,
  part: ReadPart,
  key: KeyOf,
  malformed: MalformedRead[],
  svc: string,
  others: ReadonlySet<string>,
  repair?: (item: Record<string, unknown>, m: MalformedItem) => Record<string, unknown>,
): Record<string, unknown>[] {
  const what = PART_NOUN[part];
  if (!isObject(list) || !Array.isArray(list.items)) throw new Error(`expected a list of ${what}s, got ${describe(list)}`);
  const bad = Array.isArray(list.malformed) ? list.malformed : [];
  for (const m of bad) malformed.push(malformedRead(part, m, key));
  const keptAt = repair ? keptMalformed(list.items.length, bad) : new Map<number, MalformedItem>();
  const out: Record<string, unknown>[] = [];
  list.items.forEach((raw, i) => {
    if (!isObject(raw)) {
      malformed.push({ part, position: i + 1, name: `${UNNAMED} #${i + 1})`, problems: [`must be an object, got ${describe(raw)}`], kept: false });
      return;
    }
    const m = keptAt.get(i);
    const item = m && repair ? repair(withoutNulls(raw), m) : withoutNulls(raw);
    const k = key(item, i);
    const foreign = otherService(item, svc, others);
    if (foreign) {
      const id = typeof item['id'] === 'string' ? { id: item['id'] } : {};
      malformed.push({ part, position: i + 1, name: k.value, ...id, problems: [foreign], kept: false });
      return;
    }
    out.push({ ...item, [k.member]: k.value });
  });
  return out;
}

/**
 * What is wrong with an item that says it belongs to another CloudService of the project (its `serviceId`),
 * or undefined. The lists are per service, but a server (or a proxy) that mixed up two services made the
 * other's pipe, endpoint or fresh backup count for this one: a missing pipe, a missing endpoint or a stale
 * backup went unreported. Such an item is left out of the checks, and the review is incomplete. Only the
 * project's own services count: a mock of the spec answers its example id (12345678-1234-…) for every
 * item, and the spec describes a backup's serviceId as "Name ".
 */
function otherService(item: Record<string, unknown>, svc: string, others: ReadonlySet<string>): string | undefined {
  const sid = item['serviceId'];
  if (typeof sid !== 'string' || !others.has(sid.toLowerCase())) return undefined;
  return `serviceId: must be this service's (${svc}), got ${shown(sid)}, another CloudService of this project`;
}

/**
 * The malformed items that were kept, by their place among the items: the client's list (readItems) holds
 * the items in the order sent, without those left out whole, so the n-th item is the n-th sent that was not
 * left out. Only where the item there is the one the problem names (its id), so a looser reader's list is
 * never paired wrongly.
 */
function keptMalformed(count: number, bad: readonly MalformedItem[]): Map<number, MalformedItem> {
  const out = new Map<number, MalformedItem>();
  const byIndex = new Map<number, MalformedItem>();
  for (const m of bad) if (m && typeof m.index === 'number') byIndex.set(m.index, m);
  sentPlaces(count, bad).forEach((sent, i) => {
    const m = byIndex.get(sent);
    if (m) out.set(i, m);
  });
  return out;
}

/**
 * A backup kept without its status is no backup without one: with no status a backup with finishedAt reads
 * as done (the seed contract has none), so a failed or running backup whose status a server sent as a number
 * or an object was counted as a fresh finished one, hiding backup.stale and backup.failed. It gets a status
 * steward does not know instead (backup.unknown-status: left out of the other checks), naming what was sent.
 */
function statusKept(item: Record<string, unknown>, m: MalformedItem, sameId = true): Record<string, unknown> {
  const p = m.problems.find((x) => x.pointer === '/status');
  if (!p || !m.kept) return item;
  if (sameId && asObject(m.item)['id'] !== item['id']) return item;
  return { ...item, status: `(malformed: ${'value' in p ? shown(p.value) : 'nothing'})` };
}

/** What the report keeps of a malformed item: its name (or label), id, position and problems, one line each. */
function malformedRead(part: ReadPart, m: MalformedItem, key: KeyOf): MalformedRead {
  const item = asObject(m.item);
  const i = m.index ?? 0;
  const out: MalformedRead = { part, name: key(item, i).value, problems: m.problems.map((p) => problemLine(p)), kept: m.kept };
  if (m.index !== undefined) out.position = m.index + 1;
  if (typeof item['id'] === 'string') out.id = item['id'];
  return out;
}

/** `scaling.replicaCpuMillicores: must be number or null, got "500m"` (the value hidden under a credential's key). */
function problemLine(p: ItemProblemSent): string {
  const field = p.field === '' ? 'the item' : p.field;
  if (!('value' in p) || p.missing) return `${field}: ${p.message}`;
  const keys = p.pointer
    .split('/')
    .slice(1)
    .filter((k) => !/^\d+$/.test(k));
  const secret = keys.some((k, i) => isSecretKey(k, keys.slice(0, i)));
  return `${field}: ${p.message}, got ${secret ? 'a value (not shown: a credential field)' : shown(p.value)}`;
}

/** A value sent, in a few characters. */
function shown(v: unknown): string {
  if (typeof v === 'string') return v.length <= 40 ? JSON.stringify(v) : `a text of ${v.length} characters`;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return describe(v);
}

const PART_NOUN: Record<ReadPart, string> = {
  service: 'service',
  pipes: 'ingest pipe',
  endpoints: 'reverse private endpoint',
  backups: 'backup',
  'newest-backup': 'backup',
};

function label(item: Record<string, unknown>, i: number): string {
  return typeof item['id'] === 'string' ? `${UNNAMED} ${item['id']})` : `${UNNAMED} #${i + 1})`;
}

function asObject(v: unknown): Record<string, unknown> {
  return isObject(v) ? v : {};
}

function describe(v: unknown): string {
  return v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

/** The four reads of a cloud client (src/clients/cloud.ts), as the report needs them. */
export interface CloudListClient {
  listIngestPipes(org: string, svc: string, opts?: { signal?: AbortSignal }): Promise<ReadList<unknown>>;
  listReversePrivateEndpoints(org: string, svc: string, opts?: { signal?: AbortSignal }): Promise<ReadList<unknown>>;
  listBackups(org: string, svc: string, opts?: { signal?: AbortSignal }): Promise<ReadList<unknown>>;
  getBackup(org: string, svc: string, id: string, opts?: { signal?: AbortSignal }): Promise<ReadItem<unknown>>;
  /** Present when the client's profile can read the service itself. */
  getService?(org: string, svc: string, opts?: { signal?: AbortSignal }): Promise<ObservedServiceInfo>;
}

/** A CloudReader over the cloud client (which checks each item, and reads `null` as absent). */
export function readerFromClient(client: CloudListClient, signal?: AbortSignal): CloudReader {
  const o = signal ? { signal } : {};
  return {
    listIngestPipes: async (org, svc) => (await client.listIngestPipes(org, svc, o)) as ReadList<ObservedPipe>,
    listReversePrivateEndpoints: async (org, svc) => (await client.listReversePrivateEndpoints(org, svc, o)) as ReadList<ObservedEndpoint>,
    listBackups: async (org, svc) => (await client.listBackups(org, svc, o)) as ReadList<ObservedBackup>,
    getBackup: async (org, svc, id) => (await client.getBackup(org, svc, id, o)) as ReadItem<ObservedBackup>,
    ...(client.getService ? { getService: (org: string, svc: string) => client.getService!(org, svc, o) } : {}),
  };
}
