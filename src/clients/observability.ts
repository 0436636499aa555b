/**
 * Client of the observability API: the seed document 000 (list, get and create dashboards, update alerts)
 * and, by profile (src/clients/profiles.ts), HyperDX API v2 and ClickStack on ClickHouse Cloud (dashboards
 * and alerts read, created, updated, deleted; sources and webhooks listed). Success bodies (`{data}` or
 * `{status, requestId, result}`) are validated before they are returned.
 */
import { CliError } from '../errors.ts';
import { ApiResponseError } from './errors.ts';
import type { AlertUpdate, DashboardCreate, LiveAlert, LiveDashboard } from './api-types.ts';
import { createHttp, encodePath, type Http, type HttpOptions } from './http.ts';
import type { HttpMethod } from './errors.ts';
import { notFoundHint, profileHint } from './profile-hint.ts';
import { OBSERVABILITY_PROFILES, type ObservabilityProfile } from './profiles.ts';
import { checkResponse, type ResponseShape } from './validate.ts';
import { pushAll } from '../shared/arrays.ts';
import { digestWithoutRequestId, rememberBodyDigest } from './body-digest.ts';
import { lazyList, type LiveSummary } from './lazy-list.ts';

export type { AlertUpdate, DashboardCreate, LiveAlert, LiveDashboard } from './api-types.ts';
export type { AlertChannel, LiveAlertChannel, LiveSeries, LiveTile, SeriesCreate, TileCreate } from './api-types.ts';

export interface ObservabilityClientOptions extends Omit<HttpOptions, 'prefixUrl' | 'auth'> {
  /** Base URL of the service (`https://obs.example.com`); the profile's paths are appended. */
  url: string;
  /** The access token, sent as `Authorization: Bearer <token>` (seed, hyperdx). */
  token?: string;
  /** Which API the service speaks (default seed). */
  profile?: ObservabilityProfile;
  /** clickstack-cloud: Basic credentials and the ids in the path. */
  keyId?: string;
  keySecret?: string;
  organizationId?: string;
  serviceId?: string;
  /** A ready HTTP layer to use instead of building one (tests, sharing). `url`/credentials are then unused. */
  http?: Http;
  /**
   * Where `observability.api` is set in the project file, or where it would go (`steward.yaml:14:3`): named
   * by the hint a 404 on the dashboard list gets when another profile reads under another base path.
   */
  apiSetting?: string;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Options of the dashboard list. */
export interface ListDashboardsOptions extends CallOptions {
  /**
   * What the caller knows of a list body, by its digest (`<api>:<sha256>`, as bodyDigestOf gives it): its
   * dashboards' summaries, in order. When it answers, the body is not parsed: the list is made of stand-ins
   * (src/clients/lazy-list.ts) that parse it, with every check, only when something beyond the summary is read.
   */
  known?: (bodyDigest: string) => readonly LiveSummary[] | undefined;
}

/** A source or a webhook: what name resolution needs. */
export interface NamedObject {
  /** Optional in the services' specs (a source's id in HyperDX 2026-08): such an entry resolves no name. */
  id?: string;
  name?: string;
  [k: string]: unknown;
}

/** The service's answer to "is this dashboard valid?" (POST .../dashboards/validate). */
export interface DashboardValidation {
  valid: boolean;
  errors?: Array<{ path?: string; message?: string }>;
}

export interface ObservabilityClient {
  readonly profile: ObservabilityProfile;
  /**
   * Every dashboard in one request (`GET .../dashboards`): the plan reads live state with this alone.
   * @throws {ApiError} see `Http.request`.
   */
  listDashboards(opts?: ListDashboardsOptions): Promise<LiveDashboard[]>;
  /**
   * One dashboard (`GET .../dashboards/{id}`).
   * @throws {NotFoundError} when no dashboard has this id; other ApiErrors as `Http.request`.
   */
  getDashboard(id: string, opts?: CallOptions): Promise<LiveDashboard>;
  /**
   * Creates a dashboard (`POST .../dashboards`). Never retried: on a timeout, a dropped connection, a
   * 5xx or an unreadable 2xx body the ApiError has `outcomeUnknown: true`, and the caller must list
   * dashboards before sending it again.
   * @throws {ApiError} see `Http.request`.
   */
  createDashboard(body: DashboardCreate, opts?: CallOptions): Promise<LiveDashboard>;
  /** Replaces a dashboard (`PUT .../dashboards/{id}`); tiles keep the ids they are sent with. */
  updateDashboard(id: string, body: DashboardCreate, opts?: CallOptions): Promise<LiveDashboard>;
  /** Deletes a dashboard (`DELETE .../dashboards/{id}`). */
  deleteDashboard(id: string, opts?: CallOptions): Promise<void>;
  /** Asks the service whether a dashboard body is valid, saving nothing (`POST .../dashboards/validate`). */
  validateDashboard(body: DashboardCreate, opts?: CallOptions): Promise<DashboardValidation>;
  /**
   * Updates an alert (`PUT .../alerts/{id}`) with the full desired configuration; retried like a GET.
   * @throws {NotFoundError} when no alert has this id; other ApiErrors as `Http.request`.
   */
  updateAlert(id: string, body: AlertUpdate, opts?: CallOptions): Promise<LiveAlert>;
  /** Every alert, page by page (`GET .../alerts?limit&offset`). */
  listAlerts(opts?: CallOptions): Promise<LiveAlert[]>;
  /** Creates an alert (`POST .../alerts`); never retried, like a dashboard create. */
  createAlert(body: AlertUpdate, opts?: CallOptions): Promise<LiveAlert>;
  /** Deletes an alert (`DELETE .../alerts/{id}`). */
  deleteAlert(id: string, opts?: CallOptions): Promise<void>;
  /** Sources (`GET .../sources`), for `source: <name>` in tiles. */
  listSources(opts?: CallOptions): Promise<NamedObject[]>;
  /** Webhooks (`GET .../webhooks`, paged), for `webhook: <name>` in alerts. */
  listWebhooks(opts?: CallOptions): Promise<NamedObject[]>;
  /** The HTTP layer (for its `redact`). */
  readonly http: Http;
}

/**
 * Page size for the paged lists: the largest HyperDX 2026-08 allows (`limit` 1..1,000 on alerts and webhooks,
 * default 1,000). A smaller page only costs requests: 100 took ten reads (and ten chances for the list to move
 * between pages, which reads it all again) where the server answers a team's alerts in one. The no-total rule
 * below reads a page other than full as the last.
 */
const PAGE = 1000;
/** A paged list longer than this is refused rather than read for ever (a server that ignores offset). */
const MAX_PAGES = 10_000;
/** Reads of a paged list whose pages disagree on its total before steward gives up. */
const LIST_READS = 3;
/** Full pages read from a server that sends no total before steward gives up (10,000 items). */
const NO_TOTAL_PAGES = 10_000 / PAGE;

/** The ids of a page, in order, as one text to compare two reads of it. */
function idsOf(items: readonly unknown[]): string {
  return items.map((it) => (it as { id?: unknown } | null)?.id).join('\u0000');
}

/**
 * A whole list with each id once (the first listed; items without an id kept as they are). A server whose scan
 * returns a document twice, or a proxy that merges pages, showed one dashboard as two of its name: the check
 * for copies after a lost answer then kept it as the oldest and removed "the later copy", the same id, so the
 * only copy went (red team, duplicates round). Paged lists are kept once each as they are read (readPages).
 *
 * Two *different* items of one id in one answer are no copy: keeping the first dropped the other, and a plan
 * on that list created again the dashboard (or alert) it no longer saw, a duplicate on the service (red team,
 * round 14). Such a list is returned as `conflict`, which the caller refuses.
 */
function onceEach<T>(items: T[]): { list: T[]; conflict?: { id: string; first: T; other: T } } {
  const seen = new Map<string, T>();
  const out = items.filter((it) => {
    const id = (it as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return true;
    if (seen.has(id)) return false;
    seen.set(id, it);
    return true;
  });
  if (out.length === items.length) return { list: items };
  // Only the repeats are compared (as JSON text): a list without them costs nothing more.
  for (const it of items) {
    const id = (it as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') continue;
    const first = seen.get(id)!;
    if (first !== it && JSON.stringify(first) !== JSON.stringify(it)) return { list: out, conflict: { id, first, other: it } };
  }
  return { list: out };
}

/**
 * How an item of a list is named in a message: its name, redacted before it is cut short (a credential cut
 * would keep its start), quoted; escaped where it is printed.
 */
function shownName(it: unknown, redact: (text: string) => string): string {
  const raw = (it as { name?: unknown } | null)?.name;
  if (typeof raw !== 'string') return '(no name)';
  const name = redact(raw);
  return JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);
}

/** Creates the observability client. */
export function createObservabilityClient(opts: ObservabilityClientOptions): ObservabilityClient {
  const profile = opts.profile ?? OBSERVABILITY_PROFILES.seed;
  const http = opts.http ?? buildHttp(opts, profile);
  const result = profile.envelope === 'result';
  const base = profile.base
    .replace('{organizationId}', encodeURIComponent(opts.organizationId ?? ''))
    .replace('{serviceId}', encodeURIComponent(opts.serviceId ?? ''));
  const shape = (kind: 'dashboards' | 'dashboard' | 'alert' | 'alerts' | 'named' | 'any'): ResponseShape =>
    (result ? `clickstack.${kind}` : `observability.${kind}`) as ResponseShape;

  async function call<T>(kind: Parameters<typeof shape>[0], method: HttpMethod, path: string, json: unknown, o: CallOptions | undefined): Promise<T> {
    const res = await http.request<{ data?: T; result?: T }>({
      method,
      path: base + path,
      json,
      signal: o?.signal,
      validate: (body) => checkResponse(shape(kind), body),
    });
    const body = res.body as { data?: T; result?: T } | undefined;
    return (result ? body?.result : body?.data) as T;
  }

  /**
   * A list the service gives whole. Where it answers `meta.total` above what it sent (a server that pages,
   * as ClickStack's did in a real-server audit), the list is refused: a plan on a partial list would create
   * what it hides (a duplicate on apply), so every list steward plans on is whole or an error.
   */
  async function listWhole<T extends object>(
    kind: 'dashboards' | 'named',
    path: string,
    what: string,
    o: (CallOptions & Pick<ListDashboardsOptions, 'known'>) | undefined,
  ): Promise<T[]> {
    const tagged = (digest: string) => `${profile.api}:${digest}`;
    let summaries: readonly LiveSummary[] | undefined;
    const known = o?.known;
    // A `result` envelope carries a new requestId in every answer: set aside, so the same list is known again.
    const digest = result ? digestWithoutRequestId : true;
    const res = await getList<T>(kind, path, '', o, digest, known && ((d) => (summaries = known(tagged(d))) !== undefined));
    const whole = (body: { data?: T[]; result?: T[]; meta?: { total?: unknown } }) => {
      const list = (result ? body.result : body.data) ?? [];
      refusePartial(path, what, list.length, body.meta?.total, res.status);
      const once = onceEach(list);
      if (once.conflict && kind === 'dashboards') throw conflictError(path, what, res.status, once.conflict);
      return once.list;
    };
    const list = res.parse && summaries ? lazyList(summaries, () => whole(res.parse!())) : whole(res.body);
    if (res.digest) rememberBodyDigest(list, tagged(res.digest));
    return list;
  }

  /** One GET of a list (a page of it, with `query`), its body checked. */
  function getList<T>(
    kind: 'dashboards' | 'alerts' | 'named',
    path: string,
    query: string,
    o: CallOptions | undefined,
    digest: boolean | ((body: Buffer) => string) = false,
    deferParse?: (digest: string) => boolean,
  ) {
    return http.request<{ data?: T[]; result?: T[]; meta?: { total?: unknown } }>({
      method: 'GET',
      path: `${base}${path}${query}`,
      signal: o?.signal,
      validate: (body) => checkResponse(shape(kind), body),
      digest,
      deferParse,
    });
  }

  /** Why a list read cannot be planned on: `GET <path>: <message>`, the problem under `meta.total`. */
  function listError(path: string, status: number, message: string, problem: string): ApiResponseError {
    return new ApiResponseError(`GET ${base}${path}: ${message}`, {
      method: 'GET',
      path: base + path,
      host: http.host,
      status,
      problems: [{ field: 'meta.total', message: problem }],
    });
  }

  /** Two different items of one id in one answer (onceEach): steward cannot tell which one the service has. */
  function conflictError(path: string, what: string, status: number, c: { id: string; first: unknown; other: unknown }): ApiResponseError {
    return listError(
      path,
      status,
      `the service listed two different ${what} with the id ${JSON.stringify(c.id)} (${shownName(c.first, http.redact)} and ${shownName(c.other, http.redact)}); steward will not plan on a list it cannot read one way (it would create again the one it set aside)`,
      'two items of one id',
    );
  }

  /** An ApiResponseError when `total` (the server's `meta.total`) says there are more than `listed`. */
  function refusePartial(path: string, what: string, listed: number, total: unknown, status: number): void {
    if (typeof total !== 'number' || total <= listed) return;
    throw listError(
      path,
      status,
      `the service listed ${listed} of ${total} ${what}; refusing to plan on a partial list (steward needs the whole list in one response)`,
      'partial list',
    );
  }

  /**
   * The first read of every command. A 404 there names the profiles that read under another base path: a
   * server of another API has no such path (ClickHouse Cloud at `/api/v2`, HyperDX at `/v1/.../clickstack`).
   */
  async function listDashboards(o: ListDashboardsOptions | undefined): Promise<LiveDashboard[]> {
    try {
      return await listWhole<LiveDashboard>('dashboards', '/dashboards', 'dashboards', o);
    } catch (e) {
      const others = Object.values(OBSERVABILITY_PROFILES).filter((p) => p.base !== profile.base);
      throw notFoundHint(e, profileHint({ setting: 'observability.api', where: opts.apiSetting, current: profile, others }));
    }
  }

  /** Reads a list page by page where the server pages it (`meta.total`), in one request where it does not. */
  async function listPaged<T>(kind: 'alerts' | 'named', path: string, what: string, o: CallOptions | undefined): Promise<T[]> {
    // A list read page by page while someone deletes an item before the page boundary skips an item and
    // still adds up (red team, round 8): the pages must agree on the total, or the list is read again.
    for (let read = 1; ; read++) {
      const pages = await readPages<T>(kind, path, what, o);
      if (pages.consistent) return pages.out;
      if (read >= LIST_READS) {
        const how =
          pages.firstTotal === pages.lastTotal ? 'its first page changed' : `its total went from ${String(pages.firstTotal)} to ${String(pages.lastTotal)}`;
        throw listError(
          path,
          200,
          `the list changed while it was read, ${LIST_READS} times (${how}); steward will not plan on it (it would create duplicates): run again when the service is quieter`,
          'list changed while read',
        );
      }
    }
  }

  async function readPages<T>(
    kind: 'alerts' | 'named',
    path: string,
    what: string,
    o: CallOptions | undefined,
  ): Promise<{ out: T[]; consistent: boolean; firstTotal?: unknown; lastTotal?: unknown }> {
    const out: T[] = [];
    const seen = new Set<string>();
    let firstTotal: unknown;
    let firstIds = '';
    const fetchPage = (offset: number) => getList<T>(kind, path, result ? '' : `?limit=${PAGE}&offset=${offset}`, o);
    // Read over several pages: page one read again must be what it was. An item deleted before the boundary
    // and another created keep the total, and still slide one item past the reader (red team, round 9).
    const settled = async (page: number) => {
      if (page === 0) return { out, consistent: true };
      const again = await fetchPage(0);
      return { out, consistent: idsOf(again.body.data ?? []) === firstIds, firstTotal, lastTotal: again.body.meta?.total };
    };
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await fetchPage(out.length);
      const items = (result ? res.body.result : res.body.data) ?? [];
      // Two different alerts of one id in one answer: one would be set aside and created again (onceEach).
      // Across pages a repeat is an item that moved while the list was read, which `settled` deals with.
      if (kind === 'alerts') {
        const conflict = onceEach(items).conflict;
        if (conflict) throw conflictError(path, what, res.status, conflict);
      }
      if (page === 0) firstIds = idsOf(items);
      // A server that ignores `offset` (or whose `meta.total` overstates the list) answers every page with
      // items already read: keep each id (or, without one, each identical item) once, and stop at a page that brings nothing new, rather than
      // reading the same page `total / limit` times and seeing one webhook as many.
      const fresh = items.filter((it) => {
        const id = (it as { id?: unknown } | null)?.id;
        const key = typeof id === 'string' ? `id:${id}` : JSON.stringify(it);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      pushAll(out, fresh);
      const total = res.body.meta?.total;
      if (page === 0) firstTotal = total;
      else if (total !== firstTotal) return { out, consistent: false, firstTotal, lastTotal: total };
      // Where lists are not paged (ClickStack), one answer is the whole list, or short of its total: refused.
      if (result) {
        refusePartial(path, what, out.length, total, res.status);
        return { out, consistent: true };
      }
      // Without a total, a page other than full is the last one (shorter, or longer: limit not honoured); a
      // full page may have more behind it: read on.
      if (typeof total !== 'number') {
        if (items.length !== PAGE) return settled(page);
        // A limit-honouring server without totals is read to its end, but not for ever: 10,000 items.
        if (page + 1 >= NO_TOTAL_PAGES) {
          throw listError(
            path,
            res.status,
            `more than ${NO_TOTAL_PAGES} full pages and no total; steward will not plan on a list it cannot see the end of`,
            'too many pages without a total',
          );
        }
        if (fresh.length > 0) continue;
        // A full page repeated with no total: for alerts, a server that honours limit and not offset, whose
        // list may go on (red team, round 9); refused below. Sources and webhooks take it (a name it lacks is
        // a file problem, never a write).
        if (kind === 'named') return settled(page);
      } else if (out.length >= total) return settled(page);
      // A server that ignores offset answers page two with page one (the 2026-08 spec's own webhook example
      // does). For sources and webhooks that one page is taken: a name it lacks is a file problem, never a
      // write. For alerts only when page one was not a full page of `limit` (the server does not page by it:
      // page one was all it had); a full page repeated is a server that honours limit and not offset, whose
      // list goes on (red team, round 8: every alert past the first 100 was planned as a create).
      if (fresh.length === 0 && page === 1 && items.length > 0 && (kind === 'named' || items.length !== PAGE)) return { out, consistent: true };
      if (fresh.length === 0) {
        // A server that pages forward and then stops short of its total, answers an empty page, or ignores
        // offset (page two repeats page one) hides items: a plan on that list would create duplicates.
        throw listError(
          path,
          res.status,
          `the server said ${typeof total === 'number' ? total : 'no total'} but its pages gave ${out.length} before ${items.length === 0 ? 'an empty page' : 'repeating themselves'}; steward will not plan on an incomplete list (it would create duplicates)`,
          'incomplete paged list',
        );
      }
    }
    throw listError(path, 200, `more than ${MAX_PAGES} pages`, 'too many pages');
  }

  return {
    http,
    profile,
    listDashboards,
    getDashboard: (id, o) => call<LiveDashboard>('dashboard', 'GET', encodePath`/dashboards/${id}`, undefined, o),
    createDashboard: (body, o) => call<LiveDashboard>('dashboard', 'POST', '/dashboards', body, o),
    updateDashboard: (id, body, o) => call<LiveDashboard>('dashboard', 'PUT', encodePath`/dashboards/${id}`, body, o),
    deleteDashboard: async (id, o) => {
      await call<unknown>('any', 'DELETE', encodePath`/dashboards/${id}`, undefined, o);
    },
    validateDashboard: async (body, o) => {
      const res = await http.request<DashboardValidation | { result?: DashboardValidation }>({
        method: 'POST',
        path: `${base}/dashboards/validate`,
        json: body,
        // "The dashboard is never persisted" (both specs): a 5xx is tried again, and no error says it may have applied.
        readOnly: true,
        signal: o?.signal,
        validate: (b) => checkResponse('observability.validation', result ? (b as { result?: unknown })?.result : b),
      });
      return (result ? (res.body as { result: DashboardValidation }).result : res.body) as DashboardValidation;
    },
    updateAlert: (id, body, o) => call<LiveAlert>('alert', 'PUT', encodePath`/alerts/${id}`, body, o),
    listAlerts: (o) => listPaged<LiveAlert>('alerts', '/alerts', 'alerts', o),
    createAlert: (body, o) => call<LiveAlert>('alert', 'POST', '/alerts', body, o),
    deleteAlert: async (id, o) => {
      await call<unknown>('any', 'DELETE', encodePath`/alerts/${id}`, undefined, o);
    },
    listSources: (o) => listWhole<NamedObject>('named', '/sources', 'sources', o),
    listWebhooks: (o) => listPaged<NamedObject>('named', '/webhooks', 'webhooks', o),
  };
}

function buildHttp(opts: ObservabilityClientOptions, profile: ObservabilityProfile): Http {
  const { url, token, http: _unused, profile: _p, keyId, keySecret, organizationId: _o, serviceId: _s, apiSetting: _w, ...rest } = opts;
  if (profile.auth === 'basic') {
    if (!keyId || !keySecret) {
      throw new CliError(`no ClickHouse Cloud key given for the observability API: set ${opts.credentialHint ?? 'keyId and keySecret'}`, { code: 'config' });
    }
    return createHttp({ ...rest, prefixUrl: url, auth: { type: 'basic', username: keyId, password: keySecret } });
  }
  if (typeof token !== 'string' || token === '') {
    throw new CliError(`no observability token given: set ${opts.credentialHint ?? 'the token'}`, { code: 'config' });
  }
  return createHttp({ ...rest, prefixUrl: url, auth: { type: 'bearer', token } });
}
