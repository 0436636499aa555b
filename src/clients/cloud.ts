/**
 * Client of the cloud management API (seeds/001): ingest pipes, reverse private endpoints, backups. All
 * reads. Basic authentication from key id and secret; success bodies are the `{status, requestId, result}`
 * envelope, validated, and the client returns `result`.
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

export interface CloudClientOptions extends Omit<HttpOptions, 'prefixUrl' | 'auth'> {
  /** Base URL of the API (`https://api.example.com`); paths `/v1/...` are appended. */
  url: string;
  keyId: string;
  keySecret: string;
  /** A ready HTTP layer to use instead of building one (tests, sharing). */
  http?: Http;
}

export interface CloudClient {
  /** @throws {ApiError} see `Http.request`. */
  listIngestPipes(organizationId: string, serviceId: string, opts?: CallOptions): Promise<IngestPipe[]>;
  /** @throws {ApiError} see `Http.request`. */
  listReversePrivateEndpoints(
    organizationId: string,
    serviceId: string,
    opts?: CallOptions,
  ): Promise<ReversePrivateEndpoint[]>;
  /** Backups, newest first as the server orders them (not re-sorted here). @throws {ApiError} */
  listBackups(organizationId: string, serviceId: string, opts?: CallOptions): Promise<Backup[]>;
  /** @throws {NotFoundError} when the backup does not exist; other ApiErrors as `Http.request`. */
  getBackup(organizationId: string, serviceId: string, backupId: string, opts?: CallOptions): Promise<Backup>;
  readonly http: Http;
}

export function createCloudClient(opts: CloudClientOptions): CloudClient {
  const http = opts.http ?? buildHttp(opts);

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
    listIngestPipes: (org, svc, o) => get<IngestPipe[]>('cloud.ingestPipes', `${service(org, svc)}/ingestpipes`, o),
    listReversePrivateEndpoints: (org, svc, o) =>
      get<ReversePrivateEndpoint[]>(
        'cloud.reversePrivateEndpoints',
        `${service(org, svc)}/ingestpipesReversePrivateEndpoints`,
        o,
      ),
    listBackups: (org, svc, o) => get<Backup[]>('cloud.backups', `${service(org, svc)}/backups`, o),
    getBackup: (org, svc, id, o) =>
      get<Backup>('cloud.backup', `${service(org, svc)}${encodePath`/backups/${id}`}`, o),
  };
}

function buildHttp(opts: CloudClientOptions): Http {
  if (!opts.keyId || !opts.keySecret) {
    throw new CliError(`no cloud API key given: set ${opts.credentialHint ?? 'the key id and secret'}`, {
      code: 'config',
    });
  }
  const { url, keyId, keySecret, http: _unused, ...rest } = opts;
  return createHttp({ ...rest, prefixUrl: url, auth: { type: 'basic', username: keyId, password: keySecret } });
}
