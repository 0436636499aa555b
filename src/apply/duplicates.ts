/** After the creates: copies made by another runner are found by one list, named, and removed where the service can. */
import type { LiveAlert } from '../model/alert.ts';
import type { LiveDashboard } from '../model/dashboard.ts';
import type { ItemOf } from '../plan/types.ts';
import { NotFoundError } from '../clients/errors.ts';
import { groupBy } from '../shared/arrays.ts';
import { oldestFirst } from './oldest.ts';
import { deletedAnyway, errorLine, listsTags, mayBeOurAlert, mayBeOurs } from './create.ts';
import { tileIds, type MadeDashboard } from './dashboard-update.ts';
import type { ApplyDeps, ApplyResult } from './types.ts';

/**
 * Deletes copies of a name, each journalled; the ids removed, and a failure reported as "could not remove
 * <what> <id>". A 404 after a retry is a delete whose answer was lost (deletedAnyway). A 404 on the first try
 * means someone else removed it: gone all the same where `othersRemove` (another runner removes its own later
 * copy too), otherwise reported.
 */
async function removeCopies(
  deps: ApplyDeps,
  kind: 'Alert' | 'Dashboard',
  name: string,
  ids: readonly string[],
  o: { runId: string; result: ApplyResult; what: string; othersRemove: boolean },
): Promise<string[]> {
  const remove = kind === 'Alert' ? deps.client.deleteAlert : deps.client.deleteDashboard;
  const removed: string[] = [];
  for (const id of ids) {
    try {
      await remove!(id, {}).catch((e: unknown) => {
        if (!(deletedAnyway(e) || (o.othersRemove && e instanceof NotFoundError))) throw e;
      });
      await deps.journal.append({
        at: deps.now().toISOString(),
        run: o.runId,
        op: kind === 'Alert' ? 'alert.delete' : 'dashboard.delete',
        name,
        id,
        confirmedBy: 'response',
      });
      removed.push(id);
    } catch (e) {
      o.result.failed.push({ kind, name, error: `could not remove ${o.what} ${id}: ${errorLine(e)}` });
    }
  }
  return removed;
}

/**
 * This run's copy is the oldest (src/apply/oldest.ts), but it was adopted by listing (the create's answer was
 * lost): a later copy may be its own (made, never answered), which no other runner removes. The later copies
 * that carry what this run sent (the marker) are removed.
 */
const removeLater = (deps: ApplyDeps, kind: 'Alert' | 'Dashboard', name: string, later: string[], runId: string, result: ApplyResult) =>
  removeCopies(deps, kind, name, later, { runId, result, what: 'the later copy', othersRemove: true });

/** This run's copy, not the oldest: removed, so that one of the name stays. Whether it was. */
async function removeOwnCopy(deps: ApplyDeps, kind: 'Alert' | 'Dashboard', name: string, id: string, runId: string, result: ApplyResult): Promise<boolean> {
  const [removed] = await removeCopies(deps, kind, name, [id], { runId, result, what: "this run's copy", othersRemove: false });
  if (removed === undefined) return false;
  result.created = result.created.filter((c) => c.id !== id);
  return true;
}

type Duplicate = ApplyResult['duplicates'][number];

/**
 * A name with more than one of a kind, reported. With some made by someone else since the plan (`others`),
 * every one listed is named, and those are `unmanaged`.
 */
function reportName(deps: ApplyDeps, result: ApplyResult, entry: Duplicate, listed: ReadonlyArray<{ id: string }>, others: string[]): void {
  const e = others.length > 0 ? { ...entry, ids: listed.map((x) => x.id), unmanaged: others } : entry;
  result.duplicates.push(e);
  deps.emit({
    type: 'duplicate',
    ...(e.kind ? { kind: e.kind } : {}),
    name: e.name,
    ids: e.ids,
    ...(e.removed ? { removed: e.removed } : {}),
    ...(e.unmanaged ? { unmanaged: e.unmanaged } : {}),
  });
}

/**
 * The items this run made that the list after the creates shows under another name than the one sent (a
 * server or gateway that trims or rewrites names). plan matches by name, so the next plan would not find
 * them and would make each again, one more copy every apply: reported, and the run fails. Only where the
 * listed item carries what this run sent with it (`sentWith`: the marker), so that it is this run's: a mock
 * server's canned list may hold the canned id under its own name, which is no rename.
 */
function noteRenamed<T extends { id: string; name?: unknown }>(
  result: ApplyResult,
  kind: 'Dashboard' | 'Alert',
  made: Iterable<{ name: string; sent: string; id: string | undefined }>,
  listed: readonly T[],
  sentWith: (x: T) => boolean,
): void {
  const byId = new Map(listed.map((x) => [x.id, x]));
  for (const m of made) {
    const x = m.id === undefined ? undefined : byId.get(m.id);
    const stored = x?.name;
    if (x && typeof stored === 'string' && stored !== m.sent && sentWith(x))
      result.renamed.push({ kind, action: 'create', name: m.name, id: x.id, sent: m.sent, stored });
  }
}

/**
 * After the alert creates: one list; names of this plan's alert creates with more than one alert. As for
 * dashboards, only those that may be this project's (the marker in their note) are copies to keep or remove;
 * another of the name was made by someone else since the plan: left alone, reported (`unmanaged`).
 */
export async function checkAlertDuplicates(
  deps: ApplyDeps,
  items: ItemOf<'Alert', 'update' | 'create'>[],
  mine: Map<string, string>,
  result: ApplyResult,
  removeOwn: boolean,
  runId: string,
  recovered: ReadonlySet<string> = new Set(),
): Promise<void> {
  let live: LiveAlert[];
  try {
    live = await deps.client.listAlerts!({});
  } catch (e) {
    for (const [name] of mine)
      result.unknown.push({ kind: 'Alert', name, error: `created, but the list that checks for copies made by another runner failed: ${errorLine(e)}` });
    return;
  }
  const byName = groupBy(live, (a) => a.name);
  const notes = new Set(items.map((i) => i.body.note));
  noteRenamed(
    result,
    'Alert',
    items.flatMap((i) => (i.action === 'create' ? [{ name: i.name, sent: i.body.name, id: mine.get(i.name) }] : [])),
    live,
    (a) => typeof a.note === 'string' && notes.has(a.note),
  );
  for (const item of items) {
    const id = mine.get(item.name);
    if (item.action !== 'create' || id === undefined) continue;
    const name = item.body.name;
    const listed = oldestFirst(byName.get(name) ?? []);
    // Ordered among themselves, as adoption orders them (adoptAlertNamed): another's id of another shape put
    // every copy in list order, and this run then removed the copy it had adopted as the oldest.
    const same = oldestFirst(listed.filter((a) => mayBeOurAlert(a, item.body.note)));
    const others = listed.filter((a) => !mayBeOurAlert(a, item.body.note)).map((a) => a.id);
    const report = (entry: Duplicate) => reportName(deps, result, entry, listed, others);
    const ids = same.map((a) => a.id);
    if (ids.length < 2) {
      if (others.length > 0) report({ kind: 'Alert', name, ids: [] });
      continue;
    }
    if (removeOwn && deps.client.deleteAlert && ids[0] === id && recovered.has(item.name)) {
      const note = item.body.note;
      // Never the one kept, should a list show it twice.
      const later = same.slice(1).filter((a) => a.id !== id && (a as { note?: unknown }).note === note);
      const cleared = await removeLater(
        deps,
        'Alert',
        item.name,
        later.map((a) => a.id),
        runId,
        result,
      );
      report({ kind: 'Alert', name, ids, kept: id, cleared });
      continue;
    }
    let removed: string | undefined;
    if (removeOwn && deps.client.deleteAlert && ids[0] !== id && ids.includes(id)) {
      if (await removeOwnCopy(deps, 'Alert', item.name, id, runId, result)) removed = id;
    }
    const kept = removeOwn && deps.client.deleteAlert && ids[0] === id ? id : undefined;
    report({ kind: 'Alert', name, ids, ...(removed ? { removed } : {}), ...(kept ? { kept } : {}) });
  }
}

/**
 * After the creates: one list; names of this plan's creates with more than one dashboard. Only those that may
 * be this project's (the marker, see mayBeOurs) count as copies to keep or remove; one without the marker was
 * made by someone else since the plan: never removed nor bound to, reported beside this run's (`unmanaged`).
 */
export async function checkDuplicates(
  deps: ApplyDeps,
  creates: ItemOf<'Dashboard', 'create'>[],
  result: ApplyResult,
  o: { removeOwn: boolean; runId: string; marker: string },
  createdTiles: Map<string, MadeDashboard>,
  recovered: ReadonlySet<string> = new Set(),
): Promise<void> {
  const { removeOwn, runId } = o;
  let live: LiveDashboard[];
  try {
    live = await deps.client.listDashboards({});
  } catch (e) {
    const created = new Set(result.created.map((c) => c.name));
    for (const item of creates) {
      if (!created.has(item.name)) continue;
      result.unknown.push({
        kind: 'Dashboard',
        name: item.name,
        error: `created, but the list that checks for copies made by another runner failed: ${errorLine(e)}`,
      });
    }
    return;
  }
  // By name once: a filter of the whole list per create was quadratic (1,000 creates: ~40 ms after the last one).
  const byName = groupBy(live, (d) => d.name);
  const tagsListed = listsTags(live);
  const createdId = new Map<string, string>();
  for (const c of result.created) if (!createdId.has(c.name)) createdId.set(c.name, c.id);
  noteRenamed(
    result,
    'Dashboard',
    creates.map((i) => ({ name: i.name, sent: i.body.name, id: createdId.get(i.name) })),
    live,
    (d) => Array.isArray(d.tags) && d.tags.includes(o.marker),
  );
  for (const item of creates) {
    const name = item.body.name;
    const listed = oldestFirst(byName.get(name) ?? []);
    // Ordered among themselves, as adoption orders them (listNamed): a dashboard made by a person under an id of
    // another shape put every copy in list order, and this run then removed the copy it had adopted as the
    // oldest (the other runner's, which that runner kept and bound its alerts to).
    const same = oldestFirst(listed.filter((d) => mayBeOurs(d, o.marker, tagsListed)));
    const mine = createdId.get(item.name);
    const others = mine === undefined ? [] : listed.filter((d) => !mayBeOurs(d, o.marker, tagsListed)).map((d) => d.id);
    const report = (entry: Duplicate) => reportName(deps, result, entry, listed, others);
    if (same.length === 1 && mine !== undefined && same[0]!.id !== mine) {
      // This run's copy was a later one, removed by a runner whose answer was lost: bind to the one listed.
      createdTiles.set(item.name, { id: same[0]!.id, tiles: tileIds(same[0]!) });
    }
    if (same.length < 2) {
      if (others.length > 0) report({ name, ids: [] });
      continue;
    }
    const ids = same.map((d) => d.id);
    if (removeOwn && deps.client.deleteDashboard && mine !== undefined && ids[0] === mine && recovered.has(item.name)) {
      const tags = item.body.tags ?? [];
      const later = same.slice(1).filter((d) => d.id !== mine && tags.every((t) => (d.tags ?? []).includes(t)));
      const cleared = await removeLater(
        deps,
        'Dashboard',
        item.name,
        later.map((d) => d.id),
        runId,
        result,
      );
      report({ name, ids, kept: mine, cleared });
      continue;
    }
    let removed: string | undefined;
    if (removeOwn && deps.client.deleteDashboard && mine !== undefined && ids[0] !== mine && ids.includes(mine)) {
      if (await removeOwnCopy(deps, 'Dashboard', item.name, mine, runId, result)) {
        removed = mine;
        // Alerts of this plan bind to the copy that stays.
        const kept = same[0]!;
        createdTiles.set(item.name, { id: kept.id, tiles: tileIds(kept) });
      }
    }
    const kept = removeOwn && deps.client.deleteDashboard && mine !== undefined && ids[0] === mine ? mine : undefined;
    report({ name, ids, ...(removed ? { removed } : {}), ...(kept ? { kept } : {}) });
  }
}
