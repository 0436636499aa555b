/** What a live profile's server (HyperDX 2026-08, ClickStack) refuses in a tile that the schema lets through. */
import {
  lacksValueExpression,
  LIVE_ONLY_SERIES_VALUES,
  LIVE_SERIES_MEMBERS,
  SEED_SERIES_MEMBERS,
  SERIES_MEMBERS,
  splitOutsideBrackets,
  storedFieldList,
} from '../model/dashboard.ts';

/** The dashboard grid's width, in columns. */
export const GRID_COLUMNS = 24;

/** A problem at a pointer of the tile: an error unless it says it is a warning. */
export type ProfileProblem = { pointer: string; message: string; severity?: 'warning' };

type TileLike = { name: string; x: number; y: number; w: number; h: number; series?: unknown; config?: unknown };

const TILE_BOUNDS: ReadonlyArray<[keyof TileLike, number, number | undefined]> = [
  ['x', 0, GRID_COLUMNS - 1],
  ['y', 0, undefined],
  ['w', 1, GRID_COLUMNS],
  ['h', 1, undefined],
];

/** What HyperDX 2026-08 (`DashboardChartSeries`) and ClickStack require of a series, by type. */
const LIVE_SERIES_NEEDS: Readonly<Record<string, readonly string[]>> = {
  time: ['sourceId', 'aggFn', 'where', 'whereLanguage', 'groupBy'],
  table: ['sourceId', 'aggFn', 'where', 'whereLanguage', 'groupBy'],
  number: ['sourceId', 'aggFn', 'where', 'whereLanguage'],
  search: ['sourceId', 'fields', 'where', 'whereLanguage'],
  markdown: ['content'],
};

/** The most groupBy fields HyperDX takes in a time or table series (its zod schema: `.max(10)`; ClickStack's spec says none). */
const LIVE_GROUP_BY_MAX = 10;

/** The series types that have each member (LIVE_SERIES_MEMBERS), for a message: `table`, `time, table and number`. */
function typesWith(member: string): string[] {
  return Object.keys(LIVE_SERIES_MEMBERS).filter((type) => LIVE_SERIES_MEMBERS[type]!.has(member));
}

/**
 * The seed profile's series: seed 000's Series members and the values it shows, no more. The other members
 * (alias, level, numberFormat, ...) and values (aggFn any, metricDataType summary, ...) are HyperDX's since
 * 2026-01-30: the seed API has no place for them.
 */
function seedSeriesProblems(series: readonly unknown[], i: number, out: Array<{ pointer: string; message: string }>): void {
  series.forEach((s, j) => {
    if (!s || typeof s !== 'object') return;
    const member = s as Record<string, unknown>;
    for (const k of SERIES_MEMBERS) {
      if (member[k] === undefined) continue;
      if (!SEED_SERIES_MEMBERS.has(k)) {
        out.push({
          pointer: `/spec/tiles/${i}/series/${j}/${k}`,
          message: `${k} is not a member of the seed API's series (seed 000): it needs observability.api: hyperdx or clickstack-cloud`,
        });
      }
    }
    for (const [k, values] of Object.entries(LIVE_ONLY_SERIES_VALUES)) {
      const v = member[k];
      if (typeof v === 'string' && values.includes(v))
        out.push({
          pointer: `/spec/tiles/${i}/series/${j}/${k}`,
          message: `${k} ${v} is not in the seed API (seed 000, HyperDX 2025-11-21): it needs observability.api: hyperdx or clickstack-cloud`,
        });
    }
  });
}

/** `a, b and c`. */
function joinLast(items: readonly string[], word: 'and' | 'or'): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} ${word} ${items[items.length - 1]}`;
}

/**
 * The series form on a live profile: what its server refuses. The seed's series (`dataSource`, no sourceId)
 * are valid files, and without this check only the create's 400 said so.
 */
function seriesProfileProblems(name: string, series: readonly unknown[], i: number, api: string, out: ProfileProblem[]): void {
  const at = `/spec/tiles/${i}/series`;
  if (series.length === 0) out.push({ pointer: at, message: `tile "${name}" has no series; the ${api} API needs at least one` });
  // HyperDX builds a number, search or markdown chart from the first series alone; the others are dropped.
  const first = (series[0] as Record<string, unknown> | null | undefined)?.['type'];
  if (series.length > 1 && (first === 'number' || first === 'search' || first === 'markdown'))
    out.push({ pointer: `${at}/1`, message: `a ${first} tile shows its first series only; the ${api} API drops the other ${series.length - 1}: give one` });
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
    // HyperDX refuses a tile whose series differ in type ("All series must have the same type").
    if (j > 0 && typeof first === 'string' && type !== first)
      out.push({
        pointer: `${at}/${j}/type`,
        message: `series ${j} of tile "${name}" is of type ${String(type)}, series 0 of type ${first}; the ${api} API takes one type per tile`,
      });
    // A member another type has: HyperDX reads the series with its type's zod object, which drops it unseen.
    const members = LIVE_SERIES_MEMBERS[type as string]!;
    // dataSource (events|metrics) is the seed's and HyperDX 2025-11-21's. Since 2026-01-30 sourceId says where
    // the data is and the server drops dataSource unseen: sent beside it, it changes nothing on the chart, and a
    // server answering series answers none, so plan showed it as a change on every run. Without sourceId the
    // missing-member check below says what to write.
    if (member['dataSource'] !== undefined && member['sourceId'] !== undefined)
      out.push({
        pointer: `${at}/${j}/dataSource`,
        message: `dataSource is the seed API's (events or metrics); the ${api} API ignores it beside sourceId, which says where series ${j} of tile "${name}" reads from: leave dataSource out (a metrics series gives metricName and metricDataType)`,
      });
    const mantissa = (member['numberFormat'] as { mantissa?: unknown } | null | undefined)?.mantissa;
    if (typeof mantissa === 'number' && !Number.isInteger(mantissa))
      out.push({
        pointer: `${at}/${j}/numberFormat/mantissa`,
        // HyperDX 2026-01-30 typed it a number and stores 2.5 as sent (import writes it); 2026-08 and ClickStack
        // type it an integer and refuse the body.
        ...(api === 'clickstack-cloud' ? {} : { severity: 'warning' as const }),
        message:
          api === 'clickstack-cloud'
            ? `mantissa is ${mantissa}; the ${api} API takes a whole number of decimal places (ClickHouse Cloud spec 2026-07-31): give ${Math.round(mantissa)}`
            : `mantissa is ${mantissa}: HyperDX 2026-01-30 stores it, but 2026-08 takes a whole number of decimal places and refuses the dashboard: give ${Math.round(mantissa)} unless the server is of 2026-01-30`,
      });
    // HyperDX keeps one source, groupBy and display type per tile, and one table order, from the first series (the
    // order only when that series has a field): a later series' own is dropped (plan reads them as the server
    // answers them, withTileMembers).
    const firstSeries = series[0] as Record<string, unknown>;
    if (j > 0 && (type === 'time' || type === 'table')) {
      const tileMembers: Array<[string, unknown]> = [
        ['sourceId', undefined],
        ['groupBy', []],
        type === 'time' ? ['displayType', 'line'] : ['sortOrder', 'asc'],
      ];
      for (const [k, absent] of tileMembers) {
        if (member[k] === undefined || JSON.stringify(member[k]) === JSON.stringify(firstSeries[k] ?? absent)) continue;
        out.push({
          pointer: `${at}/${j}/${k}`,
          severity: 'warning',
          message:
            k === 'sourceId'
              ? `the ${api} API reads every series of a ${String(type)} tile from the first series' source and ignores series ${j}'s sourceId: put series of another source in a tile of their own`
              : `the ${api} API takes a ${String(type)} tile's ${k} from its first series and ignores series ${j}'s: give it on series 0, or leave this one out`,
        });
      }
    }
    if (type === 'table' && j === 0 && member['sortOrder'] === 'desc' && (typeof member['field'] !== 'string' || member['field'] === ''))
      out.push({
        pointer: `${at}/0/sortOrder`,
        severity: 'warning',
        message: `sortOrder desc is not stored: the ${api} API sorts a table by its first series' field, and series 0 has none, so the table is sorted asc. Give series 0 a field, or leave sortOrder out`,
      });
    if (member['level'] === 0)
      out.push({
        pointer: `${at}/${j}/level`,
        severity: 'warning',
        message: `level 0 is not stored: the ${api} API keeps a series' level only when it is above 0, so the chart gets no level (plan reads the two alike). For the smallest value use aggFn min; otherwise leave level out`,
      });
    for (const k of SERIES_MEMBERS) {
      if (member[k] === undefined || members.has(k) || k === 'dataSource') continue;
      out.push({
        pointer: `${at}/${j}/${k}`,
        message: `${k} is for series of type ${joinLast(typesWith(k), 'and')}; the ${api} API drops it from a ${String(type)} series`,
      });
    }
    for (const k of ['groupBy', 'fields'] as const) storedListProblems(member[k], `${at}/${j}/${k}`, k, api, out);
    const groupBy = member['groupBy'];
    if (Array.isArray(groupBy) && groupBy.length > LIVE_GROUP_BY_MAX)
      out.push({ pointer: `${at}/${j}/groupBy`, message: `groupBy has ${groupBy.length} fields; the ${api} API takes at most ${LIVE_GROUP_BY_MAX}` });
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
 * Where HyperDX would store a series' `groupBy` or `fields` otherwise than the file says (storedFieldList): it
 * keeps the list as one comma-separated text and answers it split at commas outside brackets and quotes, each
 * part trimmed. A warning at each item it changes (`" host"` is answered as `host`, `"a,b"` as two fields), so
 * the file can say what the server keeps; plan compares the two alike, so it is never a change on every run.
 */
function storedListProblems(list: unknown, pointer: string, member: 'groupBy' | 'fields', api: string, out: ProfileProblem[]): void {
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) return;
  const items = list as string[];
  const stored = storedFieldList(items) as string[];
  if (JSON.stringify(stored) === JSON.stringify(items)) return;
  const show = (xs: readonly string[]) => xs.map((x) => JSON.stringify(x)).join(', ');
  let itemWarned = false;
  items.forEach((item, n) => {
    const parts = splitOutsideBrackets(item);
    if (parts.length === 1 && parts[0] === item) return;
    itemWarned = true;
    const becomes =
      parts.length === 0
        ? 'is left out (it is empty)'
        : parts.length === 1
          ? `is stored as ${show(parts)} (trimmed)`
          : `is split at its commas into ${parts.length} ${member === 'groupBy' ? 'groupBy fields' : 'fields'}: ${show(parts)}`;
    out.push({
      pointer: `${pointer}/${n}`,
      severity: 'warning',
      message: `${JSON.stringify(item)} ${becomes}: the ${api} API keeps ${member} as one comma-separated text and answers it split at commas outside brackets and quotes, each part trimmed. Write ${show(parts) || 'nothing'} (a comma inside brackets or quotes, as in concat(a, b), is kept)`,
    });
  });
  if (!itemWarned)
    out.push({
      pointer,
      severity: 'warning',
      message: `${member} [${show(items)}] is answered as [${show(stored)}]: the ${api} API keeps it as one comma-separated text and splits it again at commas outside brackets and quotes`,
    });
}

/**
 * What the profile's server refuses in a tile. The schema accepts any integer position (the seed's server,
 * HyperDX 2025-11, returns and takes them); HyperDX 2026-08 and ClickStack take x 0-23, w 1-24, y and h
 * from 0 and 1. `config` tiles and source names need a profile whose server knows them.
 */
export function tileProfileProblems(t: TileLike, i: number, api: string): ProfileProblem[] {
  const out: ProfileProblem[] = [];
  const at = (k: string) => `/spec/tiles/${i}/${k}`;
  if (api === 'seed') {
    if (t.config !== undefined)
      out.push({ pointer: at('config'), message: 'tiles in the config form need observability.api: hyperdx or clickstack-cloud (the seed API takes series)' });
    if (Array.isArray(t.series)) seedSeriesProblems(t.series as unknown[], i, out);
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
