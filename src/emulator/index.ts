import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultSeed } from './default-seed.ts';
import { DEFAULT_ORGANIZATION_ID, DEFAULT_SERVICE_IDS } from './default-seed-ids.ts';
import { HxStore } from './hyperdx.ts';
import type { HyperdxSeedData, HyperdxState } from './hx-model.ts';
import { defaultHyperdxSeed, materializeHxSeed, persistedHxState } from './hx-seed.ts';
import { RateLimiter } from './faults.ts';
import { LatencyWait } from './latency.ts';
import { Persister } from './persist.ts';
import { createSeededRandom, deriveSeed, objectIds, platformUuid, randomSeed, uuidV4 } from './random.ts';
import { EmulatorError, materializeSeed, readSeed } from './seed.ts';
import { RequestLog } from './exchange.ts';
import { createRequestHandler } from './server.ts';
import { type AlertUpdateMode, Store } from './store.ts';
import type { EmulatorState, RequestLogEntry, SeedData } from './types.ts';
import { API_PROFILES, type ApiProfile } from './profiles.ts';

export * from './default-seed.ts';
export * from './default-seed-ids.ts';
export { HX_ALERT_IDS, HX_SOURCE_IDS, HX_TEAM_ID, HX_WEBHOOK_IDS, seriesToConfig } from './hx-model.ts';
export type { HxAlert, HxDashboard, HxSource, HxTile, HxWebhook, HyperdxSeedData, HyperdxState } from './hx-model.ts';
export type * from './types.ts';
export { EmulatorError, resolveTime } from './seed.ts';
export type { AlertUpdateMode } from './store.ts';

export { API_PROFILES, type ApiProfile } from './profiles.ts';

/** The built-in seed of a profile (`--print-seed`): the seed documents' data, or sources/webhooks/alerts. */
export function defaultSeedFor(api: ApiProfile = 'seed'): SeedData | HyperdxSeedData {
  const seed = defaultSeed();
  return api === 'seed' ? seed : defaultHyperdxSeed(seed.organizations ?? [], api === 'clickstack-cloud' ? 'clickstack' : 'hyperdx');
}

export interface EmulatorOptions {
  /**
   * The API served: `seed` (default; the seed documents), `hyperdx` (HyperDX external API v2 of 2026-08-21
   * under /api/v2) or `clickstack-cloud` (the same resources under ClickHouse Cloud's
   * /v1/organizations/{organizationId}/services/{serviceId}/clickstack/...). The cloud paths are served by all.
   */
  api?: ApiProfile;
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Seed data, as an object or the path of a JSON file. Default: `defaultSeedFor(api)`. */
  data?: SeedData | HyperdxSeedData | string;
  /**
   * Keep dashboards and alerts in this JSON file: loaded at start when it exists, written atomically after
   * every change. Cloud data always comes from the seed.
   */
  persist?: string;
  /** How PUT /api/v2/alerts/{id} treats members left out: `merge` (default) keeps them, `replace` clears them. */
  alertUpdate?: AlertUpdateMode;
  /** Bearer token of the observability API. Default `dev-token`. */
  token?: string;
  /** Basic credentials of the cloud API. Default `dev-key` / `dev-secret`. */
  keyId?: string;
  keySecret?: string;
  /** Delay before answering each API request, in milliseconds. */
  latencyMs?: number;
  /** Accept at most this many API requests per credential in any 60 s; beyond: 429 with Retry-After. */
  rateLimitPerMinute?: number;
  /** Share of API requests (0..1) answered 503 before anything else happens. */
  failRate?: number;
  /** Share of dashboard creations (0..1) that are stored and then answered by cutting the connection. */
  dropAfterCommit?: number;
  /** Seed for every random choice (faults, assigned ids, request ids): the same seed replays the same run. */
  seed?: number;
  /** The clock: timestamps, relative seed times, the rate-limit window. Default: the system clock. */
  now?: () => Date;
  /** How many request-log entries to keep (default 10,000). */
  logLimit?: number;
  /** Called with every logged request (the CLI's --log-requests). Keep it cheap. */
  onRequest?: (entry: RequestLogEntry) => void;
}

export interface Emulator<S = EmulatorState> {
  /** The API profile served. */
  api: ApiProfile;
  /** Where the ClickStack paths live (clickstack-cloud), else undefined. */
  clickstack: { organizationId: string; serviceId: string } | undefined;
  /** `http://127.0.0.1:<port>`, no trailing slash: the base URL of both APIs. */
  url: string;
  port: number;
  host: string;
  credentials: { token: string; keyId: string; keySecret: string };
  /** The variables steward reads to reach this emulator. */
  env: {
    STEWARD_OBS_URL: string;
    STEWARD_CLOUD_URL: string;
    STEWARD_OBS_TOKEN: string;
    STEWARD_CLOUD_KEY_ID: string;
    STEWARD_CLOUD_KEY_SECRET: string;
    /** clickstack-cloud only: the organization and service of the ClickStack paths. */
    STEWARD_CLICKSTACK_ORGANIZATION_ID?: string;
    STEWARD_CLICKSTACK_SERVICE_ID?: string;
  };
  /** The options in effect, with defaults filled in (the seed too: a random one when none was given). */
  settings: Required<Omit<EmulatorOptions, 'data' | 'persist' | 'now' | 'onRequest' | 'api'>> & { persist: string | undefined };
  /** A copy of the current state (`HyperdxState` under hyperdx / clickstack-cloud). */
  state(): S;
  /** The request log (newest last). */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  /** Back to the seed (as materialised at start); clears the log and the rate-limit windows. */
  reset(): Promise<void>;
  /** Stops listening, cuts open connections, and waits for a pending persist write. */
  close(): Promise<void>;
}

function check(cond: boolean, message: string): void {
  if (!cond) throw new EmulatorError(message);
}

function checkOptions(o: EmulatorOptions): void {
  check(o.api === undefined || (API_PROFILES as readonly string[]).includes(o.api), `api: must be one of ${API_PROFILES.join(', ')}, got ${String(o.api)}`);
  const share = (v: number | undefined, name: string) =>
    check(v === undefined || (Number.isFinite(v) && v >= 0 && v <= 1), `${name}: must be a number from 0 to 1, got ${String(v)}`);
  check(
    o.port === undefined || (Number.isInteger(o.port) && o.port >= 0 && o.port <= 65535),
    `port: must be an integer from 0 to 65535, got ${String(o.port)}`,
  );
  check(
    o.alertUpdate === undefined || o.alertUpdate === 'merge' || o.alertUpdate === 'replace',
    `alertUpdate: must be merge or replace, got ${String(o.alertUpdate)}`,
  );
  check(o.latencyMs === undefined || (Number.isFinite(o.latencyMs) && o.latencyMs >= 0), `latencyMs: must be a number >= 0, got ${String(o.latencyMs)}`);
  check(
    o.rateLimitPerMinute === undefined || (Number.isInteger(o.rateLimitPerMinute) && o.rateLimitPerMinute >= 1),
    `rateLimitPerMinute: must be an integer >= 1, got ${String(o.rateLimitPerMinute)}`,
  );
  share(o.failRate, 'failRate');
  share(o.dropAfterCommit, 'dropAfterCommit');
  check(o.seed === undefined || Number.isInteger(o.seed), `seed: must be an integer, got ${String(o.seed)}`);
  check(o.logLimit === undefined || (Number.isInteger(o.logLimit) && o.logLimit >= 1), `logLimit: must be an integer >= 1, got ${String(o.logLimit)}`);
  for (const k of ['token', 'keyId', 'keySecret'] as const) {
    const v = o[k];
    check(v === undefined || (typeof v === 'string' && v !== '' && !/\s/.test(v)), `${k}: must be a non-empty string without spaces`);
  }
  check(o.keyId === undefined || !o.keyId.includes(':'), 'keyId: must not contain ":" (Basic credentials are "keyId:keySecret")');
}

/**
 * Starts the emulator in this process: both APIs on one port, state in memory (or in `persist`), faults as
 * configured. Resolves once it listens.
 * @throws EmulatorError for bad options, bad seed data, an unreadable persist file, or a port in use.
 */
export async function startEmulator(options: EmulatorOptions & { api: 'hyperdx' | 'clickstack-cloud' }): Promise<Emulator<HyperdxState>>;
export async function startEmulator(options?: EmulatorOptions & { api?: 'seed' }): Promise<Emulator<EmulatorState>>;
export async function startEmulator(options: EmulatorOptions): Promise<Emulator<EmulatorState | HyperdxState>>;
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator<EmulatorState | HyperdxState>> {
  checkOptions(options);
  const api = options.api ?? 'seed';
  const now = options.now ?? (() => new Date());
  const seed = options.seed ?? randomSeed();
  const idRng = createSeededRandom(deriveSeed(seed, 1));
  const failRng = createSeededRandom(deriveSeed(seed, 2));
  const dropRng = createSeededRandom(deriveSeed(seed, 3));
  const requestRng = createSeededRandom(deriveSeed(seed, 4));
  const nextObjectId = objectIds(idRng);
  const newId = () => nextObjectId(now());
  const requestId = options.seed === undefined ? platformUuid : () => uuidV4(requestRng);

  const anchor = now();
  const raw = readSeed(options.data ?? defaultSeedFor(api));
  let hx: HxStore | undefined;
  let baseline: EmulatorState;
  if (api === 'seed') {
    baseline = materializeSeed(raw, anchor, newId);
  } else {
    const { organizations, ...rest } = checkHxSeedKeys(raw);
    baseline = materializeSeed({ organizations }, anchor, newId);
    hx = new HxStore(materializeHxSeed(rest, anchor, newId, api === 'hyperdx' ? 'hyperdx' : 'clickstack'), {
      flavor: api === 'hyperdx' ? 'hyperdx' : 'clickstack',
      newId,
      now,
    });
  }
  const alertUpdate = options.alertUpdate ?? 'merge';
  const store = new Store(baseline, { newId, now, alertUpdate });
  const clickstack = api === 'clickstack-cloud' ? clickstackHome(baseline) : undefined;

  const persister = options.persist === undefined ? undefined : new Persister(options.persist, () => (hx ? { api, ...hx.mutable() } : store.observability()));
  if (persister) {
    const saved = persister.load();
    if (saved) {
      const savedApi = typeof saved['api'] === 'string' ? saved['api'] : 'seed';
      if (savedApi !== api) throw new EmulatorError(`persisted state ${options.persist} was written by the ${savedApi} profile; this emulator serves ${api}`);
      if (hx) {
        hx.load(persistedHxState(saved, options.persist!));
      } else {
        const loaded = materializeSeed({ dashboards: saved['dashboards'], alerts: saved['alerts'] }, anchor, newId);
        store.load(loaded);
      }
    } else {
      await persister.save();
    }
  }
  const stateOf = (): EmulatorState | HyperdxState =>
    hx
      ? {
          api: api as 'hyperdx' | 'clickstack-cloud',
          ...hx.mutable(),
          sources: hx.sourceList(),
          webhooks: hx.webhookList(),
          organizations: store.snapshot().organizations,
          clickstack,
        }
      : store.snapshot();

  const log = new RequestLog(options.logLimit ?? 10_000, options.onRequest);
  const limiter = options.rateLimitPerMinute === undefined ? undefined : new RateLimiter(options.rateLimitPerMinute);
  const reset = async () => {
    store.reset();
    hx?.reset();
    log.clear();
    limiter?.clear();
    await persister?.save();
  };

  const host = options.host ?? '127.0.0.1';
  const server = createServer(
    { keepAliveTimeout: 5000 },
    createRequestHandler({
      loopbackOnly: host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host),
      api,
      store,
      hx,
      clickstack,
      stateOf,
      token: options.token ?? 'dev-token',
      keyId: options.keyId ?? 'dev-key',
      keySecret: options.keySecret ?? 'dev-secret',
      latency: options.latencyMs ? new LatencyWait(options.latencyMs) : undefined,
      limiter,
      failRate: options.failRate ?? 0,
      dropAfterCommit: options.dropAfterCommit ?? 0,
      failRng,
      dropRng,
      requestId,
      now,
      persister,
      log,
      reset,
    }),
  );
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(
        new EmulatorError(
          err.code === 'EADDRINUSE'
            ? `port ${options.port ?? 0} on ${host} is already in use`
            : `cannot listen on ${host}:${options.port ?? 0}: ${err.message}`,
          { cause: err },
        ),
      );
    };
    server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const credentials = { token: options.token ?? 'dev-token', keyId: options.keyId ?? 'dev-key', keySecret: options.keySecret ?? 'dev-secret' };

  let closing: Promise<void> | undefined;
  return {
    api,
    clickstack,
    url,
    port,
    host,
    credentials,
    env: {
      STEWARD_OBS_URL: url,
      STEWARD_CLOUD_URL: url,
      STEWARD_OBS_TOKEN: credentials.token,
      STEWARD_CLOUD_KEY_ID: credentials.keyId,
      STEWARD_CLOUD_KEY_SECRET: credentials.keySecret,
      ...(clickstack ? { STEWARD_CLICKSTACK_ORGANIZATION_ID: clickstack.organizationId, STEWARD_CLICKSTACK_SERVICE_ID: clickstack.serviceId } : {}),
    },
    settings: {
      port,
      host,
      alertUpdate,
      ...credentials,
      latencyMs: options.latencyMs ?? 0,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 0,
      failRate: options.failRate ?? 0,
      dropAfterCommit: options.dropAfterCommit ?? 0,
      seed,
      logLimit: log.limit,
      persist: options.persist,
    },
    state: stateOf,
    requests: () => log.list(),
    clearRequests: () => log.clear(),
    reset,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => persister?.idle());
      return closing;
    },
  };
}

const HX_SEED_KEYS = new Set(['sources', 'webhooks', 'alerts', 'dashboards', 'organizations']);

/** The top level of a hyperdx / clickstack-cloud seed: only its lists (and `$`/`_` comments). */
function checkHxSeedKeys(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new EmulatorError('seed: must be a JSON object with sources, webhooks, alerts, dashboards and organizations');
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (k.startsWith('$') || k.startsWith('_')) continue;
    if (!HX_SEED_KEYS.has(k)) throw new EmulatorError(`seed.${k}: unknown member (expected ${[...HX_SEED_KEYS].join(', ')})`);
    out[k] = v;
  }
  return out;
}

/**
 * The service the ClickStack paths belong to: the default seed's prod-warehouse (what examples/cloud reads)
 * when the seed has it, else the first service of the first organization.
 */
function clickstackHome(state: EmulatorState): { organizationId: string; serviceId: string } {
  for (const org of state.organizations) {
    for (const svc of org.services) {
      if (org.id === DEFAULT_ORGANIZATION_ID && svc.id === DEFAULT_SERVICE_IDS['prod-warehouse']) return { organizationId: org.id, serviceId: svc.id };
    }
  }
  const org = state.organizations.find((o) => o.services.length > 0);
  if (!org)
    throw new EmulatorError('seed.organizations: the clickstack-cloud profile needs at least one organization with a service (its ClickStack lives there)');
  return { organizationId: org.id, serviceId: org.services[0]!.id };
}
