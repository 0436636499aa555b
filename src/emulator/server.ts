/** The emulator's request handler: faults and auth, then the observability, cloud and admin routes. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { UUID_PATTERN } from './seed.ts';
import { hxResource } from './hx-routes.ts';
import { BadRequest, parseAlertUpdate, parseDashboardInput } from './validate.ts';
import type { ServiceState } from './types.ts';
import {
  type HandlerConfig,
  type Api,
  JSON_TYPE,
  bearerProblem,
  basicProblem,
  Exchange,
  readJson,
  decodeSegment,
  methodNotAllowed,
  persist,
} from './exchange.ts';
import { isIP } from 'node:net';
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

/**
 * The service as ClickHouse Cloud's `GET …/services/{serviceId}` answers it (Service, 2026-07-31 spec): its
 * state from the seed (`running` unless the seed says otherwise) and fixed values for the members the spec
 * requires (`autoscalingMode`, `currentScaling`) or a client would expect.
 */
function serveService(s: ServiceState): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name ?? `service-${s.id.slice(0, 8)}`,
    provider: 'aws',
    region: 'us-east-1',
    state: s.state,
    clickhouseVersion: '25.8.1.1',
    endpoints: [{ protocol: 'nativesecure', host: `${s.id.slice(0, 8)}.us-east-1.aws.clickhouse.cloud`, port: 9440, username: null }],
    minReplicaMemoryGb: 16,
    maxReplicaMemoryGb: 120,
    numReplicas: 3,
    autoscalingMode: 'vertical',
    idleScaling: true,
    idleTimeoutMinutes: 15,
    ipAccessList: [],
    ...(s.createdAt !== undefined ? { createdAt: s.createdAt } : {}),
    isPrimary: true,
    isReadonly: false,
    currentScaling: {
      effectiveAutoscalingMode: 'vertical',
      effectiveMinReplicaMemoryGb: 16,
      effectiveMaxReplicaMemoryGb: 120,
      effectiveMinReplicas: 3,
      effectiveMaxReplicas: 3,
      effectiveIdleScaling: true,
      effectiveIdleTimeoutMinutes: 15,
    },
  };
}

/** `/v1/organizations/{organizationId}/services/{serviceId}/...`, after faults and auth. */
async function cloud(cfg: HandlerConfig, ex: Exchange, query: URLSearchParams): Promise<void> {
  const seg = ex.path.split('/'); // ['', 'v1', 'organizations', org, 'services', svc, resource, id?...]
  const resource = seg[6];
  const itemParam = resource === undefined ? undefined : CLOUD_ITEM_PARAM[resource];
  // The service itself: GET /v1/organizations/{organizationId}/services/{serviceId} (ClickHouse Cloud's
  // instanceGet; the seed document names no such read).
  const whole = seg.length === 6;
  if (
    seg[2] !== 'organizations' ||
    seg[4] !== 'services' ||
    (!whole && (resource === undefined || !CLOUD_RESOURCES.has(resource))) ||
    (resource !== 'clickstack' && (seg.length > 8 || (seg.length === 8 && itemParam === undefined)))
  ) {
    return ex.error(404, `not found: ${ex.method} ${ex.path}`);
  }
  if (resource === 'clickstack' && cfg.api !== 'clickstack-cloud') {
    return ex.error(404, `not found: ${ex.method} ${ex.path} (the ClickStack paths are served with --api clickstack-cloud; this emulator serves ${cfg.api})`);
  }
  if (resource !== 'clickstack' && ex.method !== 'GET') return methodNotAllowed(ex, 'GET');
  if (seg[5] === undefined) return ex.error(404, `not found: ${ex.method} ${ex.path}`);
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
  if (whole) return ex.send(200, `{"status":200,"requestId":"${cfg.requestId()}","result":${JSON.stringify(serveService(service))}}`);
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

/**
 * Why a request may come from a web page rather than a client, or undefined. The emulator has no real
 * auth (its tokens are printed and documented) and admin paths that reset it, so a page open in the user's
 * browser must not reach it: not through a DNS name that resolves to this machine (DNS rebinding: the Host
 * header names the attacker's domain) nor from another site (a cross-site form: an Origin header). An IP
 * literal or localhost in Host, and Origin absent or naming one, is what steward, curl and tests send.
 */
function foreignName(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  if (host !== undefined && !localName(host)) return `Host "${host.slice(0, 80)}" is a DNS name`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    let name: string | undefined;
    try {
      name = new URL(origin).host;
    } catch {
      name = undefined;
    }
    if (name === undefined || !localName(name)) return `Origin "${origin.slice(0, 80)}" is another site`;
  } else if (origin === 'null') return 'Origin "null" (a sandboxed or file page)';
  return undefined;
}

/** `host[:port]` whose host is an IP address or localhost. */
function localName(hostPort: string): boolean {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:]+)(?::\d+)?$/.exec(hostPort.trim());
  if (!m) return false;
  const h = m[1]!.toLowerCase();
  return h === 'localhost' || h.startsWith('[') || isIP(h) !== 0;
}

async function handle(cfg: HandlerConfig, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const method = req.method ?? 'GET';

  const foreign = cfg.loopbackOnly ? foreignName(req) : undefined;
  if (foreign) {
    return new Exchange(cfg, req, res, method, path, 'none', false).error(
      403,
      `refused: ${foreign}; the emulator answers requests to an IP address or localhost only (a page in a browser must not reach it through a DNS name)`,
    );
  }
  if (path === '/__emulator' || path.startsWith('/__emulator/')) {
    return admin(cfg, new Exchange(cfg, req, res, method, path, 'none', false));
  }
  const api: Api = path === '/api/v2' || path.startsWith('/api/v2/') ? 'observability' : path === '/v1' || path.startsWith('/v1/') ? 'cloud' : 'none';
  const ex = new Exchange(cfg, req, res, method, path, api, true);
  if (api === 'none') return ex.error(404, `not found: ${method} ${path} (the APIs live under /api/v2 and /v1)`);

  // Faults, in this order: latency, rate limit, fail rate. Then auth, then the route.
  if (cfg.latency) await cfg.latency.wait();
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
