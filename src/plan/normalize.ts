import { hash } from 'node:crypto';
import type { DashboardSpec, Series, Tile } from '../schema/kinds.ts';
import { canonicalJson, quotedKey, sortedKeysOf } from './fingerprint.ts';
import { isExactJson } from '../shared/json.ts';
import { copyPlain, setOwn } from '../shared/object.ts';
import { dropUnknownMembers } from '../schema/unknown-members.ts';
import { dropSeriesDefaults, SERIES_MEMBERS, storedFieldList, withoutGatedFilterMembers, type LiveTileInput } from '../model/dashboard.ts';
import type { LiveDashboardInput } from './types.ts';

/** The comparable shape of a dashboard: tiles keyed by name, tags a sorted set, no server ids. */
export interface NormalDashboard {
  name: string;
  tags?: string[];
  tiles?: Record<string, NormalTile>;
  /** Dashboard filters (config-form servers), keyed by name, without their ids. */
  filters?: Record<string, Record<string, unknown>>;
}

export interface NormalTile {
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  asRatio?: true;
  series?: Array<Record<string, unknown>>;
  /** The chart in the config form (HyperDX 2026-08), members without a value left out. */
  config?: Record<string, unknown>;
  /**
   * A tile whose name an earlier tile has (kept under "<name> (<n>)") or that has no name (kept under
   * "(unnamed)"): said in the form itself, so a file's tile really named "a (2)" or "(unnamed)" never equals it
   * (red team, round 8: live tiles a, a planned as unchanged against a file's a, "a (2)").
   */
  sameNameAs?: string;
  unnamed?: true;
}

/**
 * Every series member steward models (seed 000's, and HyperDX's since 2026-01-30: alias, level, numberFormat,
 * sortOrder, displayType, fields, content), in the order plans show them. Compared on both sides: a member
 * left out here was neither seen as drift nor as an edit.
 */
const SERIES_FIELDS = SERIES_MEMBERS;
const DASHBOARD_FIELDS = new Set(['id', 'name', 'tags', 'tiles', 'filters']);
const TILE_KNOWN = new Set(['id', 'name', 'x', 'y', 'w', 'h', 'asRatio', 'series', 'config']);
const SERIES_KNOWN = new Set<string>(SERIES_FIELDS);
/** The order normalizeSeries sets them in (see normalDigest). */
const SERIES_SORTED = [...SERIES_FIELDS].sort();

/**
 * Normalizes the desired side. Works on a copy: the caller's objects are never changed.
 * Equal meaning gives equal output: absent and empty arrays, asRatio false and absent, tag order.
 */
export function normalizeDesired(spec: DashboardSpec, markerTag: string): NormalDashboard {
  const filters = normalizeFilters(spec.filters as unknown[] | undefined, undefined);
  return shape(
    spec.name,
    spec.tags ?? [],
    (spec.tiles ?? []).map((t) => toTileInput(t)),
    markerTag,
    undefined,
    filters,
  );
}

/** Filters keyed by name, ids dropped (the server assigns them). */
function normalizeFilters(list: readonly unknown[] | undefined, ignored: Set<string> | undefined): Record<string, Record<string, unknown>> | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const out = new Map<string, Record<string, unknown>>();
  for (const f of list) {
    if (!f || typeof f !== 'object') continue;
    // As the server answers it: a member it omits for the filter's mode is no drift.
    const { id, ...rest } = withoutGatedFilterMembers(f as Record<string, unknown>);
    if (id !== undefined) ignored?.add('filters[].id');
    const name = typeof rest['name'] === 'string' ? rest['name'] : '(unnamed)';
    out.set(out.has(name) ? `${name} (${out.size + 1})` : name, compact(rest));
  }
  return Object.fromEntries([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A copy without null/undefined members and empty lists (absent and empty mean the same to the server), its
 * members in sorted order (see normalDigest).
 */
function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) {
    const v = o[k];
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    setOwn(out, k, v && typeof v === 'object' && !Array.isArray(v) ? compact(v as Record<string, unknown>) : v);
  }
  return out;
}

const DASHBOARD_ORDER = ['name', 'tags', 'tiles', 'filters'];
const TILE_ORDER = ['x', 'y', 'w', 'h', 'asRatio', 'series', 'config', 'sameNameAs', 'unnamed'];

/**
 * A form with its members in the order people read them (name, tags, tiles; x, y, w, h, then the series),
 * for the diff and the plan's before and after. The forms are made in sorted order, for their digests.
 */
export function displayForm(n: NormalDashboard): NormalDashboard {
  const out = inOrder(n as unknown as Record<string, unknown>, DASHBOARD_ORDER) as unknown as NormalDashboard;
  if (n.tiles) {
    const tiles: Record<string, NormalTile> = {};
    for (const [name, t] of Object.entries(n.tiles)) {
      const tile = inOrder(t as Record<string, unknown>, TILE_ORDER) as NormalTile;
      if (t.series) tile.series = t.series.map((x) => inOrder(x, SERIES_FIELDS));
      setOwn(tiles, name, tile);
    }
    out.tiles = tiles;
  }
  return out;
}

/** A copy with the members named in `order` first, in that order, then the others as they were. */
function inOrder(o: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of order) if (Object.hasOwn(o, k)) setOwn(out, k, o[k]);
  for (const k of Object.keys(o)) if (!Object.hasOwn(out, k)) setOwn(out, k, o[k]);
  return out;
}

/** Normalizes a live dashboard and says which of its fields were left out of the comparison. */
export function normalizeLive(live: LiveDashboardInput, markerTag: string): { normal: NormalDashboard; ignored: string[] } {
  const ignored = new Set<string>();
  for (const k of Object.keys(live)) if (!DASHBOARD_FIELDS.has(k)) ignored.add(k);
  if (live.id !== undefined) ignored.add('id');
  const tiles = Array.isArray(live.tiles) ? live.tiles : [];
  const filters = normalizeFilters((live as { filters?: unknown[] }).filters, ignored);
  const normal = shape(typeof live.name === 'string' ? live.name : '', Array.isArray(live.tags) ? live.tags : [], tiles, markerTag, ignored, filters);
  return { normal, ignored: [...ignored].sort() };
}

function toTileInput(t: Tile): LiveTileInput {
  return { ...t, series: t.series as Array<Record<string, unknown>> | undefined };
}

/** Every object made here has its members in sorted order, so that normalDigest takes its fast path. */
function shape(
  name: string,
  tags: readonly unknown[],
  tiles: readonly LiveTileInput[],
  markerTag: string,
  ignored: Set<string> | undefined,
  filters: NormalDashboard['filters'],
): NormalDashboard {
  const out: NormalDashboard = filters ? { filters, name } : { name };
  const tagSet = [...new Set(tags.filter((t): t is string => typeof t === 'string' && t !== markerTag))].sort();
  if (tagSet.length > 0) out.tags = tagSet;
  // Tile names are user text: "__proto__" or "constructor" must be keys like any other (an assignment to
  // "__proto__" would set the prototype and the tile would vanish from the diff).
  const byName = new Map<string, NormalTile>();
  const counts = new Map<string, number>();
  for (const tile of tiles) {
    if (!tile || typeof tile !== 'object') continue;
    const base = typeof tile.name === 'string' ? tile.name : '(unnamed)';
    // The server allows two tiles with one name; keep both, distinguishable, rather than lose one.
    let n = (counts.get(base) ?? 0) + 1;
    let key = n === 1 ? base : `${base} (${n})`;
    // A made-up key may be another tile's own name ("a", "a", "a (2)"): take the next free one, so no
    // tile replaces another in the form (red team, round 9).
    while (byName.has(key)) key = `${base} (${++n})`;
    counts.set(base, n);
    byName.set(key, normalizeTile(tile, ignored, n > 1 ? base : undefined, typeof tile.name !== 'string'));
  }
  if (byName.size > 0) out.tiles = Object.fromEntries([...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return out;
}

function normalizeTile(tile: LiveTileInput, ignored: Set<string> | undefined, sameNameAs: string | undefined, unnamed: boolean): NormalTile {
  // Members set in sorted order: asRatio, config, h, sameNameAs, series, unnamed, w, x, y.
  const out: NormalTile = {};
  if (tile.asRatio === true) out.asRatio = true;
  const config = (tile as { config?: unknown }).config;
  if (config && typeof config === 'object' && !Array.isArray(config)) out.config = withSelectDefaults(compact(config as Record<string, unknown>));
  if (typeof tile.h === 'number') out.h = tile.h;
  if (sameNameAs !== undefined) out.sameNameAs = sameNameAs;
  const series = Array.isArray(tile.series) ? tile.series : [];
  if (series.length > 0) out.series = withTileMembers(withTileNumberFormat(series.map((s) => normalizeSeries(s as Series & Record<string, unknown>, ignored))));
  if (unnamed) out.unnamed = true;
  for (const f of ['w', 'x', 'y'] as const) if (typeof tile[f] === 'number') out[f] = tile[f];
  if (ignored) for (const k of Object.keys(tile)) if (!TILE_KNOWN.has(k)) ignored.add(`tiles[].${k}`);
  if (ignored && tile.id !== undefined) ignored.add('tiles[].id');
  return out;
}

/**
 * Select items as HyperDX reads them: it stores `where` and `valueExpression` as `""` and answers a missing
 * `whereLanguage` as `lucene` (convertToInternalSelectItem / convertToExternalSelectItem), so a file that
 * leaves them out means what the server answers. Both sides drop those defaults, or every plan would show
 * them as drift.
 */
function withSelectDefaults(config: Record<string, unknown>): Record<string, unknown> {
  const select = config['select'];
  if (!Array.isArray(select)) return config;
  const items = select.map((item: unknown) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
    const out = compact(item as Record<string, unknown>);
    if (out['where'] === '') delete out['where'];
    // A count counts rows: the server keeps no value expression for it; a level means something to a
    // quantile alone, and the server answers none on another aggFn.
    if (out['valueExpression'] === '' || out['aggFn'] === 'count') delete out['valueExpression'];
    if (out['aggFn'] !== 'quantile' && typeof out['aggFn'] === 'string') delete out['level'];
    if (out['whereLanguage'] === 'lucene') delete out['whereLanguage'];
    return out;
  });
  return { ...config, select: items };
}

/**
 * A time or table tile's series with the tile's number format on each: HyperDX keeps one per tile (the first
 * series' that has one) and a server answering series (2026-01-30) gives it on every series, so a file that
 * says it once means what the server answers. Series of other types are left as they are.
 */
function withTileNumberFormat(series: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const type = series[0]?.['type'];
  if (type !== 'time' && type !== 'table') return series;
  const format = series.find((s) => s['numberFormat'] !== undefined)?.['numberFormat'];
  if (format === undefined || series.every((s) => s['numberFormat'] !== undefined && canonicalJson(s['numberFormat']) === canonicalJson(format))) return series;
  // Rebuilt in sorted member order (see normalDigest).
  return series.map((s) => Object.fromEntries(Object.entries({ ...s, numberFormat: format }).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/**
 * A time or table tile's series with the tile's own members on each: HyperDX stores one chart per tile, whose
 * source, groupBy, time display type and table order come from the first series (translateExternalChartToTileConfig:
 * `firstSeries.sourceId`, `.groupBy`, `.displayType`, `orderBy` from `firstSeries.sortOrder && firstSeries.field`),
 * and a server answering series (2026-01-30) gives them on every series, a table's order `asc` when none was
 * stored. So a later series' sourceId, groupBy, displayType or sortOrder, or `desc` on a first series without a field,
 * means what the server answers; without this, plan showed it as a change after every apply. Both sides;
 * validate warns of the ignored ones. Defaults stay left out (dropSeriesDefaults).
 */
function withTileMembers(series: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const first = series[0];
  const type = first?.['type'];
  if (type !== 'time' && type !== 'table') return series;
  const tile: Record<string, unknown> = { groupBy: first!['groupBy'], sourceId: first!['sourceId'] };
  if (type === 'time') tile['displayType'] = first!['displayType'];
  else tile['sortOrder'] = typeof first!['field'] === 'string' && first!['field'] !== '' && first!['sortOrder'] === 'desc' ? 'desc' : undefined;
  // The first series against itself (most tiles have one) is the same value: no canonical texts made.
  const same = (s: Record<string, unknown>) =>
    Object.keys(tile).every((k) => s[k] === tile[k] || canonicalJson(s[k] ?? null) === canonicalJson(tile[k] ?? null));
  if (series.every(same)) return series;
  // Rebuilt in sorted member order (see normalDigest).
  return series.map((s) => {
    const out: Record<string, unknown> = { ...s };
    for (const [k, v] of Object.entries(tile)) {
      if (v === undefined) delete out[k];
      // A copy each: series sharing the first's groupBy array are one array, and a patch to one changed all.
      else out[k] = structuredClone(v);
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  });
}

function normalizeSeries(s: Record<string, unknown>, ignored: Set<string> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of SERIES_SORTED) {
    const v = s[f];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      // groupBy and fields as the server stores them: " host" is host, "a,b" two fields (storedFieldList).
      const list = f === 'groupBy' || f === 'fields' ? storedFieldList(v) : [...v];
      if (list.length > 0) out[f] = list;
    } else if (typeof v === 'object') {
      // numberFormat: its members without a value left out, in sorted order (see normalDigest).
      const o = compact(v as Record<string, unknown>);
      if (Object.keys(o).length > 0) out[f] = o;
    } else out[f] = v;
  }
  // What a server answering series (HyperDX 2026-01-30) fills in equals its absence: without this, a file
  // that leaves them out would plan as drift after every apply.
  dropSeriesDefaults(out);
  if (ignored) for (const k of Object.keys(s)) if (!SERIES_KNOWN.has(k)) ignored.add(`tiles[].series[].${k}`);
  return out;
}

/**
 * Live tiles of a newer server describe their chart in `config` instead of `series`. Their series cannot be
 * compared; leave them out of the desired side too, so the plan does not report drift it cannot see.
 */
/**
 * What the live side can be compared on, given the desired side: a live tile's config keeps only the members
 * the file declares for that tile (a server fills in defaults and newer members; those are listed as
 * ignored, never reported as drift), and a file's config is not compared with a tile the server describes
 * only in series (or the reverse).
 */
export function alignConfigs(desired: NormalDashboard, before: NormalDashboard, ignored: Set<string>): { desired: NormalDashboard; before: NormalDashboard } {
  if (!desired.tiles || !before.tiles) return { desired, before };
  const d: NormalDashboard = { ...desired, tiles: { ...desired.tiles } };
  const b: NormalDashboard = { ...before, tiles: { ...before.tiles } };
  for (const [name, want] of Object.entries(d.tiles!)) {
    const have = Object.hasOwn(b.tiles!, name) ? b.tiles![name] : undefined;
    if (!have) continue;
    if (want.config && have.config) {
      const kept: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(have.config)) {
        if (Object.hasOwn(want.config, k)) setOwn(kept, k, v);
        else ignored.add(`tiles[].config.${k}`);
      }
      b.tiles![name] = { ...have, config: kept };
    } else if (want.config && !have.config) {
      const { config: _c, ...rest } = want;
      d.tiles![name] = rest;
    } else if (!want.config && have.config) {
      ignored.add('tiles[].config');
      const { config: _c, ...rest } = have;
      b.tiles![name] = rest;
    }
  }
  return { desired: d, before: b };
}

/**
 * `before` (as alignConfigs left it) with each tile's config whole again, as the live dashboard holds it, where
 * the file's tile has a config too. An update replaces those configs, so a member only the live side holds (set
 * in the UI, or left by a newer server) is removed by it: not drift on its own, but the update's patch must
 * show it going rather than drop it unseen. `before` itself when nothing was left out.
 */
export function withWholeConfigs(before: NormalDashboard, live: NormalDashboard, desired: NormalDashboard): NormalDashboard {
  if (!before.tiles || !live.tiles || !desired.tiles) return before;
  let tiles: Record<string, NormalTile> | undefined;
  for (const [name, t] of Object.entries(before.tiles)) {
    const whole = Object.hasOwn(live.tiles, name) ? live.tiles[name]!.config : undefined;
    const wanted = Object.hasOwn(desired.tiles, name) ? desired.tiles[name]!.config : undefined;
    if (!t.config || !whole || !wanted || canonicalJson(whole) === canonicalJson(t.config)) continue;
    tiles ??= { ...before.tiles };
    setOwn(tiles, name, { ...t, config: whole });
  }
  return tiles ? { ...before, tiles } : before;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The live dashboard without the members of its tile configs and filters that steward's schema does not know,
 * at any depth (a newer server's: the specs leave those objects open), and their paths for the plan's "not
 * compared" list (`tiles[].config.onClick.extra`); `live` itself when it has none. A member a file cannot say
 * is not drift: compared, it planned an update after every apply (seed: a dashboard blocked for good), where
 * import had left it out of the file. Only called for a dashboard whose digest differs (it validates).
 */
export function withoutUnknownMembers(live: LiveDashboardInput): { live: LiveDashboardInput; dropped: string[] } {
  const tiles: readonly unknown[] = Array.isArray(live.tiles) ? live.tiles : [];
  const filters = (live as { filters?: unknown }).filters;
  const filterList: readonly unknown[] = Array.isArray(filters) ? filters : [];
  const configOf = (t: unknown) => (isPlainObject(t) && isPlainObject(t['config']) ? t['config'] : undefined);
  if (!tiles.some((t) => configOf(t) !== undefined) && !filterList.some(isPlainObject)) return { live, dropped: [] };
  // A document the schema checks: each tile's config and each filter (without the service's id) as they are.
  const spec = {
    name: typeof live.name === 'string' ? live.name : '',
    tiles: tiles.map((t) => {
      const config = configOf(t);
      return { name: 'tile', x: 0, y: 0, w: 1, h: 1, ...(config ? { config: copyPlain(config) } : {}) };
    }),
    filters: filterList.map((f) => {
      if (!isPlainObject(f)) return {};
      const { id: _id, ...rest } = copyPlain(f);
      return rest;
    }),
  };
  const dropped = new Set<string>();
  dropUnknownMembers({ apiVersion: 'steward/v1', kind: 'Dashboard', metadata: { name: 'live' }, spec }, (path) => {
    dropped.add(
      path
        .map((seg) => (/^\d+$/.test(seg) ? '[]' : seg))
        .join('.')
        .replace(/\.\[\]/g, '[]'),
    );
  });
  if (dropped.size === 0) return { live, dropped: [] };
  const known = {
    ...live,
    tiles: tiles.map((t, i) => (configOf(t) ? { ...(t as object), config: spec.tiles[i]!.config } : t)),
    ...(Array.isArray(filters)
      ? { filters: filterList.map((f, i) => (isPlainObject(f) ? { ...(f['id'] !== undefined ? { id: f['id'] } : {}), ...spec.filters[i] } : f)) }
      : {}),
  } as LiveDashboardInput;
  return { live: known, dropped: [...dropped].sort() };
}

export function dropUncomparableSeries(desired: NormalDashboard, live: LiveDashboardInput): NormalDashboard {
  const tiles = Array.isArray(live.tiles) ? live.tiles : [];
  const opaque = new Set(tiles.filter((t) => t && t.config !== undefined && !Array.isArray(t.series)).map((t) => t.name));
  if (opaque.size === 0 || !desired.tiles) return desired;
  const copy: NormalDashboard = { ...desired, tiles: { ...desired.tiles } };
  for (const name of opaque) {
    if (typeof name === 'string' && Object.hasOwn(copy.tiles!, name)) {
      const { series: _drop, ...rest } = copy.tiles![name]!;
      copy.tiles![name] = rest;
    }
  }
  return copy;
}

/**
 * A digest of a normalized form (sha256 of its canonical JSON), or undefined where JSON cannot say the value
 * exactly (NaN, infinities, -0, undefined members): equal digests then mean equal forms, and a plan can call
 * a dashboard unchanged without diffing it (issue 15). Unequal digests prove nothing; the full diff decides.
 */
export function normalDigest(n: unknown): string | undefined {
  let text: string | undefined;
  try {
    // The forms made here have their members in sorted order: then JSON.stringify writes the canonical text,
    // in native code (the checked walk and it take about half the time of exactCanonical's strings).
    text = stringifiesCanonically(n, 0) ? JSON.stringify(n) : exactCanonical(n, 0);
  } catch (e) {
    if (e !== TOO_DEEP) throw e;
    text = isExactJson(n) ? canonicalJson(n) : undefined;
  }
  // One-shot hash: 10,000 createHash objects per plan cost more than the hashing.
  return text === undefined ? undefined : `sha256:${hash('sha256', text, 'hex')}`;
}

const TOO_DEEP: unique symbol = Symbol('too deep');

/**
 * Whether JSON.stringify(v) is exactly exactCanonical(v): plain data JSON says exactly (no NaN, infinity,
 * -0, undefined member or hole, no toJSON), every object's keys enumerated in sorted order. Any doubt is a
 * no, and exactCanonical decides.
 */
function stringifiesCanonically(v: unknown, depth: number): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0);
    case 'object':
      break;
    default:
      return false;
  }
  if (depth > 200 || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!stringifiesCanonically(v[i], depth + 1)) return false;
    return true;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && keys[i - 1]! >= keys[i]!) return false;
    if (!stringifiesCanonically(o[keys[i]!], depth + 1)) return false;
  }
  return true;
}

/**
 * canonicalJson of a value JSON says exactly, or undefined, in one pass (a normalized dashboard is hashed
 * per live dashboard: 10,000 per plan). Beyond 200 levels it throws TOO_DEEP and the caller takes the
 * two passes below, which cannot overflow the call stack.
 */
function exactCanonical(v: unknown, depth: number): string | undefined {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return Number.isFinite(v) && !Object.is(v, -0) ? JSON.stringify(v) : undefined;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (depth > 200) throw TOO_DEEP;
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) {
      const x = exactCanonical(v[i], depth + 1);
      if (x === undefined) return undefined;
      out += (i > 0 ? ',' : '') + x;
    }
    return out + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = sortedKeysOf(o);
  let out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = exactCanonical(o[k], depth + 1);
    if (x === undefined) return undefined;
    out += (i > 0 ? ',' : '') + quotedKey(k) + ':' + x;
  }
  return out + '}';
}

/** Digests of desired specs already computed (or read from the parse cache), per spec object and marker tag. */
const desiredDigests = new WeakMap<object, { markerTag: string; digest: string }>();

/** Records the digest of a spec's normalized form (the parse cache stores them beside the documents). */
export function rememberDesiredDigest(spec: object, markerTag: string, digest: string): void {
  desiredDigests.set(spec, { markerTag, digest });
}

/** The digest of `normalizeDesired(spec, markerTag)`, computed once per spec object. */
export function desiredDigest(spec: DashboardSpec, markerTag: string): string | undefined {
  const hit = desiredDigests.get(spec);
  if (hit && hit.markerTag === markerTag) return hit.digest;
  const digest = normalDigest(normalizeDesired(spec, markerTag));
  if (digest !== undefined) desiredDigests.set(spec, { markerTag, digest });
  return digest;
}
