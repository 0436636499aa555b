/**
 * Observability API profiles (`observability.api` in steward.yaml): what each service can do and where.
 * Plan and apply ask `capabilities`; only the client reads `paths`, `auth` and `envelope`. Nothing else
 * branches on a profile's name. DESIGN.md, "API profiles"; README, the profiles table.
 */

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
  },
  hyperdx: {
    api: 'hyperdx',
    title: 'HyperDX external API v2 (2026-08-21)',
    capabilities: FULL,
    auth: 'bearer',
    envelope: 'data',
    base: '/api/v2',
  },
  'clickstack-cloud': {
    api: 'clickstack-cloud',
    title: 'ClickStack on ClickHouse Cloud (/v1/organizations/{org}/services/{svc}/clickstack)',
    // The ClickStack alert takes one `channel` (ClickHouse Cloud spec 2026-07-31), not a `channels` list.
    capabilities: { ...FULL, alertChannels: false },
    auth: 'basic',
    envelope: 'result',
    base: '/v1/organizations/{organizationId}/services/{serviceId}/clickstack',
  },
};

/** What a flag needs that a profile lacks, as one sentence for people. */
export function missingCapability(profile: ObservabilityProfile, cap: keyof ObservabilityCapabilities, what: string): string | undefined {
  if (profile.capabilities[cap]) return undefined;
  return `${what}: ${profile.title} cannot do that (observability.api: ${profile.api}; hyperdx and clickstack-cloud can)`;
}
