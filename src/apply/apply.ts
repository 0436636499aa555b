import { ApiError, ApiTransportError, NotFoundError, RateLimitedError } from '../clients/errors.ts';
import type { AlertUpdate, DashboardCreate, LiveAlert, LiveDashboard } from '../clients/observability.ts';
import { CliError } from '../errors.ts';
import { fingerprintLive } from '../plan/fingerprint.ts';
import { KNOWN_AFTER_APPLY, type AlertBody, type ItemOf, type Plan, type PlanItem, type StateFile } from '../plan/types.ts';
import type { Journal, JournalEntry } from './journal.ts';
import { mapPool } from './pool.ts';

/** 0 when every item of the plan was done; 130 interrupted; 1 anything failed or unknown; 3 blocked items left. */
export function applyExitCode(r: ApplyResult): number {
  if (r.interrupted) return 130;
  if (r.failed.length + r.skipped.length + r.unknown.length + r.duplicates.length + r.notRecorded.length + r.notDone.length > 0) return 1;
  if (r.blocked > 0) return 3;
  return 0;
}

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
  /** A create whose outcome is unknown: steward waits `waitMs` before listing, so a late commit shows. */
  | { type: 'settle'; item: PlanItem; why: string; waitMs: number }
  /** A create answered 2xx whose body did not say the new id: found by listing. */
  | { type: 'id-by-listing'; item: PlanItem; id: string }
  /** Outcome unknown and not sent again (the create may exist): the run ends with exit 1. */
  | { type: 'unknown'; item: PlanItem; why: string }
  /** After the creates a name has more than one dashboard (another runner created it too). */
  | { type: 'duplicate'; kind?: 'Alert'; name: string; ids: string[]; removed?: string }
  /** Applied on the service, but the state file could not be written. */
  | { type: 'not-recorded'; item: PlanItem; error: string }
  /** A create refused with 429 and a wait: nothing was created; it is sent again once the wait is over. */
  | { type: 'create-rate-limited'; item: PlanItem; why: string; waitMs: number };

export interface ApplyDeps {
  client: ApplyClient;
  journal: Journal;
  /** Loads nothing, writes the state file (atomically); called as records change and at the end. */
  saveState(state: StateFile): void;
  now(): Date;
  emit(event: ApplyEvent): void;
  /**
   * Aborted to stop (Ctrl-C): no new request starts, settle waits end; requests in flight finish (the
   * client's own signal decides whether they are abandoned).
   */
  signal?: AbortSignal;
  /** Waits (settle windows); ends early when `signal` aborts. Default: a timer. */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface ApplyOptions {
  concurrency: number;
  /** Identifies this run in the journal. */
  runId: string;
  /** The live list the plan was just computed from (plan-then-apply); skips the staleness re-read. */
  freshLive?: LiveDashboard[];
  /** The live alerts the plan was just computed from (plan-then-apply, profiles that read alerts). */
  freshAlerts?: LiveAlert[];
  /** How many times a create is sent in all (default 2: once, and once more after a settled, empty list). */
  maxCreateAttempts?: number;
  /**
   * After a create whose outcome is unknown, how long to wait before each of the two lists that decide
   * whether to send it again: at least the request timeout, so a commit the server was still making shows.
   */
  settleMs?: number;
  /** Remove the copy this run created when a name has more than one dashboard (profiles that can delete). */
  removeOwnDuplicates?: boolean;
}

export interface ApplyResult {
  created: Array<{ name: string; id: string }>;
  updated: Array<{ name: string; id: string }>;
  /** Dashboards deleted (prune). */
  deleted: Array<{ name: string; id: string }>;
  failed: Array<{ kind: string; name: string; error: string }>;
  skipped: Array<{ kind: string; name: string; reason: string }>;
  /** Writes whose outcome stayed unknown (not sent again): they may or may not have been applied. */
  unknown: Array<{ kind: string; name: string; error: string }>;
  /** Names with more than one dashboard after the creates; `removed` is this run's copy where deleted. */
  duplicates: Array<{ kind?: 'Alert'; name: string; ids: string[]; removed?: string; kept?: string }>;
  /** Applied on the service, not recorded in the state file (it could not be written). */
  notRecorded: Array<{ kind: string; name: string; id: string; error: string }>;
  /** Items not started because the run was interrupted. */
  notDone: Array<{ kind: string; name: string }>;
  interrupted: boolean;
  unchanged: number;
  blocked: number;
  state: StateFile;
}

/** The result of an apply that had nothing to do. */
export function emptyResult(plan: Plan, state: StateFile): ApplyResult {
  return {
    created: [],
    updated: [],
    deleted: [],
    failed: [],
    skipped: [],
    unknown: [],
    duplicates: [],
    notRecorded: [],
    notDone: [],
    interrupted: false,
    unchanged: plan.summary.noop,
    blocked: plan.summary.blocked,
    state,
  };
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
  // A journal that cannot be written (a full disk) does not stop the run half-way without a summary: the
  // write it should have recorded is "applied, not recorded" in the summary.
  const journalFailures: Array<{ entry: JournalEntry; error: string }> = [];
  const inner = deps.journal;
  deps = {
    ...deps,
    journal: {
      // Awaited at every write: a file journal resolves only once the entry is synced (group commit).
      append: async (entry) => {
        try {
          await inner.append(entry);
        } catch (e) {
          journalFailures.push({ entry, error: errorLine(e) });
        }
      },
      close: () => inner.close(),
    },
  };
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

  const creates = plan.items.filter((i): i is ItemOf<'Dashboard', 'create'> => i.kind === 'Dashboard' && i.action === 'create');
  const dashboardUpdates = plan.items.filter((i): i is ItemOf<'Dashboard', 'update'> => i.kind === 'Dashboard' && i.action === 'update');
  // Alert deletes go first: an alert may watch a tile of a dashboard this plan deletes.
  const deletes = [
    ...plan.items.filter((i): i is ItemOf<'Alert', 'delete'> => i.kind === 'Alert' && i.action === 'delete'),
    ...plan.items.filter((i): i is ItemOf<'Dashboard', 'delete'> => i.kind === 'Dashboard' && i.action === 'delete'),
  ];
  // Alerts: updates (PUT) and, where the service can, creates (POST); both carry the full body.
  const updates = plan.items.filter((i): i is ItemOf<'Alert', 'update' | 'create'> => i.kind === 'Alert' && (i.action === 'update' || i.action === 'create'));
  // Where alerts are read live the service is the record: no state file is written.
  const keepRecords = !plan.alertsRead;
  // Counted from the items, not the summary: the items are what the digest and the recomputation check.
  const result: ApplyResult = {
    ...emptyResult(plan, { ...state, alerts: { ...state.alerts } }),
    unchanged: plan.items.filter((i) => i.action === 'noop').length,
    blocked: plan.items.filter((i) => i.action === 'blocked').length,
  };

  const total = creates.length + dashboardUpdates.length + updates.length + deletes.length;
  let done = 0;
  deps.emit({ type: 'start', total });

  // 1. Dashboards. The tile ids they get are what the alerts below are bound to.
  const createdTiles = new Map<string, { id: string; tiles: Map<string, string> }>();
  const createErrors = new Map<string, string>();
  const stopped = () => deps.signal?.aborted === true;
  /** Items not started once stopped are "not done"; the rest runs to its end. */
  const notStarted = (item: PlanItem) => {
    result.notDone.push({ kind: item.kind, name: item.name });
    createErrors.set(item.name, 'not done: interrupted');
  };
  // Never two creates of one name in one run: a second item with a name already being created waits out.
  const creating = new Set<string>();
  /** Creates confirmed by the service whose journal entries are being synced. */
  const recording: Array<Promise<void>> = [];
  await mapPool(creates, opts.concurrency, async (item) => {
    if (stopped()) return notStarted(item);
    const name = item.body.name;
    if (creating.has(name)) {
      const msg = `another item of this plan creates a dashboard named "${name}"`;
      createErrors.set(item.name, msg);
      result.failed.push({ kind: 'Dashboard', name: item.name, error: msg });
      deps.emit({ type: 'failed', item, error: msg });
      return;
    }
    creating.add(name);
    deps.emit({ type: 'item-start', item, done: done, total });
    const outcome = await createOnce(deps, item, { maxAttempts: opts.maxCreateAttempts ?? 2, settleMs: opts.settleMs ?? DEFAULT_SETTLE_MS });
    if (outcome.kind === 'created') {
      const { dashboard, recovered } = outcome;
      const tiles = new Map(
        (dashboard.tiles ?? []).filter((t) => typeof t.name === 'string' && typeof t.id === 'string').map((t) => [t.name as string, t.id as string]),
      );
      createdTiles.set(item.name, { id: dashboard.id, tiles });
      // The slot goes to the next create while the journal syncs (group commit); the create is reported only
      // once its entry is on disk, and every one is before this stage ends.
      recording.push(
        Promise.resolve(
          deps.journal.append({
            at: deps.now().toISOString(),
            run: opts.runId,
            op: 'dashboard.create',
            name: item.name,
            id: dashboard.id,
            confirmedBy: recovered ? 'list-after-unknown-outcome' : 'response',
            tiles: Object.fromEntries(tiles),
          }),
        ).then(() => {
          result.created.push({ name: item.name, id: dashboard.id });
          deps.emit({ type: 'created', item, id: dashboard.id, recovered });
        }),
      );
    } else if (outcome.kind === 'unknown') {
      createErrors.set(item.name, `outcome unknown: ${outcome.why}`);
      result.unknown.push({ kind: 'Dashboard', name: item.name, error: outcome.why });
      deps.emit({ type: 'unknown', item, why: outcome.why });
    } else {
      createErrors.set(item.name, outcome.error);
      result.failed.push({ kind: 'Dashboard', name: item.name, error: outcome.error });
      deps.emit({ type: 'failed', item, error: outcome.error });
    }
    done++;
  });
  await Promise.all(recording);

  // Two runners with two folders share no lock: list once more, and say so loudly when a name now has more
  // than one dashboard. Where the service can delete, the copy this run made goes unless it is the first
  // listed (the list is in creation order, so of two runners only the later one removes its copy).
  if (creates.length > 0 && !stopped()) await checkDuplicates(deps, creates, result, opts.removeOwnDuplicates ?? false, opts.runId, createdTiles);

  /** A write that did not end in a confirmed success: failed, unknown (may have applied), or not done. */
  const notApplied = (item: PlanItem, e: unknown) => {
    const msg = domainLine(item, e);
    if (stopped() && e instanceof ApiError && e.outcomeUnknown) {
      result.unknown.push({ kind: item.kind, name: item.name, error: msg });
      deps.emit({ type: 'unknown', item, why: msg });
    } else if (stopped() && isAbort(e)) {
      result.notDone.push({ kind: item.kind, name: item.name });
    } else {
      result.failed.push({ kind: item.kind, name: item.name, error: msg });
      deps.emit({ type: 'failed', item, error: msg });
    }
    return msg;
  };

  // Dashboard updates (PUT, tile ids kept): the tiles they add get ids alerts may be bound to.
  await mapPool(dashboardUpdates, opts.concurrency, async (item) => {
    if (stopped()) return notStarted(item);
    deps.emit({ type: 'item-start', item, done, total });
    try {
      if (!deps.client.updateDashboard) throw new CliError('this service cannot update dashboards');
      let dashboard: LiveDashboard | undefined;
      try {
        dashboard = await deps.client.updateDashboard(item.id, item.body, {});
      } catch (e) {
        // A 2xx is applied whatever its body; the tiles' ids are read back from the list.
        if (!answered2xx(e)) throw e;
        dashboard = (await deps.client.listDashboards({})).find((d) => d.id === item.id);
      }
      const tiles = new Map(
        (dashboard?.tiles ?? []).filter((t) => typeof t.name === 'string' && typeof t.id === 'string').map((t) => [t.name as string, t.id as string]),
      );
      createdTiles.set(item.name, { id: item.id, tiles });
      await deps.journal.append({
        at: deps.now().toISOString(),
        run: opts.runId,
        op: 'dashboard.update',
        name: item.name,
        id: item.id,
        confirmedBy: 'response',
      });
      result.updated.push({ name: item.name, id: item.id });
      deps.emit({ type: 'updated', item });
    } catch (e) {
      createErrors.set(item.name, notApplied(item, e));
    }
    done++;
  });

  // 2 and 3. Bind each alert to the ids just assigned, then send its full configuration.
  let lastSave = 0;
  /** Alerts confirmed since the state was last written. */
  const unsaved = new Map<string, PlanItem>();
  let saveError: string | undefined;
  const save = (force: boolean) => {
    // Records are saved at most every 200 ms while running: the journal already has each write, and a
    // missing record only costs one idempotent PUT on the next apply.
    const t = Date.now();
    if (force || t - lastSave >= 200) {
      lastSave = t;
      try {
        deps.saveState(result.state);
        unsaved.clear();
      } catch (e) {
        saveError = errorLine(e);
      }
    }
  };
  const alertsCreated = new Map<string, string>();
  await mapPool(updates, opts.concurrency, async (item) => {
    if (stopped()) return void result.notDone.push({ kind: item.kind, name: item.name });
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
        const made = await createAlertOnce(deps, bound.body, opts.settleMs ?? DEFAULT_SETTLE_MS);
        if (made.kind === 'unknown') {
          result.unknown.push({ kind: 'Alert', name: item.name, error: made.why });
          deps.emit({ type: 'unknown', item, why: made.why });
          done++;
          return;
        }
        const { alert, recovered } = made;
        alertsCreated.set(item.name, alert.id);
        await deps.journal.append({
          at: deps.now().toISOString(),
          run: opts.runId,
          op: 'alert.create',
          name: item.name,
          id: alert.id,
          confirmedBy: recovered ? 'list-after-unknown-outcome' : 'response',
        });
        result.created.push({ name: item.name, id: alert.id });
        deps.emit({ type: 'created', item, id: alert.id, recovered });
        done++;
        return;
      }
      try {
        // The answer is not kept: the state file is committed, and a server may echo anything into it.
        await deps.client.updateAlert(item.id, bound.body, {});
      } catch (e) {
        // A PUT answered 2xx was applied, whatever its body said: keep its record.
        if (!answered2xx(e)) throw e;
      }
      if (keepRecords) {
        result.state.alerts[item.id] = { sent: bound.body, appliedAt: deps.now().toISOString() };
        unsaved.set(item.id, item);
      }
      await deps.journal.append({ at: deps.now().toISOString(), run: opts.runId, op: 'alert.update', name: item.name, id: item.id, confirmedBy: 'response' });
      result.updated.push({ name: item.name, id: item.id });
      deps.emit({ type: 'updated', item });
    } catch (e) {
      notApplied(item, e);
      done++;
      return;
    }
    save(false);
    done++;
  });
  // Alerts too: two runners that created one alert each are told so, and where the service can delete,
  // the later copy goes.
  if (alertsCreated.size > 0 && deps.client.listAlerts && !stopped())
    await checkAlertDuplicates(deps, updates, alertsCreated, result, opts.removeOwnDuplicates ?? false, opts.runId);
  // Deletes last (prune): nothing in this plan depends on them.
  await mapPool(deletes, opts.concurrency, async (item) => {
    if (stopped()) return void result.notDone.push({ kind: item.kind, name: item.name });
    deps.emit({ type: 'item-start', item, done, total });
    try {
      const remove = item.kind === 'Alert' ? deps.client.deleteAlert : deps.client.deleteDashboard;
      if (!remove) throw new CliError(`this service cannot delete ${item.kind === 'Alert' ? 'alerts' : 'dashboards'}`);
      try {
        await remove(item.id, {});
      } catch (e) {
        if (!answered2xx(e)) throw e;
      }
      await deps.journal.append({
        at: deps.now().toISOString(),
        run: opts.runId,
        op: item.kind === 'Alert' ? 'alert.delete' : 'dashboard.delete',
        name: item.name,
        id: item.id,
        confirmedBy: 'response',
      });
      result.deleted.push({ name: item.name, id: item.id });
      deps.emit({ type: 'deleted', item });
    } catch (e) {
      notApplied(item, e);
    }
    done++;
  });
  // Only when a record changed: an apply in which no alert was confirmed leaves the state file as it was.
  if (keepRecords && (unsaved.size > 0 || saveError !== undefined)) save(true);
  if (unsaved.size > 0) {
    // Applied on the service, but not in the state file: its own outcome, never "failed".
    for (const [id, item] of unsaved) {
      result.updated = result.updated.filter((u) => !(u.id === id && u.name === item.name));
      result.notRecorded.push({ kind: item.kind, name: item.name, id, error: saveError ?? 'the state file was not written' });
      deps.emit({ type: 'not-recorded', item, error: saveError ?? 'the state file was not written' });
    }
  }
  for (const { entry, error } of journalFailures) {
    result.notRecorded.push({
      kind: entry.op.startsWith('alert') ? 'Alert' : 'Dashboard',
      name: entry.name,
      id: entry.id,
      error: `${entry.op} not in the journal: ${error}`,
    });
  }
  result.interrupted = stopped();
  return result;
}

/** The service answered 2xx (the write was applied) but the body was not what was expected. */
function answered2xx(e: unknown): boolean {
  return e instanceof ApiError && e.status !== undefined && e.status >= 200 && e.status < 300;
}

function isAbort(e: unknown): boolean {
  return (e instanceof ApiTransportError && e.failure === 'aborted') || (e instanceof CliError && e.exitCode === 130);
}

/** The request timeout the client uses by default (src/config/connection.ts): the least settle window. */
export const DEFAULT_SETTLE_MS = 30_000;

type CreateOutcome = { kind: 'created'; dashboard: LiveDashboard; recovered: boolean } | { kind: 'unknown'; why: string } | { kind: 'failed'; error: string };

/**
 * POST is not idempotent. A 2xx is applied whatever its body: never sent again (when the body does not say
 * the new id, it is found by listing). After an unknown outcome (timeout, reset, 5xx after sending) the
 * server may still be committing, so steward waits a settle window (at least the request timeout) before
 * each of two lists, and sends again only when both lack the name; otherwise the outcome stays unknown.
 */
async function createOnce(deps: ApplyDeps, item: ItemOf<'Dashboard', 'create'>, o: { maxAttempts: number; settleMs: number }): Promise<CreateOutcome> {
  const body = item.body;
  const sleep = deps.sleep ?? timerSleep;
  let refusals = 0;
  for (let attempt = 1; ; attempt++) {
    let e: unknown;
    let applied = false;
    try {
      const dashboard = await deps.client.createDashboard(body, {});
      if (dashboard && typeof dashboard.id === 'string') return { kind: 'created', dashboard, recovered: false };
      e = new CliError('the response did not say the new id');
      applied = true;
    } catch (err) {
      e = err;
      applied = answered2xx(err);
    }
    if (isRateLimitRefusal(e) && refusals < MAX_RATE_LIMIT_RESENDS && !deps.signal?.aborted) {
      // A 429 is a refusal, not an unknown outcome: nothing was created, so sending it again cannot
      // duplicate. The client holds every request it starts after a 429 until the server's wait is over,
      // so this send waits that long. Without a wait (or an over-long one) it stays a failure, as before.
      refusals++;
      attempt--;
      deps.emit({ type: 'create-rate-limited', item, why: errorLine(e), waitMs: e.retryAfterMs });
      continue;
    }
    if (applied) {
      // Applied: the server said so. Find it by name (one list: a 2xx is a commit, nothing to wait for).
      try {
        const found = await listNamed(deps, body.name);
        if (found.length === 1) {
          deps.emit({ type: 'id-by-listing', item, id: found[0]!.id });
          return { kind: 'created', dashboard: found[0]!, recovered: true };
        }
        if (found.length > 1)
          return {
            kind: 'failed',
            error: `answered 2xx without its id, and ${found.length} dashboards are named "${body.name}" (${found.map((d) => d.id).join(', ')}); delete the extra ones by hand`,
          };
        return {
          kind: 'unknown',
          why: `answered 2xx (applied) without its id (${errorLine(e)}), and no dashboard named "${body.name}" is listed; not re-sent`,
        };
      } catch (le) {
        return { kind: 'unknown', why: `answered 2xx (applied) without its id, and listing failed: ${errorLine(le)}; not re-sent` };
      }
    }
    if (!(e instanceof ApiError) || !e.outcomeUnknown) return { kind: 'failed', error: errorLine(e) };
    const why = errorLine(e);
    if (deps.signal?.aborted) return { kind: 'unknown', why: `${why}; interrupted before it could be checked, not re-sent` };
    // Outcome unknown: settle, then two reads without the name before any re-send.
    deps.emit({ type: 'settle', item, why, waitMs: o.settleMs });
    try {
      let absent = 0;
      for (let read = 0; read < 2; read++) {
        await sleep(o.settleMs, deps.signal);
        if (deps.signal?.aborted) return { kind: 'unknown', why: `${why}; interrupted while waiting for it to settle, not re-sent` };
        const found = await listNamed(deps, body.name);
        if (found.length === 1) return { kind: 'created', dashboard: found[0]!, recovered: true };
        if (found.length > 1) {
          return {
            kind: 'failed',
            error: `after an unknown outcome, ${found.length} dashboards are named "${body.name}" (${found.map((d) => d.id).join(', ')}); delete the extra ones by hand`,
          };
        }
        absent++;
      }
      if (absent < 2 || attempt >= o.maxAttempts) return { kind: 'unknown', why: `outcome unknown, not re-sent (${why})` };
      deps.emit({ type: 'retry-create', item, why });
    } catch (le) {
      return { kind: 'unknown', why: `outcome unknown, not re-sent (${why}; listing to check failed: ${errorLine(le)})` };
    }
  }
}

async function listNamed(deps: ApplyDeps, name: string): Promise<LiveDashboard[]> {
  return (await deps.client.listDashboards({})).filter((d) => d.name === name);
}

function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** After the alert creates: one list; names of this plan's alert creates with more than one alert. */
async function checkAlertDuplicates(
  deps: ApplyDeps,
  items: ItemOf<'Alert', 'update' | 'create'>[],
  mine: Map<string, string>,
  result: ApplyResult,
  removeOwn: boolean,
  runId: string,
): Promise<void> {
  let live: LiveAlert[];
  try {
    live = await deps.client.listAlerts!({});
  } catch (e) {
    for (const [name] of mine)
      result.unknown.push({ kind: 'Alert', name, error: `created, but the list that checks for copies made by another runner failed: ${errorLine(e)}` });
    return;
  }
  for (const item of items) {
    const id = mine.get(item.name);
    if (item.action !== 'create' || id === undefined) continue;
    const name = item.body.name;
    const ids = live.filter((a) => a.name === name).map((a) => a.id);
    if (ids.length < 2) continue;
    let removed: string | undefined;
    if (removeOwn && deps.client.deleteAlert && ids[0] !== id && ids.includes(id)) {
      try {
        await deps.client.deleteAlert(id, {});
        await deps.journal.append({ at: deps.now().toISOString(), run: runId, op: 'alert.delete', name: item.name, id, confirmedBy: 'response' });
        removed = id;
        result.created = result.created.filter((c) => c.id !== id);
      } catch (e) {
        result.failed.push({ kind: 'Alert', name: item.name, error: `could not remove this run's copy ${id}: ${errorLine(e)}` });
      }
    }
    const kept = removeOwn && deps.client.deleteAlert && ids[0] === id ? id : undefined;
    result.duplicates.push({ kind: 'Alert', name, ids, ...(removed ? { removed } : {}), ...(kept ? { kept } : {}) });
    deps.emit({ type: 'duplicate', kind: 'Alert', name, ids, ...(removed ? { removed } : {}) });
  }
}

/** After the creates: one list; names of this plan's creates with more than one dashboard. */
async function checkDuplicates(
  deps: ApplyDeps,
  creates: ItemOf<'Dashboard', 'create'>[],
  result: ApplyResult,
  removeOwn: boolean,
  runId: string,
  createdTiles: Map<string, { id: string; tiles: Map<string, string> }>,
): Promise<void> {
  let live: LiveDashboard[];
  try {
    live = await deps.client.listDashboards({});
  } catch (e) {
    for (const item of creates) {
      if (!result.created.some((c) => c.name === item.name)) continue;
      result.unknown.push({
        kind: 'Dashboard',
        name: item.name,
        error: `created, but the list that checks for copies made by another runner failed: ${errorLine(e)}`,
      });
    }
    return;
  }
  for (const item of creates) {
    const name = item.body.name;
    const same = live.filter((d) => d.name === name);
    if (same.length < 2) continue;
    const ids = same.map((d) => d.id);
    const mine = result.created.find((c) => c.name === item.name)?.id;
    let removed: string | undefined;
    if (removeOwn && deps.client.deleteDashboard && mine !== undefined && ids[0] !== mine && ids.includes(mine)) {
      try {
        await deps.client.deleteDashboard(mine, {});
        await deps.journal.append({ at: deps.now().toISOString(), run: runId, op: 'dashboard.delete', name: item.name, id: mine, confirmedBy: 'response' });
        removed = mine;
        result.created = result.created.filter((c) => c.id !== mine);
        // Alerts of this plan bind to the copy that stays.
        const kept = same[0]!;
        createdTiles.set(item.name, {
          id: kept.id,
          tiles: new Map(
            (kept.tiles ?? []).filter((t) => typeof t.name === 'string' && typeof t.id === 'string').map((t) => [t.name as string, t.id as string]),
          ),
        });
      } catch (e) {
        result.failed.push({ kind: 'Dashboard', name: item.name, error: `could not remove this run's copy ${mine}: ${errorLine(e)}` });
      }
    }
    const kept = removeOwn && deps.client.deleteDashboard && mine !== undefined && ids[0] === mine ? mine : undefined;
    result.duplicates.push({ name, ids, ...(removed ? { removed } : {}), ...(kept ? { kept } : {}) });
    deps.emit({ type: 'duplicate', name, ids, ...(removed ? { removed } : {}) });
  }
}

/**
 * An alert create, like a dashboard create, is never sent twice blindly: after an unknown outcome steward
 * waits the settle window, lists the alerts and adopts the one with the name; none found is "outcome
 * unknown, not re-sent". A 2xx is applied whatever its body: its id is found by listing.
 */
async function createAlertOnce(
  deps: ApplyDeps,
  body: AlertBody,
  settleMs: number,
): Promise<{ kind: 'created'; alert: LiveAlert; recovered: boolean } | { kind: 'unknown'; why: string }> {
  if (!deps.client.createAlert) throw new CliError('this service cannot create alerts');
  try {
    const alert = await deps.client.createAlert(body, {});
    if (alert && typeof alert.id === 'string') return { kind: 'created', alert, recovered: false };
    throw new CliError('the response did not say the new id');
  } catch (e) {
    const applied = answered2xx(e) || (e instanceof CliError && !(e instanceof ApiError));
    if (!applied && (!(e instanceof ApiError) || !e.outcomeUnknown)) throw e;
    if (!deps.client.listAlerts) return { kind: 'unknown', why: `outcome unknown, not re-sent (${errorLine(e)}; this service cannot list alerts)` };
    if (!applied && !deps.signal?.aborted) await (deps.sleep ?? timerSleep)(settleMs, deps.signal);
    const found = (await deps.client.listAlerts({})).filter((a) => a.name === body.name);
    if (found.length === 1) return { kind: 'created', alert: found[0]!, recovered: true };
    if (found.length > 1)
      throw new CliError(
        `${errorLine(e)}; ${found.length} alerts are now named "${body.name}" (${found.map((a) => a.id).join(', ')}): delete the extra ones by hand`,
      );
    return { kind: 'unknown', why: `outcome unknown, not re-sent (${errorLine(e)}; no alert named "${body.name}" is listed: run steward plan to check)` };
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

function bindAlert(
  item: ItemOf<'Alert', 'update' | 'create'>,
  created: Map<string, { id: string; tiles: Map<string, string> }>,
  createErrors: Map<string, string>,
): Bound {
  const body = structuredClone(item.body);
  const ref = item.reference;
  if (ref && (body.dashboardId === KNOWN_AFTER_APPLY || body.tileId === KNOWN_AFTER_APPLY)) {
    const err = createErrors.get(ref.dashboard);
    if (err !== undefined)
      return { ok: false, reason: `dashboard ${ref.dashboard} was not ${body.dashboardId === KNOWN_AFTER_APPLY ? 'created' : 'updated'} (${err})` };
    const c = created.get(ref.dashboard);
    if (!c) return { ok: false, reason: `dashboard ${ref.dashboard} is not in this plan's creates or updates` };
    const tileId = c.tiles.get(ref.tile);
    if (!tileId) return { ok: false, reason: `the service returned dashboard ${c.id} without a tile named "${ref.tile}"` };
    body.dashboardId = c.id;
    body.tileId = tileId;
  }
  return { ok: true, body };
}

/**
 * The failure in the user's terms where the request's own words would only say `PUT /api/v2/alerts/x → 404`:
 * an object that is gone is named, with what to do about it.
 */
function domainLine(item: PlanItem, e: unknown): string {
  if (e instanceof NotFoundError && item.id !== undefined && (item.action === 'update' || item.action === 'delete')) {
    const what = `${item.kind.toLowerCase()} ${item.name} (id ${item.id})`;
    return item.action === 'delete'
      ? `${what} does not exist on this service any more: nothing left to delete`
      : `${what} does not exist on this service: ${item.kind === 'Alert' ? 'its metadata.id names no alert there; fix the id' : 'it was deleted since the plan was made; plan again'} (${errorLine(e)})`;
  }
  return errorLine(e);
}

function errorLine(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
