import { alikeName } from '../shared/alike-name.ts';
import { groupBy } from '../shared/arrays.ts';
import { ApiError, NotFoundError } from '../clients/errors.ts';
import type { LiveAlert } from '../model/alert.ts';
import { CliError } from '../errors.ts';
import { fingerprintOf, liveFingerprint } from '../plan/fingerprint.ts';
import type { AlertBody } from '../model/alert.ts';
import { KNOWN_AFTER_APPLY, type ItemOf, type Plan, type PlanItem, type StateFile } from '../plan/types.ts';
import type { JournalEntry } from './journal.ts';
import { mapPool } from './pool.ts';
import { answered2xx, askedWait, createAlertOnce, createOnce, DEFAULT_SETTLE_MS, deletedAnyway, errorLine, isAbort } from './create.ts';
import { checkAlertDuplicates, checkDuplicates } from './duplicates.ts';
import { tileIds, updateDashboard, type MadeDashboard } from './dashboard-update.ts';
import { emptyResult, StalePlanError, type ApplyDeps, type ApplyOptions, type ApplyResult } from './types.ts';
export { applyExitCode, emptyResult, StalePlanError, type ApplyClient, type ApplyDeps, type ApplyEvent, type ApplyOptions, type ApplyResult } from './types.ts';
export { DEFAULT_SETTLE_MS } from './create.ts';

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
      note: (entry) => {
        try {
          inner.note?.(entry);
        } catch {
          // The create goes out anyway: the note only helps the next run after a kill, and a journal that
          // cannot be written shows at the create's own entry (applied, not recorded).
        }
      },
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
  const liveDigest = opts.freshLive && opts.freshLiveDigest !== undefined ? opts.freshLiveDigest : liveFingerprint(live).digest();
  const now = fingerprintOf(liveDigest, state, liveAlerts);
  if (now !== plan.fingerprint) {
    throw new StalePlanError(`live dashboards or alert records changed since it was made (${plan.createdAt})`);
  }

  const creates = plan.items.filter((i): i is ItemOf<'Dashboard', 'create'> => i.kind === 'Dashboard' && i.action === 'create');
  // A create found after an unknown outcome under a name alike its own (a server that trims or folds names),
  // where no other create of this plan has a name alike it: never one listed before the creates.
  const seen = new Set(live.map((d) => d.id));
  const alike = groupBy(creates, (c) => alikeName(c.body.name));
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
  const createdTiles = new Map<string, MadeDashboard>();
  const createErrors = new Map<string, string>();
  const stopped = () => deps.signal?.aborted === true;
  /** Once the service asks for a wait steward does not follow (429, over a minute), no new write starts. */
  const holdOff = (waitMs: number | undefined) => {
    if (waitMs !== undefined && result.heldOff === undefined) result.heldOff = { waitMs };
  };
  const halted = () => stopped() || result.heldOff !== undefined;
  /** Items not started once stopped are "not done"; the rest runs to its end. */
  const notStarted = (item: PlanItem) => {
    result.notDone.push({ kind: item.kind, name: item.name });
    createErrors.set(item.name, result.heldOff && !stopped() ? 'not sent: the service asked to wait (429)' : 'not done: interrupted');
  };
  // Never two creates of one name in one run: a second item with a name already being created waits out.
  const creating = new Set<string>();
  /** Creates whose answer was lost, adopted by listing (item names; see checkDuplicates). */
  const adopted = { dashboards: new Set<string>(), alerts: new Set<string>() };
  /** Creates confirmed by the service whose journal entries are being synced. */
  const recording: Array<Promise<void>> = [];
  await mapPool(creates, opts.concurrency, async (item) => {
    if (halted()) return notStarted(item);
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
    deps.journal.note?.({ at: deps.now().toISOString(), run: opts.runId, op: 'dashboard.send', name: item.name, title: name });
    const outcome = await createOnce(deps, item, {
      maxAttempts: opts.maxCreateAttempts ?? 2,
      settleMs: opts.settleMs ?? DEFAULT_SETTLE_MS,
      marker: plan.markerTag,
      alike: alike.get(alikeName(name))?.length === 1 ? { seen } : undefined,
    });
    if (outcome.kind === 'created') {
      const { dashboard, recovered } = outcome;
      const tiles = tileIds(dashboard);
      createdTiles.set(item.name, { id: dashboard.id, tiles });
      if (recovered) adopted.dashboards.add(item.name);
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
      holdOff(outcome.heldOffMs);
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
  // than one dashboard. Where the service can delete, the copy this run made goes unless it is the oldest
  // (src/apply/oldest.ts: of two runners only the later one removes its copy).
  if (creates.length > 0 && !halted())
    await checkDuplicates(
      deps,
      creates,
      result,
      { removeOwn: opts.removeOwnDuplicates ?? false, runId: opts.runId, marker: plan.markerTag },
      createdTiles,
      adopted.dashboards,
    );

  /** A write that did not end in a confirmed success: failed, unknown (may have applied), or not done. */
  const notApplied = (item: PlanItem, e: unknown) => {
    holdOff(askedWait(e).heldOffMs);
    const msg = domainLine(item, e);
    // An update or delete given up on after its answers were lost (cut, timeout, 5xx after sending) may have
    // been applied: unknown, as a create is, not "failed" (red team: drops).
    if (e instanceof ApiError && e.outcomeUnknown) {
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
    if (halted()) return notStarted(item);
    deps.emit({ type: 'item-start', item, done, total });
    try {
      // Applied once answered 2xx, even when the tile ids could not be read back (bindAlert then says so).
      const made = await updateDashboard(deps, item);
      createdTiles.set(item.name, made);
      if (made.storedName !== undefined)
        result.renamed.push({ kind: 'Dashboard', action: 'update', name: item.name, id: item.id, sent: item.body.name, stored: made.storedName });
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
    if (halted()) return void result.notDone.push({ kind: item.kind, name: item.name });
    deps.emit({ type: 'item-start', item, done, total });
    const bound = replacesKept(item, liveAlerts, dashboardUpdates, result) ?? bindAlert(item, createdTiles, createErrors);
    if (!bound.ok) {
      result.skipped.push({ kind: 'Alert', name: item.name, reason: bound.reason });
      deps.emit({ type: 'skipped', item, reason: bound.reason });
      done++;
      return;
    }
    try {
      if (item.action === 'create') {
        deps.journal.note?.({ at: deps.now().toISOString(), run: opts.runId, op: 'alert.send', name: item.name, title: String(bound.body.name) });
        const made = await createAlertOnce(deps, item, bound.body, opts.settleMs ?? DEFAULT_SETTLE_MS);
        if (made.kind === 'unknown') {
          holdOff(made.heldOffMs);
          result.unknown.push({ kind: 'Alert', name: item.name, error: made.why });
          deps.emit({ type: 'unknown', item, why: made.why });
          done++;
          return;
        }
        const { alert, recovered } = made;
        alertsCreated.set(item.name, alert.id);
        if (recovered) adopted.alerts.add(item.name);
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
  if (alertsCreated.size > 0 && deps.client.listAlerts && !halted())
    await checkAlertDuplicates(deps, updates, alertsCreated, result, opts.removeOwnDuplicates ?? false, opts.runId, adopted.alerts);
  // Deletes last (prune): nothing in this plan depends on them.
  await mapPool(deletes, opts.concurrency, async (item) => {
    if (halted()) return void result.notDone.push({ kind: item.kind, name: item.name });
    deps.emit({ type: 'item-start', item, done, total });
    try {
      const remove = item.kind === 'Alert' ? deps.client.deleteAlert : deps.client.deleteDashboard;
      if (!remove) throw new CliError(`this service cannot delete ${item.kind === 'Alert' ? 'alerts' : 'dashboards'}`);
      try {
        await remove(item.id, {});
      } catch (e) {
        if (!deletedAnyway(e)) throw e;
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

type Bound = { ok: true; body: AlertBody } | { ok: false; reason: string };

/**
 * An alert created again because a dashboard update of this plan deletes the live one of its name (its tile
 * goes): when that update was not applied, the live alert is still there, and a create would make a second
 * of the name (which the check for another runner's copies then removed as theirs). Not sent, and said why.
 */
function replacesKept(
  item: ItemOf<'Alert', 'update' | 'create'>,
  live: readonly LiveAlert[] | undefined,
  dashboardUpdates: ReadonlyArray<ItemOf<'Dashboard', 'update'>>,
  result: ApplyResult,
): Bound | undefined {
  if (item.action !== 'create' || !live) return undefined;
  for (const l of live) {
    if (l.name !== item.body.name) continue;
    const on = (l as { dashboardId?: unknown }).dashboardId ?? (l as { dashboard?: unknown }).dashboard;
    const update = dashboardUpdates.find((u) => u.id === on);
    if (update && !result.updated.some((u) => u.id === update.id && u.name === update.name))
      return { ok: false, reason: `the update of dashboard ${update.name}, which deletes alert ${l.id} it replaces, was not applied` };
  }
  return undefined;
}

function bindAlert(item: ItemOf<'Alert', 'update' | 'create'>, created: Map<string, MadeDashboard>, createErrors: Map<string, string>): Bound {
  const body = structuredClone(item.body);
  const ref = item.reference;
  if (ref && (body.dashboardId === KNOWN_AFTER_APPLY || body.tileId === KNOWN_AFTER_APPLY)) {
    const err = createErrors.get(ref.dashboard);
    if (err !== undefined)
      return { ok: false, reason: `dashboard ${ref.dashboard} was not ${body.dashboardId === KNOWN_AFTER_APPLY ? 'created' : 'updated'} (${err})` };
    const c = created.get(ref.dashboard);
    if (!c) return { ok: false, reason: `dashboard ${ref.dashboard} is not in this plan's creates or updates` };
    if (c.tilesUnknown !== undefined)
      return {
        ok: false,
        reason: `dashboard ${ref.dashboard} was updated, but its tile ids are not known: ${c.tilesUnknown}; not bound to a guess, run steward apply again`,
      };
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
      : `${what} does not exist on this service: ${
          item.kind === 'Alert'
            ? 'it was deleted since the plan was made (HyperDX deletes the alerts of a tile a dashboard update removes or renames), or its metadata.id names no alert there; plan again'
            : 'it was deleted since the plan was made; plan again'
        } (${errorLine(e)})`;
  }
  return errorLine(e);
}
