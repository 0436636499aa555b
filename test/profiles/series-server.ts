/**
 * A HyperDX 2026-01-30 server for tests: a proxy on 127.0.0.1 in front of a `hyperdx` emulator that answers
 * every dashboard with its tiles in the series form, as that version's server did
 * (convertChartConfigToExternalChartSeries and translateTileToExternalChart in packages/api/src/utils/
 * externalApi.ts at hyperdxio/hyperdx 4c287b16). Both versions answer from the one chart HyperDX stores,
 * and the emulator answers what 2026-08 gives of it, so this is what 2026-01-30 would give of the same
 * chart, but for a table's sortOrder: 2026-08 leaves the stored orderBy list out, so the answer here is
 * always `asc`, as 2026-01-30 answered a tile without one. Requests are forwarded unchanged (that version
 * takes series, and so does the emulator).
 */
import { startProxy } from '../helpers/proxy.ts';

type Json = Record<string, unknown>;

/**
 * `a, b` and `a,b` as a list, as splitAndTrimWithBracket (@hyperdx/common-utils) reads them: split at the
 * commas outside `()`, `[]` and quotes, each part trimmed, empty parts left out (`concat(a, b)` is one item).
 * Written here on its own, not taken from src/, so the test does not share steward's reading of it.
 */
function split(s: unknown): string[] {
  if (typeof s !== 'string') return [];
  const parts: string[] = [];
  let cur = '';
  let paren = 0;
  let square = 0;
  let single = false;
  let double = false;
  for (const c of s + ',') {
    if (c === '"' && !single) double = !double;
    else if (c === "'" && !double) single = !single;
    else if (!single && !double) {
      if (c === '(') paren++;
      else if (c === ')') paren--;
      else if (c === '[') square++;
      else if (c === ']') square--;
      else if (c === ',' && paren === 0 && square === 0) {
        if (cur.trim() !== '') parts.push(cur.trim());
        cur = '';
        continue;
      }
    }
    cur += c;
  }
  return parts;
}

/** A member only when it has a value (HyperDX's `?? undefined`: JSON leaves undefined out). */
const maybe = (k: string, v: unknown): Json => (v === undefined || v === null ? {} : { [k]: v });

/** The series 2026-01-30 answered for a chart, from the config 2026-08 answers for it. */
export function configToSeries(config: Json): Json[] {
  const displayType = config['displayType'];
  const sourceId = config['sourceId'];
  const select = Array.isArray(config['select']) ? (config['select'] as Json[]) : [];
  const groupBy = split(config['groupBy']);
  const numberFormat = config['numberFormat'];
  const common = (s: Json): Json => ({
    aggFn: s['aggFn'] ?? 'none',
    ...maybe('alias', s['alias']),
    sourceId,
    ...maybe('level', typeof s['level'] === 'number' ? s['level'] : undefined),
    ...maybe('field', s['valueExpression']),
    where: s['where'] ?? '',
    whereLanguage: s['whereLanguage'] ?? 'lucene',
  });
  const metric = (s: Json): Json => ({
    ...maybe('metricName', s['metricName']),
    ...maybe('metricDataType', s['metricType']),
    ...maybe('numberFormat', numberFormat),
  });
  switch (displayType) {
    case 'line':
    case 'stacked_bar':
      return select.map((s) => ({ type: 'time', ...common(s), displayType, groupBy, ...metric(s) }));
    case 'table':
      return select.map((s) => ({ type: 'table', ...common(s), groupBy, ...metric(s), sortOrder: 'asc' }));
    case 'number':
      return select.slice(0, 1).map((s) => ({ type: 'number', ...common(s), ...metric(s) }));
    case 'search':
      return [{ type: 'search', sourceId, fields: split(config['select']), where: config['where'] ?? '', whereLanguage: config['whereLanguage'] ?? 'lucene' }];
    case 'markdown':
      return [{ type: 'markdown', content: config['markdown'] ?? '' }];
    default:
      return [];
  }
}

function asSeriesTiles(dashboard: unknown): unknown {
  if (!dashboard || typeof dashboard !== 'object' || !Array.isArray((dashboard as Json)['tiles'])) return dashboard;
  const d = dashboard as Json;
  // 2026-01-30's dashboards had no filters or containers; tiles only id, x, y, w, h, asRatio, name, series.
  return {
    id: d['id'],
    name: d['name'],
    tags: d['tags'],
    tiles: (d['tiles'] as Json[]).map((t) => {
      const config = (t['config'] ?? {}) as Json;
      return { id: t['id'], x: t['x'], y: t['y'], w: t['w'], h: t['h'], asRatio: config['asRatio'] === true, name: t['name'], series: configToSeries(config) };
    }),
  };
}

/**
 * The proxy: `url` serves what the emulator at `target` holds, dashboards answered as 2026-01-30 did.
 * `held`, when given, changes each answered dashboard (series form) into what that server would hold: for what
 * 2026-08, and so the emulator, refuses to store (a numberFormat.mantissa of 2.5, a number in 2026-01-30's spec).
 */
export function startSeriesServer(target: string, held?: (dashboard: Json) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const answer = (d: unknown): unknown => {
    const out = asSeriesTiles(d);
    if (held && out && typeof out === 'object') held(out as Json);
    return out;
  };
  return startProxy(target, {
    rewrite: (_req, path, status, text) => {
      if (status !== 200 || !path.startsWith('/api/v2/dashboards') || path.endsWith('/validate')) return text;
      const body = JSON.parse(text) as { data?: unknown };
      const data = Array.isArray(body.data) ? body.data.map(answer) : answer(body.data);
      return JSON.stringify({ ...body, data });
    },
  });
}
