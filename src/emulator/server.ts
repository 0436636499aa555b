import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RateLimiter } from './faults.ts';
import type { Persister } from './persist.ts';
import type { Random } from './random.ts';
import { UUID_PATTERN } from './seed.ts';
import type { HxStore } from './hyperdx.ts';
import { hxResource } from './hx-routes.ts';
import type { Store } from './store.ts';
import type { RequestLogEntry } from './types.ts';
import { BadRequest, parseAlertUpdate, parseDashboardInput } from './validate.ts';

/** Largest request body accepted (413 beyond). */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The request log: the newest `limit` entries, numbered since start or the last clear. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];
  private seq = 0;

  constructor(
    readonly limit: number,
    private readonly onAdd?: (entry: RequestLogEntry) => void,
  ) {}

  add(entry: Omit<RequestLogEntry, 'seq'>): void {
    const full = { seq: ++this.seq, ...entry };
    this.entries.push(full);
    this.onAdd?.(full);
    // Trim in batches so a long benchmark costs O(1) per request on average.
    if (this.entries.length >= this.limit * 2) this.entries = this.entries.slice(-this.limit);
  }

  list(): RequestLogEntry[] {
    return this.entries.slice(-this.limit);
  }

  /** How many requests were logged since start or the last clear (including those trimmed away). */
  get total(): number {
    return this.seq;
  }

  clear(): void {
    this.entries = [];
    this.seq = 0;
  }
}

/** Everything the request handler needs; built once by `startEmulator`. */
export interface HandlerConfig {
  /** The API profile served: `seed` (the seed documents), `hyperdx` or `clickstack-cloud`. */
  api: 'seed' | 'hyperdx' | 'clickstack-cloud';
  /** Cloud data (every profile) and the seed profile's dashboards and alerts. */
  store: Store;
  /** The hyperdx / clickstack-cloud resources (undefined under `seed`). */
  hx: HxStore | undefined;
  /** The service the ClickStack paths belong to (clickstack-cloud). */
  clickstack: { organizationId: string; serviceId: string } | undefined;
  token: string;
  keyId: string;
  keySecret: string;
  latencyMs: number;
  limiter: RateLimiter | undefined;
  failRate: number;
  dropAfterCommit: number;
  failRng: Random;
  dropRng: Random;
  requestId: () => string;
  now: () => Date;
  persister: Persister | undefined;
  log: RequestLog;
  reset: () => Promise<void>;
  /** The whole state (`GET /__emulator/state` under hyperdx / clickstack-cloud). */
  stateOf: () => unknown;
}

export type Api = 'observability' | 'cloud' | 'none';
type Fault = RequestLogEntry['fault'];

const JSON_TYPE = 'application/json; charset=utf-8';

function credentialKind(auth: string | undefined): RequestLogEntry['credential'] {
  if (auth === undefined || auth === '') return 'none';
  const scheme = auth.slice(0, 7).toLowerCase();
  if (scheme === 'bearer ') return 'bearer';
  if (scheme.startsWith('basic ')) return 'basic';
  return 'other';
}

function splitAuth(auth: string | undefined): { scheme: string; value: string } | undefined {
  if (auth === undefined || auth.trim() === '') return undefined;
  const t = auth.trim();
  const sp = t.indexOf(' ');
  return sp === -1 ? { scheme: t.toLowerCase(), value: '' } : { scheme: t.slice(0, sp).toLowerCase(), value: t.slice(sp + 1).trim() };
}

/** Why a Bearer credential is refused, or undefined when it is the right token. */
function bearerProblem(auth: string | undefined, token: string): string | undefined {
  const a = splitAuth(auth);
  if (!a) return 'Unauthorized: missing Authorization header (expected "Bearer <token>")';
  if (a.scheme !== 'bearer') return `Unauthorized: the observability API takes "Authorization: Bearer <token>", not the ${a.scheme} scheme`;
  if (a.value !== token) return 'Unauthorized: invalid access token';
  return undefined;
}

/** Why a Basic credential is refused, or undefined when it is the right key id and secret. */
function basicProblem(auth: string | undefined, keyId: string, keySecret: string): string | undefined {
  const a = splitAuth(auth);
  if (!a) return 'Unauthorized: missing Authorization header (expected "Basic <base64 of keyId:keySecret>")';
  if (a.scheme !== 'basic') return `Unauthorized: the cloud API takes "Authorization: Basic <credentials>", not the ${a.scheme} scheme`;
  const decoded = Buffer.from(a.value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return 'Unauthorized: Basic credentials must encode "keyId:keySecret"';
  if (decoded.slice(0, colon) !== keyId || decoded.slice(colon + 1) !== keySecret) return 'Unauthorized: invalid API key id or secret';
  return undefined;
}

/** One request and its answer; logs the answer when it is sent. */
export class Exchange {
  readonly headers: Record<string, string | number> = {};
  private readonly started = performance.now();
  private readonly time: string;
  private done = false;

  constructor(
    private readonly cfg: HandlerConfig,
    readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly method: string,
    readonly path: string,
    readonly api: Api,
    private readonly logged: boolean,
  ) {
    this.time = logged ? cfg.now().toISOString() : '';
  }

  send(status: number, body: string | Buffer, fault?: Fault): void {
    if (this.done) return;
    this.done = true;
    this.headers['content-type'] = JSON_TYPE;
    this.headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    this.res.writeHead(status, this.headers);
    this.res.end(body);
    this.record(status, fault);
  }

  empty(status: number): void {
    if (this.done) return;
    this.done = true;
    this.res.writeHead(status, this.headers);
    this.res.end();
    this.record(status, undefined);
  }

  /** An error body in the shape of the API the path belongs to. */
  error(status: number, message: string, fault?: Fault): void {
    const body =
      this.api === 'cloud' ? `{"status":${status},"error":${JSON.stringify(message)},"requestId":"${this.cfg.requestId()}"}` : JSON.stringify({ message });
    this.send(status, body, fault);
  }

  /** Cuts the connection without an answer (the change stays committed). */
  drop(): void {
    if (this.done) return;
    this.done = true;
    this.req.socket.destroy();
    this.record(0, 'drop-after-commit');
  }

  private record(status: number, fault: Fault): void {
    if (!this.logged) return;
    const entry: Omit<RequestLogEntry, 'seq'> = {
      time: this.time,
      method: this.method,
      path: this.path,
      status,
      ms: Math.round((performance.now() - this.started) * 100) / 100,
      credential: credentialKind(this.req.headers.authorization),
    };
    if (fault) entry.fault = fault;
    this.cfg.log.add(entry);
  }
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(c);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Reads a JSON body; answers 400/413 itself and returns undefined when there is none to use. */
export async function readJson(ex: Exchange): Promise<{ value: unknown } | undefined> {
  const body = await readBody(ex.req);
  if (body === undefined) {
    ex.headers['connection'] = 'close';
    ex.error(413, `body: larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
    return undefined;
  }
  if (body.length === 0) {
    ex.error(400, 'body: must be a JSON object, got an empty body');
    return undefined;
  }
  try {
    return { value: JSON.parse(body.toString('utf8')) };
  } catch (err) {
    ex.error(400, `body: not valid JSON (${(err as Error).message})`);
    return undefined;
  }
}

export function decodeSegment(s: string | undefined): string | undefined {
  if (s === undefined || s === '') return undefined;
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

export function methodNotAllowed(ex: Exchange, allow: string): void {
  ex.headers['allow'] = allow;
  ex.error(405, `method ${ex.method} is not allowed on ${ex.path} (allowed: ${allow})`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function persist(cfg: HandlerConfig, ex: Exchange): Promise<boolean> {
  if (!cfg.persister) return true;
  try {
    await cfg.persister.save();
    return true;
  } catch (err) {
    ex.error(500, (err as Error).message);
    return false;
  }
}

/** `/api/v2/...`, after faults and auth. */
async function observability(cfg: HandlerConfig, ex: Exchange): Promise<void> {
  const seg = ex.path.split('/'); // ['', 'api', 'v2', resource, id?]
  const resource = seg[3];
  if (resource === 'dashboards' && seg.length === 4) {
    if (ex.method === 'GET') return ex.send(200, cfg.store.dashboardsBody());
    if (ex.method !== 'POST') return methodNotAllowed(ex, 'GET, POST');
    const body = await readJson(ex);
    if (!body) return;
    let json: string;
    try {
      json = cfg.store.createDashboard(parseDashboardInput(body.value));
    } catch (err) {
      if (err instanceof BadRequest) return ex.error(400, err.message);
      throw err;
    }
    if (!(await persist(cfg, ex))) return;
    if (cfg.dropAfterCommit > 0 && cfg.dropRng.next() < cfg.dropAfterCommit) return ex.drop();
    return ex.send(200, `{"data":${json}}`);
  }
  if (resource === 'dashboards' && seg.length === 5) {
    if (ex.method !== 'GET') return methodNotAllowed(ex, 'GET');
    const id = decodeSegment(seg[4]);
    const json = id === undefined ? undefined : cfg.store.dashboardJson(id);
    if (json === undefined) return ex.error(404, `dashboard ${id ?? seg[4]} not found`);
    return ex.send(200, `{"data":${json}}`);
  }
  if (resource === 'alerts' && seg.length === 5) {
    if (ex.method !== 'PUT') return methodNotAllowed(ex, 'PUT');
    const id = decodeSegment(seg[4]);
    if (id === undefined || !cfg.store.hasAlert(id)) return ex.error(404, `alert ${id ?? seg[4]} not found`);
    const body = await readJson(ex);
    if (!body) return;
    let alert;
    try {
      alert = cfg.store.updateAlert(id, parseAlertUpdate(body.value));
    } catch (err) {
      if (err instanceof BadRequest) return ex.error(400, err.message);
      throw err;
    }
    if (!alert) return ex.error(404, `alert ${id} not found`);
    if (!(await persist(cfg, ex))) return;
    return ex.send(200, JSON.stringify({ data: alert }));
  }
  return ex.error(404, `not found: ${ex.method} ${ex.path}`);
}

/**
 * The cloud resources under a service: the seed's names (`ingestpipes...`) and the real API's (`clickpipes...`)
 * over the same data, backups, and (clickstack-cloud) the ClickStack paths.
 */
const CLOUD_RESOURCES = new Set([
  'ingestpipesReversePrivateEndpoints',
  'ingestpipes',
  'clickpipesReversePrivateEndpoints',
  'clickpipes',
  'backups',
  'clickstack',
]);
/** The path parameter the real spec names for one object of each list. */
const CLOUD_ITEM_PARAM: Record<string, string> = {
  backups: 'backupId',
  clickpipes: 'clickPipeId',
  clickpipesReversePrivateEndpoints: 'reversePrivateEndpointId',
};

/**
 * A pipe as the real `clickpipes` paths answer it: the seed names the pipe settings `engine_*` where the
 * ClickHouse Cloud spec says `clickhouse_*` (`engine_max_threads` is `clickhouse_max_threads`); the rest is the
 * same object.
 */
function realPipe(p: Record<string, unknown>): Record<string, unknown> {
  const settings = p['settings'];
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return p;
  const renamed = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k.startsWith('engine_') ? `clickhouse_${k.slice('engine_'.length)}` : k, v]));
  return { ...p, settings: renamed };
}

/** A backup as served: an in-progress one reports the seconds since it started, as the real API does. */
function serveBackup(b: Record<string, unknown>, now: Date): Record<string, unknown> {
  if (b['status'] !== 'in_progress' || typeof b['startedAt'] !== 'string') return b;
  return { ...b, durationInSeconds: Math.max(0, Math.floor((now.getTime() - Date.parse(b['startedAt'])) / 1000)) };
}

/** `/v1/organizations/{organizationId}/services/{serviceId}/...`, after faults and auth. */
async function cloud(cfg: HandlerConfig, ex: Exchange, query: URLSearchParams): Promise<void> {
  const seg = ex.path.split('/'); // ['', 'v1', 'organizations', org, 'services', svc, resource, id?...]
  const resource = seg[6];
  const itemParam = resource === undefined ? undefined : CLOUD_ITEM_PARAM[resource];
  if (
    seg[2] !== 'organizations' ||
    seg[4] !== 'services' ||
    resource === undefined ||
    !CLOUD_RESOURCES.has(resource) ||
    (resource !== 'clickstack' && (seg.length > 8 || (seg.length === 8 && itemParam === undefined)))
  ) {
    return ex.error(404, `not found: ${ex.method} ${ex.path}`);
  }
  if (resource === 'clickstack' && cfg.api !== 'clickstack-cloud') {
    return ex.error(404, `not found: ${ex.method} ${ex.path} (the ClickStack paths are served with --api clickstack-cloud; this emulator serves ${cfg.api})`);
  }
  if (resource !== 'clickstack' && ex.method !== 'GET') return methodNotAllowed(ex, 'GET');
  const params: [string, string | undefined][] = [
    ['organizationId', decodeSegment(seg[3])],
    ['serviceId', decodeSegment(seg[5])],
  ];
  if (seg.length === 8 && itemParam !== undefined) params.push([itemParam, decodeSegment(seg[7])]);
  for (const [name, value] of params) {
    if (value === undefined || !UUID_PATTERN.test(value)) {
      return ex.error(400, `${name}: must be a UUID, got ${JSON.stringify(value ?? '')}`);
    }
  }
  const orgId = params[0]![1]!;
  const serviceId = params[1]![1]!;
  const service = cfg.store.service(orgId, serviceId);
  if (service === 'organization') return ex.error(404, `organization ${orgId} not found`);
  if (service === 'service') return ex.error(404, `service ${serviceId} not found in organization ${orgId}`);
  if (resource === 'clickstack') {
    const home = cfg.clickstack!;
    if (home.organizationId.toLowerCase() !== orgId.toLowerCase() || home.serviceId.toLowerCase() !== serviceId.toLowerCase()) {
      return ex.error(404, `ClickStack is not enabled on service ${serviceId} (it is on ${home.serviceId} of organization ${home.organizationId})`);
    }
    return hxResource(cfg, cfg.hx!, ex, seg.slice(7), query);
  }
  const one = (list: Record<string, unknown>[], what: string): unknown => {
    const id = params[2]![1]!.toLowerCase();
    return list.find((x) => String(x['id']).toLowerCase() === id) ?? ex.error(404, `${what} ${params[2]![1]} not found for service ${serviceId}`);
  };
  let result: unknown;
  if (resource === 'ingestpipesReversePrivateEndpoints' || resource === 'clickpipesReversePrivateEndpoints') {
    result = seg.length === 8 ? one(service.reversePrivateEndpoints, 'reverse private endpoint') : service.reversePrivateEndpoints;
  } else if (resource === 'ingestpipes') {
    result = service.pipes;
  } else if (resource === 'clickpipes') {
    const pipes = service.pipes.map(realPipe);
    result = seg.length === 8 ? one(pipes, 'ClickPipe') : pipes;
  } else if (seg.length === 8) {
    const backupId = params[2]![1]!;
    const backup = cfg.store.backup(serviceId, backupId);
    if (!backup) return ex.error(404, `backup ${backupId} not found for service ${serviceId}`);
    result = serveBackup(backup, cfg.now());
  } else {
    const now = cfg.now();
    result = service.backups.map((b) => serveBackup(b, now));
  }
  if (result === undefined) return; // answered 404 above
  return ex.send(200, `{"status":200,"requestId":"${cfg.requestId()}","result":${JSON.stringify(result)}}`);
}

/** `/__emulator/...`: no auth, no faults, not logged. */
async function admin(cfg: HandlerConfig, ex: Exchange): Promise<void> {
  switch (ex.path) {
    case '/__emulator/requests':
      if (ex.method === 'GET') return ex.send(200, JSON.stringify({ requests: cfg.log.list(), total: cfg.log.total }));
      if (ex.method === 'DELETE') {
        cfg.log.clear();
        return ex.empty(204);
      }
      return methodNotAllowed(ex, 'GET, DELETE');
    case '/__emulator/reset':
      if (ex.method !== 'POST') return methodNotAllowed(ex, 'POST');
      await cfg.reset();
      return ex.send(200, JSON.stringify({ reset: true, dashboards: cfg.hx ? cfg.hx.dashboardCount() : cfg.store.dashboardCount() }));
    case '/__emulator/state':
      if (ex.method !== 'GET') return methodNotAllowed(ex, 'GET');
      return ex.send(200, cfg.hx ? JSON.stringify(cfg.stateOf()) : cfg.store.stateJson());
    default:
      return ex.error(404, `not found: ${ex.method} ${ex.path} (admin paths: /__emulator/requests, /__emulator/reset, /__emulator/state)`);
  }
}

async function handle(cfg: HandlerConfig, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const method = req.method ?? 'GET';

  if (path === '/__emulator' || path.startsWith('/__emulator/')) {
    return admin(cfg, new Exchange(cfg, req, res, method, path, 'none', false));
  }
  const api: Api = path === '/api/v2' || path.startsWith('/api/v2/') ? 'observability' : path === '/v1' || path.startsWith('/v1/') ? 'cloud' : 'none';
  const ex = new Exchange(cfg, req, res, method, path, api, true);
  if (api === 'none') return ex.error(404, `not found: ${method} ${path} (the APIs live under /api/v2 and /v1)`);

  // Faults, in this order: latency, rate limit, fail rate. Then auth, then the route.
  if (cfg.latencyMs > 0) await sleep(cfg.latencyMs);
  const auth = req.headers.authorization;
  if (cfg.limiter) {
    const r = cfg.limiter.take(`${api} ${auth ?? ''}`, cfg.now().getTime());
    ex.headers['ratelimit-limit'] = cfg.limiter.limit;
    ex.headers['ratelimit-remaining'] = r.remaining;
    ex.headers['ratelimit-reset'] = r.resetSeconds;
    if (!r.ok) {
      ex.headers['retry-after'] = r.resetSeconds;
      return ex.error(429, `Too Many Requests: at most ${cfg.limiter.limit} requests a minute per credential; retry after ${r.resetSeconds} s`, 'rate-limit');
    }
  }
  if (cfg.failRate > 0 && cfg.failRng.next() < cfg.failRate) {
    return ex.error(503, 'Service Unavailable (injected fault: fail rate)', 'fail');
  }
  const problem = api === 'observability' ? bearerProblem(auth, cfg.token) : basicProblem(auth, cfg.keyId, cfg.keySecret);
  if (problem) {
    ex.headers['www-authenticate'] = api === 'observability' ? 'Bearer' : 'Basic realm="cloud"';
    return ex.error(401, problem);
  }
  if (api === 'cloud') return cloud(cfg, ex, query);
  if (cfg.api === 'hyperdx') return hxResource(cfg, cfg.hx!, ex, path.split('/').slice(3), query);
  if (cfg.api === 'clickstack-cloud') {
    return ex.error(
      404,
      `not found: ${method} ${path} (this emulator serves the clickstack-cloud profile: /v1/organizations/{organizationId}/services/{serviceId}/clickstack/...)`,
    );
  }
  return observability(cfg, ex);
}

/** The `node:http` request listener. An unexpected error answers 500 with its message. */
export function createRequestHandler(cfg: HandlerConfig): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(cfg, req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const body = JSON.stringify({ message: `emulator error: ${err instanceof Error ? err.message : String(err)}` });
      res.writeHead(500, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  };
}
