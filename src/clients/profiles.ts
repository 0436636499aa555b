/**
 * The API profiles (`observability.api` and `cloud.api` in steward.yaml): what each service can do, where,
 * and how fast it may be asked. Plan and apply ask `capabilities`; only the clients read paths, auth and
 * envelopes; the connection settings (src/config/connection.ts) read `requestsPerMinute`. Nothing else
 * branches on a profile's name. DESIGN.md, "API profiles"; README, the profiles table. No import that loads
 * node:http or ajv: the config layer reads this table.
 */
import { CliError } from '../errors.ts';
import { CLICKHOUSE_CLOUD_REQUESTS_PER_MINUTE, DEFAULT_REQUESTS_PER_MINUTE } from './settings.ts';
import type { SchemaName } from './validate.ts';

export type ObservabilityApi = 'seed' | 'hyperdx' | 'clickstack-cloud';

export interface ObservabilityCapabilities {
  /** PUT a dashboard (tiles matched by id, so bound alerts stay bound). */
  updateDashboard: boolean;
  /** DELETE a dashboard (prune). */
  deleteDashboard: boolean;
  /** Ask the service whether a dashboard body is valid without saving it. */
  validateDashboard: boolean;
  /** List alerts: plan diffs them live, no state file. */
  readAlerts: boolean;
  createAlert: boolean;
  deleteAlert: boolean;
  /** An alert carries the complete `channels` list (the server replaces the alert on PUT). */
  alertChannels: boolean;
  /** Sources and webhooks can be listed, so files may name them. */
  listSources: boolean;
  listWebhooks: boolean;
  /** The dashboard form the server takes: tiles with `config` (2026-08) or only `series`. */
  tileConfig: boolean;
}

export interface ObservabilityProfile {
  api: ObservabilityApi;
  title: string;
  capabilities: ObservabilityCapabilities;
  /** Bearer token, or Basic with the ClickHouse Cloud key id and secret. */
  auth: 'bearer' | 'basic';
  /** `{data}` (HyperDX) or `{status, requestId, result}` (ClickHouse Cloud). */
  envelope: 'data' | 'result';
  /** The path every resource path is under, with `{organizationId}`/`{serviceId}` filled in by the client. */
  base: string;
  /** What the connection needs under this profile, for the hint that suggests it. */
  needs: string;
  /** The client's rate limit when the project sets no `requestsPerMinute`. */
  requestsPerMinute: number;
}

const NONE: ObservabilityCapabilities = {
  updateDashboard: false,
  deleteDashboard: false,
  validateDashboard: false,
  readAlerts: false,
  createAlert: false,
  deleteAlert: false,
  alertChannels: false,
  listSources: false,
  listWebhooks: false,
  tileConfig: false,
};

const FULL: ObservabilityCapabilities = {
  updateDashboard: true,
  deleteDashboard: true,
  validateDashboard: true,
  readAlerts: true,
  createAlert: true,
  deleteAlert: true,
  alertChannels: true,
  listSources: true,
  listWebhooks: true,
  tileConfig: true,
};

export const OBSERVABILITY_PROFILES: Readonly<Record<ObservabilityApi, ObservabilityProfile>> = {
  seed: {
    api: 'seed',
    title: 'the seed observability API (create dashboards, update alerts)',
    capabilities: NONE,
    auth: 'bearer',
    envelope: 'data',
    base: '/api/v2',
    needs: 'token',
    requestsPerMinute: DEFAULT_REQUESTS_PER_MINUTE,
  },
  hyperdx: {
    api: 'hyperdx',
    title: 'HyperDX external API v2 (2026-08-21)',
    capabilities: FULL,
    auth: 'bearer',
    envelope: 'data',
    base: '/api/v2',
    needs: 'token',
    requestsPerMinute: DEFAULT_REQUESTS_PER_MINUTE,
  },
  'clickstack-cloud': {
    api: 'clickstack-cloud',
    title: 'ClickStack on ClickHouse Cloud (/v1/organizations/{org}/services/{svc}/clickstack)',
    // The ClickStack alert takes one `channel` (ClickHouse Cloud spec 2026-07-31), not a `channels` list.
    capabilities: { ...FULL, alertChannels: false },
    auth: 'basic',
    envelope: 'result',
    base: '/v1/organizations/{organizationId}/services/{serviceId}/clickstack',
    needs: 'keyId, keySecret, organizationId and serviceId',
    // Through api.clickhouse.cloud, under the key's limit of 10 requests in 10 s (settings.ts).
    requestsPerMinute: CLICKHOUSE_CLOUD_REQUESTS_PER_MINUTE,
  },
};

/** What a flag needs that a profile lacks, as one sentence for people. */
export function missingCapability(profile: ObservabilityProfile, cap: keyof ObservabilityCapabilities, what: string): string | undefined {
  if (profile.capabilities[cap]) return undefined;
  return `${what}: ${profile.title} cannot do that (observability.api: ${profile.api}; hyperdx and clickstack-cloud can)`;
}

/** The cloud API profiles: `seed` (the seed document 001) and `clickhouse-cloud` (the real service). */
export type CloudApi = 'seed' | 'clickhouse-cloud';

/** What one cloud API profile reads, and where. */
export interface CloudProfile {
  api: CloudApi;
  /** One line for people (docs, errors). */
  title: string;
  /** Paths under `/v1/organizations/{organizationId}/services/{serviceId}`. */
  paths: { pipes: string; endpoints: string; backups: string };
  /** The schema (schemas/api/cloud/) each item of a read is checked against, on its own. */
  items: { pipe: SchemaName; endpoint: SchemaName; backup: SchemaName };
  /**
   * The service itself can be read (`GET /v1/organizations/{organizationId}/services/{serviceId}`, its `state`):
   * the report then tells a stopped or idle service's old backups from a failing backup schedule. The seed
   * document names no such read.
   */
  serviceState: boolean;
  /** The client's rate limit when the project sets no `requestsPerMinute`. */
  requestsPerMinute: number;
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
    items: { pipe: 'ingestPipe', endpoint: 'reversePrivateEndpoint', backup: 'backup' },
    serviceState: false,
    requestsPerMinute: DEFAULT_REQUESTS_PER_MINUTE,
  },
  'clickhouse-cloud': {
    api: 'clickhouse-cloud',
    title: 'ClickHouse Cloud API v1 (ClickPipes)',
    paths: { pipes: '/clickpipes', endpoints: '/clickpipesReversePrivateEndpoints', backups: '/backups' },
    items: { pipe: 'clickPipe', endpoint: 'clickPipesReversePrivateEndpoint', backup: 'clickhouseCloudBackup' },
    // Service.state: starting, stopping, terminating, softdeleting, awaking, partially_running, provisioning,
    // running, stopped, terminated, softdeleted, degraded, failed, idle (both spec snapshots).
    serviceState: true,
    // 10 requests in 10 s per key (settings.ts).
    requestsPerMinute: CLICKHOUSE_CLOUD_REQUESTS_PER_MINUTE,
  },
};

/** The profile for a `cloud.api` value; undefined (absent) is `seed`. */
export function cloudProfile(api: CloudApi | undefined): CloudProfile {
  const name = api ?? 'seed';
  const p = Object.hasOwn(CLOUD_PROFILES, name) ? CLOUD_PROFILES[name] : undefined;
  if (!p) throw new CliError(`unknown cloud API profile "${String(api)}": use ${Object.keys(CLOUD_PROFILES).join(' or ')}`, { code: 'config' });
  return p;
}
