import { Document, isMap, isSeq, YAMLMap, YAMLSeq } from 'yaml';
import type { LiveDashboardInput } from '../plan/types.ts';
import { validateKind } from '../schema/validator.ts';

export interface ImportedFile {
  /** Safe file name: lowercase letters, digits and dashes, then .yaml. */
  fileName: string;
  metadataName: string;
  text: string;
  /** What could not be expressed, for the user. */
  warnings: string[];
}

const TILE_KEYS = ['name', 'x', 'y', 'w', 'h', 'asRatio', 'series'] as const;
const SERIES_KEYS = ['type', 'dataSource', 'sourceId', 'aggFn', 'field', 'where', 'whereLanguage', 'groupBy', 'metricName', 'metricDataType'] as const;

/**
 * The servers' specs leave their objects open (no `additionalProperties: false`), so a live config may carry
 * members the spec does not name and steward's schema cannot say; a file with them would not validate. Such
 * members are left out of the file with a warning (plan never compares live members a file does not have).
 * Only under a tile's `config` and a dashboard's `filters`. A member is unknown when every variant that
 * reports unknown members at that place reports it (a `oneOf` variant that knows it does not count).
 */
function dropUnknownMembers(doc: Record<string, unknown>, warnings: string[]): void {
  for (let round = 0; round < 20; round++) {
    const unknown = validateKind('Dashboard', doc).filter((p) => p.atKey && /^unknown key/.test(p.message) && /^\/spec\/(tiles\/\d+\/config|filters\/\d+)\//.test(p.pointer));
    if (unknown.length === 0) return;
    const count = new Map<string, number>();
    for (const p of unknown) count.set(p.pointer, (count.get(p.pointer) ?? 0) + 1);
    const most = new Map<string, number>();
    for (const [ptr, n] of count) {
      const parent = ptr.slice(0, ptr.lastIndexOf('/'));
      most.set(parent, Math.max(most.get(parent) ?? 0, n));
    }
    let dropped = 0;
    for (const [ptr, n] of count) {
      const cut = ptr.lastIndexOf('/');
      if (n < most.get(ptr.slice(0, cut))!) continue;
      const segs = ptr.split('/').slice(1).map((x) => x.replace(/~1/g, '/').replace(/~0/g, '~'));
      const key = segs.pop()!;
      let holder: unknown = doc;
      for (const seg of segs) holder = holder && typeof holder === 'object' ? (holder as Record<string, unknown>)[seg] : undefined;
      if (!holder || typeof holder !== 'object' || !Object.hasOwn(holder, key)) continue;
      delete (holder as Record<string, unknown>)[key];
      dropped++;
      const [, what, index, ...rest] = segs;
      const tiles = (doc['spec'] as { tiles?: Array<{ name?: unknown }> }).tiles ?? [];
      const where = what === 'tiles' ? `tile "${String(tiles[Number(index)]?.name)}"` : `filter ${Number(index) + 1}`;
      warnings.push(`${where}: left out ${[...rest, key].join('.')}, a member steward does not know`);
    }
    if (dropped === 0) return;
  }
}

/** A copy without null members (absent and null mean the same to the server; files never say null). */
function withoutNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== null).map(withoutNulls);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined) Object.defineProperty(out, k, { value: withoutNulls(x), enumerable: true, writable: true, configurable: true });
  return out;
}

/** A key for metadata.name and the file name: only [a-z0-9-], never empty, never a path. */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
  return s || 'dashboard';
}

/**
 * Writes a live dashboard as a steward Dashboard document: the fields steward models, normalized (no
 * service ids, no marker tag), with the schema line for editors. Pure: the caller picks names and writes.
 */
export function renderDashboardYaml(
  live: LiveDashboardInput,
  opts: { metadataName: string; markerTag: string; schemaPath: string; pinId: boolean },
): { text: string; warnings: string[] } {
  const warnings: string[] = [];
  const tags = [...new Set((live.tags ?? []).filter((t): t is string => typeof t === 'string' && t !== opts.markerTag))];
  const seen = new Map<string, number>();
  const tiles = (live.tiles ?? []).filter((t) => t && typeof t === 'object').map((t) => {
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
          out['series'] = t.series.map((s) => {
            const o: Record<string, unknown> = {};
            for (const sk of SERIES_KEYS) if (s[sk] !== undefined && s[sk] !== null) o[sk] = s[sk];
            return o;
          });
        } else if (t['config'] && typeof t['config'] === 'object' && !Array.isArray(t['config'])) {
          // The config form (HyperDX 2026-08) is what files say too: written as the server has it, ids kept.
          out['config'] = withoutNulls(t['config']);
        }
      } else if (k === 'asRatio') {
        if (t.asRatio === true) out['asRatio'] = true;
      } else if (typeof t[k] === 'number') out[k] = t[k];
    }
    return out;
  });
  const spec: Record<string, unknown> = { name: live.name };
  if (tags.length) spec['tags'] = tags;
  if (tiles.length) spec['tiles'] = tiles;
  const filters = Array.isArray(live['filters'])
    ? (live['filters'] as unknown[]).filter((f) => f && typeof f === 'object' && !Array.isArray(f)).map((f) => {
        const { id: _id, ...rest } = withoutNulls(f) as Record<string, unknown>;
        return rest;
      })
    : [];
  if (filters.length) spec['filters'] = filters;
  dropUnknownMembers({ apiVersion: 'steward/v1', kind: 'Dashboard', metadata: { name: opts.metadataName }, spec }, warnings);
  // Text from the server is literal: escape "${" so loading the file does not read it as a variable.
  const escape = (v: unknown): unknown =>
    typeof v === 'string' ? v.replaceAll('${', () => '$${') : Array.isArray(v) ? v.map(escape) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, escape(x)])) : v;
  const doc = new Document({
    apiVersion: 'steward/v1',
    kind: 'Dashboard',
    metadata: { name: opts.metadataName, ...(opts.pinId ? { id: live.id } : {}) },
    spec: escape(spec),
  });
  // Readable like the examples: tags and each series on one line.
  const specNode = doc.get('spec') as YAMLMap;
  const tagsNode = specNode.get('tags');
  if (isSeq(tagsNode)) tagsNode.flow = true;
  const tilesNode = specNode.get('tiles');
  if (isSeq(tilesNode)) {
    for (const tile of tilesNode.items) {
      if (!isMap(tile)) continue;
      const series = tile.get('series');
      if (isSeq(series)) for (const s of (series as YAMLSeq).items) if (isMap(s)) s.flow = true;
    }
  }
  const header = `# yaml-language-server: $schema=${opts.schemaPath}\n# Imported from live dashboard ${live.id} by steward import.\n`;
  return { text: header + doc.toString({ lineWidth: 0 }), warnings };
}
