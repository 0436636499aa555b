import { ALERTABLE_CHARTS, lacksValueExpression, MAX_LIVE_TAG_LENGTH, sourceSlots } from '../model/dashboard.ts';
import { WEBHOOK_CHANNEL_EXTRAS } from '../model/alert.ts';
import type { AnyResource, DashboardFacts, LocalProblem, Resource } from '../model/resource.ts';
import type { DashboardSpec } from './kinds.ts';
import { didYouMean, hintBudget } from './did-you-mean.ts';
import { filterProblems } from './filter-checks.ts';
import { listSome } from '../shared/text.ts';
import { pushAll } from '../shared/arrays.ts';

/** A cross-document problem, located by document and JSON pointer (positions are resolved by the caller). */
export interface SemanticProblem {
  file: string;
  index: number;
  pointer: string;
  atKey?: boolean;
  message: string;
  severity: 'error' | 'warning';
  /** The other place involved (the first definition of a duplicate). */
  related?: { file: string; index: number; pointer: string };
  /** How the message names the related place (default "first at"; template stamps say "stamped by"). */
  relatedLabel?: string;
  /** Characters into the string at `pointer` where the problem is (a template's reference), when known. */
  offset?: number;
}

const GRID_COLUMNS = 24;

/** HyperDX API v2 (2026-08): tags are at most 32 characters, at most 50 of them (one is the marker tag). */
const MAX_TAGS = 50;
/** HyperDX API v2 (2026-08): a dashboard's name is at most 1,024 characters, its tiles at most 500. */
const MAX_LIVE_NAME_LENGTH = 1024;
const MAX_LIVE_TILES = 500;

/**
 * A scheduleStartAt as both the contract and the server take it: the spec's `format: date-time` needs the
 * seconds and a real date (2026-02-30 is none), and HyperDX reads it with zod's `datetime()`, which takes
 * UTC (`Z`) only and refuses an offset such as +02:00.
 */
const TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Why `s` is not a scheduleStartAt the live APIs take, naming the same instant in their form where it has one. */
function scheduleStartProblem(s: string, api: string): string | undefined {
  const m = TIME.exec(s);
  const wall = m && `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}`;
  if (!m || !wall || Number.isNaN(Date.parse(`${wall}Z`)) || !new Date(`${wall}Z`).toISOString().startsWith(wall))
    return `scheduleStartAt "${s}" is not a valid time (no such day or hour, or not a date and time); expected a UTC time with seconds, like 2026-02-08T10:00:00Z`;
  if (m[4] !== undefined && m[6] === 'Z') return undefined;
  const utc = new Date(Date.parse(s)).toISOString().replace('.000Z', 'Z');
  return `scheduleStartAt "${s}": the ${api} API takes a UTC time with seconds (Z, no offset); this instant is ${utc}`;
}

/** HyperDX 2026-08's alert intervals (AlertInterval), in minutes. */
const INTERVAL_MINUTES: Readonly<Record<string, number>> = { '1m': 1, '5m': 5, '15m': 15, '30m': 30, '1h': 60, '6h': 360, '12h': 720, '1d': 1440 };
const LIVE_INTERVALS = Object.keys(INTERVAL_MINUTES);

type AlertDoc = Resource<'Alert'>['doc'];

/** What the profile's server refuses in an alert (the schema takes the union of every profile's values). */
function alertProfileProblems(doc: AlertDoc, api: string): Array<{ pointer: string; message: string; atKey?: boolean; severity?: 'warning' }> {
  const out: Array<{ pointer: string; message: string; atKey?: boolean; severity?: 'warning' }> = [];
  const spec = doc.spec;
  const channels = spec.channels ?? (spec.channel ? [spec.channel] : []);
  channels.forEach((c, i) => {
    const at = spec.channels ? `/spec/channels/${i}` : '/spec/channel';
    // ClickStack's two channel shapes (ClickStackAlertChannel is oneOf them): a member of the other is refused.
    const foreign = c.type === 'email' ? (['webhookId', 'webhook', ...WEBHOOK_CHANNEL_EXTRAS] as const) : (['emailRecipients'] as const);
    for (const k of foreign)
      if (c[k] !== undefined)
        out.push({ pointer: `${at}/${k}`, atKey: true, message: `${k} is for ${c.type === 'email' ? 'webhook' : 'email'} channels, not ${c.type}` });
    if (c.type === 'email') {
      if (c.emailRecipients === undefined) out.push({ pointer: at, message: 'an email channel takes emailRecipients' });
      if (api !== 'clickstack-cloud')
        out.push({ pointer: `${at}/type`, message: `email channels need observability.api: clickstack-cloud (the ${api} API's channels are webhooks)` });
      return;
    }
    if ((c.webhookId === undefined) === (c.webhook === undefined))
      out.push({ pointer: at, message: 'a webhook channel takes webhookId (the id) or webhook (its name), one of the two' });
    // HyperDX's channel is {type, webhookId} and its server drops other members: they would plan as drift forever.
    for (const k of api === 'clickstack-cloud' ? [] : WEBHOOK_CHANNEL_EXTRAS)
      if (c[k] !== undefined)
        out.push({
          pointer: `${at}/${k}`,
          atKey: true,
          message: `${k} needs observability.api: clickstack-cloud (the ${api} API's webhook channel takes webhookId only)`,
        });
  });
  if (api === 'seed') {
    if (doc.metadata.id === undefined)
      out.push({
        pointer: '/metadata',
        message: 'missing required key "id": the seed API cannot create alerts, so metadata.id names the alert made once in the UI',
      });
    if (spec.thresholdType !== 'above' && spec.thresholdType !== 'below')
      out.push({
        pointer: '/spec/thresholdType',
        message: `thresholdType ${spec.thresholdType} needs observability.api: hyperdx or clickstack-cloud (the seed API takes above and below)`,
      });
    if (spec.source === 'saved_search')
      out.push({ pointer: '/spec/source', message: 'the seed API calls it search; saved_search is hyperdx and clickstack-cloud' });
    if (spec.channels !== undefined)
      out.push({ pointer: '/spec/channels', atKey: true, message: 'channels needs observability.api: hyperdx (the seed API takes one channel)' });
    if (channels.some((c) => c.webhook !== undefined))
      out.push({ pointer: '/spec/channel/webhook', message: 'webhook names need a profile that lists webhooks (hyperdx, clickstack-cloud); give webhookId' });
    // The seed's ids are 24 lowercase hex characters; the live profiles take whatever id the service assigned.
    if (spec.channel?.webhookId !== undefined && !/^[0-9a-f]{24}$/.test(spec.channel.webhookId)) {
      out.push({
        pointer: '/spec/channel/webhookId',
        message: `the string "${spec.channel.webhookId}" is not valid: must be 24 lowercase hex characters (an id the service assigned)`,
      });
    }
    for (const k of ['savedSearchId', 'thresholdMax', 'groupBy', 'numConsecutiveWindows', 'scheduleOffsetMinutes', 'scheduleStartAt'] as const) {
      if (spec[k] !== undefined)
        out.push({ pointer: `/spec/${k}`, atKey: true, message: `${k} needs observability.api: hyperdx or clickstack-cloud (the seed API does not take it)` });
    }
    return out;
  }
  if (!LIVE_INTERVALS.includes(spec.interval)) {
    const hint = didYouMean(spec.interval, LIVE_INTERVALS);
    out.push({
      pointer: '/spec/interval',
      message: `interval ${spec.interval}: the ${api} API takes ${LIVE_INTERVALS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`,
    });
  }
  // HyperDX (validateAlertScheduleOffsetMinutes): the offset is into the interval, so less than it.
  const minutes = Object.hasOwn(INTERVAL_MINUTES, spec.interval) ? INTERVAL_MINUTES[spec.interval]! : undefined;
  if (spec.scheduleOffsetMinutes !== undefined && minutes !== undefined && spec.scheduleOffsetMinutes >= minutes)
    out.push({
      pointer: '/spec/scheduleOffsetMinutes',
      message: `scheduleOffsetMinutes ${spec.scheduleOffsetMinutes} is not inside the ${spec.interval} interval; the ${api} API takes 0 to ${minutes - 1} with it`,
    });
  // HyperDX's server bounds an alert's texts (its alertSchema: name 1-512, message 1-4,096 characters), which
  // the spec leaves open: an empty message was sent, refused, and planned again after every apply.
  for (const [k, max] of [
    ['name', 512],
    ['message', 4096],
  ] as const) {
    const v = spec[k];
    if (v !== undefined && (v.length === 0 || v.length > max))
      out.push({
        pointer: `/spec/${k}`,
        message: `${k} is ${v.length === 0 ? 'empty' : `${v.length} characters long`}; the ${api} API takes 1 to ${max.toLocaleString('en-US')} characters${k === 'message' && v.length === 0 ? ': leave message out for none' : ''}`,
      });
  }
  if (spec.source === 'search') out.push({ pointer: '/spec/source', message: `the ${api} API calls it saved_search; did you mean "saved_search"?` });
  if (spec.source === 'saved_search' && spec.savedSearchId === undefined) out.push({ pointer: '/spec', message: 'a saved_search alert needs savedSearchId' });
  if ((spec.thresholdType === 'between' || spec.thresholdType === 'not_between') && spec.thresholdMax === undefined)
    out.push({ pointer: '/spec', message: `thresholdType ${spec.thresholdType} needs thresholdMax` });
  else if ((spec.thresholdType === 'between' || spec.thresholdType === 'not_between') && spec.thresholdMax! < spec.threshold)
    out.push({
      pointer: '/spec/thresholdMax',
      message: `thresholdMax ${spec.thresholdMax} is below threshold ${spec.threshold}; the ${api} API takes thresholdMax >= threshold`,
    });
  const startProblem = spec.scheduleStartAt === undefined ? undefined : scheduleStartProblem(spec.scheduleStartAt, api);
  if (startProblem) out.push({ pointer: '/spec/scheduleStartAt', message: startProblem });
  if (spec.channel && spec.channels) out.push({ pointer: '/spec/channel', atKey: true, message: 'give channel or channels, not both' });
  // HyperDX drops these from a tile alert (its tile alert schema has neither): they would show as drift forever.
  if (spec.source === 'tile') {
    for (const k of ['groupBy', 'savedSearchId'] as const) {
      if (spec[k] !== undefined)
        out.push({ pointer: `/spec/${k}`, atKey: true, message: `${k} is for saved_search alerts; the ${api} API drops it from a tile alert` });
    }
  }
  if (spec.thresholdMax !== undefined && spec.thresholdType !== 'between' && spec.thresholdType !== 'not_between')
    out.push({
      pointer: '/spec/thresholdMax',
      atKey: true,
      // A warning: files import wrote before carry one, and plan compares it only for ranges.
      severity: 'warning',
      message: `thresholdMax is for between and not_between; with thresholdType ${spec.thresholdType} the ${api} API keeps it unused`,
    });
  if (spec.scheduleStartAt !== undefined && spec.scheduleOffsetMinutes !== undefined && spec.scheduleOffsetMinutes !== 0)
    out.push({
      pointer: '/spec/scheduleOffsetMinutes',
      atKey: true,
      message: `with scheduleStartAt the ${api} API sets scheduleOffsetMinutes to 0: give one of the two`,
    });
  // HyperDX 2026-08 (AlertChannels): "duplicates are rejected". A name that resolves to a listed id is plan's.
  if (api !== 'seed' && spec.channels) {
    const first = new Map<string, number>();
    spec.channels.forEach((c, j) => {
      const key = c.webhookId !== undefined ? `id:${c.webhookId}` : c.webhook !== undefined ? `name:${c.webhook}` : undefined;
      if (key === undefined) return;
      const i = first.get(key);
      if (i === undefined) return void first.set(key, j);
      out.push({
        pointer: `/spec/channels/${j}`,
        message: `channel ${j} repeats channel ${i} (webhook ${c.webhookId ?? JSON.stringify(c.webhook)}); the ${api} API refuses an alert that lists a webhook twice`,
      });
    });
  }
  if (api === 'clickstack-cloud' && spec.channels && spec.channels.length > 1)
    out.push({ pointer: '/spec/channels', message: 'the ClickStack API takes one channel per alert' });
  return out;
}

type TileLike = { name: string; x: number; y: number; w: number; h: number; series?: unknown; config?: unknown };

const TILE_BOUNDS: ReadonlyArray<[keyof TileLike, number, number | undefined]> = [
  ['x', 0, GRID_COLUMNS - 1],
  ['y', 0, undefined],
  ['w', 1, GRID_COLUMNS],
  ['h', 1, undefined],
];

/**
 * What HyperDX 2026-08 (`DashboardChartSeries`) and ClickStack require of a series, by type. Search and
 * markdown series need `fields` and `content`, which steward's series cannot hold: those tiles take `config`.
 */
const LIVE_SERIES_NEEDS: Readonly<Record<string, readonly string[]>> = {
  time: ['sourceId', 'aggFn', 'where', 'whereLanguage', 'groupBy'],
  table: ['sourceId', 'aggFn', 'where', 'whereLanguage', 'groupBy'],
  number: ['sourceId', 'aggFn', 'where', 'whereLanguage'],
};

/** `a, b and c`. */
function joinLast(items: readonly string[], word: 'and' | 'or'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

/**
 * The series form on a live profile: what its server refuses. The seed's series (`dataSource`, no sourceId)
 * are valid files, and without this check only the create's 400 said so.
 */
function seriesProfileProblems(name: string, series: readonly unknown[], i: number, api: string, out: Array<{ pointer: string; message: string }>): void {
  const at = `/spec/tiles/${i}/series`;
  if (series.length === 0) out.push({ pointer: at, message: `tile "${name}" has no series; the ${api} API needs at least one` });
  series.forEach((s, j) => {
    if (!s || typeof s !== 'object') return;
    const member = s as Record<string, unknown>;
    const type = member['type'];
    if (type === undefined) {
      out.push({ pointer: `${at}/${j}`, message: `series ${j} of tile "${name}" needs a type: ${joinLast(Object.keys(LIVE_SERIES_NEEDS), 'or')}` });
      return;
    }
    const needs = typeof type === 'string' && Object.hasOwn(LIVE_SERIES_NEEDS, type) ? LIVE_SERIES_NEEDS[type]! : undefined;
    if (!needs) {
      out.push({ pointer: `${at}/${j}/type`, message: `series of type ${String(type)} are not taken by the ${api} API: write the tile in the config form` });
      return;
    }
    const missing = needs.filter((k) => member[k] === undefined);
    if (missing.length === 0) return;
    const seed = member['dataSource'] !== undefined && missing.includes('sourceId');
    out.push({
      pointer: `${at}/${j}`,
      message:
        `series ${j} of tile "${name}" lacks ${joinLast(missing, 'and')}, which the ${api} API requires` +
        (seed ? " (dataSource is the seed API's: give sourceId, or write the tile in the config form with source: <name>)" : ''),
    });
  });
}

/**
 * What the profile's server refuses in a tile. The schema accepts any integer position (the seed's server,
 * HyperDX 2025-11, returns and takes them); HyperDX 2026-08 and ClickStack take x 0-23, w 1-24, y and h
 * from 0 and 1. `config` tiles and source names need a profile whose server knows them.
 */
function tileProfileProblems(t: TileLike, i: number, api: string): Array<{ pointer: string; message: string }> {
  const out: Array<{ pointer: string; message: string }> = [];
  const at = (k: string) => `/spec/tiles/${i}/${k}`;
  if (api === 'seed') {
    if (t.config !== undefined)
      out.push({ pointer: at('config'), message: 'tiles in the config form need observability.api: hyperdx or clickstack-cloud (the seed API takes series)' });
    return out;
  }
  for (const [k, min, max] of TILE_BOUNDS) {
    const v = t[k] as number;
    if (v < min || (max !== undefined && v > max))
      out.push({ pointer: at(k), message: `${k} is ${v}; the ${api} API takes ${max === undefined ? `${min} or more` : `${min} to ${max}`}` });
  }
  if (t.config === undefined && t.series === undefined)
    out.push({ pointer: `/spec/tiles/${i}`, message: `tile "${t.name}" has neither config nor series: say what it shows` });
  if (t.config !== undefined && t.series !== undefined) out.push({ pointer: at('series'), message: 'a tile takes config or series, not both' });
  if (Array.isArray(t.series)) seriesProfileProblems(t.name, t.series as unknown[], i, api, out);
  // SelectItem's prose, which HyperDX's server enforces (externalDashboardSelectItemSchema): every aggFn but
  // count aggregates a value, count takes none, and only quantile takes a level (refused on ClickStack below).
  const items = (t.config as { select?: unknown } | undefined)?.select;
  if (Array.isArray(items)) {
    items.forEach((item: unknown, j) => {
      if (!item || typeof item !== 'object') return;
      const { aggFn, valueExpression } = item as { aggFn?: unknown; valueExpression?: unknown };
      if (lacksValueExpression(item))
        out.push({
          pointer: at(`config/select/${j}/valueExpression`),
          message: `aggFn ${String(aggFn)} needs a valueExpression, the column or expression it aggregates (a metric's is Value); the ${api} API refuses it empty`,
        });
      if (aggFn === 'count' && valueExpression)
        out.push({
          pointer: at(`config/select/${j}/valueExpression`),
          message: `aggFn count counts rows and takes no valueExpression; the ${api} API refuses one: leave it out`,
        });
      if ('level' in item && typeof aggFn === 'string' && aggFn !== 'quantile' && api !== 'clickstack-cloud')
        out.push({ pointer: at(`config/select/${j}/level`), message: `level is for aggFn quantile; the ${api} API refuses it with aggFn ${aggFn}` });
    });
  }
  if (api === 'clickstack-cloud') {
    // ClickHouse Cloud's spec (2026-07-31) types ClickStackSelectItem.level as a number whose enum lists only
    // strings: no value passes, so the server refuses every quantile level there.
    const select = (t.config as { select?: unknown } | undefined)?.select;
    if (Array.isArray(select)) {
      select.forEach((item, j) => {
        if (item && typeof item === 'object' && 'level' in item)
          out.push({
            pointer: at(`config/select/${j}/level`),
            message: 'the ClickStack API (ClickHouse Cloud spec 2026-07-31) refuses every quantile level: use another aggFn, or observability.api: hyperdx',
          });
      });
    }
  }
  return out;
}

/**
 * The checks a schema cannot express: uniqueness across files, and alert references to dashboards and
 * tiles. Pure: resources in, problems out, in a stable order.
 */
export function checkSemantics(resources: readonly AnyResource[], opts: { api?: string } = {}): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  const api = opts.api ?? 'seed';
  const dashboards = resources.filter((r): r is Resource<'Dashboard'> => r.kind === 'Dashboard');
  const alerts = resources.filter((r): r is Resource<'Alert'> => r.kind === 'Alert');
  const services = resources.filter((r): r is Resource<'CloudService'> => r.kind === 'CloudService');

  for (const kind of ['Dashboard', 'Alert', 'CloudService'] as const) {
    duplicates(
      resources.filter((r) => r.kind === kind),
      (r) => r.name,
      '/metadata/name',
      (name) => `duplicate ${kind} "${name}": metadata.name must be unique per kind`,
      out,
    );
  }
  // A dashboard the parse cache answered carries its facts: its document is not read (`dashboardFacts` below).
  // Read from the document otherwise, nothing made per dashboard: objects made for 10,000 of them outlived
  // the checks as old-space garbage (~40 MiB of a cold plan's peak).
  const specName = (d: Resource<'Dashboard'>) => (d.facts ? d.facts.specName : d.doc.spec.name);
  const pinned = (d: Resource<'Dashboard'>) => (d.facts ? d.facts.id : d.doc.metadata.id);
  duplicates(
    dashboards,
    (d) => specName(d),
    '/spec/name',
    (n) => `two dashboards are named "${n}": the name is the live dashboard's identity, so each must be unique`,
    out,
  );
  duplicates(
    dashboards.filter((d) => pinned(d)),
    (d) => pinned(d)!,
    '/metadata/id',
    (id) => `two dashboards pin live id ${id}`,
    out,
  );
  duplicates(
    alerts.filter((a) => a.doc.metadata.id !== undefined),
    (a) => a.doc.metadata.id!,
    '/metadata/id',
    (id) => `two alerts set alert id ${id}: each live alert must be described once`,
    out,
  );
  if (api !== 'seed') {
    // Where alerts are read live, an alert without metadata.id is matched by its name: two alerts of one name
    // were both created (and the check for another runner's copies removed one) or took turns updating the
    // same live alert, so no plan ever came out unchanged. Alerts pinned by id may share a name.
    const loose = new Set(alerts.filter((a) => a.doc.metadata.id === undefined).map((a) => a.doc.spec.name));
    duplicates(
      alerts.filter((a) => loose.has(a.doc.spec.name)),
      (a) => a.doc.spec.name,
      '/spec/name',
      (n) =>
        `two alerts are named "${n}": on this API an alert without metadata.id is matched by its name, so each must be unique (or pin both with metadata.id)`,
      out,
    );
  }
  duplicates(
    services,
    (s) => `${s.doc.spec.organizationId}/${s.doc.spec.serviceId}`,
    '/spec/serviceId',
    () => `two CloudService documents describe the same service`,
    out,
  );

  // Facts hold the local checks of the API the project had when the file was cached; another reads the document.
  const local = dashboards.map((d) => (d.facts?.local?.[0] === api ? d.facts.local[1] : dashboardLocalProblems(d.doc.spec, api)));
  dashboards.forEach((d, i) => {
    for (const p of local[i]![0]) out.push({ file: d.file, index: d.index, ...p });
  });
  dashboards.forEach((d, i) => {
    for (const p of local[i]![1]) out.push({ file: d.file, index: d.index, ...p });
  });

  for (const a of alerts) for (const p of alertProfileProblems(a.doc, api)) out.push({ file: a.file, index: a.index, severity: 'error', ...p });

  const byName = new Map(dashboards.map((d) => [d.name, d]));
  // One budget for the hints of every alert: thousands of unknown references against thousands of names.
  const hints = hintBudget();
  const dashboardNames = [...byName.keys()];
  const tilesOf = new Map<string, { names: string[]; displayType: Map<string, string | null> }>();
  for (const a of alerts) {
    const ref = a.doc.spec.tile;
    if ((a.doc.spec.source === 'search' || a.doc.spec.source === 'saved_search') && ref) {
      out.push({ file: a.file, index: a.index, pointer: '/spec/tile', atKey: true, severity: 'warning', message: 'tile is ignored when source is search' });
      continue;
    }
    if (!ref) continue;
    const dash = byName.get(ref.dashboard);
    if (!dash) {
      const hint = didYouMean(ref.dashboard, dashboardNames, hints);
      out.push({
        file: a.file,
        index: a.index,
        pointer: '/spec/tile/dashboard',
        severity: 'error',
        message: `unknown dashboard "${ref.dashboard}": no Dashboard has that metadata.name${hint ? `; did you mean "${hint}"?` : ''}`,
      });
      continue;
    }
    // From the document (the few dashboards alerts are on): kept in the facts of every dashboard, the tiles
    // were a third of the parse pack's entries and 120,000 small arrays at 10,000 dashboards.
    // Once per dashboard, not per alert: 10,000 alerts on a dashboard of 10,000 tiles walked 10^8 tiles.
    let facts = tilesOf.get(ref.dashboard);
    if (!facts) {
      const tiles = tileFacts(dash.doc.spec);
      // Each name's displayType is its first tile's, as a search in order finds it.
      tilesOf.set(ref.dashboard, (facts = { names: tiles.map((t) => t[0]), displayType: new Map(tiles.slice().reverse()) }));
    }
    const names = facts.names;
    if (!facts.displayType.has(ref.name)) {
      const hint = didYouMean(ref.name, names, hints);
      out.push({
        file: a.file,
        index: a.index,
        pointer: '/spec/tile/name',
        severity: 'error',
        message: `dashboard "${ref.dashboard}" has no tile named "${ref.name}"${hint ? `; did you mean "${hint}"?` : names.length ? ` (its tiles: ${listSome(names)})` : ' (it has no tiles)'}`,
      });
      continue;
    }
    // HyperDX takes an alert on any builder tile, then deletes it on the dashboard's next update unless the
    // tile is a line, stacked_bar or number chart (cleanupDashboardAlerts): the alert would come and go.
    const displayType = facts.displayType.get(ref.name);
    if (api !== 'seed' && typeof displayType === 'string' && !ALERTABLE_CHARTS.has(displayType)) {
      out.push({
        file: a.file,
        index: a.index,
        pointer: '/spec/tile/name',
        severity: 'error',
        message: `tile "${ref.name}" is a ${displayType} chart; alerts need a line, stacked_bar or number tile (the ${api} API deletes others' alerts on the next update)`,
      });
    }
  }

  for (const s of services) {
    duplicates(
      (s.doc.spec.pipes?.expected ?? []).map((p, i) => ({ file: s.file, index: s.index, i, name: p.name })),
      (p) => p.name,
      (p) => `/spec/pipes/expected/${p.i}/name`,
      (n) => `pipe "${n}" is listed twice`,
      out,
    );
  }
  return out;
}

/**
 * The checks of one dashboard alone under an API: its tiles' problems, then its tags' (kept apart so the
 * problems of a project come in the order they always did: every dashboard's tiles, then every one's tags).
 */
export function dashboardLocalProblems(spec: DashboardSpec, api: string): [LocalProblem[], LocalProblem[]] {
  const tileProblems: LocalProblem[] = [];
  const seen = new Map<string, number>();
  (spec.tiles ?? []).forEach((t, i) => {
    const first = seen.get(t.name);
    if (first !== undefined) {
      tileProblems.push({
        pointer: `/spec/tiles/${i}/name`,
        severity: 'error',
        message: `duplicate tile name "${t.name}" in this dashboard (tiles are matched by name; also tile ${first})`,
      });
    } else seen.set(t.name, i);
    for (const p of tileProfileProblems(t, i, api)) tileProblems.push({ severity: 'error', ...p });
    // HyperDX stores a series tile as a config and answers only that: plan has nothing to compare the series with.
    if (api !== 'seed' && Array.isArray(t.series) && t.config === undefined)
      tileProblems.push({
        pointer: `/spec/tiles/${i}/series`,
        severity: 'warning',
        message: `tile "${t.name}" is in the series form, which the ${api} API stores and answers in the config form: once it is applied, plan cannot see a change to its series. Write it in the config form (steward import rewrites the file so)`,
      });
    if (t.x + t.w > GRID_COLUMNS) {
      tileProblems.push({
        pointer: `/spec/tiles/${i}/w`,
        severity: 'warning',
        message: `tile "${t.name}" ends at column ${t.x + t.w}, beyond the ${GRID_COLUMNS}-column grid (x + w must be at most ${GRID_COLUMNS})`,
      });
    }
  });
  const tagProblems: LocalProblem[] = [];
  if (api !== 'seed') {
    if (spec.name.length > MAX_LIVE_NAME_LENGTH)
      tagProblems.push({
        pointer: '/spec/name',
        severity: 'error',
        message: `the name is ${spec.name.length} characters; the ${api} API takes at most ${MAX_LIVE_NAME_LENGTH}`,
      });
    const count = spec.tiles?.length ?? 0;
    if (count > MAX_LIVE_TILES)
      tagProblems.push({ pointer: '/spec/tiles', severity: 'error', message: `${count} tiles; the ${api} API takes at most ${MAX_LIVE_TILES}` });
    const tags = spec.tags ?? [];
    tags.forEach((tag, i) => {
      if (tag.length > MAX_LIVE_TAG_LENGTH)
        tagProblems.push({
          pointer: `/spec/tags/${i}`,
          severity: 'error',
          message: `tag "${tag}" is ${tag.length} characters; the ${api} API takes at most ${MAX_LIVE_TAG_LENGTH}`,
        });
    });
    if (tags.length >= MAX_TAGS)
      tagProblems.push({
        pointer: '/spec/tags',
        severity: 'error',
        message: `${tags.length} tags; the ${api} API takes at most ${MAX_TAGS - 1} besides steward's marker tag`,
      });
    pushAll(tagProblems, filterProblems(spec.filters as unknown[] | undefined, api));
  }
  return [tileProblems, tagProblems];
}

/**
 * What the checks and the plan read of a dashboard, with its local problems under `api` when given (the parse
 * cache keeps them for the project's API, so that a cached dashboard's document is not read).
 */
export function dashboardFacts(doc: Resource<'Dashboard'>['doc'], api?: string): DashboardFacts {
  return {
    specName: doc.spec.name,
    ...(doc.metadata.id !== undefined ? { id: doc.metadata.id } : {}),
    sourceNames: sourceSlots(doc.spec).length > 0,
    ...(api !== undefined ? { local: [api, dashboardLocalProblems(doc.spec, api)] as DashboardFacts['local'] } : {}),
  };
}

/** Each tile's name, and its config's displayType where that is a string. */
function tileFacts(spec: DashboardSpec): Array<[string, string | null]> {
  return (spec.tiles ?? []).map((t): [string, string | null] => {
    const displayType = (t.config as { displayType?: unknown } | undefined)?.displayType;
    return [t.name, typeof displayType === 'string' ? displayType : null];
  });
}

function duplicates<T extends { file: string; index: number }>(
  items: readonly T[],
  key: (t: T) => string,
  pointer: string | ((t: T) => string),
  message: (k: string) => string,
  out: SemanticProblem[],
): void {
  const first = new Map<string, T>();
  const ptr = (t: T) => (typeof pointer === 'string' ? pointer : pointer(t));
  for (const item of items) {
    const k = key(item);
    const prev = first.get(k);
    if (prev) {
      out.push({
        file: item.file,
        index: item.index,
        pointer: ptr(item),
        severity: 'error',
        message: message(k),
        related: { file: prev.file, index: prev.index, pointer: ptr(prev) },
      });
    } else first.set(k, item);
  }
}
