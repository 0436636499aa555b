/**
 * The `hyperdx` and `clickstack-cloud` profiles' data: dashboards in the `config` form, alerts with
 * `channels`, sources and webhooks, as HyperDX's external API v2 of 2026-08-21 answers them (and ClickHouse
 * Cloud's ClickStack paths, which proxy the same resources). Bodies are checked against the vendored spec in
 * `spec-validate.ts`; this file holds the rules the spec states in prose (sources that must exist, tile alerts
 * that need a tile, `thresholdMax` for ranges) and the state.
 */
import { type BodyProblem, bodyProblems, type SpecName } from './spec-validate.ts';
import type { JsonObject, JsonValue } from './types.ts';
import {
  type Flavor,
  SpecViolation,
  type HxDashboard,
  type HxTile,
  type HxAlert,
  type HxSource,
  type HxWebhook,
  HX_TEAM_ID,
  ALERTABLE_DISPLAY_TYPES,
  isObject,
  clone,
  seriesToConfig,
  withServerSelectDefaults,
  sourceIdsOf,
  DASHBOARD_OPTIONAL,
  TILE_KEYS,
  ALERT_REQUEST_KEYS,
  orderAlert,
  scheduleProblem,
  selectItemProblem,
  filterProblem,
  asClickStackReads,
  ALERT_TEXT_BOUNDS,
} from './hx-model.ts';
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
    const filter = filterProblem(body['filters']);
    if (filter) return [filter];
    const containers = new Set((Array.isArray(body['containers']) ? body['containers'] : []).map((c) => (isObject(c) ? c['id'] : undefined)));
    const tiles = Array.isArray(body['tiles']) ? body['tiles'] : [];
    for (const [i, t] of tiles.entries()) {
      // HyperDX's schema refines what the spec's types cannot say (SelectItem's prose): selectItemProblem.
      const select = isObject(t) && isObject(t['config']) && Array.isArray(t['config']['select']) ? t['config']['select'] : [];
      for (const [j, item] of select.entries()) {
        const problem = isObject(item) ? selectItemProblem(item, `tiles.${i}.config.select.${j}`) : undefined;
        if (problem) return [problem];
      }
      if (isObject(t) && typeof t['containerId'] === 'string' && !containers.has(t['containerId'])) {
        return [{ path: `tiles.${i}.containerId`, message: `no container has the id ${t['containerId']}`, rule: true }];
      }
      if (isObject(t) && t['config'] !== undefined && t['series'] !== undefined) {
        return [{ path: `tiles.${i}`, message: 'send either config or series, not both', rule: true }];
      }
      // HyperDX's tile schema: a tile's series are all of one type.
      const types = isObject(t) && Array.isArray(t['series']) ? t['series'].map((s) => (isObject(s) ? s['type'] : undefined)) : [];
      if (types.some((x) => x !== types[0])) return [{ path: `tiles.${i}.series`, message: 'All series must have the same type', rule: true }];
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

  /**
   * A dashboard body as this flavour's server reads it: ClickStack's has no place for HyperDX's dashboard
   * variables, formulas and series limits (asClickStackReads), so it drops them rather than store them.
   */
  private asRead(body: unknown): unknown {
    return this.opts.flavor === 'clickstack' ? asClickStackReads(body) : body;
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
      if (t['config'] !== undefined) out['config'] = withServerSelectDefaults(clone(t['config']) as JsonObject);
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
  validateDashboard(sent: unknown): { valid: boolean; errors: BodyProblem[]; normalized: JsonObject | null } {
    const body = this.asRead(sent);
    const errors = this.dashboardProblems(body, false);
    if (errors.length > 0) return { valid: false, errors, normalized: null };
    return { valid: true, errors: [], normalized: this.normalize(body as Record<string, unknown>, false, false) as JsonObject };
  }

  /** @throws SpecViolation */
  createDashboard(sent: unknown): HxDashboard {
    const body = this.asRead(sent);
    const problems = this.dashboardProblems(body, false);
    if (problems.length > 0) throw new SpecViolation(problems);
    const id = this.freshId();
    const d = { id, ...this.normalize(body as Record<string, unknown>, false, true) } as HxDashboard;
    this.dashboards.set(id, d);
    return clone(d);
  }

  /**
   * Replaces a dashboard's name, tags and tiles. Tiles keep the ids they are sent with; tiles without one get a
   * new id. Filters and the other optional members change only when the request has them (HyperDX sets them
   * only then). Alerts bound to a tile that is no longer on the dashboard are deleted with it, as HyperDX does.
   * @throws SpecViolation
   */
  updateDashboard(id: string, request: unknown): HxDashboard | undefined {
    const before = this.dashboards.get(id);
    if (!before) return undefined;
    const body = this.asRead(request);
    const problems = this.dashboardProblems(body, true);
    if (problems.length > 0) throw new SpecViolation(problems);
    const sent = body as Record<string, unknown>;
    const d = { id, ...this.normalize(sent, true, true) } as HxDashboard;
    const kept = d as unknown as JsonObject;
    for (const k of ['filters', ...DASHBOARD_OPTIONAL] as const) {
      const had = (before as unknown as JsonObject)[k];
      if (sent[k] === undefined && had !== undefined) kept[k] = clone(had);
    }
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
    // HyperDX's alertSchema bounds the texts the spec leaves open: name 1-512 characters, message 1-4,096.
    for (const [k, max] of ALERT_TEXT_BOUNDS) {
      const v = body[k];
      if (typeof v !== 'string') continue;
      if (v.length === 0) return [{ path: k, message: 'String must contain at least 1 character(s)', rule: true }];
      if (v.length > max) return [{ path: k, message: `String must contain at most ${max} character(s)`, rule: true }];
    }
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
    const schedule = scheduleProblem(body);
    if (schedule) return [schedule];
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
    // HyperDX stores a Date and answers its ISO text (`…T10:00:00.000Z`), however the instant was written.
    const start = out['scheduleStartAt'];
    if (typeof start === 'string' && Number.isFinite(Date.parse(start))) {
      out['scheduleStartAt'] = new Date(start).toISOString();
      // makeAlert: an anchored schedule has no offset; it stores (and answers) 0.
      out['scheduleOffsetMinutes'] = 0;
    }
    const channels = this.channelsOf(body);
    if (this.opts.flavor === 'hyperdx') {
      // HyperDX's channel is {type, webhookId} (AlertChannelWebhook): its server reads channels with a zod
      // object that drops other members (ClickStack's webhookService, slackChannelId, severity), so they are
      // neither stored nor answered.
      const kept = channels.map((c) => ({ type: c['type']!, webhookId: c['webhookId']! }) as JsonObject);
      out['channels'] = clone(kept);
      out['channel'] = clone(kept[0]!);
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
   * Replaces an alert (the 2026-08 spec: the body is a whole alert; members left out are gone), except
   * thresholdMax, scheduleStartAt and scheduleOffsetMinutes, which HyperDX keeps when left out. id, teamId,
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
    const sent = body as Record<string, unknown>;
    const next = this.alertFromBody(sent);
    // HyperDX (makeAlert; Mongoose drops undefined members of an update) keeps these when a PUT leaves them
    // out; null clears scheduleStartAt, and then an offset not sent becomes 0.
    for (const k of ['thresholdMax', 'scheduleStartAt', 'scheduleOffsetMinutes'] as const) {
      if (sent[k] === undefined && current[k] !== undefined && current[k] !== null) next[k] = clone(current[k]!) as JsonValue;
    }
    if (sent['scheduleStartAt'] === null) {
      delete next['scheduleStartAt'];
      if (sent['scheduleOffsetMinutes'] === undefined) next['scheduleOffsetMinutes'] = 0;
    }
    const a = orderAlert({ ...next, ...kept, updatedAt: this.opts.now().toISOString() });
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
