import type { AnyResource, Resource } from '../config/resources.ts';
import { didYouMean } from './did-you-mean.ts';

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
}

const GRID_COLUMNS = 24;
/** HyperDX API v2 (2026-08): tags are at most 32 characters, at most 50 of them (one is the marker tag). */
const MAX_TAG_LENGTH = 32;
const MAX_TAGS = 50;

type TileLike = { name: string; x: number; y: number; w: number; h: number; series?: unknown; config?: unknown };

/**
 * What the profile's server refuses in a tile. The schema accepts any integer position (the seed's server,
 * HyperDX 2025-11, returns and takes them); HyperDX 2026-08 and ClickStack take x 0-23, w 1-24, y and h
 * from 0 and 1. `config` tiles and source names need a profile whose server knows them.
 */
function tileProfileProblems(t: TileLike, i: number, api: string): Array<{ pointer: string; message: string }> {
  const out: Array<{ pointer: string; message: string }> = [];
  const at = (k: string) => `/spec/tiles/${i}/${k}`;
  if (api === 'seed') {
    if (t.config !== undefined) out.push({ pointer: at('config'), message: 'tiles in the config form need observability.api: hyperdx or clickstack-cloud (the seed API takes series)' });
    return out;
  }
  const bounds: Array<[keyof TileLike, number, number | undefined]> = [['x', 0, GRID_COLUMNS - 1], ['y', 0, undefined], ['w', 1, GRID_COLUMNS], ['h', 1, undefined]];
  for (const [k, min, max] of bounds) {
    const v = t[k] as number;
    if (v < min || (max !== undefined && v > max)) out.push({ pointer: at(k), message: `${k} is ${v}; the ${api} API takes ${max === undefined ? `${min} or more` : `${min} to ${max}`}` });
  }
  if (t.config === undefined && t.series === undefined) out.push({ pointer: `/spec/tiles/${i}`, message: `tile "${t.name}" has neither config nor series: say what it shows` });
  if (t.config !== undefined && t.series !== undefined) out.push({ pointer: at('series'), message: 'a tile takes config or series, not both' });
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
  duplicates(dashboards, (d) => d.doc.spec.name, '/spec/name', (n) => `two dashboards are named "${n}": the name is the live dashboard's identity, so each must be unique`, out);
  duplicates(dashboards.filter((d) => d.doc.metadata.id), (d) => d.doc.metadata.id!, '/metadata/id', (id) => `two dashboards pin live id ${id}`, out);
  duplicates(alerts, (a) => a.doc.metadata.id, '/metadata/id', (id) => `two alerts set alert id ${id}: each live alert must be described once`, out);
  duplicates(services, (s) => `${s.doc.spec.organizationId}/${s.doc.spec.serviceId}`, '/spec/serviceId', () => `two CloudService documents describe the same service`, out);

  for (const d of dashboards) {
    const tiles = d.doc.spec.tiles ?? [];
    const seen = new Map<string, number>();
    tiles.forEach((t, i) => {
      const first = seen.get(t.name);
      if (first !== undefined) {
        out.push({ file: d.file, index: d.index, pointer: `/spec/tiles/${i}/name`, severity: 'error', message: `duplicate tile name "${t.name}" in this dashboard (tiles are matched by name; also tile ${first})` });
      } else seen.set(t.name, i);
      for (const p of tileProfileProblems(t, i, api)) out.push({ file: d.file, index: d.index, severity: 'error', ...p });
      if (t.x + t.w > GRID_COLUMNS) {
        out.push({ file: d.file, index: d.index, pointer: `/spec/tiles/${i}/w`, severity: 'warning', message: `tile "${t.name}" ends at column ${t.x + t.w}, beyond the ${GRID_COLUMNS}-column grid (x + w must be at most ${GRID_COLUMNS})` });
      }
    });
  }

  if (api !== 'seed') {
    for (const d of dashboards) {
      const tags = d.doc.spec.tags ?? [];
      tags.forEach((tag, i) => {
        if (tag.length > MAX_TAG_LENGTH) out.push({ file: d.file, index: d.index, pointer: `/spec/tags/${i}`, severity: 'error', message: `tag "${tag}" is ${tag.length} characters; the ${api} API takes at most ${MAX_TAG_LENGTH}` });
      });
      if (tags.length >= MAX_TAGS) out.push({ file: d.file, index: d.index, pointer: '/spec/tags', severity: 'error', message: `${tags.length} tags; the ${api} API takes at most ${MAX_TAGS - 1} besides steward's marker tag` });
    }
  }

  const byName = new Map(dashboards.map((d) => [d.name, d]));
  for (const a of alerts) {
    const ref = a.doc.spec.tile;
    if (a.doc.spec.source === 'search' && ref) {
      out.push({ file: a.file, index: a.index, pointer: '/spec/tile', atKey: true, severity: 'warning', message: 'tile is ignored when source is search' });
      continue;
    }
    if (!ref) continue;
    const dash = byName.get(ref.dashboard);
    if (!dash) {
      const hint = didYouMean(ref.dashboard, [...byName.keys()]);
      out.push({ file: a.file, index: a.index, pointer: '/spec/tile/dashboard', severity: 'error', message: `unknown dashboard "${ref.dashboard}": no Dashboard has that metadata.name${hint ? `; did you mean "${hint}"?` : ''}` });
      continue;
    }
    const names = (dash.doc.spec.tiles ?? []).map((t) => t.name);
    if (!names.includes(ref.name)) {
      const hint = didYouMean(ref.name, names);
      out.push({ file: a.file, index: a.index, pointer: '/spec/tile/name', severity: 'error', message: `dashboard "${ref.dashboard}" has no tile named "${ref.name}"${hint ? `; did you mean "${hint}"?` : names.length ? ` (its tiles: ${names.join(', ')})` : ' (it has no tiles)'}` });
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
      out.push({ file: item.file, index: item.index, pointer: ptr(item), severity: 'error', message: message(k), related: { file: prev.file, index: prev.index, pointer: ptr(prev) } });
    } else first.set(k, item);
  }
}
