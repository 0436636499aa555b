import { Document, isMap, isSeq, YAMLMap, YAMLSeq } from 'yaml';
import { escapeInterpolation } from '../config/interpolate.ts';
import { dropSeriesDefaults, METRIC_VALUE_EXPRESSION, metricLacksValue, SERIES_MEMBERS, withoutGatedFilterMembers } from '../model/dashboard.ts';
import type { LiveDashboardInput } from '../plan/types.ts';
import { dropUnknownMembers as dropUnknown } from '../schema/unknown-members.ts';
import { isPortableFileName } from '../shared/paths.ts';
import { escapeTerminal } from './escape.ts';
import { yamlText } from './yaml-text.ts';

/**
 * A live id steward writes into a file (a comment, metadata.id): any printable text up to 256 characters.
 * The spec allows any string, so spaces are fine; control and format characters and line separators (a line
 * break would inject a document) are refused by import.
 */
export const SAFE_ID = /^[^\p{Cc}\p{Cf}\u2028\u2029]{1,256}$/u;

export interface ImportedFile {
  /** Safe file name: lowercase letters, digits and dashes, then .yaml. */
  fileName: string;
  metadataName: string;
  text: string;
  /** What could not be expressed, for the user. */
  warnings: string[];
}

const TILE_KEYS = ['name', 'x', 'y', 'w', 'h', 'asRatio', 'series'] as const;

/**
 * The servers' specs leave their objects open (no `additionalProperties: false`), so a live config may carry
 * members the spec does not name and steward's schema cannot say; a file with them would not validate. Such
 * members are left out of the file with a warning (plan does not compare them either). Only under a tile's
 * `config` and a dashboard's `filters` (src/schema/unknown-members.ts).
 */
function dropUnknownMembers(doc: Record<string, unknown>, warnings: string[]): void {
  dropUnknown(doc, (path) => {
    const [what, index, ...rest] = path;
    const tiles = (doc['spec'] as { tiles?: Array<{ name?: unknown }> }).tiles ?? [];
    const where = what === 'tiles' ? `tile "${String(tiles[Number(index)]?.name)}"` : `filter ${Number(index) + 1}`;
    warnings.push(`${where}: left out ${rest.join('.')}, a member steward does not know`);
  });
}

/**
 * The longest key import names a file after: metadata.name allows 253 characters, and `<key>.yaml` (or
 * `<key>-2.yaml` on a collision) past 255 bytes cannot be made (ENAMETOOLONG: import --out of a project
 * declaring such a name failed at that file; red team).
 */
const MAX_FILE_KEY = 200;

/**
 * Whether `<key>.yaml` is a name import may not give a file: one Windows cannot check out (`con.yaml` is the
 * console there, `nul.alert.yaml` the null device), `steward.yaml`, which a command run in that folder
 * would take for the project file, or one too long for a file name (MAX_FILE_KEY).
 */
export function isReservedKey(key: string): boolean {
  return !isPortableFileName(`${key}.yaml`) || key.toLowerCase() === 'steward' || key.length > MAX_FILE_KEY;
}

/**
 * The key import names a new file and its metadata.name with: the name a project file already declares the
 * live object under (kept, so alerts that name it still do), unless that makes a reserved file name
 * (metadata.name allows `con` and `nul.alert`): then, as a live name, the slug of it.
 */
export function fileKey(declared: string | undefined, liveName: string): string {
  return declared !== undefined && !isReservedKey(declared) ? declared : slugify(declared ?? liveName);
}

/** A key for metadata.name and the file name: only [a-z0-9-], never empty, never a path, never a reserved file name. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  if (!s) return 'dashboard';
  return isReservedKey(s) ? `${s}-dashboard` : s;
}

/**
 * Writes a live dashboard as a steward Dashboard document: the fields steward models, normalized (no
 * service ids, no marker tag), with the schema line for editors. Pure: the caller picks names and writes.
 */
/**
 * Why a live dashboard's tiles cannot be written as a file that plan finds equal to it, or undefined: steward
 * tells tiles apart by name (alerts name them, plan matches them by it), so a tile without a name, or two of
 * one name, would be written under a made-up name, and plan would then show that rename (red team round 9,
 * F7). Import skips such a dashboard with this reason rather than write a file that never matches.
 */
export function tileNameProblem(live: LiveDashboardInput): string | undefined {
  const seen = new Set<string>();
  const tiles = (live.tiles ?? []).filter((t) => t && typeof t === 'object');
  const why = (what: string) => `${what}, and steward tells tiles apart by their names (alerts name them): name each tile once in the UI, then import again`;
  for (let i = 0; i < tiles.length; i++) {
    const name = tiles[i]!.name;
    if (typeof name !== 'string' || name === '') return why(`tile ${i + 1} of ${tiles.length} has no name`);
    if (seen.has(name)) return why(`two tiles are named "${name}"`);
    seen.add(name);
  }
  return undefined;
}

export function renderDashboardYaml(
  live: LiveDashboardInput,
  opts: {
    metadataName: string;
    markerTag: string;
    schemaPath: string;
    pinId: boolean;
    /**
     * The service takes tiles in the config form (hyperdx, clickstack-cloud): write `config`. A dashboard's
     * `filters` are written under every profile: a file may declare them under any, and plan compares them.
     */
    configForm?: boolean;
    /** Source names by id in this environment: `sourceId` is written as `source: <name>` where one is known. */
    sourceNames?: ReadonlyMap<string, string>;
  },
): { text: string; warnings: string[]; value: { apiVersion: string; kind: 'Dashboard'; metadata: Record<string, unknown>; spec: Record<string, unknown> } } {
  // A source id becomes its name (files then serve every environment); an id no one name fits stays an id.
  const named = (holder: Record<string, unknown>): Record<string, unknown> => {
    const id = holder['sourceId'];
    const name = typeof id === 'string' ? opts.sourceNames?.get(id) : undefined;
    if (name === undefined) return holder;
    const { sourceId: _id, ...rest } = holder;
    return { source: name, ...rest };
  };
  const withoutNulls = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(withoutNulls)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([, x]) => x !== null && x !== undefined)
              .map(([k, x]) => [k, withoutNulls(x)]),
          )
        : v;
  const warnings: string[] = [];
  const tags = [...new Set((live.tags ?? []).filter((t): t is string => typeof t === 'string' && t !== opts.markerTag))];
  const seen = new Map<string, number>();
  const tiles = (live.tiles ?? [])
    .filter((t) => t && typeof t === 'object')
    .map((t) => {
      const out: Record<string, unknown> = {};
      let name = typeof t.name === 'string' && t.name !== '' ? t.name : 'Untitled tile';
      const n = (seen.get(name) ?? 0) + 1;
      seen.set(name, n);
      if (n > 1) {
        warnings.push(`two tiles are named "${name}": the second is written as "${name} (${n})" (steward matches tiles by name)`);
        name = `${name} (${n})`;
      }
      for (const k of TILE_KEYS) {
        if (k === 'name') out['name'] = name;
        else if (k === 'series') {
          if (Array.isArray(t.series) && t.series.length > 0) {
            // Members in SERIES_MEMBERS' order (type, source, what is aggregated, then how it is shown); one
            // steward does not know is left out, and said, as for a config.
            out['series'] = t.series.map((s, j) => {
              const o: Record<string, unknown> = {};
              for (const sk of SERIES_MEMBERS) if (s[sk] !== undefined && s[sk] !== null) o[sk] = withoutNulls(s[sk]);
              for (const k of Object.keys(s))
                if (!Object.hasOwn(o, k) && s[k] !== undefined && s[k] !== null && !(SERIES_MEMBERS as readonly string[]).includes(k))
                  warnings.push(`tile "${name}": left out series[${j}].${k}, a member steward does not know`);
              // dataSource beside sourceId: the live profiles' servers ignore it (validate refuses the pair there),
              // so a file that kept it would be skipped; the seed's series keep it, as its server reads it.
              if (opts.configForm && o['dataSource'] !== undefined && o['sourceId'] !== undefined) {
                delete o['dataSource'];
                warnings.push(`tile "${name}": left out series[${j}].dataSource, which the server ignores beside sourceId`);
              }
              // What the server fills in when none was sent (displayType line, sortOrder asc) is not written:
              // it means the same left out, and a seed file cannot say it.
              return dropSeriesDefaults(o);
            });
          } else if (t['config'] !== undefined && t['config'] !== null && typeof t['config'] === 'object' && opts.configForm) {
            out['config'] = withMetricValues(named(withoutNulls(t['config']) as Record<string, unknown>), name, warnings);
          } else if (t['config'] !== undefined) {
            warnings.push(`tile "${name}" uses the newer config format, which steward cannot express: its series are left out (plan does not compare them)`);
          }
        } else if (k === 'asRatio') {
          if (t.asRatio === true) out['asRatio'] = true;
        } else if (typeof t[k] === 'number') out[k] = t[k];
      }
      return out;
    });
  const spec: Record<string, unknown> = { name: live.name };
  if (tags.length) spec['tags'] = tags;
  const filters = (live as { filters?: unknown }).filters;
  if (Array.isArray(filters) && filters.length > 0) {
    // Filter ids are the service's own (plan ignores them); everything else is written, but for what HyperDX
    // omits (and refuses) for the filter's mode. Also on the seed profile, whose plan compares filters: left
    // out there, an imported dashboard of a server that has them (HyperDX 2026-08) planned as blocked.
    spec['filters'] = filters
      .filter((f): f is Record<string, unknown> => !!f && typeof f === 'object')
      .map((f) => {
        const { id: _id, ...rest } = withoutGatedFilterMembers(withoutNulls(f) as Record<string, unknown>);
        return named(rest);
      });
  }
  if (tiles.length) spec['tiles'] = tiles;
  dropUnknownMembers({ apiVersion: 'steward/v1', kind: 'Dashboard', metadata: { name: opts.metadataName }, spec }, warnings);
  // Text from the server is literal: `${` is escaped so loading the file does not read it as a variable.
  const doc = new Document({
    apiVersion: 'steward/v1',
    kind: 'Dashboard',
    metadata: { name: opts.metadataName, ...(opts.pinId ? { id: live.id } : {}) },
    spec: escapeInterpolation(spec),
  });
  // Readable like the examples: tags and each series on one line.
  const specNode = doc.get('spec') as YAMLMap;
  const tagsNode = specNode.get('tags');
  if (isSeq(tagsNode)) tagsNode.flow = true;
  const filtersNode = specNode.get('filters');
  if (isSeq(filtersNode)) for (const f of filtersNode.items) if (isMap(f)) f.flow = true;
  const tilesNode = specNode.get('tiles');
  if (isSeq(tilesNode)) {
    for (const tile of tilesNode.items) {
      if (!isMap(tile)) continue;
      const series = tile.get('series');
      // A markdown series' text keeps its lines (a block, not one flow line).
      if (isSeq(series)) for (const s of (series as YAMLSeq).items) if (isMap(s) && !s.has('content')) s.flow = true;
      const config = tile.get('config');
      const select = isMap(config) ? config.get('select') : undefined;
      if (isSeq(select)) for (const s of (select as YAMLSeq).items) if (isMap(s)) s.flow = true;
    }
  }
  // The id is checked by the caller (SAFE_ID); escaped here too, so a comment can never hold a line break.
  const header = `# yaml-language-server: $schema=${escapeTerminal(opts.schemaPath)}\n# Imported from live dashboard ${escapeTerminal(String(live.id))} by steward import.\n`;
  const value = { apiVersion: 'steward/v1', kind: 'Dashboard' as const, metadata: { name: opts.metadataName, ...(opts.pinId ? { id: live.id } : {}) }, spec };
  return { text: header + yamlText(doc), warnings, value };
}

/**
 * Select items as the server means them, so the file can be applied. A tile made in HyperDX's UI from its
 * metric templates answers `valueExpression: ""` on metric series, which its API refuses on any write (every
 * aggFn but count needs one): written as `Value`, the metric value column; the next apply sends it. A level on
 * an aggFn other than quantile, or a valueExpression on a count, is left out: HyperDX ignores both and its API
 * refuses them, and its own answers leave them out (convertToExternalSelectItem); a mock of its spec may not.
 */
function withMetricValues(config: Record<string, unknown>, tile: string, warnings: string[]): Record<string, unknown> {
  const select = config['select'];
  if (!Array.isArray(select)) return config;
  let metric = false;
  const inert: string[] = [];
  const items = select.map((item: unknown, j) => {
    if (!item || typeof item !== 'object') return item;
    let out = item as Record<string, unknown>;
    if (metricLacksValue(out)) {
      metric = true;
      out = { ...out, valueExpression: METRIC_VALUE_EXPRESSION };
    }
    for (const k of ['level', 'valueExpression'] as const) {
      const unused = k === 'level' ? typeof out['aggFn'] === 'string' && out['aggFn'] !== 'quantile' : out['aggFn'] === 'count' && !!out[k];
      if (out[k] === undefined || !unused) continue;
      inert.push(`select[${j}].${k}`);
      const { [k]: _drop, ...rest } = out;
      out = rest;
    }
    return out;
  });
  if (!metric && inert.length === 0) return config;
  if (metric)
    warnings.push(
      `tile "${tile}": a metric series without a value expression is written with valueExpression: Value (the API refuses an empty one); the next apply sends it`,
    );
  if (inert.length > 0)
    warnings.push(
      `tile "${tile}": left out ${inert.join(', ')}: unused with that aggFn (a level is for quantile, a count takes no valueExpression), and the API refuses them`,
    );
  return { ...config, select: items };
}
