/**
 * Dashboards, as the services send and take them. The shapes are generated from the JSON Schemas in
 * schemas/api/ (src/clients/api-types.ts); this file names them for the rest of steward, so a stage never
 * copies a field list by hand and a schema change reaches every user of the type.
 */
import type { LiveTile } from '../clients/api-types.ts';

export type { DashboardCreate, LiveDashboard, LiveSeries, LiveTile, SeriesCreate, TileCreate } from '../clients/api-types.ts';

/** A tile as the plan's normalizer reads it: live (with its id) or desired (without). */
export type LiveTileInput = Omit<LiveTile, 'id'> & { id?: string };

/** The longest tag HyperDX 2026-08 and ClickStack take (MAX_TAG_LENGTH in HyperDX's common-utils); the marker tag is one. */
export const MAX_LIVE_TAG_LENGTH = 32;

/**
 * A filter as HyperDX answers it: without a variableName when it is not a variable, and without
 * appliesToSourceIds when it does not broadcast (FilterInput: such a member "is omitted from responses";
 * the server refuses it on a write). A copy; the filter itself is not changed.
 */
export function withoutGatedFilterMembers(f: Record<string, unknown>): Record<string, unknown> {
  const out = { ...f };
  if (out['isVariableEnabled'] !== true) delete out['variableName'];
  if (out['isBroadcastEnabled'] === false) delete out['appliesToSourceIds'];
  return out;
}

/** The charts HyperDX keeps alerts on (displayTypeSupportsBuilderAlerts): it deletes other tiles' alerts on an update. */
export const ALERTABLE_CHARTS: ReadonlySet<string> = new Set(['line', 'stacked_bar', 'number']);

/**
 * Whether a select item lacks the value it aggregates: every aggFn but count needs one, and HyperDX's schema
 * refuses it empty (its OpenAPI file cannot say so).
 */
export function lacksValueExpression(item: { aggFn?: unknown; valueExpression?: unknown }): boolean {
  return typeof item.aggFn === 'string' && item.aggFn !== 'count' && !item.valueExpression;
}

/** A metric series' value column: what HyperDX's UI aggregates when its own templates leave valueExpression empty. */
export const METRIC_VALUE_EXPRESSION = 'Value';

/** A metric series lacking a value expression: METRIC_VALUE_EXPRESSION is what it means. */
export function metricLacksValue(item: { aggFn?: unknown; valueExpression?: unknown; metricName?: unknown }): boolean {
  return lacksValueExpression(item) && typeof item.metricName === 'string';
}

/**
 * Every place a dashboard spec names a source (`source: <name>`): tile configs and filters, each with its
 * pointer and the object holding it (src/plan/names.ts puts the source's id in place).
 */
export function sourceSlots(spec: {
  tiles?: ReadonlyArray<{ config?: unknown }>;
  filters?: unknown;
}): Array<{ pointer: string; holder: Record<string, unknown> }> {
  const out: Array<{ pointer: string; holder: Record<string, unknown> }> = [];
  (spec.tiles ?? []).forEach((t, i) => {
    const c = t.config as Record<string, unknown> | undefined;
    if (c && typeof c['source'] === 'string') out.push({ pointer: `/spec/tiles/${i}/config/source`, holder: c });
  });
  ((spec.filters as Array<Record<string, unknown> | null> | undefined) ?? []).forEach((f, i) => {
    if (f && typeof f['source'] === 'string') out.push({ pointer: `/spec/filters/${i}/source`, holder: f });
  });
  return out;
}

/**
 * The members of a series (the older tile form), in the order files and plans show them. The first ten are
 * seed 000's Series; the rest are HyperDX's since 2026-01-30 (TimeChartSeries, TableChartSeries,
 * NumberChartSeries, SearchChartSeries, MarkdownChartSeries; the same in 2026-08-21 and in ClickStack's
 * ClickStack*ChartSeries).
 */
export const SERIES_MEMBERS = [
  'type',
  'dataSource',
  'sourceId',
  'fields',
  'aggFn',
  'level',
  'field',
  'alias',
  'where',
  'whereLanguage',
  'groupBy',
  'sortOrder',
  'displayType',
  'numberFormat',
  'metricName',
  'metricDataType',
  'content',
] as const;

export type SeriesMember = (typeof SERIES_MEMBERS)[number];

/** What seed 000's Series has (its table): the seed profile refuses the other members. */
export const SEED_SERIES_MEMBERS: ReadonlySet<string> = new Set([
  'type',
  'dataSource',
  'sourceId',
  'aggFn',
  'field',
  'where',
  'whereLanguage',
  'groupBy',
  'metricName',
  'metricDataType',
]);

/** Enum values of the series schema that only HyperDX 2026-01-30 and later have (not 2025-11-21, not the seed). */
export const LIVE_ONLY_SERIES_VALUES: Readonly<Record<'aggFn' | 'metricDataType', readonly string[]>> = {
  aggFn: ['any', 'none'],
  metricDataType: ['summary', 'exponential histogram'],
};

/**
 * The members each series type has in HyperDX's DashboardChartSeries (2026-01-30 and 2026-08-21) and
 * ClickStack's. HyperDX reads a series with a zod object of its type, which drops any other member: sent, it
 * is lost (and a server answering series never gives it back).
 */
export const LIVE_SERIES_MEMBERS: Readonly<Record<string, ReadonlySet<string>>> = (() => {
  // What number, time and table series share: one aggregated value, filtered, named and formatted.
  const value = ['type', 'sourceId', 'aggFn', 'level', 'field', 'alias', 'where', 'whereLanguage', 'numberFormat', 'metricDataType', 'metricName'];
  return {
    time: new Set([...value, 'groupBy', 'displayType']),
    table: new Set([...value, 'groupBy', 'sortOrder']),
    number: new Set(value),
    search: new Set(['type', 'sourceId', 'fields', 'where', 'whereLanguage']),
    markdown: new Set(['type', 'content']),
  };
})();

/**
 * A series without what a server answering series (HyperDX 2026-01-30) fills in when it was left out, and
 * what means nothing: a time series' `displayType: line` (HyperDX draws lines unless told stacked_bar), a
 * table series' `sortOrder: asc` (answered when no order is stored), an empty alias (not stored), an empty
 * field (a series without one is stored as `valueExpression: ''` and answered as `field: ''`) and a level of 0
 * (HyperDX keeps alias, level and metricName only when truthy: pickIfTruthy in translateExternalChartToTileConfig,
 * so 0 is answered as no level; validate warns of it). Changed in place; plan compares series without them, and
 * import leaves them out, so the seed profile, which has none of these members, still takes such a series as it is.
 */
export function dropSeriesDefaults(s: Record<string, unknown>): Record<string, unknown> {
  if (s['type'] === 'time' && s['displayType'] === 'line') delete s['displayType'];
  if (s['type'] === 'table' && s['sortOrder'] === 'asc') delete s['sortOrder'];
  if (s['alias'] === '') delete s['alias'];
  if (s['field'] === '') delete s['field'];
  if (s['level'] === 0) delete s['level'];
  return s;
}

/**
 * A series' `groupBy` or search `fields` as HyperDX stores and answers them. Its server keeps each as one text
 * (translateExternalChartToTileConfig: `groupBy.join(',')`, `fields.join(', ')`) and a server answering series
 * (2026-01-30) gives the list back split at the commas that are outside brackets and quotes, each part trimmed
 * and empty parts left out (splitAndTrimWithBracket in @hyperdx/common-utils). So `[" host"]` comes back as
 * `["host"]`, `["a,b"]` as `["a", "b"]`, and `["concat(a, b)"]` as it is. Items that are not text are kept.
 */
export function storedFieldList(list: readonly unknown[]): unknown[] {
  if (!list.every((x) => typeof x === 'string')) return [...list];
  return splitOutsideBrackets((list as string[]).join(','));
}

/** `text` split at commas outside `()`, `[]` and quotes, each part trimmed, empty parts left out. */
export function splitOutsideBrackets(text: string): string[] {
  const out: string[] = [];
  let depthParen = 0;
  let depthSquare = 0;
  let quote: '"' | "'" | undefined;
  let start = 0;
  const push = (end: number) => {
    const part = text.slice(start, end).trim();
    if (part !== '') out.push(part);
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depthParen++;
    else if (c === ')') depthParen--;
    else if (c === '[') depthSquare++;
    else if (c === ']') depthSquare--;
    else if (c === ',' && depthParen === 0 && depthSquare === 0) {
      push(i);
      start = i + 1;
    }
  }
  push(text.length);
  return out;
}
