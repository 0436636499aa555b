/** The bodies steward sends for a dashboard: POST (create) and PUT (update). */
import { ALERTABLE_CHARTS, type LiveTileInput } from '../model/dashboard.ts';
import type { Resource } from '../model/resource.ts';
import type { LiveDashboardInput } from './types.ts';
import { copyPlain } from '../shared/object.ts';

/** The POST body: the file's dashboard as written, with the marker tag added. */
export function createBody(d: Resource<'Dashboard'>, markerTag: string) {
  const tags = [...new Set([...(d.doc.spec.tags ?? []), markerTag])];
  const filters = d.doc.spec.filters;
  return { name: d.doc.spec.name, tags, tiles: copyPlain(d.doc.spec.tiles ?? []), ...(filters?.length ? { filters: copyPlain(filters) } : {}) };
}

/**
 * The PUT body: the whole dashboard as the file says, each tile carrying the id of the live tile with its
 * name (the server keeps the ids it is sent, so alerts bound to those tiles stay bound) and each filter the
 * id of the live filter with its name (the update request needs an id per filter; new ones get a new one).
 *
 * HyperDX rebuilds the tiles from the request, but sets filters only when the request has them: a file
 * without filters sends `filters: []` where the live dashboard has some (else the removal planned is never
 * made). What files cannot say is carried from the live dashboard, so an update keeps it: a tile's place in
 * a container or tab (`containerId`, `tabId`, by tile name) and the `containers` they name.
 */
export function updateBody(d: Resource<'Dashboard'>, live: LiveDashboardInput, markerTag: string, newId: () => string) {
  const body = createBody(d, markerTag);
  const liveTiles = new Map<string, LiveTileInput>();
  for (const t of live.tiles ?? []) if (t && typeof t.name === 'string' && typeof t.id === 'string' && !liveTiles.has(t.name)) liveTiles.set(t.name, t);
  const liveFilterList = (live as { filters?: unknown }).filters;
  const liveFilters = new Map<string, string>();
  for (const f of (Array.isArray(liveFilterList) ? liveFilterList : []) as Array<{ id?: unknown; name?: unknown }>) {
    if (f && typeof f.name === 'string' && typeof f.id === 'string' && !liveFilters.has(f.name)) liveFilters.set(f.name, f.id);
  }
  const containers = (live as { containers?: unknown }).containers;
  const tiles = body.tiles.map((t) => {
    const lt = liveTiles.get(t.name);
    if (!lt) return t;
    const place: Record<string, string> = {};
    for (const k of ['containerId', 'tabId'] as const) {
      const v = (lt as Record<string, unknown>)[k];
      if (typeof v === 'string' && Array.isArray(containers)) place[k] = v;
    }
    return { id: lt.id!, ...t, ...place };
  });
  return {
    ...body,
    tiles,
    ...(body.filters
      ? { filters: body.filters.map((f) => ({ id: liveFilters.get(f.name) ?? newId(), ...f })) }
      : Array.isArray(liveFilterList) && liveFilterList.length > 0
        ? { filters: [] }
        : {}),
    ...(Array.isArray(containers) ? { containers: copyPlain(containers) } : {}),
  };
}

/**
 * The ids of a live dashboard's tiles whose alerts HyperDX deletes when it applies `update` (a PUT body; none
 * for a delete): tiles the body drops or renames (a new id), and tiles it makes a chart alerts cannot watch.
 */
export function tilesLosingAlerts(live: LiveDashboardInput, update: { tiles?: readonly unknown[] } | undefined): Set<string> {
  const kept = new Set(
    (update?.tiles ?? [])
      .filter((t) => {
        const type = (t as { config?: { displayType?: unknown } }).config?.displayType;
        return type === undefined || ALERTABLE_CHARTS.has(String(type));
      })
      .map((t) => (t as { id?: unknown }).id),
  );
  return new Set((live.tiles ?? []).map((t) => t?.id).filter((id): id is string => typeof id === 'string' && !kept.has(id)));
}
