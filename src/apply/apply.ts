import { ApiError, RateLimitedError } from '../clients/errors.ts';
import type { AlertUpdate, DashboardCreate, LiveAlert, LiveDashboard } from '../clients/observability.ts';
import { CliError } from '../errors.ts';
import { fingerprintLive } from '../plan/fingerprint.ts';
import { KNOWN_AFTER_APPLY, type AlertBody, type Plan, type PlanItem, type StateFile } from '../plan/types.ts';
import type { Journal } from './journal.ts';
import { mapPool } from './pool.ts';

/** The writes apply makes; the observability client implements it. */
export interface ApplyClient {
  listDashboards(opts?: { signal?: AbortSignal }): Promise<LiveDashboard[]>;
  createDashboard(body: DashboardCreate, opts?: { signal?: AbortSignal }): Promise<LiveDashboard>;
  updateAlert(id: string, body: AlertUpdate, opts?: { signal?: AbortSignal }): Promise<LiveAlert>;
  /** Profiles that can (plans for the seed API never hold dashboard updates or deletes). */
  updateDashboard?(id: string, body: DashboardCreate, opts?: { signal?: AbortSignal }): Promise<LiveDashboard>;
  deleteDashboard?(id: string, opts?: { signal?: AbortSignal }): Promise<void>;
  listAlerts?(opts?: { signal?: AbortSignal }): Promise<LiveAlert[]>;
  createAlert?(body: AlertUpdate, opts?: { signal?: AbortSignal }): Promise<LiveAlert>;
  deleteAlert?(id: string, opts?: { signal?: AbortSignal }): Promise<void>;
}

/** What happened, item by item, for progress and the summary (Grizzly's events recorder, in spirit). */
export type ApplyEvent =
  | { type: 'start'; total: number }
  | { type: 'item-start'; item: PlanItem; done: number; total: number }
  | { type: 'created'; item: PlanItem; id: string; recovered: boolean }
  | { type: 'updated'; item: PlanItem }
  | { type: 'deleted'; item: PlanItem }
  | { type: 'failed'; item: PlanItem; error: string }
  | { type: 'skipped'; item: PlanItem; reason: string }
  | { type: 'retry-create'; item: PlanItem; why: string }
  /** A create refused with 429 and a wait: nothing was created; it is sent again once the wait is over. */
  | { type: 'create-rate-limited'; item: PlanItem; why: string; waitMs: number };

export interface ApplyDeps {
  client: ApplyClient;
  journal: Journal;
  /** Loads nothing, writes the state file (atomically); called as records change and at the end. */
  saveState(state: StateFile): void;
  now(): Date;
  emit(event: ApplyEvent): void;
  signal?: AbortSignal;
}

export interface ApplyOptions {
  concurrency: number;
  /** Identifies this run in the journal. */
  runId: string;
  /** The live list the plan was just computed from (plan-then-apply); skips the staleness re-read. */
  freshLive?: LiveDashboard[];
  /** The live alerts the plan was just computed from (plan-then-apply, profiles that read alerts). */
  freshAlerts?: LiveAlert[];
  /** How many times a create whose outcome stayed unknown is checked and re-sent. */
  maxCreateAttempts?: number;
}

export interface ApplyResult {
  created: Array<{ name: string; id: string }>;
  updated: Array<{ name: string; id: string }>;
  /** Dashboards deleted (prune). */
  deleted: Array<{ name: string; id: string }>;
  failed: Array<{ kind: string; name: string; error: string }>;
  skipped: Array<{ kind: string; name: string; reason: string }>;
  unchanged: number;
  blocked: number;
  state: StateFile;
}

export class StalePlanError extends CliError {
  constructor(detail: string) {
    super(`plan is stale: ${detail}; run \`steward plan\` again`, { code: 'stale-plan' });
  }
}

/**
 * Runs exactly the plan it is given: creates dashboards, binds alerts to the tiles the service assigned,
 * updates alerts. Refuses a stale plan before any write. One failure does not stop independent items.
 */
export async function applyPlan(deps: ApplyDeps, plan: Plan, state: StateFile, opts: ApplyOptions): Promise<ApplyResult> {
  const live = opts.freshLive ?? (await deps.client.listDashboards({ signal: deps.signal }));
  let liveAlerts: LiveAlert[] | undefined;
  if (plan.alertsRead) {
    if (!deps.client.listAlerts) throw new StalePlanError('the plan read live alerts, and this service cannot list them');
    liveAlerts = opts.freshAlerts ?? (await deps.client.listAlerts({ signal: deps.signal }));
  }
  const now = fingerprintLive(live, state, liveAlerts);
  if (now !== plan.fingerprint) {
    throw new StalePlanError(`live dashboards or alert records changed since it was made (${plan.createdAt})`);
  }

  const creates = plan.items.filter((i) => i.kind === 'Dashboard' && i.action === 'create');
  const dashboardUpdates = plan.items.filter((i) => i.kind === 'Dashboard' && i.action === 'update');
  // Alert deletes go first: an alert may watch a tile of a dashboard this plan deletes.
  const deletes = [...plan.items.filter((i) => i.kind === 'Alert' && i.action === 'delete'), ...plan.items.filter((i) => i.kind === 'Dashboard' && i.action === 'delete')];
  // Alerts: updates (PUT) and, where the service can, creates (POST); both carry the full body.
  const updates = plan.items.filter((i) => i.kind === 'Alert' && (i.action === 'update' || i.action === 'create'));
  // Where alerts are read live the service is the record: no state file is written.
  const keepRecords = !plan.alertsRead;
  const result: ApplyResult = {
    created: [],
    updated: [],
    deleted: [],
    failed: [],
    skipped: [],
    unchanged: plan.items.filter((i) => i.action === 'noop').length,
    blocked: plan.items.filter((i) => i.action === 'blocked').length,
    state: { formatVersion: 1, alerts: { ...state.alerts } },
  };
  const total = creates.length + dashboardUpdates.length + updates.length + deletes.length;
  let done = 0;
  deps.emit({ type: 'start', total });

  // 1. Dashboards. The tile ids they get are what the alerts below are bound to.
  const createdTiles = new Map<string, { id: string; tiles: Map<string, string> }>();
  const createErrors = new Map<string, string>();
  await mapPool(
    creates,
    opts.concurrency,
    async (item) => {
      deps.emit({ type: 'item-start', item, done: done, total });
      try {
        const { dashboard, recovered } = await createOnce(deps, item, opts.maxCreateAttempts ?? 3);
        const tiles = new Map((dashboard.tiles ?? []).filter((t) => typeof t.name === 'string' && typeof t.id === 'string').map((t) => [t.name as string, t.id as string]));
        createdTiles.set(item.name, { id: dashboard.id, tiles });
        deps.journal.append({ at: deps.now().toISOString(), run: opts.runId, op: 'dashboard.create', name: item.name, id: dashboard.id, confirmedBy: recovered ? 'list-after-unknown-outcome' : 'response', tiles: Object.fromEntries(tiles) });
        result.created.push({ name: item.name, id: dashboard.id });
        deps.emit({ type: 'created', item, id: dashboard.id, recovered });
      } catch (e) {
        if (deps.signal?.aborted) throw e;
        const msg = errorLine(e);
        createErrors.set(item.name, msg);
        result.failed.push({ kind: 'Dashboard', name: item.name, error: msg });
        deps.emit({ type: 'failed', item, error: msg });
      }
      done++;
    },
    deps.signal,
  );

  // Dashboard updates (PUT, tile ids kept): the tiles they add get ids alerts may be bound to.
  await mapPool(
    dashboardUpdates,
    opts.concurrency,
    async (item) => {
      deps.emit({ type: 'item-start', item, done, total });
      try {
        if (!deps.client.updateDashboard) throw new CliError('this service cannot update dashboards');
        const dashboard = await deps.client.updateDashboard(item.id!, item.body as DashboardCreate, { signal: deps.signal });
        const tiles = new Map((dashboard?.tiles ?? []).filter((t) => typeof t.name === 'string' && typeof t.id === 'string').map((t) => [t.name as string, t.id as string]));
        createdTiles.set(item.name, { id: item.id!, tiles });
        deps.journal.append({ at: deps.now().toISOString(), run: opts.runId, op: 'dashboard.update', name: item.name, id: item.id!, confirmedBy: 'response' });
        result.updated.push({ name: item.name, id: item.id! });
        deps.emit({ type: 'updated', item });
      } catch (e) {
        if (deps.signal?.aborted) throw e;
        const msg = errorLine(e);
        createErrors.set(item.name, msg);
        result.failed.push({ kind: 'Dashboard', name: item.name, error: msg });
        deps.emit({ type: 'failed', item, error: msg });
      }
      done++;
    },
    deps.signal,
  );

  // 2 and 3. Bind each alert to the ids just assigned, then send its full configuration.
  let lastSave = 0;
  const save = (force: boolean) => {
    // Records are saved at most every 200 ms while running: the journal already has each write, and a
    // missing record only costs one idempotent PUT on the next apply.
    const t = Date.now();
    if (force || t - lastSave >= 200) {
      deps.saveState(result.state);
      lastSave = t;
    }
  };
  await mapPool(
    updates,
    opts.concurrency,
    async (item) => {
      deps.emit({ type: 'item-start', item, done, total });
      const bound = bindAlert(item, createdTiles, createErrors);
      if (!bound.ok) {
        result.skipped.push({ kind: 'Alert', name: item.name, reason: bound.reason });
        deps.emit({ type: 'skipped', item, reason: bound.reason });
        done++;
        return;
      }
      try {
        if (item.action === 'create') {
          const { alert, recovered } = await createAlertOnce(deps, bound.body);
          deps.journal.append({ at: deps.now().toISOString(), run: opts.runId, op: 'alert.create', name: item.name, id: alert.id, confirmedBy: recovered ? 'list-after-unknown-outcome' : 'response' });
          result.created.push({ name: item.name, id: alert.id });
          deps.emit({ type: 'created', item, id: alert.id, recovered });
          done++;
          return;
        }
        const response = await deps.client.updateAlert(item.id!, bound.body, { signal: deps.signal });
        if (keepRecords) result.state.alerts[item.id!] = { sent: bound.body, response, appliedAt: deps.now().toISOString() };
        deps.journal.append({ at: deps.now().toISOString(), run: opts.runId, op: 'alert.update', name: item.name, id: item.id!, confirmedBy: 'response' });
        result.updated.push({ name: item.name, id: item.id! });
        deps.emit({ type: 'updated', item });
        if (keepRecords) save(false);
      } catch (e) {
        if (deps.signal?.aborted) throw e;
        const msg = errorLine(e);
        result.failed.push({ kind: 'Alert', name: item.name, error: msg });
        deps.emit({ type: 'failed', item, error: msg });
      }
      done++;
    },
    deps.signal,
  );
  // Deletes last (prune): nothing in this plan depends on them.
  await mapPool(
    deletes,
    opts.concurrency,
    async (item) => {
      deps.emit({ type: 'item-start', item, done, total });
      try {
        const remove = item.kind === 'Alert' ? deps.client.deleteAlert : deps.client.deleteDashboard;
        if (!remove) throw new CliError(`this service cannot delete ${item.kind === 'Alert' ? 'alerts' : 'dashboards'}`);
        await remove(item.id!, { signal: deps.signal });
        deps.journal.append({ at: deps.now().toISOString(), run: opts.runId, op: item.kind === 'Alert' ? 'alert.delete' : 'dashboard.delete', name: item.name, id: item.id!, confirmedBy: 'response' });
        result.deleted.push({ name: item.name, id: item.id! });
        deps.emit({ type: 'deleted', item });
      } catch (e) {
        if (deps.signal?.aborted) throw e;
        const msg = errorLine(e);
        result.failed.push({ kind: item.kind, name: item.name, error: msg });
        deps.emit({ type: 'failed', item, error: msg });
      }
      done++;
    },
    deps.signal,
  );
  // Only when a record changed: an apply in which no alert was confirmed leaves the state file as it was.
  if (keepRecords && result.updated.some((u) => updates.some((a) => a.name === u.name && a.id === u.id))) save(true);
  return result;
}

/**
 * POST is not idempotent: after a timeout or a dropped connection the dashboard may exist. List again and
 * re-send only when no dashboard with that name exists; adopt the one that does.
 */
async function createOnce(deps: ApplyDeps, item: PlanItem, maxAttempts: number): Promise<{ dashboard: LiveDashboard; recovered: boolean }> {
  const body = item.body as DashboardCreate;
  let refusals = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return { dashboard: await deps.client.createDashboard(body, { signal: deps.signal }), recovered: false };
    } catch (e) {
      if (isRateLimitRefusal(e) && refusals < MAX_RATE_LIMIT_RESENDS) {
        // A 429 is a refusal, not an unknown outcome: nothing was created, so sending it again cannot
        // duplicate. The client holds every request it starts after a 429 until the server's wait is over,
        // so this send waits that long. Without a wait (or an over-long one) it stays a failure, as before.
        refusals++;
        attempt--;
        deps.emit({ type: 'create-rate-limited', item, why: errorLine(e), waitMs: e.retryAfterMs });
        continue;
      }
      if (!(e instanceof ApiError) || !e.outcomeUnknown) throw e;
      deps.emit({ type: 'retry-create', item, why: errorLine(e) });
      const live = await deps.client.listDashboards({ signal: deps.signal });
      const found = live.filter((d) => d.name === body.name);
      if (found.length === 1) return { dashboard: found[0]!, recovered: true };
      if (found.length > 1) {
        throw new CliError(`after an unknown outcome, ${found.length} dashboards are named "${body.name}" (${found.map((d) => d.id).join(', ')}); delete the extra ones by hand`);
      }
      if (attempt >= maxAttempts) throw e;
    }
  }
}

/**
 * An alert create, like a dashboard create, is never sent twice blindly: after an unknown outcome the
 * alerts are listed and one with the name is adopted; none found is a failure to look at, not a re-send.
 */
async function createAlertOnce(deps: ApplyDeps, body: AlertBody): Promise<{ alert: LiveAlert; recovered: boolean }> {
  if (!deps.client.createAlert) throw new CliError('this service cannot create alerts');
  try {
    return { alert: await deps.client.createAlert(body, { signal: deps.signal }), recovered: false };
  } catch (e) {
    if (!(e instanceof ApiError) || !e.outcomeUnknown || !deps.client.listAlerts) throw e;
    const found = (await deps.client.listAlerts({ signal: deps.signal })).filter((a) => a.name === body.name);
    if (found.length === 1) return { alert: found[0]!, recovered: true };
    throw new CliError(`${errorLine(e)}; ${found.length === 0 ? 'no alert with this name was found afterwards, so it was not sent again: run steward plan to check' : `${found.length} alerts are now named "${body.name}"`}`);
  }
}

/** Creates refused with 429 that are sent again, per dashboard, before it counts as failed. */
const MAX_RATE_LIMIT_RESENDS = 5;
/** The longest server wait a re-send follows: the client's own retry cap (DEFAULT_RETRY.maxDelayMs). */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

function isRateLimitRefusal(e: unknown): e is RateLimitedError & { retryAfterMs: number } {
  return e instanceof RateLimitedError && e.status === 429 && !e.outcomeUnknown && e.retryAfterMs !== undefined && e.retryAfterMs <= MAX_RATE_LIMIT_WAIT_MS;
}

type Bound = { ok: true; body: AlertBody } | { ok: false; reason: string };

function bindAlert(item: PlanItem, created: Map<string, { id: string; tiles: Map<string, string> }>, createErrors: Map<string, string>): Bound {
  const body = structuredClone(item.body as AlertBody);
  const ref = item.reference;
  if (ref && (body.dashboardId === KNOWN_AFTER_APPLY || body.tileId === KNOWN_AFTER_APPLY)) {
    const err = createErrors.get(ref.dashboard);
    if (err !== undefined) return { ok: false, reason: `dashboard ${ref.dashboard} was not ${body.dashboardId === KNOWN_AFTER_APPLY ? 'created' : 'updated'} (${err})` };
    const c = created.get(ref.dashboard);
    if (!c) return { ok: false, reason: `dashboard ${ref.dashboard} is not in this plan's creates or updates` };
    const tileId = c.tiles.get(ref.tile);
    if (!tileId) return { ok: false, reason: `the service returned dashboard ${c.id} without a tile named "${ref.tile}"` };
    body.dashboardId = c.id;
    body.tileId = tileId;
  }
  return { ok: true, body };
}

function errorLine(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
