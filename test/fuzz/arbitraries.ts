/**
 * fast-check arbitraries for the fuzz suite: valid steward documents of every kind (valid by schema and by
 * the semantic checks, so a workspace of them loads without one issue), rendered to YAML text with the
 * `yaml` package, and random live dashboards as a tolerant server might send them.
 *
 * FUZZ_RUNS scales every property (the soak run sets it to 20,000); `runs(n)` is a property's share.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { checkResponse } from '../../src/clients/validate.ts';
import { ENDPOINT_STATUSES, PIPE_STATES } from '../../src/model/cloud.ts';
import type { LiveDashboardInput } from '../../src/plan/types.ts';

/**
 * Cases per property. `defaults` are a file's shares for `npm test`; FUZZ_RUNS=N makes N the file's total,
 * split in the same proportions (the soak run uses 20,000). FUZZ_SEED replays a reported failure.
 */
export function budget<K extends string>(defaults: Record<K, number>): Record<K, fc.Parameters<unknown>> {
  const total = Object.values<number>(defaults).reduce((a, b) => a + b, 0);
  const wanted = Number(process.env['FUZZ_RUNS']);
  const seed = Number(process.env['FUZZ_SEED']);
  const out = {} as Record<K, fc.Parameters<unknown>>;
  for (const k of Object.keys(defaults) as K[]) {
    const numRuns = Number.isInteger(wanted) && wanted > 0 ? Math.max(1, Math.round((wanted * defaults[k]) / total)) : defaults[k];
    out[k] = { numRuns, includeErrorInReport: true, ...(Number.isInteger(seed) ? { seed } : {}) };
  }
  return out;
}

/** Characters that break naive text handling: bidi controls, zero-width, combining marks, astral, BOM. */
export const NASTY_CHARS = [
  '\u202e', // RIGHT-TO-LEFT OVERRIDE
  '\u202d',
  '\u2067', // RIGHT-TO-LEFT ISOLATE
  '\u200f', // RIGHT-TO-LEFT MARK
  '\u200b', // ZERO WIDTH SPACE
  '\u200d', // ZERO WIDTH JOINER
  '\u2060', // WORD JOINER
  '\ufeff', // BOM / ZERO WIDTH NO-BREAK SPACE
  '\u0301', // COMBINING ACUTE ACCENT
  '\u00a0', // NO-BREAK SPACE
  '\u2028', // LINE SEPARATOR
  '\u2029', // PARAGRAPH SEPARATOR
  '\u0085', // NEXT LINE
  'שלום',
  'مرحبا',
  '👩‍👩‍👧',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  '🏳️‍🌈',
  '\u{1F600}',
  '\u{10FFFD}',
  '\u0000',
  '\u0007',
  '\u001b[31m',
  '\t',
  '\r',
  '\\',
  '"',
  "'",
  '#',
  ': ',
  '- ',
  '&a',
  '*a',
  '!!str',
  '%',
  '@',
  '`',
  '|',
  '>',
  '{',
  '}',
  '[',
  ']',
  ',',
  '?',
  '---',
  '...',
];

/**
 * One character of `text`: any code point is one in five. Not fast-check's 'binary' unit, the same draw:
 * for that unit every fc.string made builds a map of all 1.1 million code points (1.2 s of CPU each time this
 * module loaded).
 */
export const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c));
const TEXT_UNIT = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: anyCodePoint },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY_CHARS) },
);

/**
 * A text with no `${` (interpolation would change it; that is tested elsewhere) and no lone surrogate (it
 * cannot be written as UTF-8, so the file would hold something else).
 */
export const text = (opts: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> =>
  fc
    .string({
      unit: TEXT_UNIT,
      minLength: opts.minLength ?? 0,
      maxLength: opts.maxLength ?? 24,
    })
    .map((s) => s.replace(/\$\{/g, '$ {'))
    .filter((s) => s.length >= (opts.minLength ?? 0) && !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s));

/** metadata.name: ^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$ */
export const resourceName: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789._-'), maxLength: 20 }),
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'),
  )
  .map(([a, mid, b]) => (mid.length === 0 && a === b ? a : `${a}${mid}${b}`));

export const hexId: fc.Arbitrary<string> = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 });

const series = fc.record(
  {
    type: fc.constantFrom('time', 'table', 'number', 'histogram', 'search', 'markdown'),
    dataSource: fc.constantFrom('events', 'metrics'),
    sourceId: text({ minLength: 1 }),
    aggFn: fc.constantFrom('avg', 'count', 'count_distinct', 'last_value', 'max', 'min', 'quantile', 'sum'),
    field: text(),
    where: text({ maxLength: 60 }),
    whereLanguage: fc.constantFrom('lucene', 'sql'),
    groupBy: fc.array(text(), { maxLength: 3 }),
    metricName: text({ minLength: 1 }),
    metricDataType: fc.constantFrom('sum', 'gauge', 'histogram'),
  },
  { requiredKeys: [], noNullPrototype: true },
);

const tile = (name: fc.Arbitrary<string>) =>
  fc
    .record({
      name,
      x: fc.integer({ min: 0, max: 23 }),
      y: fc.integer({ min: 0, max: 2 ** 31 }),
      wRatio: fc.double({ min: 0, max: 1, noNaN: true }),
      h: fc.integer({ min: 1, max: 2 ** 31 }),
      asRatio: fc.option(fc.boolean(), { nil: undefined }),
      series: fc.option(fc.array(series, { maxLength: 3 }), { nil: undefined }),
    })
    // x + w stays within the 24-column grid, and asRatio is true only over two series (else, semantic warnings).
    .map(({ wRatio, asRatio, series: s, ...t }) => ({
      ...t,
      w: 1 + Math.floor(wRatio * (23 - t.x)),
      ...(asRatio === undefined ? {} : { asRatio: asRatio && (s === undefined || s.length === 2) }),
      ...(s === undefined ? {} : { series: s }),
    }));

export interface DashboardDoc {
  apiVersion: 'steward/v1';
  kind: 'Dashboard';
  metadata: { name: string; description?: string; id?: string };
  spec: { name: string; tags?: string[]; tiles?: Array<{ name: string; x: number; y: number; w: number; h: number }> };
}

export const dashboardDoc = (name: fc.Arbitrary<string> = resourceName, specName: fc.Arbitrary<string> = text({ minLength: 1 })): fc.Arbitrary<DashboardDoc> =>
  fc
    .record({
      name,
      description: fc.option(text({ maxLength: 80 }), { nil: undefined }),
      specName,
      tags: fc.option(fc.uniqueArray(text({ minLength: 1 }), { maxLength: 4 }), { nil: undefined }),
      tileNames: fc.uniqueArray(text({ minLength: 1 }), { maxLength: 5 }),
    })
    .chain((d) =>
      fc.tuple(...d.tileNames.map((n) => tile(fc.constant(n)))).map((tiles) => ({
        apiVersion: 'steward/v1' as const,
        kind: 'Dashboard' as const,
        metadata: { name: d.name, ...(d.description === undefined ? {} : { description: d.description }) },
        spec: {
          name: d.specName,
          ...(d.tags === undefined ? {} : { tags: d.tags }),
          ...(tiles.length > 0 || d.tileNames.length === 0 ? { tiles } : {}),
        },
      })),
    );

export interface AlertDoc {
  apiVersion: 'steward/v1';
  kind: 'Alert';
  metadata: { name: string; id: string; description?: string };
  spec: Record<string, unknown>;
}

/** An alert; `tileRef` gives a (dashboard metadata.name, tile name) it may watch (else a search alert). */
export const alertDoc = (
  opts: { name?: fc.Arbitrary<string>; id?: fc.Arbitrary<string>; tileRef?: fc.Arbitrary<{ dashboard: string; name: string }> } = {},
): fc.Arbitrary<AlertDoc> =>
  fc
    .record({
      name: opts.name ?? resourceName,
      id: opts.id ?? hexId,
      specName: text({ minLength: 1 }),
      message: fc.option(text({ maxLength: 120 }), { nil: undefined }),
      threshold: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
      thresholdType: fc.constantFrom('above', 'below'),
      interval: fc.tuple(fc.integer({ min: 1, max: 10_000 }), fc.constantFrom('m', 'h')).map(([n, u]) => `${n}${u}`),
      tile: opts.tileRef ? fc.option(opts.tileRef, { nil: undefined, freq: 4 }) : fc.constant(undefined),
      webhookId: hexId,
    })
    .map((a) => ({
      apiVersion: 'steward/v1' as const,
      kind: 'Alert' as const,
      metadata: { name: a.name, id: a.id },
      spec: {
        name: a.specName,
        ...(a.message === undefined ? {} : { message: a.message }),
        threshold: a.threshold,
        thresholdType: a.thresholdType,
        interval: a.interval,
        ...(a.tile ? { source: 'tile', tile: a.tile } : { source: 'search' }),
        channel: { type: 'webhook', webhookId: a.webhookId },
      },
    }));

/** JSON-ish values for the free-form subsets (pipe source, settings); strings follow `text`. */
const freeValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(text({ minLength: 1, maxLength: 10 }), tie('value'), { maxKeys: 3, noNullPrototype: true }),
  ),
})).value;

const freeObject = fc.dictionary(text({ minLength: 1, maxLength: 10 }), freeValue, { maxKeys: 4, noNullPrototype: true });

export const cloudServiceDoc = (name: fc.Arbitrary<string> = resourceName) =>
  fc
    .record(
      {
        name,
        organizationId: fc.uuid(),
        serviceId: fc.uuid(),
        backups: fc.record(
          {
            maxAgeHours: fc.double({ min: Number.MIN_VALUE, max: 1e6, noNaN: true }),
            minCount: fc.nat(),
            maxDurationMinutes: fc.double({ min: Number.MIN_VALUE, max: 1e6, noNaN: true }),
            maxSizeChangePercent: fc.double({ min: Number.MIN_VALUE, max: 1e6, noNaN: true }),
          },
          { requiredKeys: [], noNullPrototype: true },
        ),
        pipes: fc.record(
          {
            expected: fc.uniqueArray(
              fc.record(
                {
                  name: text({ minLength: 1 }),
                  // A state the API names: validate warns at any other (test/schema/cloud-states.test.ts).
                  state: fc.constantFrom(...PIPE_STATES),
                  scaling: fc.record(
                    { replicas: fc.nat(), concurrency: fc.nat(), replicaCpuMillicores: fc.nat(), replicaMemoryGb: fc.double({ min: 0, max: 64, noNaN: true }) },
                    { requiredKeys: [], noNullPrototype: true },
                  ),
                  destination: fc.record({ database: text(), table: text(), managedTable: fc.boolean() }, { requiredKeys: [], noNullPrototype: true }),
                  source: freeObject,
                  settings: freeObject,
                },
                { requiredKeys: ['name'], noNullPrototype: true },
              ),
              { selector: (p) => p.name, maxLength: 3 },
            ),
            reportUnlisted: fc.boolean(),
          },
          { requiredKeys: [], noNullPrototype: true },
        ),
        reversePrivateEndpoints: fc.record(
          {
            expected: fc.array(
              fc.record(
                { description: text({ minLength: 1 }), status: fc.constantFrom(...ENDPOINT_STATUSES) },
                { requiredKeys: ['description'], noNullPrototype: true },
              ),
              { maxLength: 3 },
            ),
            reportUnlisted: fc.boolean(),
          },
          { requiredKeys: [], noNullPrototype: true },
        ),
      },
      { requiredKeys: ['name', 'organizationId', 'serviceId'], noNullPrototype: true },
    )
    .map(({ name: n, organizationId, serviceId, ...rest }) => ({
      apiVersion: 'steward/v1' as const,
      kind: 'CloudService' as const,
      metadata: { name: n },
      spec: { organizationId, serviceId, ...rest },
    }));

const envName = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,15}$/);
const url = fc.constantFrom(
  'https://obs.example.com',
  'http://127.0.0.1:8080',
  '${STEWARD_OBS_URL}',
  '${URL:-https://x.example}',
  'https://ünïcode.example/p?q=1',
);

export const projectDoc = fc
  .record(
    {
      metadata: fc.record({ name: resourceName, description: text() }, { requiredKeys: [], noNullPrototype: true }),
      resources: fc.array(text({ minLength: 1, maxLength: 30 }), { minLength: 1, maxLength: 4 }),
      observability: fc.record(
        {
          url,
          token: envName.map((env) => ({ env })),
          requestsPerMinute: fc.integer({ min: 1, max: 100_000 }),
          timeoutSeconds: fc.double({ min: 0.001, max: 600, noNaN: true }),
          markerTag: text({ minLength: 1 }),
        },
        { requiredKeys: [], noNullPrototype: true },
      ),
      cloud: fc.record(
        {
          url,
          keyId: envName.map((env) => ({ env })),
          keySecret: envName.map((env) => ({ env })),
          requestsPerMinute: fc.integer({ min: 1, max: 100_000 }),
          timeoutSeconds: fc.double({ min: 0.001, max: 600, noNaN: true }),
        },
        { requiredKeys: [], noNullPrototype: true },
      ),
      state: text({ minLength: 1 }),
      journal: text({ minLength: 1 }),
      concurrency: fc.integer({ min: 1, max: 64 }),
      environments: fc.dictionary(
        fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k)),
        fc.record(
          {
            observability: fc.record({ url, token: envName.map((env) => ({ env })) }, { requiredKeys: [], noNullPrototype: true }),
            state: text({ minLength: 1 }),
          },
          { requiredKeys: [], noNullPrototype: true },
        ),
        { maxKeys: 2, noNullPrototype: true },
      ),
    },
    { requiredKeys: [], noNullPrototype: true },
  )
  .map(({ metadata, ...spec }) => ({ apiVersion: 'steward/v1' as const, kind: 'Project' as const, ...(metadata ? { metadata } : {}), spec }));

/** A valid resource document of any kind (Project excluded: it belongs in steward.yaml). */
export const anyResourceDoc: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  dashboardDoc() as unknown as fc.Arbitrary<Record<string, unknown>>,
  alertDoc() as unknown as fc.Arbitrary<Record<string, unknown>>,
  cloudServiceDoc() as fc.Arbitrary<Record<string, unknown>>,
);

/** How a document set becomes a file: block or flow style, with or without the schema comment. */
export const renderStyle = fc.record({
  flowLevel: fc.constantFrom(-1, -1, 1, 2, 4),
  schemaComment: fc.boolean(),
  explicitStart: fc.boolean(),
  crlf: fc.boolean(),
  bom: fc.boolean(),
  lineWidth: fc.constantFrom(0, 20, 80),
});
export type RenderStyle = typeof renderStyle extends fc.Arbitrary<infer T> ? T : never;

/** Renders documents to one YAML file with the `yaml` package's stringify. */
export function renderDocs(docs: readonly unknown[], style: Partial<RenderStyle> = {}): string {
  const parts = docs.map((d) => stringify(d, { flowLevel: style.flowLevel ?? -1, lineWidth: style.lineWidth ?? 80 } as never));
  let out =
    (style.schemaComment ? '# yaml-language-server: $schema=../schemas/dashboard.schema.json\n' : '') +
    (style.explicitStart ? '---\n' : '') +
    parts.join('---\n');
  if (style.crlf) out = out.replace(/\n/g, '\r\n');
  if (style.bom) out = '\ufeff' + out;
  return out;
}

/** A workspace of valid documents that also passes every semantic check: names unique, references resolve. */
export interface Workspace {
  dashboards: DashboardDoc[];
  alerts: AlertDoc[];
  services: ReturnType<typeof cloudServiceDoc> extends fc.Arbitrary<infer T> ? T[] : never;
}

export const workspace: fc.Arbitrary<Workspace> = fc
  .record({
    // At least one of each, so no resource glob matches nothing (a warning).
    dashboards: fc.uniqueArray(dashboardDoc(), {
      minLength: 1,
      maxLength: 6,
      // metadata.name and spec.name must both be unique.
      selector: (d) => d.metadata.name,
    }),
    services: fc.uniqueArray(cloudServiceDoc(), { minLength: 1, maxLength: 2, selector: (s) => s.metadata.name }),
  })
  .map((w) => {
    const seen = new Set<string>();
    const dashboards = w.dashboards.filter((d) => !seen.has(d.spec.name) && seen.add(d.spec.name));
    const ids = new Set<string>();
    const services = w.services.filter((s) => {
      const k = `${s.spec.organizationId}/${s.spec.serviceId}`;
      return !ids.has(k) && ids.add(k);
    });
    return { dashboards, services };
  })
  .chain((w) => {
    const refs = w.dashboards.flatMap((d) => (d.spec.tiles ?? []).map((t) => ({ dashboard: d.metadata.name, name: t.name })));
    const alert = alertDoc(refs.length > 0 ? { tileRef: fc.constantFrom(...refs) } : {});
    return fc.uniqueArray(alert, { minLength: 1, maxLength: 6, selector: (a) => a.metadata.name }).map((alerts) => {
      const ids = new Set<string>();
      return { ...w, alerts: alerts.filter((a) => !ids.has(a.metadata.id) && ids.add(a.metadata.id)) };
    });
  });

/**
 * Live dashboards for a workspace: some match a file by name (equal, drifted, or with a newer server's
 * extra fields), some are duplicates (ambiguous), some are orphans carrying the marker, some unmanaged.
 * Only bodies the client's response validation accepts are produced: that is what the plan can receive.
 */
export function liveDashboards(w: Workspace, marker: string): fc.Arbitrary<LiveDashboardInput[]> {
  const names = w.dashboards.map((d) => d.spec.name);
  const name = names.length > 0 ? fc.oneof(fc.constantFrom(...names), text({ minLength: 1 })) : text({ minLength: 1 });
  // Mostly what steward writes, with nulls and a newer server's extra members mixed in.
  const liveSeries = fc
    .tuple(
      series,
      fc.record(
        // numberFormat and alias are series members since HyperDX 2026-01-30 (typed: an object, a string, or null).
        {
          field: fc.constant(null),
          metricName: fc.constant(null),
          metricDataType: fc.constant(null),
          alias: fc.constant(null),
          numberFormat: fc.constant(null),
          extra: freeValue,
        },
        { requiredKeys: [], noNullPrototype: true },
      ),
    )
    .map(([s, odd]) => ({ ...s, ...odd }) as Record<string, unknown>);
  const liveTile = fc.record(
    {
      id: hexId,
      name: text(),
      x: fc.integer({ min: -5, max: 40 }),
      y: fc.nat(),
      w: fc.integer({ min: 0, max: 30 }),
      h: fc.nat(),
      asRatio: fc.option(fc.boolean(), { nil: null }),
      series: fc.array(liveSeries, { maxLength: 2 }),
      config: fc.dictionary(text({ maxLength: 8 }), freeValue, { maxKeys: 3, noNullPrototype: true }),
      extra: freeValue,
    },
    { requiredKeys: ['id'], noNullPrototype: true },
  );
  const fromFile = (d: DashboardDoc) =>
    fc.record({ id: hexId, mode: fc.constantFrom('same', 'same', 'drift', 'extra') }).map(({ id, mode }) => {
      const tiles = (d.spec.tiles ?? []).map((t, i) => ({
        id: `${id.slice(0, 20)}${String(i).padStart(4, '0')}`,
        ...structuredClone(t),
        ...(mode === 'extra' ? { config: { displayType: 'line' } } : {}),
      }));
      const live: LiveDashboardInput = { id, name: d.spec.name, tags: [...(d.spec.tags ?? []), marker], tiles };
      if (mode === 'drift') live.tags = ['drifted'];
      if (mode === 'extra') live['updatedAt'] = '2026-01-01T00:00:00Z';
      return live;
    });
  const random = fc.record(
    {
      id: hexId,
      name,
      tags: fc.array(fc.oneof(text(), fc.constant(marker)), { maxLength: 3 }),
      tiles: fc.array(liveTile, { maxLength: 3 }),
      owner: freeValue,
    },
    { requiredKeys: ['id', 'name'], noNullPrototype: true },
  ) as fc.Arbitrary<LiveDashboardInput>;
  const copies = w.dashboards.length > 0 ? fc.subarray(w.dashboards).chain((ds) => fc.tuple(...ds.map(fromFile))) : fc.constant([] as LiveDashboardInput[]);
  return fc
    .tuple(copies, fc.array(random, { maxLength: 5 }))
    .map(([a, b]) => [...a, ...b])
    .chain((list) => fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length }))
    .filter((list) => checkResponse('observability.dashboards', { data: list }).length === 0);
}
