import pMap from 'p-map';
import type { CloudServiceSpec } from '../schema/kinds.ts';
import { newestBackup } from './order.ts';
import type { ObservedBackup, ObservedEndpoint, ObservedPipe } from '../model/cloud.ts';
import type { CloudReader, ObservedService, ReadFailure, ReadPart } from './types.ts';
import { isObject } from '../shared/object.ts';

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
   * How many services are read at once (default 4). Each service has up to three lists in flight, then the GET
   * of its newest backup; the client's rate limiter spaces the requests themselves.
   */
  concurrency?: number;
  /** Stops starting new services once aborted; services already started finish. */
  signal?: AbortSignal;
}

export const DEFAULT_REPORT_CONCURRENCY = 4;

/**
 * Reads every service: lists pipes, endpoints and backups, then gets the newest backup by id (the single GET
 * is the freshest word on the backup most likely to be changing). Services are read concurrently, at most
 * `concurrency` at a time. A failed read never stops the others: it is recorded in that service's `failures`
 * and the list it concerns is left undefined. Results come back in the order of `services`.
 *
 * @throws only the signal's reason when aborted before every service started.
 */
export async function readCloud(deps: ReadDeps, services: readonly CloudServiceTarget[]): Promise<ServiceRead[]> {
  const limit = Math.max(1, Math.floor(deps.concurrency ?? DEFAULT_REPORT_CONCURRENCY));
  deps.signal?.throwIfAborted();
  return pMap(services, async (target) => ({ ...target, observed: await readService(deps.reader, target.spec) }), {
    concurrency: limit,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
}

/** Reads one service; never rejects. */
export async function readService(reader: CloudReader, spec: Pick<CloudServiceSpec, 'organizationId' | 'serviceId'>): Promise<ObservedService> {
  const { organizationId: org, serviceId: svc } = spec;
  const failures: ReadFailure[] = [];
  const attempt = async <T>(part: ReadPart, f: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await f();
    } catch (e) {
      failures.push({ part, message: errorMessage(e) });
      return undefined;
    }
  };

  const [pipes, endpoints, listed] = await Promise.all([
    attempt('pipes', async () => sanitizePipes(await reader.listIngestPipes(org, svc))),
    attempt('endpoints', async () => sanitizeEndpoints(await reader.listReversePrivateEndpoints(org, svc))),
    attempt('backups', async () => sanitizeBackups(await reader.listBackups(org, svc))),
  ]);

  let backups = listed;
  let newestBackupId: string | undefined;
  const newest = listed && newestBackup(listed.filter((b) => !b.id.startsWith(UNNAMED)));
  if (listed && newest) {
    newestBackupId = newest.id;
    const fresh = await attempt('newest-backup', async () => {
      const got = await reader.getBackup(org, svc, newest.id);
      if (!isObject(got)) throw new Error(`GET backup ${newest.id}: expected an object, got ${describe(got)}`);
      // The GET answers for the id asked; keep the id the list gave even if the body leaves it out.
      return { ...(got as ObservedBackup), id: newest.id };
    });
    if (fresh) backups = listed.map((b) => (b === newest ? fresh : b));
  }

  failures.sort((a, b) => PART_ORDER.indexOf(a.part) - PART_ORDER.indexOf(b.part));
  return { pipes, endpoints, backups, ...(newestBackupId !== undefined ? { newestBackupId } : {}), failures };
}

const PART_ORDER: readonly ReadPart[] = ['pipes', 'endpoints', 'backups', 'newest-backup'];

/** Prefix of the labels given to items the server sent without their key field. */
const UNNAMED = '(unnamed';

// The client validates responses; these checks keep the report standing when a reader (or a server) is looser:
// a list that is not a list fails that read with a clear message, and an item without its key gets a label.

function sanitizePipes(value: unknown): ObservedPipe[] {
  return objects(value, 'ingest pipes').map((p, i) => ({ ...p, name: typeof p['name'] === 'string' ? p['name'] : label(p, i) }));
}

function sanitizeEndpoints(value: unknown): ObservedEndpoint[] {
  return objects(value, 'reverse private endpoints').map((e, i) => ({
    ...e,
    description: typeof e['description'] === 'string' ? e['description'] : label(e, i),
  }));
}

function sanitizeBackups(value: unknown): ObservedBackup[] {
  return objects(value, 'backups').map((b, i) => ({ ...b, id: typeof b['id'] === 'string' && b['id'] !== '' ? b['id'] : `${UNNAMED} #${i + 1})` }));
}

function label(item: Record<string, unknown>, i: number): string {
  return typeof item['id'] === 'string' ? `${UNNAMED} ${item['id']})` : `${UNNAMED} #${i + 1})`;
}

function objects(value: unknown, what: string): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw new Error(`expected a list of ${what}, got ${describe(value)}`);
  const bad = value.findIndex((v) => !isObject(v));
  if (bad >= 0) throw new Error(`expected a list of ${what}, but item ${bad + 1} is ${describe(value[bad])}`);
  return value as Record<string, unknown>[];
}

function describe(v: unknown): string {
  return v === undefined ? 'nothing' : v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

/**
 * Real servers send `null` for absent members; the checks treat absent and null alike. Removes null
 * members (deeply) from what a server sent, so the checks only ever see a value or nothing.
 */
function withoutNulls<T>(value: T): T {
  if (Array.isArray(value)) return value.filter((v) => v !== null).map(withoutNulls) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = withoutNulls(v);
    return out as T;
  }
  return value;
}

/** The four reads of a cloud client (src/clients/cloud.ts), as the report needs them. */
export interface CloudListClient {
  listIngestPipes(org: string, svc: string, opts?: { signal?: AbortSignal }): Promise<unknown[]>;
  listReversePrivateEndpoints(org: string, svc: string, opts?: { signal?: AbortSignal }): Promise<unknown[]>;
  listBackups(org: string, svc: string, opts?: { signal?: AbortSignal }): Promise<unknown[]>;
  getBackup(org: string, svc: string, id: string, opts?: { signal?: AbortSignal }): Promise<unknown>;
}

/** A CloudReader over the cloud client, with servers' nulls removed (see withoutNulls). */
export function readerFromClient(client: CloudListClient, signal?: AbortSignal): CloudReader {
  const o = signal ? { signal } : {};
  return {
    listIngestPipes: async (org, svc) => withoutNulls(await client.listIngestPipes(org, svc, o)) as ObservedPipe[],
    listReversePrivateEndpoints: async (org, svc) => withoutNulls(await client.listReversePrivateEndpoints(org, svc, o)) as ObservedEndpoint[],
    listBackups: async (org, svc) => withoutNulls(await client.listBackups(org, svc, o)) as ObservedBackup[],
    getBackup: async (org, svc, id) => withoutNulls(await client.getBackup(org, svc, id, o)) as ObservedBackup,
  };
}
