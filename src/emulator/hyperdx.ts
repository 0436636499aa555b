/**
 * The `hyperdx` and `clickstack-cloud` profiles' data: dashboards in the `config` form, alerts with
 * `channels`, sources and webhooks, as HyperDX's external API v2 of 2026-08-21 answers them (and ClickHouse
 * Cloud's ClickStack paths, which proxy the same resources). Bodies are checked against the vendored spec in
 * `spec-validate.ts`; this file holds the rules the spec states in prose (sources that must exist, tile alerts
 * that need a tile, `thresholdMax` for ranges) and the state.
 */
import { type BodyProblem, bodyProblems, type SpecName } from './spec-validate.ts';
import { EmulatorError, resolveTime } from './seed.ts';
import type { JsonObject, JsonValue } from './types.ts';

export type Flavor = 'hyperdx' | 'clickstack';

/** A request the profile refuses with 400 (the problems say where). */
export class SpecViolation extends Error {
  constructor(readonly problems: BodyProblem[]) {
    super(problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message)).join('; '));
    this.name = 'SpecViolation';
  }
}

/** Dashboard as answered: `{id, name, tiles, tags, filters, ...}` (tiles with `id` and `config`). */
export type HxDashboard = JsonObject & { id: string; name: string; tiles: HxTile[]; tags: string[]; filters: JsonObject[] };
export type HxTile = JsonObject & { id: string; name: string };
/** Alert as answered (members without a value left out). */
export type HxAlert = JsonObject & { id: string; state: string; teamId: string; createdAt: string; updatedAt: string };
export type HxSource = JsonObject & { id: string; name: string; kind: string };
export type HxWebhook = JsonObject & { id: string; name: string; service: string; createdAt: string; updatedAt: string };

/** What a `hyperdx` or `clickstack-cloud` emulator holds (`GET /__emulator/state`, `emu.state()`). */
export interface HyperdxState {
  api: 'hyperdx' | 'clickstack-cloud';
  dashboards: HxDashboard[];
  alerts: HxAlert[];
  sources: HxSource[];
  webhooks: HxWebhook[];
  /** The cloud data (pipes, endpoints, backups), as in the seed profile. */
  organizations: import('./types.ts').OrganizationState[];
  /** Where the ClickStack paths live (clickstack-cloud; the default seed's prod-warehouse otherwise too). */
  clickstack: { organizationId: string; serviceId: string } | undefined;
}

/** Seed data of the `hyperdx` / `clickstack-cloud` profiles (`--data`): every list optional. */
export interface HyperdxSeedData {
  sources?: JsonObject[];
  webhooks?: JsonObject[];
  alerts?: JsonObject[];
  dashboards?: JsonObject[];
  organizations?: import('./types.ts').SeedOrganization[];
}

const OBJECT_ID = /^[0-9a-f]{24}$/;
export const HX_TEAM_ID = '65f5e4a3b9e77c001a0000bb';
export const HX_CONNECTION_ID = '65f5e4a3b9e77c001a0000cc';
export const HX_SOURCE_IDS = { Logs: '65f5e4a3b9e77c001a0001a1', Traces: '65f5e4a3b9e77c001a0001a2', Metrics: '65f5e4a3b9e77c001a0001a3' } as const;
export const HX_WEBHOOK_IDS = { 'ops-pager': '65f5e4a3b9e77c001a0002b1', 'slack-sre': '65f5e4a3b9e77c001a0002b2' } as const;
export const HX_ALERT_IDS = { 'Error spike (saved search)': '65f5e4a3b9e77c001a0003c1', 'Slow requests (saved search)': '65f5e4a3b9e77c001a0003c2' } as const;

/** Tiles an alert may be bound to (the spec: "Must be a line, stacked bar, or number type tile"). */
const ALERTABLE_DISPLAY_TYPES = new Set(['line', 'stacked_bar', 'number']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

/**
 * A deprecated `series` tile as the `config` it stands for: time series become `line` (or `stacked_bar` when
 * the series says so), `table`, `number`, `search` and `markdown` keep their kind; series members map to
 * `select` items (`field` is the `valueExpression`, `metricDataType` the `metricType`), `groupBy` lists join
 * with ", ".
 */
export function seriesToConfig(series: JsonObject[], asRatio: boolean | undefined): JsonObject {
  const first = series[0] ?? {};
  const type = String(first['type'] ?? 'time');
  if (type === 'markdown') return { displayType: 'markdown', markdown: String(first['content'] ?? '') };
  if (type === 'search') {
    const fields = Array.isArray(first['fields']) ? (first['fields'] as JsonValue[]).map(String) : [];
    const out: JsonObject = {
      displayType: 'search',
      sourceId: String(first['sourceId'] ?? ''),
      select: fields.join(', '),
      where: String(first['where'] ?? ''),
    };
    out['whereLanguage'] = (first['whereLanguage'] as JsonValue) ?? 'lucene';
    return out;
  }
  const select = series.map((s) => {
    const item: JsonObject = { aggFn: s['aggFn'] ?? 'count' };
    if (s['field'] !== undefined) item['valueExpression'] = s['field']!;
    if (s['alias'] !== undefined) item['alias'] = s['alias']!;
    if (s['level'] !== undefined) item['level'] = s['level']!;
    item['where'] = s['where'] ?? '';
    if (s['whereLanguage'] !== undefined) item['whereLanguage'] = s['whereLanguage']!;
    if (s['metricName'] !== undefined) item['metricName'] = s['metricName']!;
    if (s['metricDataType'] !== undefined) item['metricType'] = s['metricDataType']!;
    return item;
  });
  const displayType = type === 'time' ? (first['displayType'] === 'stacked_bar' ? 'stacked_bar' : 'line') : type;
  const config: JsonObject = { displayType, sourceId: String(first['sourceId'] ?? ''), select };
  const groupBy = Array.isArray(first['groupBy']) ? (first['groupBy'] as JsonValue[]).map(String) : [];
  if (groupBy.length > 0 && displayType !== 'number') config['groupBy'] = groupBy.join(', ');
  if (first['numberFormat'] !== undefined) config['numberFormat'] = first['numberFormat']!;
  if (type === 'table' && first['sortOrder'] !== undefined)
    config['orderBy'] = `${String(first['aggFn'] ?? 'count')} ${String(first['sortOrder']).toUpperCase()}`;
  if (asRatio !== undefined && displayType !== 'number') config['asRatio'] = asRatio;
  return config;
}

/** Every `sourceId` a dashboard body names (tiles' config and series, filters). */
function sourceIdsOf(body: Record<string, unknown>): string[] {
  const ids = new Set<string>();
  for (const t of Array.isArray(body['tiles']) ? body['tiles'] : []) {
    if (!isObject(t)) continue;
    const c = t['config'];
    if (isObject(c) && typeof c['sourceId'] === 'string') ids.add(c['sourceId']);
    for (const s of Array.isArray(t['series']) ? t['series'] : []) if (isObject(s) && typeof s['sourceId'] === 'string') ids.add(s['sourceId']);
  }
  for (const f of Array.isArray(body['filters']) ? body['filters'] : []) if (isObject(f) && typeof f['sourceId'] === 'string') ids.add(f['sourceId']);
  return [...ids];
}

const DASHBOARD_OPTIONAL = ['savedQuery', 'savedQueryLanguage', 'savedFilterValues', 'containers'] as const;
const TILE_KEYS = ['name', 'x', 'y', 'w', 'h', 'config', 'containerId', 'tabId'] as const;

const ALERT_REQUEST_KEYS = [
  'name',
  'message',
  'note',
  'threshold',
  'thresholdMax',
  'interval',
  'scheduleOffsetMinutes',
  'scheduleStartAt',
  'source',
  'thresholdType',
  'numConsecutiveWindows',
  'dashboardId',
  'tileId',
  'savedSearchId',
  'groupBy',
  'channel',
  'channels',
] as const;
const ALERT_ANSWER_ORDER = ['id', ...ALERT_REQUEST_KEYS, 'state', 'teamId', 'silenced', 'executionErrors', 'createdAt', 'updatedAt'];

function orderAlert(a: Record<string, unknown>): HxAlert {
  const out: Record<string, unknown> = {};
  for (const k of ALERT_ANSWER_ORDER) if (a[k] !== undefined) out[k] = a[k];
  return out as HxAlert;
}

export interface HxStoreOptions {
  flavor: Flavor;
  newId: () => string;
  now: () => Date;
}

/** The state of a `hyperdx` / `clickstack-cloud` emulator, with the baseline `reset()` returns to. */
export class HxStore {
  private dashboards = new Map<string, HxDashboard>();
  private alerts = new Map<string, HxAlert>();
  private sources: HxSource[] = [];
  private webhooks: HxWebhook[] = [];
  private readonly ids = new Set<string>();

  constructor(
    private readonly baseline: { dashboards: HxDashboard[]; alerts: HxAlert[]; sources: HxSource[]; webhooks: HxWebhook[] },
    private readonly opts: HxStoreOptions,
  ) {
    this.load(baseline);
  }

  get flavor(): Flavor {
    return this.opts.flavor;
  }

  private get spec(): SpecName {
    return this.opts.flavor === 'hyperdx' ? 'hyperdx' : 'clickstack';
  }

  private schema(name: 'CreateDashboardRequest' | 'UpdateDashboardRequest' | 'CreateAlertRequest' | 'UpdateAlertRequest'): string {
    return this.opts.flavor === 'hyperdx' ? name : `ClickStack${name}`;
  }

  /** Replaces dashboards and alerts (start, reset, a persisted file); sources and webhooks come from the seed. */
  load(state: { dashboards: HxDashboard[]; alerts: HxAlert[] }): void {
    this.dashboards = new Map(state.dashboards.map((d) => [d.id, clone(d)]));
    this.alerts = new Map(state.alerts.map((a) => [a.id, orderAlert(clone(a))]));
    this.sources = clone(this.baseline.sources);
    this.webhooks = clone(this.baseline.webhooks);
    this.ids.clear();
    for (const d of this.dashboards.values()) {
      this.ids.add(d.id);
      for (const t of d.tiles) this.ids.add(t.id);
      for (const f of d.filters) this.ids.add(String(f['id']));
    }
    for (const x of [...this.alerts.keys(), ...this.sources.map((s) => s.id), ...this.webhooks.map((w) => w.id)]) this.ids.add(x);
  }

  reset(): void {
    this.load(this.baseline);
  }

  private freshId(): string {
    let id = this.opts.newId();
    while (this.ids.has(id)) id = this.opts.newId();
    this.ids.add(id);
    return id;
  }

  // --- dashboards -------------------------------------------------------------------------------------------

  /**
   * The problems of a dashboard body: the spec's schema, then the rules its prose states (sources must exist,
   * a tile's container must exist). Empty when the body is fine.
   */
  dashboardProblems(body: unknown, update: boolean): BodyProblem[] {
    const problems = bodyProblems(this.spec, this.schema(update ? 'UpdateDashboardRequest' : 'CreateDashboardRequest'), body);
    if (problems.length > 0 || !isObject(body)) return problems;
    const known = new Set(this.sources.map((s) => s.id));
    const missing = sourceIdsOf(body).filter((id) => !known.has(id));
    if (missing.length > 0) return [{ path: '', message: `Could not find the following source IDs: ${missing.join(', ')}`, rule: true }];
    const kinds = new Map(this.sources.map((s) => [s.id, s.kind]));
    const heatmapOff = (Array.isArray(body['tiles']) ? body['tiles'] : [])
      .map((t) => (isObject(t) && isObject(t['config']) && t['config']['displayType'] === 'heatmap' ? t['config']['sourceId'] : undefined))
      .filter((id): id is string => typeof id === 'string' && kinds.get(id) !== 'trace');
    if (heatmapOff.length > 0) {
      return [
        {
          path: '',
          message: `Heatmap tiles require a Trace source. The following source IDs are not Trace sources: ${[...new Set(heatmapOff)].join(', ')}`,
          rule: true,
        },
      ];
    }
    const containers = new Set((Array.isArray(body['containers']) ? body['containers'] : []).map((c) => (isObject(c) ? c['id'] : undefined)));
    const tiles = Array.isArray(body['tiles']) ? body['tiles'] : [];
    for (const [i, t] of tiles.entries()) {
      if (isObject(t) && typeof t['containerId'] === 'string' && !containers.has(t['containerId'])) {
        return [{ path: `tiles.${i}.containerId`, message: `no container has the id ${t['containerId']}`, rule: true }];
      }
      if (isObject(t) && t['config'] !== undefined && t['series'] !== undefined) {
        return [{ path: `tiles.${i}`, message: 'send either config or series, not both', rule: true }];
      }
    }
    if (update) {
      const seen = new Set<string>();
      for (const [i, t] of tiles.entries()) {
        const id = isObject(t) ? t['id'] : undefined;
        if (typeof id !== 'string') continue;
        if (seen.has(id)) return [{ path: `tiles.${i}.id`, message: `tile id ${id} appears twice`, rule: true }];
        seen.add(id);
      }
    }
    return [];
  }

  /** The dashboard a valid body describes, without its id (tile and filter ids kept when `keepIds`). */
  private normalize(body: Record<string, unknown>, keepIds: boolean, assign: boolean): Omit<HxDashboard, 'id'> {
    const tiles = (body['tiles'] as Record<string, unknown>[]).map((t) => {
      const out: JsonObject = {};
      const id = keepIds && typeof t['id'] === 'string' ? t['id'] : assign ? this.freshId() : undefined;
      if (id !== undefined) {
        out['id'] = id;
        this.ids.add(id);
      }
      for (const k of TILE_KEYS) if (t[k] !== undefined && k !== 'config') out[k] = clone(t[k]) as JsonValue;
      if (t['config'] !== undefined) out['config'] = clone(t['config']) as JsonObject;
      else if (Array.isArray(t['series'])) out['config'] = seriesToConfig(t['series'] as JsonObject[], t['asRatio'] as boolean | undefined);
      const ordered: JsonObject = {};
      for (const k of ['id', ...TILE_KEYS]) if (out[k] !== undefined) ordered[k] = out[k]!;
      return ordered as HxTile;
    });
    const filters = ((body['filters'] as Record<string, unknown>[] | undefined) ?? []).map((f) => {
      const id = keepIds && typeof f['id'] === 'string' ? f['id'] : assign ? this.freshId() : undefined;
      const out: JsonObject = id === undefined ? {} : { id };
      for (const [k, v] of Object.entries(f)) if (k !== 'id') out[k] = clone(v) as JsonValue;
      return out;
    });
    const d: JsonObject = { name: body['name'] as string, tiles, tags: clone((body['tags'] as string[] | undefined) ?? []), filters };
    for (const k of DASHBOARD_OPTIONAL) if (body[k] !== undefined) d[k] = clone(body[k]) as JsonValue;
    return d as Omit<HxDashboard, 'id'>;
  }

  /** `POST .../dashboards/validate`: the answer `{valid, errors, normalized}`; nothing is stored. */
  validateDashboard(body: unknown): { valid: boolean; errors: BodyProblem[]; normalized: JsonObject | null } {
    const errors = this.dashboardProblems(body, false);
    if (errors.length > 0) return { valid: false, errors, normalized: null };
    return { valid: true, errors: [], normalized: this.normalize(body as Record<string, unknown>, false, false) as JsonObject };
  }

  /** @throws SpecViolation */
  createDashboard(body: unknown): HxDashboard {
    const problems = this.dashboardProblems(body, false);
    if (problems.length > 0) throw new SpecViolation(problems);
    const id = this.freshId();
    const d = { id, ...this.normalize(body as Record<string, unknown>, false, true) } as HxDashboard;
    this.dashboards.set(id, d);
    return clone(d);
  }

  /**
   * Replaces a dashboard. Tiles keep the ids they are sent with; tiles without one get a new id. Alerts bound to
   * a tile that is no longer on the dashboard are deleted with it, as HyperDX does.
   * @throws SpecViolation
   */
  updateDashboard(id: string, body: unknown): HxDashboard | undefined {
    if (!this.dashboards.has(id)) return undefined;
    const problems = this.dashboardProblems(body, true);
    if (problems.length > 0) throw new SpecViolation(problems);
    const d = { id, ...this.normalize(body as Record<string, unknown>, true, true) } as HxDashboard;
    this.dashboards.set(id, d);
    const tileIds = new Set(d.tiles.map((t) => t.id));
    for (const a of [...this.alerts.values()]) if (a['dashboardId'] === id && !tileIds.has(String(a['tileId']))) this.alerts.delete(a.id);
    return clone(d);
  }

  /** Deletes a dashboard and the alerts bound to it (HyperDX deletes them together). */
  deleteDashboard(id: string): boolean {
    if (!this.dashboards.delete(id)) return false;
    for (const a of [...this.alerts.values()]) if (a['dashboardId'] === id) this.alerts.delete(a.id);
    return true;
  }

  dashboard(id: string): HxDashboard | undefined {
    const d = this.dashboards.get(id);
    return d && clone(d);
  }

  dashboardList(): HxDashboard[] {
    return [...this.dashboards.values()].map(clone);
  }

  dashboardCount(): number {
    return this.dashboards.size;
  }

  // --- alerts -----------------------------------------------------------------------------------------------

  /**
   * The problems of an alert body: the spec's schema, then what its prose says (a tile alert names a dashboard
   * and a line, stacked_bar or number tile on it; a saved-search alert names the search; `between` and
   * `not_between` need `thresholdMax >= threshold`; channels name existing webhooks, without duplicates). The
   * ClickStack spec marks no member required; the HyperDX server behind it needs threshold, interval and
   * thresholdType, and a channel, so the emulator asks for them under both profiles.
   */
  alertProblems(body: unknown, update: boolean): BodyProblem[] {
    const problems = bodyProblems(this.spec, this.schema(update ? 'UpdateAlertRequest' : 'CreateAlertRequest'), body);
    if (problems.length > 0 || !isObject(body)) return problems;
    for (const k of ['threshold', 'interval', 'thresholdType'] as const) if (body[k] === undefined) return [{ path: k, message: 'Required', rule: true }];
    const channels = this.channelsOf(body);
    if (channels.length === 0) return [{ path: this.opts.flavor === 'hyperdx' ? 'channels' : 'channel', message: 'Required', rule: true }];
    const webhookIds = new Set(this.webhooks.map((w) => w.id));
    const seen = new Set<string>();
    for (const [i, c] of channels.entries()) {
      const where = body['channels'] !== undefined ? `channels.${i}` : 'channel';
      if (c['type'] === 'webhook') {
        const wid = String(c['webhookId']);
        if (!webhookIds.has(wid)) return [{ path: `${where}.webhookId`, message: `no webhook has the id ${wid}`, rule: true }];
        if (seen.has(wid)) return [{ path: `${where}.webhookId`, message: `webhook ${wid} is listed twice`, rule: true }];
        seen.add(wid);
      }
    }
    if (body['channel'] !== undefined && body['channels'] !== undefined && JSON.stringify(body['channel']) !== JSON.stringify(channels[0])) {
      return [{ path: 'channel', message: 'must equal channels[0] when both are sent', rule: true }];
    }
    const type = body['thresholdType'];
    if (type === 'between' || type === 'not_between') {
      const max = body['thresholdMax'];
      if (typeof max !== 'number') return [{ path: 'thresholdMax', message: `Required when thresholdType is ${String(type)}`, rule: true }];
      if (max < (body['threshold'] as number)) return [{ path: 'thresholdMax', message: 'must be >= threshold', rule: true }];
    }
    const source = body['source'] ?? 'tile';
    if (source === 'tile') {
      const dashboardId = body['dashboardId'];
      const tileId = body['tileId'];
      if (typeof dashboardId !== 'string') return [{ path: 'dashboardId', message: 'Required when source is tile', rule: true }];
      if (typeof tileId !== 'string') return [{ path: 'tileId', message: 'Required when source is tile', rule: true }];
      const d = this.dashboards.get(dashboardId);
      if (!d) return [{ path: 'dashboardId', message: `no dashboard has the id ${dashboardId}`, rule: true }];
      const tile = d.tiles.find((t) => t.id === tileId);
      if (!tile) return [{ path: 'tileId', message: `dashboard ${dashboardId} has no tile with the id ${tileId}`, rule: true }];
      const displayType = isObject(tile['config']) ? tile['config']['displayType'] : undefined;
      if (!ALERTABLE_DISPLAY_TYPES.has(String(displayType))) {
        return [
          {
            path: 'tileId',
            message: `tile ${tileId} is a ${String(displayType ?? 'config-less')} tile; alerts need a line, stacked_bar or number tile`,
            rule: true,
          },
        ];
      }
    } else if (typeof body['savedSearchId'] !== 'string' || body['savedSearchId'] === '') {
      return [{ path: 'savedSearchId', message: 'Required when source is saved_search', rule: true }];
    }
    return [];
  }

  private channelsOf(body: Record<string, unknown>): JsonObject[] {
    if (Array.isArray(body['channels'])) return body['channels'] as JsonObject[];
    return isObject(body['channel']) ? [body['channel'] as JsonObject] : [];
  }

  /** The alert a valid body describes (the request's members only, channel and channels mirrored). */
  private alertFromBody(body: Record<string, unknown>): JsonObject {
    const out: JsonObject = {};
    for (const k of ALERT_REQUEST_KEYS) if (body[k] !== undefined) out[k] = clone(body[k]) as JsonValue;
    out['source'] = (body['source'] as string | undefined) ?? 'tile';
    const channels = this.channelsOf(body);
    if (this.opts.flavor === 'hyperdx') {
      out['channels'] = clone(channels);
      out['channel'] = clone(channels[0]!);
    } else {
      out['channel'] = clone(channels[0]!);
      delete out['channels'];
    }
    return out;
  }

  /** @throws SpecViolation */
  createAlert(body: unknown): HxAlert {
    const problems = this.alertProblems(body, false);
    if (problems.length > 0) throw new SpecViolation(problems);
    const now = this.opts.now().toISOString();
    const a = orderAlert({
      id: this.freshId(),
      ...this.alertFromBody(body as Record<string, unknown>),
      state: 'OK',
      teamId: HX_TEAM_ID,
      createdAt: now,
      updatedAt: now,
    });
    this.alerts.set(a.id, a);
    return clone(a);
  }

  /**
   * Replaces an alert (the 2026-08 spec: the body is a whole alert; members left out are gone). id, teamId,
   * state, silenced, executionErrors and createdAt are the service's; updatedAt becomes now.
   * @throws SpecViolation
   */
  updateAlert(id: string, body: unknown): HxAlert | undefined {
    const current = this.alerts.get(id);
    if (!current) return undefined;
    const problems = this.alertProblems(body, true);
    if (problems.length > 0) throw new SpecViolation(problems);
    const kept: JsonObject = { id, state: current.state, teamId: current.teamId, createdAt: current.createdAt };
    for (const k of ['silenced', 'executionErrors']) if (current[k] !== undefined) kept[k] = current[k]!;
    const a = orderAlert({ ...this.alertFromBody(body as Record<string, unknown>), ...kept, updatedAt: this.opts.now().toISOString() });
    this.alerts.set(id, a);
    return clone(a);
  }

  deleteAlert(id: string): boolean {
    return this.alerts.delete(id);
  }

  alert(id: string): HxAlert | undefined {
    const a = this.alerts.get(id);
    return a && clone(a);
  }

  alertList(): HxAlert[] {
    return [...this.alerts.values()].map(clone);
  }

  sourceList(): HxSource[] {
    return clone(this.sources);
  }

  webhookList(): HxWebhook[] {
    return clone(this.webhooks);
  }

  /** Dashboards and alerts (what `--persist` keeps). */
  mutable(): { dashboards: HxDashboard[]; alerts: HxAlert[] } {
    return { dashboards: this.dashboardList(), alerts: this.alertList() };
  }
}

// --- seed data ----------------------------------------------------------------------------------------------

function isoOrRelative(v: unknown, anchor: Date, where: string, fallback: string): string {
  return resolveTime(v ?? fallback, anchor, where);
}

function seedList(v: unknown, where: string): Record<string, unknown>[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EmulatorError(`${where}: must be an array`);
  return v.map((x, i) => {
    if (!isObject(x)) throw new EmulatorError(`${where}[${i}]: must be an object`);
    return x;
  });
}

function seedId(v: unknown, where: string, ids: Set<string>): string {
  if (typeof v !== 'string' || !OBJECT_ID.test(v)) throw new EmulatorError(`${where}: must be 24 lowercase hex characters, got ${JSON.stringify(v)}`);
  if (ids.has(v)) throw new EmulatorError(`${where}: id ${v} is used twice`);
  ids.add(v);
  return v;
}

/**
 * Turns `hyperdx` / `clickstack-cloud` seed data into state: sources and webhooks need an id (24 hex), a name
 * and their kind/service; alerts an id; dashboards are checked like a creation request (ids may be given for
 * the dashboard and its tiles, or are assigned). Times take the relative forms of the seed profile.
 * @throws EmulatorError naming the place (`seed.webhooks[1].name: ...`).
 */
export function materializeHxSeed(
  seed: Record<string, unknown>,
  anchor: Date,
  newId: () => string,
  flavor: Flavor,
): { dashboards: HxDashboard[]; alerts: HxAlert[]; sources: HxSource[]; webhooks: HxWebhook[] } {
  const ids = new Set<string>();
  const sources = seedList(seed['sources'], 'seed.sources').map((s, i) => {
    const w = `seed.sources[${i}]`;
    const id = seedId(s['id'], `${w}.id`, ids);
    if (typeof s['name'] !== 'string' || s['name'] === '') throw new EmulatorError(`${w}.name: a source needs a name`);
    if (typeof s['kind'] !== 'string') throw new EmulatorError(`${w}.kind: must be log, trace, metric, session or promql`);
    return { ...clone(s), id } as HxSource;
  });
  const webhooks = seedList(seed['webhooks'], 'seed.webhooks').map((h, i) => {
    const w = `seed.webhooks[${i}]`;
    const id = seedId(h['id'], `${w}.id`, ids);
    if (typeof h['name'] !== 'string' || h['name'] === '') throw new EmulatorError(`${w}.name: a webhook needs a name`);
    if (typeof h['service'] !== 'string') throw new EmulatorError(`${w}.service: must be slack, generic or incidentio`);
    const createdAt = isoOrRelative(h['createdAt'], anchor, `${w}.createdAt`, 'now');
    const updatedAt = isoOrRelative(h['updatedAt'] ?? h['createdAt'], anchor, `${w}.updatedAt`, 'now');
    return { ...clone(h), id, createdAt, updatedAt } as HxWebhook;
  });
  // Dashboards first (alerts may point at their tiles), through a store so the same rules apply.
  const store = new HxStore({ dashboards: [], alerts: [], sources, webhooks }, { flavor, newId, now: () => anchor });
  const rawDashboards = seedList(seed['dashboards'], 'seed.dashboards');
  const givenIds = rawDashboards.map((d, i) => ({
    id: d['id'] === undefined ? undefined : seedId(d['id'], `seed.dashboards[${i}].id`, ids),
    tiles: (Array.isArray(d['tiles']) ? d['tiles'] : []).map((t, j) =>
      isObject(t) && t['id'] !== undefined ? seedId(t['id'], `seed.dashboards[${i}].tiles[${j}].id`, ids) : undefined,
    ),
  }));
  const fresh = () => {
    let id = newId();
    while (ids.has(id)) id = newId();
    ids.add(id);
    return id;
  };
  const dashboards: HxDashboard[] = rawDashboards.map((d, i) => {
    const { id: _ignored, ...body } = d;
    const problems = store.dashboardProblems(body, false);
    if (problems.length > 0) throw new EmulatorError(`seed.dashboards[${i}]${problems[0]!.path ? `.${problems[0]!.path}` : ''}: ${problems[0]!.message}`);
    const created = store.createDashboard(body);
    const g = givenIds[i]!;
    const out = { ...created, id: g.id ?? fresh() } as HxDashboard;
    out.tiles = created.tiles.map((t, j) => ({ ...t, id: g.tiles[j] ?? fresh() }));
    return out;
  });
  const alerts = seedList(seed['alerts'], 'seed.alerts').map((a, i) => {
    const w = `seed.alerts[${i}]`;
    const id = seedId(a['id'], `${w}.id`, ids);
    const createdAt = isoOrRelative(a['createdAt'], anchor, `${w}.createdAt`, 'now');
    const updatedAt = isoOrRelative(a['updatedAt'] ?? a['createdAt'], anchor, `${w}.updatedAt`, 'now');
    const out: Record<string, unknown> = { state: 'OK', teamId: HX_TEAM_ID, ...clone(a), id, createdAt, updatedAt };
    if (flavor === 'hyperdx' && out['channels'] === undefined && isObject(out['channel'])) out['channels'] = [out['channel']];
    if (out['channel'] === undefined && Array.isArray(out['channels'])) out['channel'] = (out['channels'] as JsonValue[])[0];
    if (flavor === 'clickstack') delete out['channels'];
    return orderAlert(out);
  });
  return { dashboards, alerts, sources, webhooks };
}

/**
 * Dashboards and alerts from a `--persist` file this profile wrote: taken as they are (they were answers
 * already), after a check that each is an object with an id.
 * @throws EmulatorError
 */
export function persistedHxState(saved: Record<string, unknown>, file: string): { dashboards: HxDashboard[]; alerts: HxAlert[] } {
  const take = <T>(key: string): T[] => {
    const list = saved[key] ?? [];
    if (!Array.isArray(list) || !list.every((x) => isObject(x) && typeof x['id'] === 'string')) {
      throw new EmulatorError(`persisted state ${file}: ${key} must be an array of objects with an id`);
    }
    return list as T[];
  };
  const dashboards = take<HxDashboard>('dashboards');
  for (const d of dashboards) {
    if (!Array.isArray(d.tiles) || !Array.isArray(d.filters))
      throw new EmulatorError(`persisted state ${file}: dashboard ${d.id} has no tiles or filters list`);
  }
  return { dashboards, alerts: take<HxAlert>('alerts') };
}

/** The built-in seed of the `hyperdx` and `clickstack-cloud` profiles (cloud data: the seed profile's). */
export function defaultHyperdxSeed(organizations: import('./types.ts').SeedOrganization[]): HyperdxSeedData {
  const common = { connection: HX_CONNECTION_ID, querySettings: [] };
  return {
    sources: [
      {
        id: HX_SOURCE_IDS.Logs,
        name: 'Logs',
        kind: 'log',
        ...common,
        from: { databaseName: 'default', tableName: 'otel_logs' },
        defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
        timestampValueExpression: 'TimestampTime',
        serviceNameExpression: 'ServiceName',
        severityTextExpression: 'SeverityText',
        bodyExpression: 'Body',
        eventAttributesExpression: 'LogAttributes',
        resourceAttributesExpression: 'ResourceAttributes',
        traceSourceId: HX_SOURCE_IDS.Traces,
        metricSourceId: HX_SOURCE_IDS.Metrics,
        traceIdExpression: 'TraceId',
        spanIdExpression: 'SpanId',
        implicitColumnExpression: 'Body',
      },
      {
        id: HX_SOURCE_IDS.Traces,
        name: 'Traces',
        kind: 'trace',
        ...common,
        from: { databaseName: 'default', tableName: 'otel_traces' },
        defaultTableSelectExpression: 'Timestamp, ServiceName, StatusCode, round(Duration / 1e6), SpanName',
        timestampValueExpression: 'Timestamp',
        durationExpression: 'Duration',
        durationPrecision: 9,
        traceIdExpression: 'TraceId',
        spanIdExpression: 'SpanId',
        parentSpanIdExpression: 'ParentSpanId',
        spanNameExpression: 'SpanName',
        spanKindExpression: 'SpanKind',
        statusCodeExpression: 'StatusCode',
        statusMessageExpression: 'StatusMessage',
        serviceNameExpression: 'ServiceName',
        resourceAttributesExpression: 'ResourceAttributes',
        eventAttributesExpression: 'SpanAttributes',
        logSourceId: HX_SOURCE_IDS.Logs,
        metricSourceId: HX_SOURCE_IDS.Metrics,
      },
      {
        id: HX_SOURCE_IDS.Metrics,
        name: 'Metrics',
        kind: 'metric',
        ...common,
        from: { databaseName: 'default', tableName: '' },
        metricTables: { gauge: 'otel_metrics_gauge', histogram: 'otel_metrics_histogram', sum: 'otel_metrics_sum' },
        timestampValueExpression: 'TimeUnix',
        resourceAttributesExpression: 'ResourceAttributes',
        logSourceId: HX_SOURCE_IDS.Logs,
      },
    ],
    webhooks: [
      {
        id: HX_WEBHOOK_IDS['ops-pager'],
        name: 'ops-pager',
        service: 'generic',
        url: 'https://pager.example.com/hooks/ops',
        body: '{"text": "{{title}}: {{body}}"}',
        createdAt: '-120d',
        updatedAt: '-60d',
      },
      {
        id: HX_WEBHOOK_IDS['slack-sre'],
        name: 'slack-sre',
        service: 'slack',
        url: 'https://hooks.slack.com/services/T000/B000/example',
        createdAt: '-120d',
        updatedAt: '-120d',
      },
    ],
    alerts: [
      {
        id: HX_ALERT_IDS['Error spike (saved search)'],
        name: 'Error spike (saved search)',
        message: 'More than 50 errors in 5m',
        source: 'saved_search',
        savedSearchId: '65f5e4a3b9e77c001a0004d1',
        threshold: 50,
        thresholdType: 'above',
        interval: '5m',
        channels: [
          { type: 'webhook', webhookId: HX_WEBHOOK_IDS['ops-pager'] },
          { type: 'webhook', webhookId: HX_WEBHOOK_IDS['slack-sre'] },
        ],
        state: 'OK',
        createdAt: '-90d',
        updatedAt: '-30d',
      },
      {
        id: HX_ALERT_IDS['Slow requests (saved search)'],
        name: 'Slow requests (saved search)',
        message: 'Between 10 and 100 slow requests in 1h',
        source: 'saved_search',
        savedSearchId: '65f5e4a3b9e77c001a0004d2',
        groupBy: 'ServiceName',
        threshold: 10,
        thresholdMax: 100,
        thresholdType: 'between',
        interval: '1h',
        channels: [{ type: 'webhook', webhookId: HX_WEBHOOK_IDS['slack-sre'] }],
        state: 'OK',
        createdAt: '-90d',
        updatedAt: '-30d',
      },
    ],
    dashboards: [],
    organizations,
  };
}
