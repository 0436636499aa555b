/**
 * Alerts in the plan: bound to their tile by dashboard and tile name, and compared either with what steward
 * last sent (the seed API cannot read alerts: the state file) or, where the service lists alerts, with the live
 * alert field by field. Pure, like computePlan, which calls planAlert once per alert file.
 */
import fastJsonPatch from 'fast-json-patch';
import { liveChannels, sentChannelOf, WEBHOOK_CHANNEL_EXTRAS, type AlertBody, type LiveAlert, type SentChannel, type WebhookChannel } from '../model/alert.ts';
import type { ObservabilityCapabilities } from '../clients/profiles.ts';
import type { Resource } from '../model/resource.ts';
import type { DashboardMatch } from './plan.ts';
import { KNOWN_AFTER_APPLY, type LiveDashboardInput, type PlanItem, type StateFile, type TileReference } from './types.ts';
import { normalDigest } from './normalize.ts';
import { tilesLosingAlerts } from './dashboard-body.ts';
import { addAll } from './patch-ops.ts';
import { redactStrings } from '../shared/redact-strings.ts';
import { REDACTED } from '../clients/redact.ts';

const { compare } = fastJsonPatch;

export function planAlert(
  a: Resource<'Alert'>,
  file: string,
  dashboards: Map<string, DashboardMatch>,
  state: StateFile,
  reassert: boolean,
  caps: Partial<ObservabilityCapabilities>,
  liveAlerts: readonly LiveAlert[] | undefined,
  markerTag: string,
  redact?: (s: string) => string,
  lostTiles: ReadonlySet<string> = new Set(),
): PlanItem {
  const spec = a.doc.spec;
  const base = { kind: 'Alert' as const, name: a.name, file, ...(a.doc.metadata.id !== undefined ? { id: a.doc.metadata.id } : {}) };
  let reference: TileReference | undefined;

  if (spec.source === 'tile' && spec.tile) {
    const m = dashboards.get(spec.tile.dashboard);
    const unresolved = (why: string): PlanItem => ({
      ...base,
      action: 'blocked',
      reason: 'unresolved-reference',
      message: `tile ${spec.tile!.dashboard} / "${spec.tile!.name}" cannot be resolved: ${why}`,
      wayOut: ['resolve the dashboard first (see its item), then plan again'],
      patch: [],
    });
    if (!m) return unresolved('no such dashboard');
    if (m.item.action === 'create') {
      reference = { dashboard: spec.tile.dashboard, tile: spec.tile.name, dashboardId: KNOWN_AFTER_APPLY, tileId: KNOWN_AFTER_APPLY };
    } else if (m.live && m.item.action === 'update' && !(m.live.tiles ?? []).some((t) => t && t.name === spec.tile!.name)) {
      // A tile this plan's update adds: the service assigns its id during apply.
      reference = { dashboard: spec.tile.dashboard, tile: spec.tile.name, dashboardId: m.live.id, tileId: KNOWN_AFTER_APPLY };
    } else if (m.live) {
      const tile = (m.live.tiles ?? []).find((t) => t && t.name === spec.tile!.name);
      if (!tile || typeof tile.id !== 'string') return unresolved(`live dashboard ${m.live.id} has no tile named "${spec.tile.name}"`);
      reference = { dashboard: spec.tile.dashboard, tile: spec.tile.name, dashboardId: m.live.id, tileId: tile.id };
    } else {
      return unresolved(`the dashboard is ${m.item.reason ?? m.item.action}`);
    }
  }

  // Where alerts are read live, the marker in `note` says steward owns the alert (orphans, prune).
  const body = alertBody(spec, reference, caps, liveAlerts ? markerTag : undefined);
  if (liveAlerts) {
    return planLiveAlert(a, base, body, reference, liveAlerts, caps, markerTag, lostTiles);
  }
  const id = a.doc.metadata.id!;
  const record = state.alerts[id];
  let patch = compare((record?.sent ?? {}) as object, body as object);
  // The record holds every secret value as [redacted] (writeState): compared so, an alert that reads one is in
  // sync; a new value alone is sent with --reassert-alerts. Only then: most alerts read no secret.
  if (patch.length > 0 && redact && record && JSON.stringify(record.sent).includes(REDACTED))
    patch = compare(record.sent as object, redactStrings(body, redact) as object);
  const common = { ...base, id, before: record?.sent, after: body, body, patch, ...(reference ? { reference } : {}) };
  if (!record) return { ...common, action: 'update', message: 'no record of a previous apply: the full configuration will be sent' };
  // A noop carries a digest, not the bodies (issue 15: apply never reads a noop's body).
  if (patch.length === 0 && !reassert) {
    return {
      ...base,
      action: 'noop',
      message: `in sync as of ${record.appliedAt}`,
      inSyncAsOf: record.appliedAt,
      patch,
      digest: normalDigest(body),
      ...(reference ? { reference } : {}),
    };
  }
  if (patch.length === 0) return { ...common, action: 'update', message: `re-asserted (--reassert-alerts); last applied ${record.appliedAt}` };
  return { ...common, action: 'update', message: `differs from what was last applied (${record.appliedAt})` };
}

type AlertSpec = Resource<'Alert'>['doc']['spec'];

/**
 * The body steward sends for an alert: every member, every time (the current server replaces an alert on
 * PUT, so a member left out is lost). Profiles with a `channels` list get the complete list.
 */
function alertBody(spec: AlertSpec, reference: TileReference | undefined, caps: Partial<ObservabilityCapabilities>, note: string | undefined): AlertBody {
  const channels = (spec.channels ?? (spec.channel ? [spec.channel] : [])).map(sentChannel);
  return {
    name: spec.name,
    ...(spec.message !== undefined ? { message: spec.message } : {}),
    threshold: spec.threshold,
    ...(spec.thresholdMax !== undefined ? { thresholdMax: spec.thresholdMax } : {}),
    thresholdType: spec.thresholdType as AlertBody['thresholdType'],
    interval: spec.interval,
    source: spec.source as AlertBody['source'],
    ...(reference ? { dashboardId: reference.dashboardId, tileId: reference.tileId } : {}),
    ...(spec.savedSearchId !== undefined ? { savedSearchId: spec.savedSearchId } : {}),
    ...(spec.groupBy !== undefined ? { groupBy: spec.groupBy } : {}),
    ...(spec.numConsecutiveWindows !== undefined ? { numConsecutiveWindows: spec.numConsecutiveWindows } : {}),
    ...(spec.scheduleOffsetMinutes !== undefined ? { scheduleOffsetMinutes: spec.scheduleOffsetMinutes } : {}),
    ...(spec.scheduleStartAt !== undefined ? { scheduleStartAt: spec.scheduleStartAt } : {}),
    ...(caps.alertChannels ? channelList(channels) : { channel: channels[0]! }),
    ...(note !== undefined ? { note } : {}),
  };
}

/**
 * A file's channel as it is sent (a webhook name is resolved to webhookId before the plan): with every member
 * the file declares. A member the file leaves out is not sent, and the PUT replaces the alert: where the live
 * channel has it, the plan shows it going (normalizeLiveAlert keeps it on the live side).
 */
function sentChannel(c: NonNullable<AlertSpec['channel']>): SentChannel {
  if (c.type === 'email') return { type: 'email', emailRecipients: [...(c.emailRecipients ?? [])] };
  const out: WebhookChannel = { type: 'webhook', webhookId: c.webhookId ?? '' };
  for (const k of WEBHOOK_CHANNEL_EXTRAS) if (c[k] !== undefined) (out as Record<string, unknown>)[k] = c[k];
  return out;
}

/**
 * A `channels` list with `channel` beside it, equal to its first entry: HyperDX 2026-08 answers both and
 * takes both (when they agree), and HyperDX before 2026-08 requires `channel` and knows no `channels`.
 */
function channelList(channels: SentChannel[]): Pick<AlertBody, 'channel' | 'channels'> {
  return channels.length > 0 ? { channel: { ...channels[0]! }, channels } : { channels };
}

const RANGES = new Set(['between', 'not_between']);

/** Two RFC 3339 times that name the same instant (`…T10:00:00Z` and the server's `…T10:00:00.000Z`). */
function sameInstant(a: string, b: string): boolean {
  const x = Date.parse(a);
  return Number.isFinite(x) && x === Date.parse(b);
}

/** The comparable members of a live alert, in the shape of the body steward sends. */
export function normalizeLiveAlert(live: LiveAlert, caps: Partial<ObservabilityCapabilities>): AlertBody {
  const l = live as LiveAlert & Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  // Every channel member steward models that the server holds: one the file lacks shows as going.
  const channels = liveChannels(live).map(sentChannelOf);
  const dashboardId = str(l['dashboardId']) ?? str(l['dashboard']);
  const savedSearchId = str(l['savedSearchId']) ?? str(l['savedSearch']);
  return {
    name: str(l['name']) ?? '',
    ...(str(l['message']) !== undefined && l['message'] !== '' ? { message: str(l['message'])! } : {}),
    threshold: typeof l['threshold'] === 'number' ? (l['threshold'] as number) : NaN,
    // Only a range has an upper bound: HyperDX keeps (and answers) a thresholdMax nothing can clear.
    ...(typeof l['thresholdMax'] === 'number' && RANGES.has(String(l['thresholdType'])) ? { thresholdMax: l['thresholdMax'] as number } : {}),
    thresholdType: String(l['thresholdType'] ?? '') as AlertBody['thresholdType'],
    interval: String(l['interval'] ?? ''),
    source: String(l['source'] ?? '') as AlertBody['source'],
    ...(dashboardId !== undefined && l['source'] === 'tile' ? { dashboardId, tileId: str(l['tileId']) ?? '' } : {}),
    ...(savedSearchId !== undefined && l['source'] !== 'tile' ? { savedSearchId } : {}),
    ...(str(l['groupBy']) !== undefined && l['groupBy'] !== '' ? { groupBy: str(l['groupBy'])! } : {}),
    ...(typeof l['numConsecutiveWindows'] === 'number' ? { numConsecutiveWindows: l['numConsecutiveWindows'] as number } : {}),
    ...(typeof l['scheduleOffsetMinutes'] === 'number' ? { scheduleOffsetMinutes: l['scheduleOffsetMinutes'] as number } : {}),
    ...(str(l['scheduleStartAt']) !== undefined ? { scheduleStartAt: str(l['scheduleStartAt'])! } : {}),
    ...(caps.alertChannels ? channelList(channels) : { channel: channels[0] ?? { type: 'webhook', webhookId: '' } }),
    ...(str(l['note']) !== undefined && l['note'] !== '' ? { note: str(l['note'])! } : {}),
  };
}

/** An alert where the service can be read: matched by metadata.id or name, created, updated or unchanged. */
function planLiveAlert(
  a: Resource<'Alert'>,
  base: { kind: 'Alert'; name: string; file: string; id?: string },
  body: AlertBody,
  reference: TileReference | undefined,
  liveAlerts: readonly LiveAlert[],
  caps: Partial<ObservabilityCapabilities>,
  markerTag: string,
  lostTiles: ReadonlySet<string>,
): PlanItem {
  const pin = a.doc.metadata.id;
  const ref = reference ? { reference } : {};
  let live: LiveAlert | undefined;
  if (pin !== undefined) {
    live = liveAlerts.find((l) => l.id === pin);
    if (!live) {
      return {
        ...base,
        action: 'blocked',
        reason: 'unresolved-reference',
        message: `metadata.id names alert ${pin}, which does not exist on this service`,
        wayOut: ['remove metadata.id to create the alert from the file', 'or set metadata.id to an existing alert'],
        patch: [],
      };
    }
  } else {
    const found = liveAlerts.filter((l) => l.name === a.doc.spec.name);
    if (found.length > 1) {
      const ids = found.map((f) => f.id).sort();
      return {
        ...base,
        action: 'blocked',
        reason: 'ambiguous',
        candidates: ids,
        message: `${found.length} live alerts are named "${a.doc.spec.name}" (${ids.join(', ')})`,
        wayOut: [`pin one with metadata.id (one of ${ids.join(', ')})`, 'or delete the extra alerts'],
        patch: [],
      };
    }
    live = found[0];
    const theirs = live && otherProjectMarker([live.note], markerTag);
    if (live && theirs !== undefined) {
      // As for dashboards (plan.ts): matched by name only, another project's alert; an update would
      // give it this project's marker, and this project's --prune could later delete it.
      return {
        ...base,
        action: 'blocked',
        reason: 'other-project',
        id: live.id,
        message: `live alert "${a.doc.spec.name}" (${live.id}) carries ${theirs}, another steward project's marker: matched by name only, it is not this project's to change`,
        wayOut: [
          'give this alert a name of its own (spec.name)',
          `or take that one over on purpose: pin it with metadata.id: ${live.id}`,
          `or, if this project was renamed, keep its old marker: set spec.observability.markerTag: ${theirs}`,
        ],
        patch: [],
      };
    }
  }
  if (!live) {
    if (!caps.createAlert)
      return {
        ...base,
        action: 'blocked',
        reason: 'unresolved-reference',
        message: 'no live alert has this name, and this service cannot create alerts',
        patch: [],
      };
    return { ...base, action: 'create', message: 'no live alert has this name', after: body, body, patch: addAll(body as object), ...ref };
  }
  // Its tile goes with one of this apply's dashboard updates (the file's dashboard, or the one the alert is on
  // now), and the service deletes the alert with it: an update would find nothing (404), so it is created
  // again, on the tile the file names. A pinned alert keeps its update (a new id would leave metadata.id
  // naming nothing), and the plan says it will not be found.
  const lost = lostTiles.has(liveTileKey(live));
  const lostPinned =
    lost && pin !== undefined
      ? `its tile is dropped or renamed by this apply's dashboard update, and the service deletes alert ${live.id} with it, so this update will find nothing: remove metadata.id to have it created again on the tile the file names`
      : undefined;
  if (lost && pin === undefined && caps.createAlert) {
    return {
      ...base,
      action: 'create',
      message: `its tile on the live dashboard is dropped or renamed by this apply, and the service deletes alert ${live.id} with it: created again`,
      after: body,
      body,
      patch: addAll(body as object),
      ...ref,
    };
  }
  const before = normalizeLiveAlert(live, caps);
  // The server answers the instant it stores (`…00.000Z`); the file may write the same instant another way.
  if (typeof before.scheduleStartAt === 'string' && typeof body.scheduleStartAt === 'string' && sameInstant(before.scheduleStartAt, body.scheduleStartAt)) {
    before.scheduleStartAt = body.scheduleStartAt;
  }
  // An offset of 0 is the server's own default (it stores 0 whenever scheduleStartAt is set).
  if (body.scheduleOffsetMinutes === undefined && before.scheduleOffsetMinutes === 0) delete before.scheduleOffsetMinutes;
  // HyperDX keeps a schedule member an update leaves out: removing one from the file must say so.
  body = { ...body };
  if (body.scheduleStartAt === undefined && before.scheduleStartAt != null) body.scheduleStartAt = null;
  if (body.scheduleOffsetMinutes === undefined && typeof before.scheduleOffsetMinutes === 'number') body.scheduleOffsetMinutes = 0;
  // Ids this apply assigns cannot be compared yet: the alert is sent again once they are known.
  const comparable = { ...body };
  if (comparable.dashboardId === KNOWN_AFTER_APPLY || comparable.tileId === KNOWN_AFTER_APPLY) {
    const patch = compare(before as object, body as object);
    return { ...base, id: live.id, action: 'update', message: lostPinned ?? 'bound to a tile this apply creates', before, after: body, body, patch, ...ref };
  }
  const patch = compare(before as object, comparable as object);
  if (patch.length === 0) return { ...base, id: live.id, action: 'noop', message: 'matches the live alert', patch, digest: normalDigest(body), ...ref };
  return { ...base, id: live.id, action: 'update', message: lostPinned ?? `live alert ${live.id} differs`, before, after: body, body, patch, ...ref };
}

/** Where a live alert watches: its dashboard and tile, as `lostTileKeys` names them. */
function liveTileKey(l: LiveAlert): string {
  const d = (l as { dashboardId?: unknown }).dashboardId ?? (l as { dashboard?: unknown }).dashboard;
  return `${String(d)}\u0000${String(l.tileId)}`;
}

/**
 * The tiles (dashboard and tile id) whose alerts the service deletes when it applies these items' dashboard
 * updates: those an update drops or renames, or makes a chart alerts cannot watch.
 */
export function lostTileKeys(items: readonly PlanItem[], live: readonly LiveDashboardInput[]): Set<string> {
  const byId = new Map(live.map((d) => [d.id, d]));
  const keys = new Set<string>();
  for (const it of items) {
    if (it.kind !== 'Dashboard' || it.action !== 'update' || it.id === undefined) continue;
    const d = byId.get(it.id);
    if (d) for (const t of tilesLosingAlerts(d, it.body as { tiles?: readonly unknown[] } | undefined)) keys.add(`${d.id}\u0000${t}`);
  }
  return keys;
}

/**
 * Whether an alert file describes (by metadata.id, else by name) a live alert on one of `lost`'s tiles. A
 * plan narrowed by --target or paths brings such a file along: the dashboard update it holds deletes that
 * alert, which the plan must show (and create again) rather than the apply take away unseen.
 */
export function describesLostAlert(a: Resource<'Alert'>, liveAlerts: readonly LiveAlert[] | undefined, lost: ReadonlySet<string>): boolean {
  if (!liveAlerts || lost.size === 0) return false;
  const pin = a.doc.metadata.id;
  return liveAlerts.some((l) => (pin !== undefined ? l.id === pin : l.name === a.doc.spec.name) && lost.has(liveTileKey(l)));
}

/** The prefix of the markers steward gives by default, one per project (`managed-by:steward/<metadata.name>`). */
const PROJECT_MARKER_PREFIX = 'managed-by:steward/';

/**
 * Another project's default marker among a live dashboard's tags, if any. Only the per-project form is
 * told apart: the old shared `managed-by:steward` (and a custom marker) names no project, and projects
 * made before the per-project default are matched by name on purpose (docs/projects.md).
 */
export function otherProjectMarker(tags: unknown, markerTag: string): string | undefined {
  if (!Array.isArray(tags) || tags.includes(markerTag)) return undefined;
  return tags.find((t): t is string => typeof t === 'string' && t.startsWith(PROJECT_MARKER_PREFIX) && t.length > PROJECT_MARKER_PREFIX.length);
}
