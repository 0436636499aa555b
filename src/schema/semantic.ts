import { ENDPOINT_STATUSES, PIPE_STATES } from '../model/cloud.ts';
import { ALERTABLE_CHARTS, MAX_LIVE_TAG_LENGTH, sourceSlots } from '../model/dashboard.ts';
import type { AnyResource, DashboardFacts, LocalProblem, Resource } from '../model/resource.ts';
import type { DashboardSpec } from './kinds.ts';
import { didYouMean, hintBudget } from './did-you-mean.ts';
import { filterProblems } from './filter-checks.ts';
import { listSome } from '../shared/text.ts';
import { pushAll } from '../shared/arrays.ts';
import { alertProfileProblems, seedIdProblem } from './alert-profile.ts';
import { GRID_COLUMNS, tileProfileProblems } from './tile-profile.ts';

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
  /** Characters into the string at `pointer` where the problem is (a template's reference), when known. */
  offset?: number;
}

/**
 * HyperDX 2026-08's builder chart members that ClickStack's configs (ClickStackLineBuilderChartConfig and the
 * others, ClickHouse Cloud spec 2026-07-31) do not have.
 */
const CLICKSTACK_UNKNOWN_CONFIG_MEMBERS = ['formulas', 'seriesLimit', 'showOperandSeries'] as const;
/** HyperDX API v2 (2026-08): tags are at most 32 characters, at most 50 of them (one is the marker tag). */
const MAX_TAGS = 50;
/** HyperDX API v2 (2026-08): a dashboard's name is at most 1,024 characters, its tiles at most 500. */
const MAX_LIVE_NAME_LENGTH = 1024;
const MAX_LIVE_TILES = 500;

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
  // A dashboard the parse cache answered carries its facts: its document is not read (`dashboardFacts` below).
  // Read from the document otherwise, nothing made per dashboard: objects made for 10,000 of them outlived
  // the checks as old-space garbage (~40 MiB of a cold plan's peak).
  const specName = (d: Resource<'Dashboard'>) => (d.facts ? d.facts.specName : d.doc.spec.name);
  const pinned = (d: Resource<'Dashboard'>) => (d.facts ? d.facts.id : d.doc.metadata.id);
  duplicates(
    dashboards,
    (d) => specName(d),
    '/spec/name',
    (n) => `two dashboards are named "${n}": the name is the live dashboard's identity, so each must be unique`,
    out,
  );
  duplicates(
    dashboards.filter((d) => pinned(d)),
    (d) => pinned(d)!,
    '/metadata/id',
    (id) => `two dashboards pin live id ${id}`,
    out,
  );
  duplicates(
    alerts.filter((a) => a.doc.metadata.id !== undefined),
    (a) => a.doc.metadata.id!,
    '/metadata/id',
    (id) => `two alerts set alert id ${id}: each live alert must be described once`,
    out,
  );
  if (api !== 'seed') {
    // Where alerts are read live, an alert without metadata.id is matched by its name: two alerts of one name
    // were both created (and the check for another runner's copies removed one) or took turns updating the
    // same live alert, so no plan ever came out unchanged. Alerts pinned by id may share a name.
    const loose = new Set(alerts.filter((a) => a.doc.metadata.id === undefined).map((a) => a.doc.spec.name));
    duplicates(
      alerts.filter((a) => loose.has(a.doc.spec.name)),
      (a) => a.doc.spec.name,
      '/spec/name',
      (n) =>
        `two alerts are named "${n}": on this API an alert without metadata.id is matched by its name, so each must be unique (or pin both with metadata.id)`,
      out,
    );
  }
  duplicates(
    services,
    (s) => `${s.doc.spec.organizationId}/${s.doc.spec.serviceId}`,
    '/spec/serviceId',
    () => `two CloudService documents describe the same service`,
    out,
  );

  for (const s of services) for (const p of cloudStateProblems(s)) out.push({ file: s.file, index: s.index, ...p });

  // Facts hold the local checks of the API the project had when the file was cached; another reads the document.
  const local = dashboards.map((d) => (d.facts?.local?.[0] === api ? d.facts.local[1] : dashboardLocalProblems(d.doc.spec, api)));
  dashboards.forEach((d, i) => {
    for (const p of local[i]![0]) out.push({ file: d.file, index: d.index, ...p });
  });
  dashboards.forEach((d, i) => {
    for (const p of local[i]![1]) out.push({ file: d.file, index: d.index, ...p });
  });

  // The seed's ids are 24 lowercase hex characters; the live profiles take whatever id the service assigned
  // (HyperDX's DashboardResponse.id and ClickStack's say only "string"), as for an alert's (alert-profile.ts).
  if (api === 'seed') {
    for (const d of dashboards) {
      const message = seedIdProblem(pinned(d));
      if (message) out.push({ file: d.file, index: d.index, pointer: '/metadata/id', severity: 'error', message });
    }
  }

  for (const a of alerts) for (const p of alertProfileProblems(a.doc, api)) out.push({ file: a.file, index: a.index, severity: 'error', ...p });

  const byName = new Map(dashboards.map((d) => [d.name, d]));
  // One budget for the hints of every alert: thousands of unknown references against thousands of names.
  const hints = hintBudget();
  const dashboardNames = [...byName.keys()];
  const tilesOf = new Map<string, { names: string[]; displayType: Map<string, string | null> }>();
  for (const a of alerts) {
    const ref = a.doc.spec.tile;
    if ((a.doc.spec.source === 'search' || a.doc.spec.source === 'saved_search') && ref) {
      out.push({ file: a.file, index: a.index, pointer: '/spec/tile', atKey: true, severity: 'warning', message: 'tile is ignored when source is search' });
      continue;
    }
    if (!ref) continue;
    const dash = byName.get(ref.dashboard);
    if (!dash) {
      const hint = didYouMean(ref.dashboard, dashboardNames, hints);
      out.push({
        file: a.file,
        index: a.index,
        pointer: '/spec/tile/dashboard',
        severity: 'error',
        message: `unknown dashboard "${ref.dashboard}": no Dashboard has that metadata.name${hint ? `; did you mean "${hint}"?` : ''}`,
      });
      continue;
    }
    // From the document (the few dashboards alerts are on): kept in the facts of every dashboard, the tiles
    // were a third of the parse pack's entries and 120,000 small arrays at 10,000 dashboards.
    // Once per dashboard, not per alert: 10,000 alerts on a dashboard of 10,000 tiles walked 10^8 tiles.
    let facts = tilesOf.get(ref.dashboard);
    if (!facts) {
      const tiles = tileFacts(dash.doc.spec);
      // Each name's displayType is its first tile's, as a search in order finds it.
      tilesOf.set(ref.dashboard, (facts = { names: tiles.map((t) => t[0]), displayType: new Map(tiles.slice().reverse()) }));
    }
    const names = facts.names;
    if (!facts.displayType.has(ref.name)) {
      const hint = didYouMean(ref.name, names, hints);
      out.push({
        file: a.file,
        index: a.index,
        pointer: '/spec/tile/name',
        severity: 'error',
        message: `dashboard "${ref.dashboard}" has no tile named "${ref.name}"${hint ? `; did you mean "${hint}"?` : names.length ? ` (its tiles: ${listSome(names)})` : ' (it has no tiles)'}`,
      });
      continue;
    }
    // HyperDX takes an alert on any builder tile, then deletes it on the dashboard's next update unless the
    // tile is a line, stacked_bar or number chart (cleanupDashboardAlerts): the alert would come and go.
    const displayType = facts.displayType.get(ref.name);
    if (api !== 'seed' && typeof displayType === 'string' && !ALERTABLE_CHARTS.has(displayType)) {
      out.push({
        file: a.file,
        index: a.index,
        pointer: '/spec/tile/name',
        severity: 'error',
        message: `tile "${ref.name}" is a ${displayType} chart; alerts need a line, stacked_bar or number tile (the ${api} API deletes others' alerts on the next update)`,
      });
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

/**
 * The checks of one dashboard alone under an API: its tiles' problems, then its tags' (kept apart so the
 * problems of a project come in the order they always did: every dashboard's tiles, then every one's tags).
 */
export function dashboardLocalProblems(spec: DashboardSpec, api: string): [LocalProblem[], LocalProblem[]] {
  const tileProblems: LocalProblem[] = [];
  const seen = new Map<string, number>();
  (spec.tiles ?? []).forEach((t, i) => {
    const first = seen.get(t.name);
    if (first !== undefined) {
      tileProblems.push({
        pointer: `/spec/tiles/${i}/name`,
        severity: 'error',
        message: `duplicate tile name "${t.name}" in this dashboard (tiles are matched by name; also tile ${first})`,
      });
    } else seen.set(t.name, i);
    for (const p of tileProfileProblems(t, i, api)) tileProblems.push({ severity: 'error', ...p });
    // asRatio plots the first series (select item) over the second: with another count HyperDX stores false
    // for a series tile (so plan would show the file's true as a change on every run); its spec says the
    // config form "requires exactly two select items", with no word on what the server does otherwise.
    const ratioOf = (what: 'series' | 'select items', n: number, pointer: string, severity: 'error' | 'warning') =>
      tileProblems.push({
        pointer,
        severity,
        message: `tile "${t.name}" sets asRatio, which divides the first of its ${what} by the second: it needs exactly two, and has ${n}${severity === 'error' ? `; the ${api} API stores asRatio false then, which plan would show as a change on every run` : ''}`,
      });
    if (t.asRatio === true && Array.isArray(t.series) && t.series.length !== 2)
      ratioOf('series', t.series.length, `/spec/tiles/${i}/asRatio`, api === 'seed' ? 'warning' : 'error');
    const config = t.config as { asRatio?: unknown; select?: unknown } | undefined;
    if (config?.asRatio === true && Array.isArray(config.select) && config.select.length !== 2)
      ratioOf('select items', config.select.length, `/spec/tiles/${i}/config/asRatio`, 'warning');
    // HyperDX 2026-08 stores a series tile as a config and answers only that: plan has nothing to compare the
    // series with (a 2026-01-30 server answers series, and plan compares them).
    if (api !== 'seed' && Array.isArray(t.series) && t.config === undefined)
      tileProblems.push({
        pointer: `/spec/tiles/${i}/series`,
        severity: 'warning',
        message: `tile "${t.name}" is in the series form, which the ${api} API stores and answers in the config form (HyperDX since 2026-08; one of 2026-01-30 answers series, which plan compares): once it is applied, plan cannot see a change to its series. Write it in the config form (steward import rewrites the file so)`,
      });
    if (api === 'clickstack-cloud') {
      const config = (t.config ?? {}) as Record<string, unknown>;
      for (const k of CLICKSTACK_UNKNOWN_CONFIG_MEMBERS)
        if (config[k] !== undefined)
          tileProblems.push({
            pointer: `/spec/tiles/${i}/config/${k}`,
            severity: 'error',
            message: `tile "${t.name}" sets ${k}, which the ClickStack API's chart configs do not have (ClickHouse Cloud spec 2026-07-31): leave it out, or use observability.api: hyperdx`,
          });
    }
    if (t.x + t.w > GRID_COLUMNS) {
      tileProblems.push({
        pointer: `/spec/tiles/${i}/w`,
        severity: 'warning',
        message: `tile "${t.name}" ends at column ${t.x + t.w}, beyond the ${GRID_COLUMNS}-column grid (x + w must be at most ${GRID_COLUMNS})`,
      });
    }
  });
  const tagProblems: LocalProblem[] = [];
  if (api !== 'seed') {
    if (spec.name.length > MAX_LIVE_NAME_LENGTH)
      tagProblems.push({
        pointer: '/spec/name',
        severity: 'error',
        message: `the name is ${spec.name.length} characters; the ${api} API takes at most ${MAX_LIVE_NAME_LENGTH}`,
      });
    const count = spec.tiles?.length ?? 0;
    if (count > MAX_LIVE_TILES)
      tagProblems.push({ pointer: '/spec/tiles', severity: 'error', message: `${count} tiles; the ${api} API takes at most ${MAX_LIVE_TILES}` });
    const tags = spec.tags ?? [];
    tags.forEach((tag, i) => {
      if (tag.length > MAX_LIVE_TAG_LENGTH)
        tagProblems.push({
          pointer: `/spec/tags/${i}`,
          severity: 'error',
          message: `tag "${tag}" is ${tag.length} characters; the ${api} API takes at most ${MAX_LIVE_TAG_LENGTH}`,
        });
    });
    if (tags.length >= MAX_TAGS)
      tagProblems.push({
        pointer: '/spec/tags',
        severity: 'error',
        message: `${tags.length} tags; the ${api} API takes at most ${MAX_TAGS - 1} besides steward's marker tag`,
      });
    pushAll(tagProblems, filterProblems(spec.filters as unknown[] | undefined, api));
  }
  return [tileProblems, tagProblems];
}

/**
 * What the checks and the plan read of a dashboard, with its local problems under `api` when given (the parse
 * cache keeps them for the project's API, so that a cached dashboard's document is not read).
 */
export function dashboardFacts(doc: Resource<'Dashboard'>['doc'], api?: string): DashboardFacts {
  return {
    specName: doc.spec.name,
    ...(doc.metadata.id !== undefined ? { id: doc.metadata.id } : {}),
    sourceNames: sourceSlots(doc.spec).length > 0,
    ...(api !== undefined ? { local: [api, dashboardLocalProblems(doc.spec, api)] as DashboardFacts['local'] } : {}),
  };
}

/** Each tile's name, and its config's displayType where that is a string. */
function tileFacts(spec: DashboardSpec): Array<[string, string | null]> {
  return (spec.tiles ?? []).map((t): [string, string | null] => {
    const displayType = (t.config as { displayType?: unknown } | undefined)?.displayType;
    return [t.name, typeof displayType === 'string' ? displayType : null];
  });
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
      out.push({
        file: item.file,
        index: item.index,
        pointer: ptr(item),
        severity: 'error',
        message: message(k),
        related: { file: prev.file, index: prev.index, pointer: ptr(prev) },
      });
    } else first.set(k, item);
  }
}

/**
 * A declared pipe state or endpoint status that ClickHouse Cloud does not name (src/model/cloud.ts): the report
 * compares it as written (ignoring case), so a typo such as `Runing` made every pipe of that name a pipe.state
 * error, every night. A warning, not an error: a newer server may name more states.
 */
export function cloudStateProblems(s: Resource<'CloudService'>): Omit<SemanticProblem, 'file' | 'index'>[] {
  const out: Omit<SemanticProblem, 'file' | 'index'>[] = [];
  const check = (value: string | undefined, known: readonly string[], pointer: string, what: string) => {
    if (value === undefined || known.some((k) => k.toLowerCase() === value.toLowerCase())) return;
    const hint = didYouMean(value, known);
    out.push({
      pointer,
      severity: 'warning',
      message: `"${value}" is not ${what} ClickHouse Cloud names, and the report compares it as written: ${hint ? `did you mean "${hint}"?` : `use one of ${known.join(', ')}`}`,
    });
  };
  (s.doc.spec.pipes?.expected ?? []).forEach((e, i) => check(e.state, PIPE_STATES, `/spec/pipes/expected/${i}/state`, 'a ClickPipe state'));
  (s.doc.spec.reversePrivateEndpoints?.expected ?? []).forEach((e, i) =>
    check(e.status, ENDPOINT_STATUSES, `/spec/reversePrivateEndpoints/expected/${i}/status`, 'a reverse private endpoint status'),
  );
  return out;
}
