import type { Alert, Dashboard, EmulatorState, OrganizationState, ServiceState, Tile } from './types.ts';
import { type AlertUpdate, BadRequest, type DashboardInput } from './validate.ts';

/** How `PUT /api/v2/alerts/{id}` treats members the request leaves out. */
export type AlertUpdateMode = 'merge' | 'replace';

/** The members `replace` requires, as the service's create/update validator does. */
const REPLACE_REQUIRED = ['threshold', 'interval', 'thresholdType', 'source', 'channel'] as const;

interface StoredDashboard {
  dashboard: Dashboard;
  /** The dashboard serialised once: dashboards cannot change through the API, so this never goes stale. */
  json: string;
}

/** The mutable part of the state: what `--persist` writes. */
export interface ObservabilityState {
  dashboards: Dashboard[];
  alerts: Alert[];
}

/** Canonical key order for a dashboard, as the service answers it. */
function orderDashboard(d: Dashboard): Dashboard {
  return {
    id: d.id,
    name: d.name,
    tiles: d.tiles.map(({ id, ...rest }): Tile => ({ id, ...rest })),
    tags: d.tags,
  };
}

const ALERT_KEYS = [
  'id',
  'name',
  'message',
  'threshold',
  'interval',
  'thresholdType',
  'source',
  'state',
  'channel',
  'team',
  'tileId',
  'dashboard',
  'savedSearch',
  'groupBy',
  'silenced',
  'createdAt',
  'updatedAt',
] as const;

/** An alert with its members in the order seed 000 lists them and absent members left out. */
export function orderAlert(a: Alert): Alert {
  const out: Record<string, unknown> = {};
  for (const k of ALERT_KEYS) if (a[k] !== undefined) out[k] = a[k];
  return out as unknown as Alert;
}

/**
 * The emulator's state: dashboards (in creation order), alerts, and the read-only cloud data. Holds the
 * baseline it was built from so `reset()` can return to it.
 */
export class Store {
  private readonly dashboards = new Map<string, StoredDashboard>();
  private dashboardOrder: StoredDashboard[] = [];
  private listJson: string | undefined;
  private listBody: Buffer | undefined;
  private readonly alerts = new Map<string, Alert>();
  /** Every id in use (dashboards, tiles, alerts), so an assigned id is never reused. */
  private readonly ids = new Set<string>();
  private readonly services = new Map<string, { org: OrganizationState; service: ServiceState }>();
  private readonly orgIds = new Set<string>();
  private readonly backups = new Map<string, Map<string, Record<string, unknown>>>();

  constructor(
    private readonly baseline: EmulatorState,
    private readonly opts: { newId: () => string; now: () => Date; alertUpdate: AlertUpdateMode },
  ) {
    for (const org of baseline.organizations) {
      this.orgIds.add(org.id.toLowerCase());
      for (const service of org.services) {
        this.services.set(`${org.id.toLowerCase()}/${service.id.toLowerCase()}`, { org, service });
        this.backups.set(service.id.toLowerCase(), new Map(service.backups.map((b) => [String(b['id']).toLowerCase(), b])));
      }
    }
    this.load(baseline);
  }

  /** Replaces dashboards and alerts (start, reset, or a persisted file). */
  load(state: ObservabilityState): void {
    this.dashboards.clear();
    this.dashboardOrder = [];
    this.listJson = undefined;
    this.listBody = undefined;
    this.alerts.clear();
    this.ids.clear();
    for (const d of state.dashboards) this.addDashboard(orderDashboard(structuredClone(d)));
    for (const a of state.alerts) {
      this.alerts.set(a.id, orderAlert(structuredClone(a)));
      this.ids.add(a.id);
    }
  }

  /** Back to the baseline: the seed as it was materialised at start. */
  reset(): void {
    this.load(this.baseline);
  }

  private addDashboard(dashboard: Dashboard): StoredDashboard {
    const stored = { dashboard, json: JSON.stringify(dashboard) };
    this.dashboards.set(dashboard.id, stored);
    this.dashboardOrder.push(stored);
    this.listJson = undefined;
    this.listBody = undefined;
    this.ids.add(dashboard.id);
    for (const t of dashboard.tiles) this.ids.add(t.id);
    return stored;
  }

  private freshId(): string {
    let id = this.opts.newId();
    while (this.ids.has(id)) id = this.opts.newId();
    this.ids.add(id);
    return id;
  }

  /** Stores a new dashboard, assigning ids to it and to every tile. Returns its JSON. */
  createDashboard(input: DashboardInput): string {
    const id = this.freshId();
    const tiles = input.tiles.map((t): Tile => ({ id: this.freshId(), ...t }));
    return this.addDashboard({ id, name: input.name, tiles, tags: input.tags }).json;
  }

  /** The JSON of one dashboard, or undefined. */
  dashboardJson(id: string): string | undefined {
    return this.dashboards.get(id)?.json;
  }

  /** The JSON array of every dashboard, in creation order (cached until the next create). */
  dashboardsJson(): string {
    this.listJson ??= `[${this.dashboardOrder.map((d) => d.json).join(',')}]`;
    return this.listJson;
  }

  /**
   * The whole `GET /api/v2/dashboards` answer, encoded once and kept until the next create: a list of
   * 10,000 dashboards is tens of megabytes, and encoding it on every call would dominate its cost.
   */
  dashboardsBody(): Buffer {
    this.listBody ??= Buffer.from(`{"data":${this.dashboardsJson()}}`);
    return this.listBody;
  }

  dashboardCount(): number {
    return this.dashboardOrder.length;
  }

  hasAlert(id: string): boolean {
    return this.alerts.has(id);
  }

  /**
   * Applies a PUT body to an existing alert. `merge` changes only the members sent; `replace` requires
   * threshold, interval, thresholdType, source and channel, and clears name, message, dashboard and tileId
   * when they are not sent. Either way id, team, state, silenced, savedSearch, groupBy and createdAt are the
   * service's, and updatedAt becomes now. A sent `dashboardId` must name an existing dashboard and a sent
   * `tileId` a tile of the alert's dashboard.
   * @throws BadRequest
   */
  updateAlert(id: string, update: AlertUpdate): Alert | undefined {
    const current = this.alerts.get(id);
    if (!current) return undefined;
    const next: Alert = { ...current };
    if (this.opts.alertUpdate === 'replace') {
      for (const k of REPLACE_REQUIRED) {
        if (update[k] === undefined) throw new BadRequest(`${k}: is required (this emulator replaces alerts on PUT)`);
      }
      delete next.name;
      delete next.message;
      delete next.dashboard;
      delete next.tileId;
    }
    if (update.threshold !== undefined) next.threshold = update.threshold;
    if (update.interval !== undefined) next.interval = update.interval;
    if (update.thresholdType !== undefined) next.thresholdType = update.thresholdType;
    if (update.source !== undefined) next.source = update.source;
    if (update.channel !== undefined) next.channel = update.channel;
    if (update.name !== undefined) next.name = update.name;
    if (update.message !== undefined) next.message = update.message;
    if (update.dashboardId !== undefined) {
      if (!this.dashboards.has(update.dashboardId)) throw new BadRequest(`dashboardId: no dashboard has the id ${update.dashboardId}`);
      next.dashboard = update.dashboardId;
    }
    if (update.tileId !== undefined) {
      const dashboard = next.dashboard === undefined ? undefined : this.dashboards.get(next.dashboard)?.dashboard;
      if (!dashboard) throw new BadRequest(`tileId: needs dashboardId, the dashboard that holds tile ${update.tileId}`);
      if (!dashboard.tiles.some((t) => t.id === update.tileId)) {
        throw new BadRequest(`tileId: dashboard ${dashboard.id} has no tile with the id ${update.tileId}`);
      }
      next.tileId = update.tileId;
    } else if (update.dashboardId !== undefined && next.tileId !== undefined) {
      // A new dashboard with the old tile: only fine when the tile is on it.
      const dashboard = this.dashboards.get(update.dashboardId)!.dashboard;
      if (!dashboard.tiles.some((t) => t.id === next.tileId)) {
        throw new BadRequest(`tileId: dashboard ${dashboard.id} has no tile with the id ${next.tileId}; send tileId with dashboardId`);
      }
    }
    if (next.source === 'tile' && this.opts.alertUpdate === 'replace' && (next.dashboard === undefined || next.tileId === undefined)) {
      throw new BadRequest(`${next.dashboard === undefined ? 'dashboardId' : 'tileId'}: is required when source is tile`);
    }
    next.updatedAt = this.opts.now().toISOString();
    const ordered = orderAlert(next);
    this.alerts.set(id, ordered);
    return ordered;
  }

  /** Finds a service; says which part of the path is unknown when it does not exist. */
  service(orgId: string, serviceId: string): ServiceState | 'organization' | 'service' {
    const found = this.services.get(`${orgId.toLowerCase()}/${serviceId.toLowerCase()}`);
    if (found) return found.service;
    return this.orgIds.has(orgId.toLowerCase()) ? 'service' : 'organization';
  }

  backup(serviceId: string, backupId: string): Record<string, unknown> | undefined {
    return this.backups.get(serviceId.toLowerCase())?.get(backupId.toLowerCase());
  }

  /** Dashboards and alerts as they are now (copies). */
  observability(): ObservabilityState {
    return {
      dashboards: this.dashboardOrder.map((d) => structuredClone(d.dashboard)),
      alerts: [...this.alerts.values()].map((a) => structuredClone(a)),
    };
  }

  /** The whole state as JSON, built from the cached dashboard JSON (fast for large states). */
  stateJson(): string {
    return `{"dashboards":${this.dashboardsJson()},"alerts":${JSON.stringify([...this.alerts.values()])},"organizations":${JSON.stringify(
      this.baseline.organizations,
    )}}`;
  }

  /** The whole state (copies). */
  snapshot(): EmulatorState {
    return { ...this.observability(), organizations: structuredClone(this.baseline.organizations) };
  }
}
