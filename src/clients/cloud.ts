/**
 * Client of the cloud management API: ingest pipes, reverse private endpoints, backups. All reads. Basic
 * authentication from key id and secret; success bodies are the `{status, requestId, result}` envelope, and
 * the client returns `result` with each item checked on its own (src/clients/cloud-items.ts).
 *
 * Which API it speaks is a profile (`cloud.api` in steward.yaml): a table of paths and item schemas
 * (`CLOUD_PROFILES` in src/clients/profiles.ts). Nothing else branches on a profile's name.
 */
import { CliError } from '../errors.ts';
import type { Backup, IngestPipe, ReversePrivateEndpoint } from './api-types.ts';
import { readItem, readItems, type CloudItem, type CloudList } from './cloud-items.ts';
import { createHttp, encodePath, type Http, type HttpOptions } from './http.ts';
import type { CallOptions } from './observability.ts';
import { notFoundHint, profileHint } from './profile-hint.ts';
import { CLOUD_PROFILES, cloudProfile, type CloudApi, type CloudProfile } from './profiles.ts';
import { checkResponse, type SchemaName } from './validate.ts';

export { CLOUD_PROFILES, cloudProfile, type CloudApi, type CloudProfile } from './profiles.ts';

export type { CloudItem, CloudList, ItemProblemSent, MalformedItem } from './cloud-items.ts';

export type { Backup, IngestPipe, ReversePrivateEndpoint } from './api-types.ts';
export type {
  BackupBucket,
  IngestPipeColumn,
  IngestPipeDestination,
  IngestPipeFieldMapping,
  IngestPipeScaling,
  IngestPipeSettings,
  IngestPipeSource,
  IngestPipeTableDefinition,
  IngestPipeTableEngine,
  KafkaOffset,
  KafkaSchemaRegistry,
  KafkaSource,
  KinesisSource,
  ObjectStorageSource,
  PostgresSettings,
  PostgresSource,
  PostgresTableMapping,
} from './api-types.ts';

/** What the report reads of a service: its state, as sent (`undefined` when the answer has none as text). */
export interface ServiceInfo {
  id?: string;
  name?: string;
  state?: string;
  /** What the answer held at `state` when it was not text (a number, an object), for the report to name. */
  stateSent?: unknown;
}

export interface CloudClientOptions extends Omit<HttpOptions, 'prefixUrl' | 'auth'> {
  /** Base URL of the API (`https://api.example.com`); paths `/v1/...` are appended. */
  url: string;
  /** The API profile (default `seed`). */
  api?: CloudApi;
  keyId: string;
  keySecret: string;
  /** A ready HTTP layer to use instead of building one (tests, sharing). */
  http?: Http;
  /**
   * Where `cloud.api` is set in the project file, or where it would go (`steward.yaml:5:3`): named by the
   * hint a 404 on a path of this profile gets when another profile reads a different path.
   */
  apiSetting?: string;
}

/**
 * The four reads. Each item is checked on its own (src/clients/cloud-items.ts): `null` reads as absent,
 * and an item that breaks its schema comes back in `malformed` (kept without the members at fault when the
 * rest passes) instead of failing the read. A `result` that is not a list fails it.
 */
export interface CloudClient {
  /** @throws {ApiError} see `Http.request`; a 404 names the profile that reads another path. */
  listIngestPipes(organizationId: string, serviceId: string, opts?: CallOptions): Promise<CloudList<IngestPipe>>;
  /** @throws {ApiError} see `Http.request`; a 404 names the profile that reads another path. */
  listReversePrivateEndpoints(organizationId: string, serviceId: string, opts?: CallOptions): Promise<CloudList<ReversePrivateEndpoint>>;
  /** Backups, newest first as the server orders them (not re-sorted here). @throws {ApiError} */
  listBackups(organizationId: string, serviceId: string, opts?: CallOptions): Promise<CloudList<Backup>>;
  /** @throws {NotFoundError} when the backup does not exist; other ApiErrors as `Http.request`. */
  getBackup(organizationId: string, serviceId: string, backupId: string, opts?: CallOptions): Promise<CloudItem<Backup>>;
  /**
   * The service itself (`GET /v1/organizations/{organizationId}/services/{serviceId}`), present only when the
   * profile can read it (`serviceState`). Only what the report uses is kept: `state` (and `id`, `name`) when
   * sent as text; anything else the server sends is ignored.
   * @throws {ApiError} see `Http.request` (404 for an unknown service, 403 for a key without access to it).
   */
  getService?(organizationId: string, serviceId: string, opts?: CallOptions): Promise<ServiceInfo>;
  readonly http: Http;
  readonly profile: CloudProfile;
}

export function createCloudClient(opts: CloudClientOptions): CloudClient {
  const profile = cloudProfile(opts.api);
  const http = opts.http ?? buildHttp(opts);
  const { paths, items } = profile;

  async function list<T>(key: keyof CloudProfile['paths'], schema: SchemaName, org: string, svc: string, o: CallOptions | undefined): Promise<CloudList<T>> {
    try {
      const res = await http.request<{ result: unknown[] }>({
        method: 'GET',
        path: `${service(org, svc)}${paths[key]}`,
        signal: o?.signal,
        validate: (body) => checkResponse('cloud.list', body),
      });
      return readItems<T>(schema, res.body.result);
    } catch (e) {
      throw notFoundHint(e, hintFor(key));
    }
  }

  /**
   * What a 404 on this read says: the profiles that read another path for it. A server of another API
   * answers 404 at this profile's path (ClickHouse Cloud at the seed's `/ingestpipes`).
   */
  const hintFor = (key: keyof CloudProfile['paths']) =>
    profileHint({
      setting: 'cloud.api',
      where: opts.apiSetting,
      current: profile,
      others: Object.values(CLOUD_PROFILES).filter((p) => p.paths[key] !== paths[key]),
    });

  const service = (org: string, svc: string) => encodePath`/v1/organizations/${org}/services/${svc}`;

  return {
    http,
    profile,
    listIngestPipes: (org, svc, o) => list<IngestPipe>('pipes', items.pipe, org, svc, o),
    listReversePrivateEndpoints: (org, svc, o) => list<ReversePrivateEndpoint>('endpoints', items.endpoint, org, svc, o),
    listBackups: (org, svc, o) => list<Backup>('backups', items.backup, org, svc, o),
    getBackup: async (org, svc, id, o) => {
      const res = await http.request<{ result: unknown }>({
        method: 'GET',
        path: `${service(org, svc)}${paths.backups}${encodePath`/${id}`}`,
        signal: o?.signal,
        validate: (body) => checkResponse('cloud.item', body),
      });
      return readItem<Backup>(items.backup, res.body.result);
    },
    ...(profile.serviceState
      ? {
          getService: async (org: string, svc: string, o?: CallOptions): Promise<ServiceInfo> => {
            const res = await http.request<{ result: unknown }>({
              method: 'GET',
              path: service(org, svc),
              signal: o?.signal,
              validate: (body) => checkResponse('cloud.item', body),
            });
            return serviceInfo(res.body.result);
          },
        }
      : {}),
  };
}

/**
 * The members of a Service the report reads. The spec marks `state` an enum of fourteen values; a value
 * outside it is kept as sent (the report names it), a `state` that is not text is `stateSent`.
 * @throws {Error} when `result` is not an object (the read fails, and the report says the state is unknown).
 */
function serviceInfo(result: unknown): ServiceInfo {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) {
    throw new Error(`GET service: expected an object in result, got ${result === null ? 'null' : Array.isArray(result) ? 'a list' : typeof result}`);
  }
  const r = result as Record<string, unknown>;
  const out: ServiceInfo = {};
  if (typeof r['id'] === 'string') out.id = r['id'];
  if (typeof r['name'] === 'string') out.name = r['name'];
  if (typeof r['state'] === 'string') out.state = r['state'];
  else if (r['state'] !== undefined && r['state'] !== null) out.stateSent = r['state'];
  return out;
}

function buildHttp(opts: CloudClientOptions): Http {
  if (!opts.keyId || !opts.keySecret) {
    throw new CliError(`no cloud API key given: set ${opts.credentialHint ?? 'the key id and secret'}`, {
      code: 'config',
    });
  }
  const { url, keyId, keySecret, http: _unused, api: _api, apiSetting: _where, ...rest } = opts;
  return createHttp({ ...rest, prefixUrl: url, auth: { type: 'basic', username: keyId, password: keySecret } });
}
