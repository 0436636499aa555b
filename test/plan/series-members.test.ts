/**
 * plan and the series members HyperDX has since 2026-01-30 (alias, level, numberFormat, sortOrder,
 * displayType, fields, content). A server of that version answers tiles in the series form, with them. The
 * normalizer carried only seed 000's members: a change to one of these planned as no change, and a live value
 * the file did not have was no drift. Table-driven, per member: the same value on both sides is a noop, another
 * value an update replacing that member, and an edit elsewhere an update whose body and `after` keep them all.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { LiveDashboardInput } from '../../src/plan/types.ts';
import { computePlan, type PlanInput } from '../../src/plan/plan.ts';
import { displayForm, normalizeDesired, normalizeLive } from '../../src/plan/normalize.ts';
import { dashboard, DIR, emptyState, MARKER, NOW } from './fixtures.ts';

const SOURCE = '65f5e4a3b9e77c001a0001a1';
const ID = '65f5e4a3b9e77c001a111111';
const CAN_UPDATE = { updateDashboard: true } as PlanInput['capabilities'];

const plan = (p: Partial<PlanInput>) =>
  computePlan({ resources: [], live: [], state: emptyState, markerTag: MARKER, now: NOW, projectDir: DIR, capabilities: CAN_UPDATE, ...p });

/** Per member: a series that has it, and another value of it. */
const MEMBERS: Array<{ member: string; series: Record<string, unknown>; other: unknown }> = [
  {
    member: 'alias',
    series: { type: 'time', sourceId: SOURCE, aggFn: 'count', alias: 'Requests', where: '', whereLanguage: 'lucene', groupBy: [] },
    other: 'Calls',
  },
  {
    member: 'level',
    series: { type: 'table', sourceId: SOURCE, aggFn: 'quantile', level: 0.95, field: 'Duration', where: '', whereLanguage: 'lucene', groupBy: [] },
    other: 0.99,
  },
  {
    member: 'numberFormat',
    series: { type: 'number', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', numberFormat: { output: 'time', factor: 0.001 } },
    other: { output: 'time', factor: 1 },
  },
  {
    member: 'sortOrder',
    series: { type: 'table', sourceId: SOURCE, aggFn: 'avg', field: 'Duration', where: '', whereLanguage: 'lucene', groupBy: ['host'], sortOrder: 'desc' },
    other: 'asc',
  },
  {
    member: 'displayType',
    series: { type: 'time', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: [], displayType: 'stacked_bar' },
    other: 'line',
  },
  { member: 'fields', series: { type: 'search', sourceId: SOURCE, fields: ['Timestamp', 'Body'], where: '', whereLanguage: 'lucene' }, other: ['Body'] },
  { member: 'content', series: { type: 'markdown', content: '# Runbook\n\nPage the on-call.' }, other: '# Runbook' },
  { member: 'aggFn', series: { type: 'time', sourceId: SOURCE, aggFn: 'any', field: 'Body', where: '', whereLanguage: 'lucene', groupBy: [] }, other: 'none' },
  {
    member: 'metricDataType',
    series: {
      type: 'time',
      sourceId: SOURCE,
      aggFn: 'sum',
      metricName: 'rpc',
      metricDataType: 'exponential histogram',
      where: '',
      whereLanguage: 'lucene',
      groupBy: [],
    },
    other: 'summary',
  },
];

const tile = (series: Record<string, unknown>, h = 3) => ({ name: 'T', x: 0, y: 0, w: 6, h, series: [series] });

/** A live dashboard as a server answering series holds the file's tile (with ids, the marker tag). */
function live(series: Record<string, unknown>): LiveDashboardInput {
  return { id: ID, name: 'Dash d1', tags: ['team:a', MARKER], tiles: [{ id: 'tile-1', ...tile(series) }] } as LiveDashboardInput;
}

for (const c of MEMBERS) {
  const label = `${c.member} ${JSON.stringify(c.series[c.member]).slice(0, 30)}`;

  test(`${label}: both sides carry it; the same value plans as no change`, () => {
    // GIVEN a file and a live dashboard with the same series
    const d = dashboard('d1', { tiles: [tile(c.series)] as never });
    // THEN both normalized forms hold the member, and the plan is a noop
    assert.equal(normalizeDesired(d.doc.spec as never, MARKER).tiles!['T']!.series![0]![c.member], c.series[c.member]);
    assert.equal(normalizeLive(live(c.series), MARKER).normal.tiles!['T']!.series![0]![c.member], c.series[c.member]);
    assert.is(plan({ resources: [d], live: [live(c.series)] }).items[0]!.action, 'noop');
  });

  test(`${label}: another value on the server is drift, an update replacing that member`, () => {
    const d = dashboard('d1', { tiles: [tile(c.series)] as never });
    const it = plan({ resources: [d], live: [live({ ...c.series, [c.member]: c.other })] }).items[0]!;
    assert.is(it.action, 'update');
    const paths = it.patch!.map((op) => op.path);
    assert.ok(paths.length > 0 && paths.every((p) => p.startsWith(`/tiles/T/series/0/${c.member}`)), JSON.stringify(it.patch));
  });

  test(`${label}: the server without it is drift too (the file adds it)`, () => {
    if (c.member === 'aggFn' || c.member === 'fields' || c.member === 'content') return; // required of their types
    const d = dashboard('d1', { tiles: [tile(c.series)] as never });
    const { [c.member]: _drop, ...without } = c.series;
    const it = plan({ resources: [d], live: [live(without)] }).items[0]!;
    assert.is(it.action, 'update');
    assert.equal(
      it.patch!.map((op) => `${op.op} ${op.path}`),
      [`add /tiles/T/series/0/${c.member}`],
    );
  });

  test(`${label}: an edit elsewhere in the tile is an update whose body and after keep the member`, () => {
    // GIVEN the file's tile one unit taller than the live one, series unchanged
    const d = dashboard('d1', { tiles: [tile(c.series, 4)] as never });
    const it = plan({ resources: [d], live: [live(c.series)] }).items[0]!;
    // THEN the update changes h only, and what it sends and shows still has every series member
    assert.is(it.action, 'update');
    assert.equal(
      it.patch!.map((op) => `${op.op} ${op.path}`),
      ['replace /tiles/T/h'],
    );
    const body = it.body as unknown as { tiles: Array<{ id?: string; series: Array<Record<string, unknown>> }> };
    assert.equal(body.tiles[0]!.series[0], c.series);
    assert.is(body.tiles[0]!.id, 'tile-1');
    const after = it.after as { tiles: Record<string, { series: Array<Record<string, unknown>> }> };
    for (const [k, v] of Object.entries(c.series)) if (!(Array.isArray(v) && v.length === 0)) assert.equal(after.tiles['T']!.series[0]![k], v, k);
  });
}

test('displayForm shows a series in the order files have it: type, source, what is aggregated, then how it is shown', () => {
  const series = {
    content: undefined,
    metricDataType: 'summary',
    numberFormat: { output: 'number' },
    displayType: 'stacked_bar',
    groupBy: ['host'],
    alias: 'p95',
    level: 0.95,
    field: 'Duration',
    aggFn: 'quantile',
    sourceId: SOURCE,
    type: 'time',
    where: '',
    whereLanguage: 'lucene',
    metricName: 'rpc',
  };
  const d = dashboard('d1', { tiles: [tile(series)] as never });
  const shown = displayForm(normalizeDesired(d.doc.spec as never, MARKER)).tiles!['T']!.series![0]!;
  assert.equal(Object.keys(shown), [
    'type',
    'sourceId',
    'aggFn',
    'level',
    'field',
    'alias',
    'where',
    'whereLanguage',
    'groupBy',
    'displayType',
    'numberFormat',
    'metricName',
    'metricDataType',
  ]);
});

test('what a server answering series fills in is no drift: displayType line on a time series, sortOrder asc on a table, an empty alias or field, level 0', () => {
  // GIVEN files that leave them out, and the answers of HyperDX 2026-01-30, which always has them
  const time = { type: 'time', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: [] };
  const table = { ...time, type: 'table' };
  const quantile = { ...table, aggFn: 'quantile', field: 'Duration' };
  const cases: Array<[Record<string, unknown>, Record<string, unknown>, string]> = [
    [time, { ...time, displayType: 'line' }, 'noop'],
    [table, { ...table, sortOrder: 'asc' }, 'noop'],
    [{ ...time, alias: '' }, time, 'noop'],
    // A series without field is stored as valueExpression '' and answered as field ''; a file may say either.
    [time, { ...time, field: '' }, 'noop'],
    [{ ...time, field: '' }, time, 'noop'],
    // A level is stored only when truthy (pickIfTruthy): level 0 is answered as none.
    [{ ...quantile, level: 0 }, quantile, 'noop'],
    // THEN only the other value is drift
    [time, { ...time, displayType: 'stacked_bar' }, 'update'],
    [quantile, { ...quantile, sortOrder: 'desc' }, 'update'],
    [time, { ...time, field: 'Duration' }, 'update'],
    [{ ...quantile, level: 0.5 }, quantile, 'update'],
  ];
  for (const [file, answered, action] of cases) {
    const it = plan({ resources: [dashboard('d1', { tiles: [tile(file)] as never })], live: [live(answered)] }).items[0]!;
    assert.is(it.action, action, JSON.stringify({ file, answered, patch: it.patch }));
  }
});

test("numberFormat is the tile's: said once in the file, it equals the answer that gives it on every series", () => {
  // GIVEN a time tile of two series, the number format on the first only, as a file may say it
  const s = { type: 'time', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: [] };
  const format = { output: 'time', factor: 0.001 };
  const file = [
    { ...s, numberFormat: format },
    { ...s, where: 'level:error' },
  ];
  const d = dashboard('d1', { tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series: file }] as never });
  const answered = (f: unknown) =>
    ({
      id: ID,
      name: 'Dash d1',
      tags: ['team:a', MARKER],
      tiles: [
        {
          id: 'tile-1',
          name: 'T',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          series: [
            { ...s, numberFormat: f },
            { ...s, where: 'level:error', numberFormat: f },
          ],
        },
      ],
    }) as LiveDashboardInput;
  // WHEN HyperDX 2026-01-30 answers the tile's format on both series THEN nothing changed
  assert.is(plan({ resources: [d], live: [answered(format)] }).items[0]!.action, 'noop');
  // and another format on the tile is drift, on each series
  const other = plan({ resources: [d], live: [answered({ output: 'number' })] }).items[0]!;
  assert.is(other.action, 'update');
  assert.ok(
    other.patch!.some((op) => op.path.startsWith('/tiles/T/series/1/numberFormat')),
    JSON.stringify(other.patch),
  );
});

test("sortOrder is the table's: the first series' when it has a field, answered on every series (HyperDX 2026-01-30)", () => {
  // GIVEN table tiles of one or two series, and what a server answering series says of each
  const s = { type: 'table', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: ['host'] };
  const withField = { ...s, aggFn: 'avg', field: 'Duration' };
  const answered = (series: Array<Record<string, unknown>>) =>
    ({ id: ID, name: 'Dash d1', tags: ['team:a', MARKER], tiles: [{ id: 'tile-1', name: 'T', x: 0, y: 0, w: 6, h: 3, series }] }) as LiveDashboardInput;
  const cases: Array<[string, Array<Record<string, unknown>>, Array<Record<string, unknown>>, string]> = [
    // desc on a first series without a field is not stored: answered asc
    ['desc without a field', [{ ...s, sortOrder: 'desc' }], [{ ...s, sortOrder: 'asc' }], 'noop'],
    // a later series' order is ignored; the first's is answered on each
    [
      'desc said once',
      [{ ...withField, sortOrder: 'desc' }, s],
      [
        { ...withField, sortOrder: 'desc' },
        { ...s, sortOrder: 'desc' },
      ],
      'noop',
    ],
    [
      'a later series says desc',
      [withField, { ...s, sortOrder: 'desc' }],
      [
        { ...withField, sortOrder: 'asc' },
        { ...s, sortOrder: 'asc' },
      ],
      'noop',
    ],
    // THEN a stored order that differs is drift
    ['desc stored, the file says none', [withField], [{ ...withField, sortOrder: 'desc' }], 'update'],
    ['desc with a field, answered asc', [{ ...withField, sortOrder: 'desc' }], [{ ...withField, sortOrder: 'asc' }], 'update'],
  ];
  for (const [label, file, live, action] of cases) {
    const d = dashboard('d1', { tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series: file }] as never });
    const it = plan({ resources: [d], live: [answered(live)] }).items[0]!;
    assert.is(it.action, action, `${label}: ${JSON.stringify(it.patch)}`);
  }
});

test("sourceId, groupBy and a time series' displayType are the tile's: the first series', answered on every series (HyperDX 2026-01-30)", () => {
  const s = { type: 'time', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: ['host'] };
  const answered = (series: Array<Record<string, unknown>>) =>
    ({ id: ID, name: 'Dash d1', tags: ['team:a', MARKER], tiles: [{ id: 'tile-1', name: 'T', x: 0, y: 0, w: 6, h: 3, series }] }) as LiveDashboardInput;
  const cases: Array<[string, Array<Record<string, unknown>>, Array<Record<string, unknown>>, string]> = [
    // GIVEN a second series with its own groupBy and display type, which the server drops
    [
      'a later series says its own',
      [
        { ...s, displayType: 'stacked_bar' },
        { ...s, groupBy: [] },
      ],
      [
        { ...s, displayType: 'stacked_bar' },
        { ...s, displayType: 'stacked_bar' },
      ],
      'noop',
    ],
    ['a later series says another source', [s, { ...s, sourceId: '65f5e4a3b9e77c001a0001a2' }], [s, s], 'noop'],
    // THEN the first series' members are compared as ever
    [
      'the first series source changed',
      [s, s],
      [
        { ...s, sourceId: '65f5e4a3b9e77c001a0001a2' },
        { ...s, sourceId: '65f5e4a3b9e77c001a0001a2' },
      ],
      'update',
    ],
    [
      'the first series groupBy changed',
      [s, s],
      [
        { ...s, groupBy: ['service'] },
        { ...s, groupBy: ['service'] },
      ],
      'update',
    ],
    [
      'the first series displayType changed',
      [s, s],
      [
        { ...s, displayType: 'stacked_bar' },
        { ...s, displayType: 'stacked_bar' },
      ],
      'update',
    ],
  ];
  for (const [label, file, live, action] of cases) {
    const d = dashboard('d1', { tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series: file }] as never });
    const it = plan({ resources: [d], live: [answered(live)] }).items[0]!;
    assert.is(it.action, action, `${label}: ${JSON.stringify(it.patch)}`);
  }
});

test('numberFormat: members without a value are no drift, and key order is not', () => {
  const s = { type: 'number', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene' };
  const d = dashboard('d1', { tiles: [tile({ ...s, numberFormat: { output: 'byte', mantissa: 2 } })] as never });
  const l = live({ ...s, numberFormat: { mantissa: 2, unit: null, output: 'byte' } });
  assert.is(plan({ resources: [d], live: [l] }).items[0]!.action, 'noop');
});

test.run();
