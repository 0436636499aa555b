/**
 * Client of the observability API (seeds/000): list, get and create dashboards, update alerts.
 * Bearer authentication; success bodies are `{data: …}` and are validated before they are returned.
 */
import { CliError } from '../errors.ts';
import { ApiResponseError } from './errors.ts';
import type { AlertUpdate, DashboardCreate, LiveAlert, LiveDashboard } from './api-types.ts';
import { createHttp, encodePath, type Http, type HttpOptions } from './http.ts';
import { checkResponse, type ResponseShape } from './validate.ts';

export type { AlertUpdate, DashboardCreate, LiveAlert, LiveDashboard } from './api-types.ts';
export type {
  AlertChannel,
  LiveAlertChannel,
  LiveSeries,
  LiveTile,
  SeriesCreate,
  TileCreate,
} from './api-types.ts';

export interface ObservabilityClientOptions extends Omit<HttpOptions, 'prefixUrl' | 'auth'> {
  /** Base URL of the service (`https://obs.example.com`); paths `/api/v2/...` are appended. */
  url: string;
  /** The access token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /** A ready HTTP layer to use instead of building one (tests, sharing). `url`/`token` are then unused. */
  http?: Http;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

export interface ObservabilityClient {
  /**
   * Every dashboard in one request (`GET /api/v2/dashboards`): the plan reads live state with this alone.
   * @throws {ApiError} see `Http.request`.
   */
  listDashboards(opts?: CallOptions): Promise<LiveDashboard[]>;
  /**
   * One dashboard (`GET /api/v2/dashboards/{id}`).
   * @throws {NotFoundError} when no dashboard has this id; other ApiErrors as `Http.request`.
   */
  getDashboard(id: string, opts?: CallOptions): Promise<LiveDashboard>;
  /**
   * Creates a dashboard (`POST /api/v2/dashboards`). Never retried: on a timeout, a dropped connection, a
   * 5xx or an unreadable 2xx body the ApiError has `outcomeUnknown: true`, and the caller must list
   * dashboards before sending it again.
   * @throws {ApiError} see `Http.request`.
   */
  createDashboard(body: DashboardCreate, opts?: CallOptions): Promise<LiveDashboard>;
  /**
   * Updates an alert (`PUT /api/v2/alerts/{id}`) with the full desired configuration; retried like a GET.
   * @throws {NotFoundError} when no alert has this id; other ApiErrors as `Http.request`.
   */
  updateAlert(id: string, body: AlertUpdate, opts?: CallOptions): Promise<LiveAlert>;
  /** The HTTP layer (for its `redact`). */
  readonly http: Http;
}

/** Creates the observability client. */
export function createObservabilityClient(opts: ObservabilityClientOptions): ObservabilityClient {
  const http = opts.http ?? buildHttp(opts);

  async function call<T>(
    shape: ResponseShape,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    json: unknown,
    o: CallOptions | undefined,
  ): Promise<T> {
    const res = await http.request<{ data: T }>({
      method,
      path,
      json,
      signal: o?.signal,
      validate: (body) => checkResponse(shape, body),
    });
    return res.body.data;
  }

  async function listDashboards(o: CallOptions | undefined): Promise<LiveDashboard[]> {
    const path = '/api/v2/dashboards';
    const res = await http.request<{ data: LiveDashboard[]; meta?: unknown }>({
      method: 'GET',
      path,
      signal: o?.signal,
      validate: (body) => checkResponse('observability.dashboards', body),
    });
    // The contract's list is not paged. A server that pages (newer APIs answer `meta: {total, limit,
    // offset}`) would hide dashboards from the plan, which would then create duplicates: refuse instead.
    const total = (res.body.meta as { total?: unknown } | undefined)?.total;
    if (typeof total === 'number' && total > res.body.data.length) {
      throw new ApiResponseError(
        `GET ${path}: the server returned ${res.body.data.length} of ${total} dashboards (a paged list); steward needs the whole list in one response`,
        { method: 'GET', path, host: http.host, status: res.status, problems: [{ field: 'meta.total', message: 'paged list' }] },
      );
    }
    return res.body.data;
  }

  return {
    http,
    listDashboards,
    getDashboard: (id, o) =>
      call<LiveDashboard>('observability.dashboard', 'GET', encodePath`/api/v2/dashboards/${id}`, undefined, o),
    createDashboard: (body, o) => call<LiveDashboard>('observability.dashboard', 'POST', '/api/v2/dashboards', body, o),
    updateAlert: (id, body, o) =>
      call<LiveAlert>('observability.alert', 'PUT', encodePath`/api/v2/alerts/${id}`, body, o),
  };
}

function buildHttp(opts: ObservabilityClientOptions): Http {
  if (typeof opts.token !== 'string' || opts.token === '') {
    throw new CliError(`no observability token given: set ${opts.credentialHint ?? 'the token'}`, { code: 'config' });
  }
  const { url, token, http: _unused, ...rest } = opts;
  return createHttp({ ...rest, prefixUrl: url, auth: { type: 'bearer', token } });
}
