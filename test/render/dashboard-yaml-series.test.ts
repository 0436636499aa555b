/**
 * import from a server that answers tiles in the series form (HyperDX 2026-01-30; the older profile paths):
 * each series member HyperDX has since then (alias, level, numberFormat, sortOrder, displayType, fields,
 * content) is written into the file, in a reading order, and the file then validates and plans as unchanged
 * against the dashboard it came from. Import wrote only seed 000's members: the others were dropped without a
 * word (and before the schema knew them, a file with them would not have validated). Table-driven, per member.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import type { LiveDashboard } from '../../src/clients/api-types.ts';
import { processFile } from '../../src/config/resources.ts';
import { normalDigest, normalizeDesired, normalizeLive } from '../../src/plan/normalize.ts';
import { renderDashboardYaml } from '../../src/render/dashboard-yaml.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';

const MARKER = 'managed-by:steward';
const SOURCE = '65f5e4a3b9e77c001a0001a1';

/** Series as HyperDX 2026-01-30 answers them (convertChartConfigToExternalChartSeries), one per member. */
const MEMBERS: Array<{ member: string; series: Record<string, unknown> }> = [
  {
    member: 'alias',
    series: {
      aggFn: 'count',
      alias: 'Requests',
      type: 'time',
      sourceId: SOURCE,
      displayType: 'line',
      field: '',
      where: '',
      whereLanguage: 'lucene',
      groupBy: [],
    },
  },
  {
    member: 'level',
    series: {
      aggFn: 'quantile',
      type: 'table',
      sourceId: SOURCE,
      level: 0.95,
      field: 'Duration',
      where: '',
      whereLanguage: 'lucene',
      groupBy: [],
      sortOrder: 'asc',
    },
  },
  {
    member: 'numberFormat',
    series: {
      alias: 'Total',
      aggFn: 'count',
      type: 'number',
      sourceId: SOURCE,
      field: '',
      where: '',
      whereLanguage: 'sql',
      numberFormat: { output: 'number', mantissa: 2 },
    },
  },
  {
    member: 'sortOrder',
    series: { aggFn: 'count', type: 'table', sourceId: SOURCE, field: '', where: '', whereLanguage: 'lucene', groupBy: ['host'], sortOrder: 'desc' },
  },
  {
    member: 'displayType',
    series: {
      aggFn: 'count',
      type: 'time',
      sourceId: SOURCE,
      displayType: 'stacked_bar',
      field: '',
      where: 'level:error',
      whereLanguage: 'lucene',
      groupBy: ['host'],
    },
  },
  { member: 'fields', series: { type: 'search', sourceId: SOURCE, fields: ['Timestamp', 'Body'], where: 'level:error', whereLanguage: 'lucene' } },
  { member: 'content', series: { type: 'markdown', content: '# Runbook\n\nPage the on-call.' } },
  {
    member: 'aggFn',
    series: { aggFn: 'none', type: 'time', sourceId: SOURCE, displayType: 'line', field: 'Duration', where: '', whereLanguage: 'lucene', groupBy: [] },
  },
  {
    member: 'metricDataType',
    series: {
      aggFn: 'sum',
      type: 'time',
      sourceId: SOURCE,
      displayType: 'line',
      field: 'Value',
      where: '',
      whereLanguage: 'lucene',
      groupBy: [],
      metricName: 'rpc',
      metricDataType: 'summary',
    },
  },
];

/** The order import writes a series' members in (those the series has). */
const ORDER = [
  'type',
  'sourceId',
  'fields',
  'aggFn',
  'level',
  'field',
  'alias',
  'where',
  'whereLanguage',
  'groupBy',
  'sortOrder',
  'displayType',
  'numberFormat',
  'metricName',
  'metricDataType',
  'content',
];

function liveWith(series: Record<string, unknown>): LiveDashboard {
  return {
    id: '65f5e4a3b9e77c001a567891',
    name: 'Old style',
    tags: [MARKER],
    tiles: [{ id: '65f5e4a3b9e77c001a901235', name: 'T', x: 0, y: 0, w: 6, h: 3, asRatio: false, series: [series] }],
  } as unknown as LiveDashboard;
}

const render = (live: LiveDashboard) =>
  renderDashboardYaml(live, { metadataName: 'old-style', markerTag: MARKER, schemaPath: 'x.json', pinId: false, configForm: true });

for (const c of MEMBERS) {
  const label = `${c.member} ${JSON.stringify(c.series[c.member]).slice(0, 30)} (${String(c.series['type'])})`;

  test(`import writes ${label}, members in reading order, no warning`, () => {
    const { text, warnings } = render(liveWith(c.series));
    assert.equal(warnings, []);
    const written = parse(text).spec.tiles[0].series[0] as Record<string, unknown>;
    assert.equal(written[c.member], c.series[c.member]);
    // (displayType line, sortOrder asc and field '', which that server answers when none was set, are left out)
    const isDefault = (k: string) =>
      (k === 'displayType' && c.series[k] === 'line') || (k === 'sortOrder' && c.series[k] === 'asc') || (k === 'field' && c.series[k] === '');
    assert.equal(
      Object.keys(written),
      ORDER.filter((k) => k in c.series && !isDefault(k)),
    );
  });

  test(`import of ${label}: the file validates on hyperdx and clickstack-cloud and plans as unchanged`, () => {
    const live = liveWith(c.series);
    const { text } = render(live);
    const r = processFile('imported/old-style.yaml', Buffer.from(text), {}, { isProjectFile: false });
    assert.equal(
      r.issues.filter((i) => i.severity === 'error'),
      [],
    );
    const resource = r.resources[0]!;
    for (const api of ['hyperdx', 'clickstack-cloud'])
      assert.equal(
        checkSemantics([resource], { api }).filter((p) => p.severity === 'error'),
        [],
        api,
      );
    const spec = (resource.doc as unknown as { spec: never }).spec;
    assert.is(normalDigest(normalizeDesired(spec, MARKER)), normalDigest(normalizeLive(live, MARKER).normal));
  });
}

test('a markdown series is written as a block, its text with its lines; ${ stays literal', () => {
  const { text } = render(liveWith({ type: 'markdown', content: '# Runbook\n\nPage ${TEAM}.' }));
  assert.match(text, '- type: markdown');
  assert.equal(parse(text).spec.tiles[0].series[0].content, '# Runbook\n\nPage $${TEAM}.');
  const r = processFile('imported/old-style.yaml', Buffer.from(text), {}, { isProjectFile: false });
  assert.is(
    (r.resources[0]!.doc as { spec: { tiles: Array<{ series: Array<{ content: string }> }> } }).spec.tiles[0]!.series[0]!.content,
    '# Runbook\n\nPage ${TEAM}.',
  );
});

test("what that server fills in (displayType line, sortOrder asc) is left out: plain series import as the seed profile's, and validate there", () => {
  // GIVEN a time and a table series with only seed 000's members, as HyperDX 2026-01-30 answers them
  const seedLike = [
    { aggFn: 'count', type: 'time', sourceId: SOURCE, displayType: 'line', field: '', where: 'level:error', whereLanguage: 'lucene', groupBy: [] },
    { aggFn: 'count', type: 'table', sourceId: SOURCE, field: '', where: '', whereLanguage: 'lucene', groupBy: ['host'], sortOrder: 'asc' },
  ];
  for (const series of seedLike) {
    const live = liveWith(series);
    const { text } = render(live);
    assert.not.match(text, /displayType|sortOrder/);
    const r = processFile('imported/old-style.yaml', Buffer.from(text), {}, { isProjectFile: false });
    assert.equal(
      checkSemantics(r.resources, { api: 'seed' }).filter((p) => p.severity === 'error'),
      [],
    );
    const spec = (r.resources[0]!.doc as unknown as { spec: never }).spec;
    assert.is(normalDigest(normalizeDesired(spec, MARKER)), normalDigest(normalizeLive(live, MARKER).normal));
  }
});

test('a series member steward does not know is left out with a warning', () => {
  const { text, warnings } = render(liveWith({ ...MEMBERS[0]!.series, futureMember: { since: 2027 } }));
  assert.equal(warnings, ['tile "T": left out series[0].futureMember, a member steward does not know']);
  assert.not.match(text, 'futureMember');
});

test('dataSource beside sourceId is left out with a warning on a live profile (validate refuses the pair there), kept on seed', () => {
  // GIVEN a server that answers both (a mock of HyperDX 2025-11-21's spec does)
  const live = liveWith({ ...MEMBERS[0]!.series, dataSource: 'events' });
  const { text, warnings } = render(live);
  assert.equal(warnings, ['tile "T": left out series[0].dataSource, which the server ignores beside sourceId']);
  assert.not.match(text, 'dataSource');
  const r = processFile('imported/old-style.yaml', Buffer.from(text), {}, { isProjectFile: false });
  assert.equal(
    checkSemantics(r.resources, { api: 'hyperdx' }).filter((p) => p.severity === 'error'),
    [],
  );
  const seed = renderDashboardYaml(live, { metadataName: 'old-style', markerTag: MARKER, schemaPath: 'x.json', pinId: false });
  assert.match(seed.text, 'dataSource: events');
});

test.run();
