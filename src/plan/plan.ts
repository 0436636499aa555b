import fastJsonPatch from 'fast-json-patch';
import { randomBytes } from 'node:crypto';
import type { ObservabilityCapabilities } from '../clients/profiles.ts';
import type { LiveAlert } from '../model/alert.ts';
import type { Operation } from 'fast-json-patch';
import { basename, dirname, join, relative } from 'node:path';
import { listSome } from '../shared/text.ts';
import type { AnyResource, Resource } from '../model/resource.ts';
import { describesLostAlert, lostTileKeys, otherProjectMarker, planAlert } from './alerts.ts';
import { createBody, tilesLosingAlerts, updateBody } from './dashboard-body.ts';
import {
  alignConfigs,
  withoutUnknownMembers,
  desiredDigest,
  displayForm,
  dropUncomparableSeries,
  normalDigest,
  normalizeDesired,
  normalizeLive,
  withWholeConfigs,
  type NormalDashboard,
} from './normalize.ts';
import { fingerprintLive } from './fingerprint.ts';
import { liveLeftovers } from './orphans.ts';
import { blockPruneToEmpty } from './prune-guard.ts';
import { type Action, type LiveDashboardInput, type Plan, type PlanItem, type StateFile } from './types.ts';
import { addAll } from './patch-ops.ts';
import { pushAll } from '../shared/arrays.ts';

const { compare } = fastJsonPatch;

export interface PlanInput {
  resources: readonly AnyResource[];
  live: readonly LiveDashboardInput[];
  state: StateFile;
  markerTag: string;
  now: Date;
  /** File names in the plan are relative to this folder. */
  projectDir: string;
  env?: string;
  /** Narrows the plan (--target, paths); every resource still serves to resolve references. */
  include?: (r: AnyResource) => boolean;
  /** Mark every alert for update, even when in sync (heals edits made in the UI). */
  reassertAlerts?: boolean;
  /** What the service can do (src/clients/profiles.ts); absent: the seed API's (create dashboards, update alerts). */
  capabilities?: Partial<ObservabilityCapabilities>;
  /** Delete orphans (only where the service can delete). */
  prune?: boolean;
  /** With prune: delete them even when the files declare none of their kind (src/plan/prune-guard.ts). */
  allowEmpty?: boolean;
  /** The profile's name, recorded in the plan (never branched on). */
  api?: string;
  /** The service's alerts, where it can list them: alerts are then diffed live (no state file). */
  liveAlerts?: readonly LiveAlert[];
  /** New ids for filters an update adds (the update request needs one per filter); injectable for tests. */
  newId?: () => string;
  /** `fingerprintLive(live, state, liveAlerts)` when the caller has it already (it costs ~0.3 s at 10,000 dashboards). */
  fingerprint?: string;
  /**
   * What normalizing each live dashboard gave in an earlier plan (src/config/live-memo.ts): a dashboard whose
   * remembered digest is the file's is unchanged without being normalized again. Only a digest equal to
   * the file's is trusted; anything else is normalized as without it, and the result handed to `set`.
   */
  liveMemo?: LiveDigestMemo;
  /** Replaces every secret value in a string, as writeState did in the records an alert is compared with. */
  redact?: (s: string) => string;
}

/** Remembered results of `normalizeLive` + `normalDigest`, per live dashboard (by object). */
export interface LiveDigestMemo {
  get(live: LiveDashboardInput): { digest: string; ignored: readonly string[] } | undefined;
  set(live: LiveDashboardInput, entry: { digest: string; ignored: readonly string[] }): void;
}

export interface DashboardMatch {
  item: PlanItem;
  live: LiveDashboardInput | undefined;
}

const ACTION_ORDER: Record<Action, number> = { blocked: 0, create: 1, update: 2, delete: 3, noop: 4 };

/**
 * Computes the plan: pure, deterministic, and the only place that decides what apply will do.
 * Dashboards are matched by metadata.id or spec.name, normalized on both sides and diffed; alerts are
 * compared with what steward last sent (the API cannot read them).
 */
export function computePlan(input: PlanInput): Plan {
  const { markerTag } = input;
  const include = input.include ?? (() => true);
  // path.relative per file was ~15 ms at 10,000 dashboards: once per folder, then joined.
  const relDirs = new Map<string, string>();
  const rel = (f: string) => {
    const dir = dirname(f);
    let r = relDirs.get(dir);
    if (r === undefined) relDirs.set(dir, (r = relative(input.projectDir, dir)));
    return (r === '' ? basename(f) : join(r, basename(f))) || f;
  };
  const dashboards = input.resources.filter((r): r is Resource<'Dashboard'> => r.kind === 'Dashboard');
  const alerts = input.resources.filter((r): r is Resource<'Alert'> => r.kind === 'Alert');

  const liveById = new Map(input.live.map((d) => [d.id, d]));
  const liveByName = new Map<string, LiveDashboardInput[]>();
  // Appended in place: a copy per dashboard was quadratic in a name's copies (a server listing 50,000
  // dashboards of one name kept plan busy 37 s, 9 s at 25,000).
  for (const d of input.live) {
    const same = liveByName.get(d.name);
    if (same) same.push(d);
    else liveByName.set(d.name, [d]);
  }

  const claimed = new Set<string>();
  const matches = new Map<string, DashboardMatch>();
  const ignoredAll = new Set<string>();

  const caps = input.capabilities ?? {};
  const newId = input.newId ?? (() => randomBytes(12).toString('hex'));
  for (const d of dashboards) {
    const match = planDashboard(d, rel(d.file), liveById, liveByName, markerTag, caps, newId, input.liveMemo);
    for (const f of match.item.ignoredFields ?? []) ignoredAll.add(f);
    if (match.live) claimed.add(match.live.id);
    for (const id of match.item.candidates ?? []) claimed.add(id);
    matches.set(d.name, match);
  }

  const items: PlanItem[] = [];
  for (const d of dashboards) if (include(d)) items.push(matches.get(d.name)!.item);

  // The service deletes the alerts on the tiles these dashboard updates drop or rename, whichever file
  // describes them: those alerts are created again, and a narrowed plan brings their files along.
  const lostTiles = input.liveAlerts ? lostTileKeys(items, input.live) : new Set<string>();
  for (const a of alerts) {
    if (!include(a) && !describesLostAlert(a, input.liveAlerts, lostTiles)) continue;
    const item = planAlert(a, rel(a.file), matches, input.state, input.reassertAlerts ?? false, caps, input.liveAlerts, markerTag, input.redact, lostTiles);
    items.push(item);
  }
  // Every live alert a file claims (by pin or name), targeted or not: the rest that carry the marker are orphans.
  const claimedAlerts = new Set<string>();
  if (input.liveAlerts) {
    for (const a of alerts) {
      const pin = a.doc.metadata.id;
      for (const l of input.liveAlerts) if (pin !== undefined ? l.id === pin : l.name === a.doc.spec.name) claimedAlerts.add(l.id);
    }
  }

  const targeted = input.include !== undefined;
  const { items: leftover, orphans, managed, unmanaged } = liveLeftovers(input, caps, { claimed, claimedAlerts, targeted });
  pushAll(items, leftover);

  if (input.prune && !input.allowEmpty) blockPruneToEmpty(items, { dashboards: dashboards.length, alerts: alerts.length });
  if (input.liveAlerts) tellAlertsGoneWith(items, input.live, input.liveAlerts, claimedAlerts);

  items.sort(
    (a, b) =>
      (a.kind === b.kind ? 0 : a.kind === 'Dashboard' ? -1 : 1) ||
      ACTION_ORDER[a.action] - ACTION_ORDER[b.action] ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      ((a.id ?? '') < (b.id ?? '') ? -1 : 1),
  );

  const summary: Plan['summary'] = { create: 0, update: 0, noop: 0, blocked: 0, blockedByReason: {} };
  for (const it of items) {
    if (it.action === 'delete') summary.delete = (summary.delete ?? 0) + 1;
    else summary[it.action]++;
    if (it.reason) summary.blockedByReason[it.reason] = (summary.blockedByReason[it.reason] ?? 0) + 1;
  }

  return {
    formatVersion: 1,
    createdAt: input.now.toISOString(),
    ...(input.env ? { env: input.env } : {}),
    fingerprint: input.fingerprint ?? fingerprintLive(input.live, input.state, input.liveAlerts),
    ...(input.liveAlerts ? { alertsRead: true } : {}),
    markerTag,
    summary,
    live: { dashboards: input.live.length, managed, unmanaged },
    targeted,
    items,
    ignoredFields: [...ignoredAll].sort(),
    ...(input.api && input.api !== 'seed' ? { api: input.api } : {}),
    ...(orphans.length > 0 ? { orphans: orphans.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1)) } : {}),
  };
}

/**
 * HyperDX deletes a tile's alerts with the tile (a dashboard deleted, or a tile an update removes or renames,
 * which gets a new id), made in the UI or not. Those no file declares are named on the dashboard's item, so
 * the plan shows what the apply takes away.
 */
function tellAlertsGoneWith(items: PlanItem[], live: readonly LiveDashboardInput[], alerts: readonly LiveAlert[], declared: ReadonlySet<string>): void {
  const byId = new Map(live.map((d) => [d.id, d]));
  for (const [i, it] of items.entries()) {
    if (it.kind !== 'Dashboard' || (it.action !== 'delete' && it.action !== 'update') || it.id === undefined) continue;
    const d = byId.get(it.id);
    if (!d) continue;
    // Kept: the tiles the update sends with their ids, still charts HyperDX keeps alerts on.
    const lost = tilesLosingAlerts(d, it.action === 'update' ? it.body : undefined);
    const names = alerts
      .filter((a) => !declared.has(a.id) && (a.dashboardId ?? (a as { dashboard?: unknown }).dashboard) === d.id && lost.has(a.tileId as string))
      .map((a) => (typeof a.name === 'string' && a.name !== '' ? a.name : a.id));
    if (names.length === 0) continue;
    const note = `; the service deletes with ${it.action === 'delete' ? 'it' : 'the tiles it drops, renames or makes charts alerts cannot watch'} ${names.length} alert${names.length === 1 ? '' : 's'} no file declares: ${listSome(names.map((n) => JSON.stringify(n)))}`;
    items[i] = { ...it, message: it.message + note };
  }
}

function planDashboard(
  d: Resource<'Dashboard'>,
  file: string,
  liveById: Map<string, LiveDashboardInput>,
  liveByName: Map<string, LiveDashboardInput[]>,
  markerTag: string,
  caps: Partial<ObservabilityCapabilities>,
  newId: () => string,
  memo: LiveDigestMemo | undefined,
): DashboardMatch {
  let desiredForm: NormalDashboard | undefined;
  const desiredOf = () => (desiredForm ??= displayForm(normalizeDesired(d.doc.spec, markerTag)));
  const base = { kind: 'Dashboard' as const, name: d.name, file };
  // A dashboard the parse cache answered: its facts say what matching needs, and its document is read only
  // when it differs from the live one (src/config/cache.ts).
  const pin = d.facts ? d.facts.id : d.doc.metadata.id;
  const specName = d.facts ? d.facts.specName : d.doc.spec.name;
  let live: LiveDashboardInput | undefined;
  if (pin !== undefined) {
    live = liveById.get(pin);
    if (!live) {
      return {
        live: undefined,
        item: {
          ...base,
          action: 'blocked',
          reason: 'unresolved-reference',
          id: pin,
          message: `metadata.id pins live dashboard ${pin}, which does not exist`,
          wayOut: ['remove metadata.id to create the dashboard anew', 'or set metadata.id to an existing dashboard'],
          after: desiredOf(),
          patch: [],
        },
      };
    }
  } else {
    const found = liveByName.get(specName) ?? [];
    if (found.length > 1) {
      const ids = found.map((f) => f.id).sort();
      return {
        live: undefined,
        item: {
          ...base,
          action: 'blocked',
          reason: 'ambiguous',
          candidates: ids,
          message: `${found.length} live dashboards are named "${specName}" (${ids.join(', ')})`,
          wayOut: [`pin one with metadata.id (one of ${ids.join(', ')})`, 'or delete the extra dashboards by hand'],
          after: desiredOf(),
          patch: [],
        },
      };
    }
    live = found[0];
    const theirs = live && otherProjectMarker(live.tags, markerTag);
    if (live && theirs !== undefined) {
      // Matched by name only, and another project's steward made it: an update would replace its tags
      // (that project's marker with this one's), so that project would lose it and this one's --prune
      // could later delete it. Two teams picking one name, or a pull request naming another team's
      // dashboard, must not take it over; pinning its id does so on purpose.
      return {
        live: undefined,
        item: {
          ...base,
          action: 'blocked',
          reason: 'other-project',
          id: live.id,
          message: `live dashboard "${specName}" (${live.id}) carries ${theirs}, another steward project's marker: matched by name only, it is not this project's to change`,
          wayOut: [
            'give this dashboard a name of its own (spec.name)',
            `or take that one over on purpose: pin it with metadata.id: ${live.id} (apply then gives it ${markerTag})`,
            `or, if this project was renamed, keep its old marker: set spec.observability.markerTag: ${theirs}`,
          ],
          after: desiredOf(),
          patch: [],
        },
      };
    }
  }

  if (!live) {
    return {
      live: undefined,
      item: {
        ...base,
        action: 'create',
        message: 'no live dashboard has this name',
        after: desiredOf(),
        patch: addAll(desiredOf()),
        body: createBody(d, markerTag),
      },
    };
  }

  // Equal normalized forms: unchanged, without aligning or diffing (most dashboards of a large project).
  // Alignment only narrows differences, so equal forms always give an empty patch.
  const wanted = d.facts?.desired?.[0] === markerTag ? d.facts.desired[1] : desiredDigest(d.doc.spec, markerTag);
  // Written out rather than spread from `base`: made for most of 10,000 dashboards, in the same key order.
  const noop = (digest: string, ignoredList: readonly string[]): DashboardMatch => ({
    live,
    item: {
      kind: 'Dashboard',
      name: d.name,
      file,
      action: 'noop',
      id: live.id,
      message: 'matches the live dashboard',
      patch: [],
      digest,
      ignoredFields: ignoredList.length ? [...ignoredList] : undefined,
    },
  });
  const remembered = wanted !== undefined ? memo?.get(live) : undefined;
  if (wanted !== undefined && remembered?.digest === wanted) return noop(wanted, remembered.ignored);
  const { normal: liveNormal, ignored: ignoredList } = normalizeLive(live, markerTag);
  const liveDigest = wanted !== undefined || memo ? normalDigest(liveNormal) : undefined;
  if (memo && liveDigest !== undefined) memo.set(live, { digest: liveDigest, ignored: ignoredList });
  if (wanted !== undefined && wanted === liveDigest) return noop(wanted, ignoredList);
  const desired = desiredOf();
  // Members of its configs and filters steward's schema does not know (a newer server's) are not compared.
  const known = withoutUnknownMembers(live);
  const compared = known.dropped.length > 0 ? normalizeLive(known.live, markerTag) : { normal: liveNormal, ignored: ignoredList };
  const ignoredSet = new Set([...compared.ignored, ...known.dropped]);
  const aligned = alignConfigs(dropUncomparableSeries(desired, live), displayForm(compared.normal), ignoredSet);
  const before = aligned.before;
  const after: NormalDashboard = aligned.desired;
  const patch = tagsAsSet(compare(before as object, after as object), before.tags ?? [], after.tags ?? []);
  const ignored = [...ignoredSet].sort();
  const ignoredFields = ignored.length ? ignored : undefined;
  if (patch.length === 0) {
    return { live, item: { ...base, action: 'noop', id: live.id, message: 'matches the live dashboard', patch, digest: normalDigest(after), ignoredFields } };
  }
  if (caps.updateDashboard) {
    // The PUT replaces each tile's config: what a live config holds beyond the file's goes, and the patch says so.
    // So does every filter member the file cannot say (the PUT sends the file's filters): shown going too.
    const configs = withWholeConfigs(before, displayForm(liveNormal), after);
    const whole = known.dropped.some((f) => f.startsWith('filters[]')) ? { ...configs, filters: liveNormal.filters } : configs;
    const sent = whole === before ? patch : tagsAsSet(compare(whole as object, after as object), whole.tags ?? [], after.tags ?? []);
    return {
      live,
      item: {
        ...base,
        action: 'update',
        id: live.id,
        message: `live dashboard ${live.id} differs in ${describePatch(sent)}`,
        before: whole,
        after,
        patch: sent,
        ignoredFields,
        body: updateBody(d, live, markerTag, newId),
      },
    };
  }
  return {
    live,
    item: {
      ...base,
      action: 'blocked',
      reason: 'no-update-api',
      id: live.id,
      message: `live dashboard ${live.id} differs in ${describePatch(patch)}, and the API cannot update dashboards`,
      wayOut: [
        `make the file match the live dashboard: \`steward import --id ${live.id}\` rewrites the file that declares it (in place, comments kept)`,
        `or delete dashboard ${live.id} by hand so that the next apply creates it from the file`,
      ],
      before,
      after,
      patch,
      ignoredFields,
    },
  };
}

/**
 * Tags are a set: the positional operations fast-json-patch makes for sorted lists (one added tag shifts
 * every later one) become one `remove` per tag that left and one `add` per tag that came.
 */
function tagsAsSet(patch: Operation[], before: readonly string[], after: readonly string[]): Operation[] {
  if (!patch.some((op) => op.path === '/tags' || op.path.startsWith('/tags/'))) return patch;
  const rest = patch.filter((op) => op.path !== '/tags' && !op.path.startsWith('/tags/'));
  const had = new Set(before);
  const want = new Set(after);
  const ops: Operation[] = [];
  before.forEach((t, i) => {
    if (!want.has(t)) ops.push({ op: 'remove', path: `/tags/${i}` });
  });
  for (const t of after) if (!had.has(t)) ops.push({ op: 'add', path: '/tags/-', value: t });
  return [...ops, ...rest];
}

function describePatch(patch: Operation[]): string {
  const fields = [...new Set(patch.map((p) => (p.path.startsWith('/tags/') ? 'tags' : p.path.split('/').slice(1, 3).map(unescape).join('/'))))];
  return fields.length <= 3 ? fields.join(', ') : `${fields.slice(0, 3).join(', ')} and ${fields.length - 3} more`;
}

function unescape(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}
