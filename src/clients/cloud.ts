/**
 * Client of the cloud management API: ingest pipes, reverse private endpoints, backups. All reads. Basic
 * authentication from key id and secret; success bodies are the `{status, requestId, result}` envelope,
 * validated, and the client returns `result`.
 *
 * Which API it speaks is a profile (`cloud.api` in steward.yaml): a table of paths and response shapes
 * (`CLOUD_PROFILES`). Nothing else branches on a profile's name.
 */
import { CliError } from '../errors.ts';
import type { Backup, IngestPipe, ReversePrivateEndpoint } from './api-types.ts';
import { createHttp, encodePath, type Http, type HttpOptions } from './http.ts';
import type { CallOptions } from './observability.ts';
import { checkResponse, type ResponseShape } from './validate.ts';

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

/** The cloud API profiles: `seed` (the seed document 001) and `clickhouse-cloud` (the real service). */
export type CloudApi = 'seed' | 'clickhouse-cloud';

/** What one cloud API profile reads, and where. */
export interface CloudProfile {
  api: CloudApi;
  /** One line for people (docs, errors). */
  title: string;
  /** Paths under `/v1/organizations/{organizationId}/services/{serviceId}`. */
  paths: { pipes: string; endpoints: string; backups: string };
  /** Response schemas (src/clients/validate.ts) of the four reads. */
  shapes: { pipes: ResponseShape; endpoints: ResponseShape; backups: ResponseShape; backup: ResponseShape };
}

/**
 * The profiles. `seed` reads exactly what the seed document names (it renamed ClickPipes "ingest pipes").
 * `clickhouse-cloud` reads the real paths of ClickHouse Cloud's API (contracts/clickhouse-cloud, both
 * snapshots); its shapes are the seed's members with none required, as the real spec requires none
 * (docs/profiles.md lists what the report needs and how it copes without it).
 */
export const CLOUD_PROFILES: Readonly<Record<CloudApi, CloudProfile>> = {
  seed: {
    api: 'seed',
    title: 'the seed cloud API (ingest pipes)',
    paths: { pipes: '/ingestpipes', endpoints: '/ingestpipesReversePrivateEndpoints', backups: '/backups' },
    shapes: { pipes: 'cloud.ingestPipes', endpoints: 'cloud.reversePrivateEndpoints', backups: 'cloud.backups', backup: 'cloud.backup' },
  },
  'clickhouse-cloud': {
    api: 'clickhouse-cloud',
    title: 'ClickHouse Cloud API v1 (ClickPipes)',
    paths: { pipes: '/clickpipes', endpoints: '/clickpipesReversePrivateEndpoints', backups: '/backups' },
    shapes: {
      pipes: 'clickhouse-cloud.clickpipes',
      endpoints: 'clickhouse-cloud.reversePrivateEndpoints',
      backups: 'clickhouse-cloud.backups',
      backup: 'clickhouse-cloud.backup',
    },
  },
};

/** The profile for a `cloud.api` value; undefined (absent) is `seed`. */
export function cloudProfile(api: CloudApi | undefined): CloudProfile {
  const name = api ?? 'seed';
  const p = Object.hasOwn(CLOUD_PROFILES, name) ? CLOUD_PROFILES[name] : undefined;
  if (!p) throw new CliError(`unknown cloud API profile "${String(api)}": use ${Object.keys(CLOUD_PROFILES).join(' or ')}`, { code: 'config' });
  return p;
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
}

export interface CloudClient {
  /** @throws {ApiError} see `Http.request`. */
  listIngestPipes(organizationId: string, serviceId: string, opts?: CallOptions): Promise<IngestPipe[]>;
  /** @throws {ApiError} see `Http.request`. */
  listReversePrivateEndpoints(organizationId: string, serviceId: string, opts?: CallOptions): Promise<ReversePrivateEndpoint[]>;
  /** Backups, newest first as the server orders them (not re-sorted here). @throws {ApiError} */
  listBackups(organizationId: string, serviceId: string, opts?: CallOptions): Promise<Backup[]>;
  /** @throws {NotFoundError} when the backup does not exist; other ApiErrors as `Http.request`. */
  getBackup(organizationId: string, serviceId: string, backupId: string, opts?: CallOptions): Promise<Backup>;
  readonly http: Http;
  readonly profile: CloudProfile;
}

export function createCloudClient(opts: CloudClientOptions): CloudClient {
  const profile = cloudProfile(opts.api);
  const http = opts.http ?? buildHttp(opts);
  const { paths, shapes } = profile;

  async function get<T>(shape: ResponseShape, path: string, o: CallOptions | undefined): Promise<T> {
    const res = await http.request<{ result: T }>({
      method: 'GET',
      path,
      signal: o?.signal,
      validate: (body) => checkResponse(shape, body),
    });
    return res.body.result;
  }

  const service = (org: string, svc: string) => encodePath`/v1/organizations/${org}/services/${svc}`;

  return {
    http,
    profile,
    listIngestPipes: (org, svc, o) => get<IngestPipe[]>(shapes.pipes, `${service(org, svc)}${paths.pipes}`, o),
    listReversePrivateEndpoints: (org, svc, o) => get<ReversePrivateEndpoint[]>(shapes.endpoints, `${service(org, svc)}${paths.endpoints}`, o),
    listBackups: (org, svc, o) => get<Backup[]>(shapes.backups, `${service(org, svc)}${paths.backups}`, o),
    getBackup: (org, svc, id, o) => get<Backup>(shapes.backup, `${service(org, svc)}${paths.backups}${encodePath`/${id}`}`, o),
  };
}

function buildHttp(opts: CloudClientOptions): Http {
  if (!opts.keyId || !opts.keySecret) {
    throw new CliError(`no cloud API key given: set ${opts.credentialHint ?? 'the key id and secret'}`, {
      code: 'config',
    });
  }
  const { url, keyId, keySecret, http: _unused, api: _api, ...rest } = opts;
  return createHttp({ ...rest, prefixUrl: url, auth: { type: 'basic', username: keyId, password: keySecret } });
}
