/**
 * What validate says of series members a live server takes but does not store as written, or ignores:
 * - numberFormat.mantissa with decimals: HyperDX 2026-01-30 types it a number (NumberFormat.mantissa) and keeps
 *   2.5, so import of such a dashboard must give a file validate takes; 2026-08 and ClickStack type it an
 *   integer and refuse it (a warning on hyperdx, whose servers differ; an error on clickstack-cloud);
 * - level 0: HyperDX keeps a series' level only when truthy (pickIfTruthy), so 0 is answered as no level;
 * - dataSource beside sourceId: the seed's member, which HyperDX since 2026-01-30 drops unseen.
 * Table-driven: a series, the profile, the problems expected (severity, pointer, a part of the message).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { validateKind } from '../../src/schema/validator.ts';
import { steward } from '../helpers/exec.ts';
import { dashboardResource } from '../helpers/resource.ts';
import { tmpProject } from '../helpers/tmp.ts';

const SOURCE = '65f5e4a3b9e77c001a0001a1';
const TIME = { type: 'time', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: [] };
const QUANTILE = { ...TIME, aggFn: 'quantile', field: 'Duration' };
const AT = '/spec/tiles/0/series/0';

const CASES: Array<{ name: string; series: Record<string, unknown>; api: string; problems: Array<[string, string, string]> }> = [
  { name: 'a whole mantissa', series: { ...TIME, numberFormat: { mantissa: 2 } }, api: 'hyperdx', problems: [] },
  {
    name: 'mantissa 2.5 on hyperdx: a warning (2026-01-30 stores it, 2026-08 refuses it)',
    series: { ...TIME, numberFormat: { output: 'number', mantissa: 2.5 } },
    api: 'hyperdx',
    problems: [['warning', `${AT}/numberFormat/mantissa`, 'mantissa is 2.5: HyperDX 2026-01-30 stores it, but 2026-08 takes a whole number']],
  },
  {
    name: 'mantissa 2.5 on clickstack-cloud: an error (ClickStackNumberFormat.mantissa is an integer)',
    series: { ...TIME, numberFormat: { mantissa: 2.5 } },
    api: 'clickstack-cloud',
    problems: [['error', `${AT}/numberFormat/mantissa`, 'the clickstack-cloud API takes a whole number of decimal places']],
  },
  {
    name: 'level 0: a warning, the server stores no level',
    series: { ...QUANTILE, level: 0 },
    api: 'hyperdx',
    problems: [['warning', `${AT}/level`, 'level 0 is not stored']],
  },
  { name: 'level 0.5: nothing', series: { ...QUANTILE, level: 0.5 }, api: 'clickstack-cloud', problems: [] },
  {
    name: 'dataSource beside sourceId on hyperdx: an error saying to leave it out',
    series: { ...TIME, dataSource: 'events' },
    api: 'hyperdx',
    problems: [
      ['error', `${AT}/dataSource`, 'the hyperdx API ignores it beside sourceId, which says where series 0 of tile "T" reads from: leave dataSource out'],
    ],
  },
  {
    name: 'dataSource beside sourceId on clickstack-cloud: an error',
    series: { ...TIME, dataSource: 'metrics' },
    api: 'clickstack-cloud',
    problems: [['error', `${AT}/dataSource`, 'the clickstack-cloud API ignores it beside sourceId']],
  },
  {
    name: 'dataSource without sourceId: the missing sourceId, as before (no second problem)',
    series: { type: 'time', dataSource: 'events', aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: [] },
    api: 'hyperdx',
    problems: [['error', AT, "lacks sourceId, which the hyperdx API requires (dataSource is the seed API's"]],
  },
  {
    name: 'sortOrder desc on a table series without a field: a warning, the server sorts asc',
    series: { ...TIME, type: 'table', sortOrder: 'desc' },
    api: 'hyperdx',
    problems: [['warning', `${AT}/sortOrder`, "sortOrder desc is not stored: the hyperdx API sorts a table by its first series' field"]],
  },
  {
    name: 'sortOrder desc with a field: nothing',
    series: { ...QUANTILE, type: 'table', level: 0.5, sortOrder: 'desc' },
    api: 'clickstack-cloud',
    problems: [],
  },
  {
    name: 'the seed profile keeps dataSource',
    series: { type: 'time', dataSource: 'events', aggFn: 'count', where: '', groupBy: [] },
    api: 'seed',
    problems: [],
  },
];

for (const c of CASES) {
  test(c.name, () => {
    const doc = {
      apiVersion: 'steward/v1',
      kind: 'Dashboard',
      metadata: { name: 'd' },
      spec: { name: 'D', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series: [c.series] }] },
    };
    // The schema takes every one of them (2026-01-30's NumberFormat.mantissa is a number).
    assert.equal(validateKind('Dashboard', doc), []);
    const found = checkSemantics([dashboardResource(doc.spec as never)], { api: c.api })
      // The series form's own warning on live profiles is another matter (test/schema/series-profile.test.ts).
      .filter((p) => !(p.pointer === '/spec/tiles/0/series' && p.severity === 'warning'))
      .map((p) => [p.severity, p.pointer, p.message] as const);
    assert.is(found.length, c.problems.length, JSON.stringify(found));
    c.problems.forEach(([severity, pointer, part], k) => {
      assert.is(found[k]![0], severity, JSON.stringify(found[k]));
      assert.is(found[k]![1], pointer, JSON.stringify(found[k]));
      assert.ok(found[k]![2].includes(part), `${found[k]![2]}\n  lacks: ${part}`);
    });
  });
}

test("a later table series' sortOrder other than the first's: a warning at it, the server ignores it", () => {
  const first = { ...TIME, type: 'table', aggFn: 'avg', field: 'Duration', sortOrder: 'desc' };
  const series = [first, { ...first, sortOrder: 'desc' }, { ...first, sortOrder: 'asc' }];
  const found = checkSemantics([dashboardResource({ name: 'D', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series }] })], { api: 'hyperdx' }).filter(
    (p) => p.pointer !== '/spec/tiles/0/series',
  );
  assert.equal(
    found.map((p) => [p.severity, p.pointer]),
    [['warning', '/spec/tiles/0/series/2/sortOrder']],
  );
  assert.match(found[0]!.message, "the hyperdx API takes a table tile's sortOrder from its first series and ignores series 2's");
});

test("a later time series' groupBy, displayType or sourceId other than the first's: a warning at each, the server ignores them", () => {
  const first = { ...TIME, groupBy: ['host'], displayType: 'stacked_bar' };
  const series = [first, { ...first, groupBy: ['service'], displayType: 'line' }, { ...first, sourceId: '65f5e4a3b9e77c001a0001a2' }];
  const found = checkSemantics([dashboardResource({ name: 'D', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series }] })], { api: 'clickstack-cloud' }).filter(
    (p) => p.pointer !== '/spec/tiles/0/series',
  );
  assert.equal(
    found.map((p) => [p.severity, p.pointer]),
    [
      ['warning', '/spec/tiles/0/series/1/groupBy'],
      ['warning', '/spec/tiles/0/series/1/displayType'],
      ['warning', '/spec/tiles/0/series/2/sourceId'],
    ],
  );
  assert.match(found[0]!.message, "the clickstack-cloud API takes a time tile's groupBy from its first series and ignores series 1's");
  assert.match(found[2]!.message, "reads every series of a time tile from the first series' source and ignores series 2's sourceId");
});

test('the config form keeps a whole mantissa (HyperDX 2026-08 and ClickStack type it an integer)', () => {
  const config = { displayType: 'line', sourceId: SOURCE, select: [{ aggFn: 'count', where: '' }], numberFormat: { mantissa: 2.5 } };
  const doc = {
    apiVersion: 'steward/v1',
    kind: 'Dashboard',
    metadata: { name: 'd' },
    spec: { name: 'D', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, config }] },
  };
  const problems = validateKind('Dashboard', doc);
  assert.ok(
    problems.some((p) => p.pointer === '/spec/tiles/0/config/numberFormat/mantissa'),
    JSON.stringify(problems),
  );
});

test('validate names the line and column of dataSource beside sourceId, and fails', async () => {
  const p = tmpProject({
    'steward.yaml': [
      'apiVersion: steward/v1',
      'kind: Project',
      'spec:',
      '  resources: ["dashboards/*.yaml"]',
      '  observability: { api: hyperdx, url: "http://127.0.0.1:9", token: { env: T } }',
      '',
    ].join('\n'),
    'dashboards/d.yaml': [
      'apiVersion: steward/v1',
      'kind: Dashboard',
      'metadata: { name: d }',
      'spec:',
      '  name: D',
      '  tiles:',
      '    - name: T',
      '      config: { displayType: markdown, markdown: "# x" }',
      '      x: 0',
      '      y: 0',
      '      w: 6',
      '      h: 3',
      '    - name: U',
      '      x: 6',
      '      y: 0',
      '      w: 6',
      '      h: 3',
      '      series:',
      '        - type: time',
      `          sourceId: "${SOURCE}"`,
      '          dataSource: events',
      '          aggFn: count',
      '          where: ""',
      '          whereLanguage: lucene',
      '          groupBy: []',
      '',
    ].join('\n'),
  });
  try {
    const r = await steward(['validate'], { cwd: p.dir });
    const out = r.stdout + r.stderr;
    assert.is(r.code, 1, out);
    assert.match(
      out,
      /dashboards\/d\.yaml:21:\d+\s+\/spec\/tiles\/1\/series\/0\/dataSource\s+error: .*dataSource is the seed API's \(events or metrics\); the hyperdx API ignores it beside sourceId/,
    );
    assert.match(out, /leave dataSource out/);
  } finally {
    p.cleanup();
  }
});

test.run();
