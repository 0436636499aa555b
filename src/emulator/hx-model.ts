/** The `hyperdx` and `clickstack-cloud` profiles' data types, ids and the shaping of answers (see hyperdx.ts). */
import type { BodyProblem } from './spec-validate.ts';
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

export const OBJECT_ID = /^[0-9a-f]{24}$/;
export const HX_TEAM_ID = '65f5e4a3b9e77c001a0000bb';
export const HX_CONNECTION_ID = '65f5e4a3b9e77c001a0000cc';
export const HX_SOURCE_IDS = { Logs: '65f5e4a3b9e77c001a0001a1', Traces: '65f5e4a3b9e77c001a0001a2', Metrics: '65f5e4a3b9e77c001a0001a3' } as const;
/** The last two are ClickStack's own services (slack_api, pagerduty_api): only the clickstack-cloud seed lists them. */
export const HX_WEBHOOK_IDS = {
  'ops-pager': '65f5e4a3b9e77c001a0002b1',
  'slack-sre': '65f5e4a3b9e77c001a0002b2',
  'slack-alerts': '65f5e4a3b9e77c001a0002b3',
  pagerduty: '65f5e4a3b9e77c001a0002b4',
} as const;
export const HX_ALERT_IDS = { 'Error spike (saved search)': '65f5e4a3b9e77c001a0003c1', 'Slow requests (saved search)': '65f5e4a3b9e77c001a0003c2' } as const;

/** Tiles an alert may be bound to (the spec: "Must be a line, stacked bar, or number type tile"). */
export const ALERTABLE_DISPLAY_TYPES = new Set(['line', 'stacked_bar', 'number']);

const INTERVAL_MINUTES: Readonly<Record<string, number>> = { '1m': 1, '5m': 5, '15m': 15, '30m': 30, '1h': 60, '6h': 360, '12h': 720, '1d': 1440 };

/** zod's `datetime()` without options: a UTC time with seconds, as HyperDX validates scheduleStartAt. */
const ZOD_UTC_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * What HyperDX's server refuses in an alert's schedule (validateAlertScheduleOffsetMinutes), though the spec
 * says only "offset from the interval boundary": an offset not inside the interval, or one beside scheduleStartAt.
 */
export function scheduleProblem(body: Record<string, unknown>): BodyProblem | undefined {
  // HyperDX reads scheduleStartAt with zod's datetime(): UTC only (`Z`, seconds, optional fraction). The spec's
  // `format: date-time` also takes an offset (+02:00), a lower-case t or z, or a space for the T.
  const start = body['scheduleStartAt'];
  if (typeof start === 'string' && !ZOD_UTC_DATETIME.test(start)) return { path: 'scheduleStartAt', message: 'Invalid datetime', rule: true };
  const offset = typeof body['scheduleOffsetMinutes'] === 'number' ? body['scheduleOffsetMinutes'] : 0;
  if (offset > 0 && body['scheduleStartAt'] != null)
    return { path: 'scheduleOffsetMinutes', message: 'scheduleOffsetMinutes must be 0 when scheduleStartAt is provided', rule: true };
  const minutes = Object.hasOwn(INTERVAL_MINUTES, String(body['interval'])) ? INTERVAL_MINUTES[String(body['interval'])]! : undefined;
  if (minutes !== undefined && offset >= minutes)
    return { path: 'scheduleOffsetMinutes', message: `scheduleOffsetMinutes must be less than ${minutes} minute${minutes === 1 ? '' : 's'}`, rule: true };
  return undefined;
}

/**
 * What HyperDX's server refuses in a select item (externalDashboardSelectItemSchema), as the spec's SelectItem
 * prose says: a valueExpression is required for every aggFn but count and refused with count, and a level is
 * only for quantile. A heatmap item (no aggFn) needs its valueExpression.
 */
export function selectItemProblem(item: Record<string, unknown>, path: string): BodyProblem | undefined {
  const aggFn = item['aggFn'];
  if (item['level'] !== undefined && aggFn !== undefined && aggFn !== 'quantile')
    return { path: `${path}.level`, message: 'Level can only be used with quantile aggregation function', rule: true };
  if (aggFn === 'count' && item['valueExpression'])
    return { path: `${path}.valueExpression`, message: 'Value expression cannot be used with count aggregation function', rule: true };
  if (aggFn !== 'count' && !item['valueExpression'])
    return { path: `${path}.valueExpression`, message: 'Value expression is required for non-count aggregation functions', rule: true };
  return undefined;
}

/**
 * What HyperDX's server refuses in a dashboard's filters (validateDashboardFilterFieldGating, -Modes,
 * -VariableNames), as FilterInput's prose says: a variableName on a filter that is not a variable, a non-empty
 * appliesToSourceIds on one that does not broadcast, a filter that does neither, and a variable without a
 * name (given, or derived from the display name) or with another's. HyperDX's messages.
 */
export function filterProblem(filters: unknown): BodyProblem | undefined {
  const seen = new Set<string>();
  for (const [i, f] of (Array.isArray(filters) ? filters : []).entries()) {
    if (!isObject(f)) continue;
    const name = String(f['name']);
    const variable = f['isVariableEnabled'] === true;
    const broadcast = f['isBroadcastEnabled'] !== false;
    const at = (k: string, message: string): BodyProblem => ({ path: `filters.${i}.${k}`, message, rule: true });
    if (f['variableName'] !== undefined && !variable)
      return at('variableName', `Filter "${name}" sets variableName but is not available as a variable; set isVariableEnabled to true or drop variableName`);
    if (Array.isArray(f['appliesToSourceIds']) && f['appliesToSourceIds'].length > 0 && !broadcast)
      return at(
        'appliesToSourceIds',
        `Filter "${name}" sets appliesToSourceIds but does not broadcast its value; set isBroadcastEnabled to true or drop appliesToSourceIds`,
      );
    if (!broadcast && !variable) return at('isBroadcastEnabled', `Filter "${name}" must broadcast its value, be available as a variable, or both`);
    if (!variable) continue;
    const derived = name
      .trim()
      .replace(/\s+/g, '_')
      .replace(/[^A-Za-z0-9_]+/g, '');
    const token = (typeof f['variableName'] === 'string' ? f['variableName'].trim() : '') || (/^[0-9_]/.test(derived) ? `v${derived}` : derived);
    if (token === '') return at('variableName', `Variable name is required for filter "${name}"`);
    if (seen.has(token)) return at('variableName', `Variable names must be unique: "${token}"`);
    seen.add(token);
  }
  return undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

/** The quantile levels HyperDX answers on a select item (externalQuantileLevelSchema); it stores any 0-1. */
const ANSWERED_LEVELS = new Set([0.5, 0.9, 0.95, 0.99]);

/**
 * A deprecated `series` tile as the `config` HyperDX 2026-08 answers for it: its server turns the series into
 * its internal chart (translateExternalChartToTileConfig) and answers that (convertToExternalTileChartConfig).
 * Time series become `line` (`stacked_bar` when the series says so), `table`, `number`, `search` and
 * `markdown` keep their kind. Each series is a `select` item: `field` is the `valueExpression`, `where` and
 * `whereLanguage` its own, `metricDataType` the `metricType`; `alias`, `level` and `metricName` are kept only
 * when truthy (an empty alias, a level of 0 are not stored), and a level is answered only on a quantile and
 * only as one of 0.5, 0.9, 0.95, 0.99. `groupBy` lists join with ",". The tile's `numberFormat` is the first
 * series' that has one (a number tile: the first series'). A table's `sortOrder` is stored as an orderBy list,
 * which the 2026-08 answer leaves out (it answers `orderBy` only as text). `asRatio` is answered on line,
 * stacked_bar and table charts, true only with two series. Markdown: `{displayType, markdown}`; search:
 * `fields` joined with ", " as the `select`.
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
  const used = type === 'number' ? [first] : series;
  const select = used.map((s) => {
    const item: JsonObject = { aggFn: s['aggFn'] ?? 'count' };
    if (s['field'] !== undefined) item['valueExpression'] = s['field']!;
    if (s['alias']) item['alias'] = s['alias'];
    if (s['level'] && s['aggFn'] === 'quantile' && ANSWERED_LEVELS.has(Number(s['level']))) item['level'] = s['level'];
    item['where'] = s['where'] ?? '';
    item['whereLanguage'] = s['whereLanguage'] ?? 'lucene';
    if (s['metricName']) item['metricName'] = s['metricName'];
    if (s['metricDataType']) item['metricType'] = s['metricDataType'];
    return item;
  });
  const displayType = type === 'time' ? (first['displayType'] === 'stacked_bar' ? 'stacked_bar' : 'line') : type;
  const config: JsonObject = { displayType, sourceId: String(first['sourceId'] ?? ''), select };
  const groupBy = Array.isArray(first['groupBy']) ? (first['groupBy'] as JsonValue[]).map(String) : [];
  if (groupBy.length > 0 && displayType !== 'number') config['groupBy'] = groupBy.join(',');
  const numberFormat = type === 'number' ? first['numberFormat'] : used.map((s) => s['numberFormat']).find((f) => !!f);
  if (numberFormat) config['numberFormat'] = numberFormat;
  if (asRatio !== undefined && displayType !== 'number') config['asRatio'] = asRatio === true && select.length === 2;
  return withServerSelectDefaults(config);
}

/** Every `sourceId` a dashboard body names (tiles' config and series, filters). */
export function sourceIdsOf(body: Record<string, unknown>): string[] {
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

export const DASHBOARD_OPTIONAL = ['savedQuery', 'savedQueryLanguage', 'savedFilterValues', 'containers'] as const;
/**
 * Members of HyperDX 2026-08's dashboards that ClickStack's have not (ClickHouse Cloud 2026-07-31: ClickStackFilter
 * and ClickStackFilterInput, ClickStackLine/Bar/Table/NumberBuilderChartConfig; the rest of the two dashboard
 * schemas names the same members). The ClickStack server reads a body with objects that name only its own
 * members, so these are dropped from what it stores and answers, never stored as sent.
 */
export const CLICKSTACK_ABSENT_FILTER_MEMBERS = ['isBroadcastEnabled', 'isVariableEnabled', 'variableName'] as const;
export const CLICKSTACK_ABSENT_CONFIG_MEMBERS = ['formulas', 'seriesLimit', 'showOperandSeries'] as const;

/** A dashboard body as the ClickStack server reads it: without the HyperDX-only members above (a copy). */
export function asClickStackReads(body: unknown): unknown {
  if (!isObject(body)) return body;
  const without = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
  const out: Record<string, unknown> = { ...body };
  if (Array.isArray(out['filters'])) out['filters'] = out['filters'].map((f) => (isObject(f) ? without(f, CLICKSTACK_ABSENT_FILTER_MEMBERS) : f));
  if (Array.isArray(out['tiles'])) {
    out['tiles'] = out['tiles'].map((t) =>
      isObject(t) && isObject(t['config']) ? { ...t, config: without(t['config'], CLICKSTACK_ABSENT_CONFIG_MEMBERS) } : t,
    );
  }
  return out;
}

export const TILE_KEYS = ['name', 'x', 'y', 'w', 'h', 'config', 'containerId', 'tabId'] as const;

export const ALERT_REQUEST_KEYS = [
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
/**
 * The longest alert name and message HyperDX's server takes (its alertSchema; the spec leaves both open), and
 * neither may be empty there (null or left out is none).
 */
export const ALERT_TEXT_BOUNDS: ReadonlyArray<readonly ['name' | 'message', number]> = [
  ['name', 512],
  ['message', 4096],
];
export const ALERT_ANSWER_ORDER = ['id', ...ALERT_REQUEST_KEYS, 'state', 'teamId', 'silenced', 'executionErrors', 'createdAt', 'updatedAt'];

export function orderAlert(a: Record<string, unknown>): HxAlert {
  const out: Record<string, unknown> = {};
  for (const k of ALERT_ANSWER_ORDER) if (a[k] !== undefined) out[k] = a[k];
  return out as HxAlert;
}

/**
 * A builder config's select items as HyperDX stores and answers them (convertToInternalSelectItem, then
 * convertToExternalSelectItem): `where` "" and `whereLanguage` "lucene" when not sent, `valueExpression` ""
 * when not sent, and always "" on a count.
 */
export function withServerSelectDefaults(config: JsonObject): JsonObject {
  if (!Array.isArray(config['select'])) return config;
  config['select'] = config['select'].map((item) => {
    if (!isObject(item)) return item;
    const out: JsonObject = { ...(item as JsonObject) };
    out['where'] ??= '';
    out['whereLanguage'] ??= 'lucene';
    out['valueExpression'] = out['aggFn'] === 'count' ? '' : (out['valueExpression'] ?? '');
    return out;
  });
  return config;
}
