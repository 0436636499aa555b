import type { AlertSource, Channel, Series, ThresholdType, Tile } from './types.ts';

/**
 * A request the emulator refuses with 400. The message starts with the field it is about
 * (`tiles[2].x: must be a number`), so a client can show it as it is.
 */
export class BadRequest extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BadRequest';
  }
}

/** `<n>m` or `<n>h` with n >= 1: the forms seed 000 shows (15m, 1h). */
export const INTERVAL_PATTERN = /^[1-9][0-9]*[mh]$/;
/** 24 lowercase hex characters, as the service assigns. */
export const OBJECT_ID_PATTERN = /^[0-9a-f]{24}$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}` : `${typeof v} ${JSON.stringify(v)}`;
}

function str(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new BadRequest(`${path}: must be a string, got ${describe(v)}`);
  return v;
}

function num(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new BadRequest(`${path}: must be a number, got ${describe(v)}`);
  return v;
}

function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw new BadRequest(`${path}: must be a boolean, got ${describe(v)}`);
  return v;
}

function strArray(v: unknown, path: string): string[] {
  if (!Array.isArray(v)) throw new BadRequest(`${path}: must be an array of strings, got ${describe(v)}`);
  return v.map((item, i) => str(item, `${path}[${i}]`));
}

/** Series members in the order seed 000 lists them; all strings except `groupBy`. */
const SERIES_FIELDS = ['type', 'dataSource', 'aggFn', 'field', 'where', 'whereLanguage', 'groupBy', 'sourceId', 'metricName', 'metricDataType'] as const;

/** Series in canonical key order with only the fields seed 000 lists; unknown members are dropped. */
function parseSeries(v: unknown, path: string): Series {
  if (!isObject(v)) throw new BadRequest(`${path}: must be an object, got ${describe(v)}`);
  const out: Series = {};
  for (const key of SERIES_FIELDS) {
    const value = v[key];
    if (value === undefined) continue;
    if (key === 'groupBy') out.groupBy = strArray(value, `${path}.groupBy`);
    else out[key] = str(value, `${path}.${key}`);
  }
  return out;
}

/** A tile without its id, canonical key order, unknown members dropped (the service assigns the id). */
export function parseTile(v: unknown, path: string): Omit<Tile, 'id'> {
  if (!isObject(v)) throw new BadRequest(`${path}: must be an object, got ${describe(v)}`);
  const out: Omit<Tile, 'id'> = {};
  if (v['name'] !== undefined) out.name = str(v['name'], `${path}.name`);
  for (const key of ['x', 'y', 'w', 'h'] as const) {
    if (v[key] !== undefined) out[key] = num(v[key], `${path}.${key}`);
  }
  if (v['asRatio'] !== undefined) out.asRatio = bool(v['asRatio'], `${path}.asRatio`);
  if (v['series'] !== undefined) {
    const series = v['series'];
    if (!Array.isArray(series)) throw new BadRequest(`${path}.series: must be an array, got ${describe(series)}`);
    out.series = series.map((s, i) => parseSeries(s, `${path}.series[${i}]`));
  }
  return out;
}

export interface DashboardInput {
  name: string;
  tiles: Omit<Tile, 'id'>[];
  tags: string[];
}

/**
 * Checks a `POST /api/v2/dashboards` body: `name` a non-empty string (required), `tiles` an array of tiles,
 * `tags` an array of strings. Ids sent with tiles are ignored; members the seed does not list are dropped.
 * @throws BadRequest naming the first field at fault.
 */
export function parseDashboardInput(body: unknown, prefix = ''): DashboardInput {
  if (!isObject(body)) throw new BadRequest(`${prefix || 'body'}: must be a JSON object, got ${describe(body)}`);
  const p = (k: string) => (prefix ? `${prefix}.${k}` : k);
  if (body['name'] === undefined) throw new BadRequest(`${p('name')}: is required`);
  const name = str(body['name'], p('name'));
  if (name.trim() === '') throw new BadRequest(`${p('name')}: must not be empty`);
  let tiles: Omit<Tile, 'id'>[] = [];
  if (body['tiles'] !== undefined) {
    const t = body['tiles'];
    if (!Array.isArray(t)) throw new BadRequest(`${p('tiles')}: must be an array, got ${describe(t)}`);
    tiles = t.map((tile, i) => parseTile(tile, `${p('tiles')}[${i}]`));
  }
  const tags = body['tags'] === undefined ? [] : strArray(body['tags'], p('tags'));
  return { name, tiles, tags };
}

/**
 * A `PUT /api/v2/alerts/{id}` body. A key is present exactly when the request sent it. `dashboardId` is the
 * request's name for what the response calls `dashboard`.
 */
export interface AlertUpdate {
  threshold?: number;
  interval?: string;
  thresholdType?: ThresholdType;
  source?: AlertSource;
  dashboardId?: string;
  tileId?: string;
  channel?: Channel;
  name?: string;
  message?: string;
}

/** The members of an update request, in the order seed 000 lists them. */
export const ALERT_UPDATE_FIELDS = ['threshold', 'interval', 'thresholdType', 'source', 'dashboardId', 'tileId', 'channel', 'name', 'message'] as const;

export function parseChannel(v: unknown, path: string): Channel {
  if (!isObject(v)) throw new BadRequest(`${path}: must be an object, got ${describe(v)}`);
  if (v['type'] === undefined) throw new BadRequest(`${path}.type: is required`);
  const out: Channel = { type: str(v['type'], `${path}.type`) };
  if (v['webhookId'] !== undefined) out.webhookId = str(v['webhookId'], `${path}.webhookId`);
  if (out.type === 'webhook' && out.webhookId === undefined) {
    throw new BadRequest(`${path}.webhookId: is required when the channel type is webhook`);
  }
  return out;
}

export function parseInterval(v: unknown, path: string): string {
  const s = str(v, path);
  if (!INTERVAL_PATTERN.test(s)) throw new BadRequest(`${path}: must be a number of minutes or hours like 15m or 1h, got ${JSON.stringify(s)}`);
  return s;
}

export function parseThresholdType(v: unknown, path: string): ThresholdType {
  if (v !== 'above' && v !== 'below') throw new BadRequest(`${path}: must be one of above, below; got ${describe(v)}`);
  return v;
}

export function parseSource(v: unknown, path: string): AlertSource {
  if (v !== 'tile' && v !== 'search') throw new BadRequest(`${path}: must be one of tile, search; got ${describe(v)}`);
  return v;
}

/**
 * Checks the types of an update body. Members it does not list are ignored, as the service's own validator
 * strips them. Whether required members are present depends on the update mode (see `store.ts`).
 * @throws BadRequest naming the first field at fault.
 */
export function parseAlertUpdate(body: unknown): AlertUpdate {
  if (!isObject(body)) throw new BadRequest(`body: must be a JSON object, got ${describe(body)}`);
  const out: AlertUpdate = {};
  if (body['threshold'] !== undefined) out.threshold = num(body['threshold'], 'threshold');
  if (body['interval'] !== undefined) out.interval = parseInterval(body['interval'], 'interval');
  if (body['thresholdType'] !== undefined) out.thresholdType = parseThresholdType(body['thresholdType'], 'thresholdType');
  if (body['source'] !== undefined) out.source = parseSource(body['source'], 'source');
  if (body['dashboardId'] !== undefined) out.dashboardId = str(body['dashboardId'], 'dashboardId');
  if (body['tileId'] !== undefined) out.tileId = str(body['tileId'], 'tileId');
  if (body['channel'] !== undefined) out.channel = parseChannel(body['channel'], 'channel');
  if (body['name'] !== undefined) out.name = str(body['name'], 'name');
  if (body['message'] !== undefined) out.message = str(body['message'], 'message');
  return out;
}
