/**
 * The routes of the `hyperdx` profile (`/api/v2/...`, `{data}` bodies, `{message}` errors) and of the
 * `clickstack-cloud` profile (`/v1/organizations/{organizationId}/services/{serviceId}/clickstack/...`,
 * `{status, requestId, result}` envelope): the same resources over one `HxStore`.
 */
import type { HxStore } from './hyperdx.ts';
import { SpecViolation } from './hx-model.ts';
import { type BodyProblem, problemMessage } from './spec-validate.ts';
import { decodeSegment, type Exchange, type HandlerConfig, methodNotAllowed, persist, readJson } from './exchange.ts';

const OBJECT_ID = /^[0-9a-f]{24}$/;
/** The spec's page bounds for alerts and webhooks (`limit` 1..1000, default 1000; `offset` >= 0). */
export const MAX_PAGE = 1000;

interface Flavored {
  /** 200 with a result: `{data: x}` (hyperdx) or the cloud envelope. */
  ok(x: unknown): void;
  /** 200 with a list, paginated as the spec says (hyperdx alerts and webhooks) or whole. */
  list(items: unknown[], paginated: boolean): void;
  /** 200 after a delete: `{}` (hyperdx EmptyResponse) or `{status, requestId}`. */
  deleted(): void;
  /** 200 for validate: the bare answer (hyperdx) or the cloud envelope around it. */
  validated(x: unknown): void;
  /** The path parameter names of this flavour (the spec's). */
  param: { dashboard: string; alert: string; source: string };
}

function flavored(cfg: HandlerConfig, ex: Exchange, hyperdx: boolean, query: URLSearchParams): Flavored {
  const envelope = (x: unknown) => `{"status":200,"requestId":"${cfg.requestId()}","result":${JSON.stringify(x)}}`;
  if (!hyperdx) {
    return {
      ok: (x) => ex.send(200, envelope(x)),
      list: (items) => ex.send(200, envelope(items)),
      deleted: () => ex.send(200, `{"status":200,"requestId":"${cfg.requestId()}"}`),
      validated: (x) => ex.send(200, envelope(x)),
      param: { dashboard: 'clickStackDashboardId', alert: 'clickStackAlertId', source: 'clickStackSourceId' },
    };
  }
  return {
    ok: (x) => ex.send(200, JSON.stringify({ data: x })),
    list: (items, paginated) => {
      if (!paginated) return ex.send(200, JSON.stringify({ data: items }));
      const page = pageOf(query);
      if (typeof page === 'string') return ex.error(400, page);
      return ex.send(200, JSON.stringify({ data: items.slice(page.offset, page.offset + page.limit), meta: { total: items.length, ...page } }));
    },
    deleted: () => ex.send(200, '{}'),
    validated: (x) => ex.send(200, JSON.stringify(x)),
    param: { dashboard: 'id', alert: 'id', source: 'id' },
  };
}

/** `limit` and `offset` as the spec bounds them, or the message of a 400. */
function pageOf(query: URLSearchParams): { limit: number; offset: number } | string {
  const int = (name: string, min: number, max: number, dflt: number): number | string => {
    const raw = query.get(name);
    if (raw === null) return dflt;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
      return `Query validation failed: ${name}: must be an integer from ${min}${max === Number.MAX_SAFE_INTEGER ? ' up' : ` to ${max}`}, got ${JSON.stringify(raw)}`;
    }
    return n;
  };
  const limit = int('limit', 1, MAX_PAGE, MAX_PAGE);
  if (typeof limit === 'string') return limit;
  const offset = int('offset', 0, Number.MAX_SAFE_INTEGER, 0);
  if (typeof offset === 'string') return offset;
  return { limit, offset };
}

function badRequest(ex: Exchange, problems: BodyProblem[]): void {
  ex.error(400, problemMessage(problems));
}

/**
 * One request to the resources, after faults, auth and (clickstack) the organization/service check.
 * `rest` is the path below `/api/v2` or `.../clickstack`: `['dashboards']`, `['alerts', '<id>']`...
 */
export async function hxResource(cfg: HandlerConfig, store: HxStore, ex: Exchange, rest: string[], query: URLSearchParams): Promise<void> {
  const hyperdx = store.flavor === 'hyperdx';
  const f = flavored(cfg, ex, hyperdx, query);
  const [resource, idSeg, ...more] = rest;
  const notFound = () => ex.error(404, `not found: ${ex.method} ${ex.path}`);
  if (more.length > 0) return notFound();
  const id = idSeg === undefined ? undefined : decodeSegment(idSeg);
  const known = (x: string | undefined): x is string => x !== undefined && OBJECT_ID.test(x);

  const mutate = async (status: 'created' | 'changed', answer: () => void): Promise<void> => {
    if (!(await persist(cfg, ex))) return;
    if (status === 'created' && cfg.dropAfterCommit > 0 && cfg.dropRng.next() < cfg.dropAfterCommit) return ex.drop();
    answer();
  };
  const body = (): Promise<{ value: unknown } | undefined> => readJson(ex);
  const guard = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof SpecViolation) {
        badRequest(ex, err.problems);
        return undefined;
      }
      throw err;
    }
  };

  switch (resource) {
    case 'dashboards': {
      if (idSeg === undefined) {
        if (ex.method === 'GET') return f.list(store.dashboardList(), false);
        if (ex.method !== 'POST') return methodNotAllowed(ex, 'GET, POST');
        const b = await body();
        if (!b) return;
        const d = guard(() => store.createDashboard(b.value));
        if (!d) return;
        return mutate('created', () => f.ok(d));
      }
      if (idSeg === 'validate') {
        if (ex.method !== 'POST') return methodNotAllowed(ex, 'POST');
        const b = await body();
        if (!b) return;
        return f.validated(store.validateDashboard(b.value));
      }
      if (ex.method !== 'GET' && ex.method !== 'PUT' && ex.method !== 'DELETE') return methodNotAllowed(ex, 'GET, PUT, DELETE');
      if (!known(id) || !store.dashboard(id)) return ex.error(404, `Dashboard not found (${f.param.dashboard} ${id ?? idSeg})`);
      if (ex.method === 'GET') return f.ok(store.dashboard(id));
      if (ex.method === 'DELETE') {
        store.deleteDashboard(id);
        return mutate('changed', () => f.deleted());
      }
      const b = await body();
      if (!b) return;
      const d = guard(() => store.updateDashboard(id, b.value));
      if (!d) return;
      return mutate('changed', () => f.ok(d));
    }
    case 'alerts': {
      if (idSeg === undefined) {
        if (ex.method === 'GET') return f.list(store.alertList(), true);
        if (ex.method !== 'POST') return methodNotAllowed(ex, 'GET, POST');
        const b = await body();
        if (!b) return;
        const a = guard(() => store.createAlert(b.value));
        if (!a) return;
        return mutate('created', () => f.ok(a));
      }
      if (ex.method !== 'GET' && ex.method !== 'PUT' && ex.method !== 'DELETE') return methodNotAllowed(ex, 'GET, PUT, DELETE');
      if (!known(id) || !store.alert(id)) return ex.error(404, `Alert not found (${f.param.alert} ${id ?? idSeg})`);
      if (ex.method === 'GET') return f.ok(store.alert(id));
      if (ex.method === 'DELETE') {
        store.deleteAlert(id);
        return mutate('changed', () => f.deleted());
      }
      const b = await body();
      if (!b) return;
      const a = guard(() => store.updateAlert(id, b.value));
      if (!a) return;
      return mutate('changed', () => f.ok(a));
    }
    case 'sources': {
      if (ex.method !== 'GET') return methodNotAllowed(ex, 'GET');
      if (idSeg === undefined) return f.list(store.sourceList(), false);
      const s = store.sourceList().find((x) => x.id === id);
      if (!s) return ex.error(404, `Source not found (${f.param.source} ${id ?? idSeg})`);
      return f.ok(s);
    }
    case 'webhooks': {
      if (idSeg !== undefined) return notFound();
      if (ex.method !== 'GET') return methodNotAllowed(ex, 'GET');
      return f.list(store.webhookList(), true);
    }
    default:
      return notFound();
  }
}
