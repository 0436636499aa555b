/**
 * The series members HyperDX has since 2026-01-30 (TimeChartSeries, TableChartSeries, NumberChartSeries,
 * SearchChartSeries, MarkdownChartSeries; the same in 2026-08-21 and in ClickStack's ClickStack*ChartSeries):
 * alias, level, numberFormat, sortOrder, displayType, fields, content, and the values aggFn any/none and
 * metricDataType summary/exponential histogram. The schema takes them within the spec's bounds; the live
 * profiles take each on the series types that have it (HyperDX drops a member of another type unseen); the
 * seed profile refuses every one, at the member (seed 000's Series has none of them). Table-driven, per member.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyResource } from '../../src/model/resource.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { validateKind } from '../../src/schema/validator.ts';
import { steward } from '../helpers/exec.ts';
import { dashboardResource } from '../helpers/resource.ts';
import { tmpProject } from '../helpers/tmp.ts';

const SOURCE = '65f5e4a3b9e77c001a0001a1';
const BASE: Record<string, Record<string, unknown>> = {
  time: { type: 'time', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: [] },
  table: { type: 'table', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: [] },
  number: { type: 'number', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene' },
  search: { type: 'search', sourceId: SOURCE, fields: ['Timestamp', 'Body'], where: '', whereLanguage: 'lucene' },
  markdown: { type: 'markdown', content: '# Notes' },
};

/** Per member: a series of a type that has it, a value the spec takes, values it refuses, a type that has it not. */
const MEMBERS: Array<{ member: string; series: Record<string, unknown>; bad: unknown[]; otherType?: string; seedValue?: boolean }> = [
  { member: 'alias', series: { ...BASE['time'], alias: 'Requests' }, bad: [5], otherType: 'search' },
  { member: 'level', series: { ...BASE['table'], aggFn: 'quantile', field: 'Duration', level: 0.95 }, bad: [1.5, -0.1, '0.95'], otherType: 'markdown' },
  {
    member: 'numberFormat',
    series: { ...BASE['number'], numberFormat: { output: 'time', factor: 0.001, mantissa: 2 } },
    bad: [{ output: 'weird' }, { mantissa: '2' }, { extra: 1 }],
    otherType: 'search',
  },
  { member: 'sortOrder', series: { ...BASE['table'], sortOrder: 'desc' }, bad: ['up'], otherType: 'time' },
  { member: 'displayType', series: { ...BASE['time'], displayType: 'stacked_bar' }, bad: ['bar', 'table'], otherType: 'table' },
  { member: 'fields', series: { ...BASE['search'] }, bad: ['Body', [1]], otherType: 'number' },
  { member: 'content', series: { ...BASE['markdown'] }, bad: ['x'.repeat(100_001), 3], otherType: 'table' },
  { member: 'aggFn', series: { ...BASE['time'], aggFn: 'any', field: 'Body' }, bad: ['median'], seedValue: true },
  { member: 'aggFn', series: { ...BASE['number'], aggFn: 'none', field: 'Duration' }, bad: [], seedValue: true },
  { member: 'metricDataType', series: { ...BASE['time'], metricName: 'rpc.duration', metricDataType: 'summary' }, bad: ['counter'], seedValue: true },
  { member: 'metricDataType', series: { ...BASE['table'], metricName: 'rpc.duration', metricDataType: 'exponential histogram' }, bad: [], seedValue: true },
];

function doc(series: Array<Record<string, unknown>>) {
  return {
    apiVersion: 'steward/v1',
    kind: 'Dashboard',
    metadata: { name: 'd' },
    spec: { name: 'D', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series }] },
  };
}

const resource = (series: Array<Record<string, unknown>>): AnyResource =>
  dashboardResource({ name: 'D', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series }] });

const errors = (series: Array<Record<string, unknown>>, api: string) =>
  checkSemantics([resource(series)], { api })
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.pointer}: ${p.message}`);

for (const c of MEMBERS) {
  const value = c.series[c.member];
  const label = `${c.member}: ${JSON.stringify(value).slice(0, 40)} on a ${String(c.series['type'])} series`;

  test(`schema, ${label}: taken; ${c.bad.map((b) => JSON.stringify(b).slice(0, 20)).join(', ') || 'nothing else'} refused at the member`, () => {
    assert.equal(validateKind('Dashboard', doc([c.series])), []);
    for (const bad of c.bad) {
      const problems = validateKind('Dashboard', doc([{ ...c.series, [c.member]: bad }]));
      assert.ok(problems.length > 0, `${JSON.stringify(bad).slice(0, 40)} passed`);
      assert.ok(
        problems.every((p) => p.pointer.startsWith(`/spec/tiles/0/series/0/${c.member}`)),
        problems.map((p) => `${p.pointer}: ${p.message}`).join('; '),
      );
    }
  });

  test(`hyperdx and clickstack-cloud, ${label}: taken`, () => {
    for (const api of ['hyperdx', 'clickstack-cloud']) assert.equal(errors([c.series], api), [], api);
  });

  test(`seed, ${label}: refused at the member`, () => {
    const expected = c.seedValue
      ? `/spec/tiles/0/series/0/${c.member}: ${c.member} ${String(value)} is not in the seed API (seed 000, HyperDX 2025-11-21): it needs observability.api: hyperdx or clickstack-cloud`
      : `/spec/tiles/0/series/0/${c.member}: ${c.member} is not a member of the seed API's series (seed 000): it needs observability.api: hyperdx or clickstack-cloud`;
    assert.ok(errors([c.series], 'seed').includes(expected), errors([c.series], 'seed').join('\n'));
  });

  if (c.otherType) {
    test(`hyperdx and clickstack-cloud, ${c.member} on a ${c.otherType} series: refused (the server drops it)`, () => {
      const other = { ...BASE[c.otherType!], [c.member]: value };
      for (const api of ['hyperdx', 'clickstack-cloud']) {
        const found = errors([other], api);
        assert.is(found.length, 1, found.join('\n'));
        assert.match(found[0]!, `/spec/tiles/0/series/0/${c.member}: ${c.member} is for series of type `);
        assert.match(found[0]!, `; the ${api} API drops it from a ${c.otherType} series`);
      }
    });
  }
}

test('the seed profile still takes its own series as they are', () => {
  assert.equal(errors([{ type: 'time', dataSource: 'events', aggFn: 'count', where: 'level:error', whereLanguage: 'lucene', groupBy: [] }], 'seed'), []);
});

test('live profiles: the series of one tile are of one type; groupBy takes at most 10 fields', () => {
  for (const api of ['hyperdx', 'clickstack-cloud']) {
    assert.equal(errors([BASE['time']!, BASE['table']!], api), [
      `/spec/tiles/0/series/1/type: series 1 of tile "T" is of type table, series 0 of type time; the ${api} API takes one type per tile`,
    ]);
    const groupBy = Array.from({ length: 11 }, (_, i) => `g${i}`);
    assert.equal(errors([{ ...BASE['time'], groupBy }], api), [`/spec/tiles/0/series/0/groupBy: groupBy has 11 fields; the ${api} API takes at most 10`]);
    assert.equal(errors([{ ...BASE['time'], groupBy: groupBy.slice(1) }], api), []);
  }
});

test('live profiles: a number, search or markdown tile takes one series (HyperDX charts the first, drops the others)', () => {
  for (const api of ['hyperdx', 'clickstack-cloud']) {
    for (const type of ['number', 'search', 'markdown']) {
      assert.equal(errors([BASE[type]!, BASE[type]!], api), [
        `/spec/tiles/0/series/1: a ${type} tile shows its first series only; the ${api} API drops the other 1: give one`,
      ]);
    }
    assert.equal(errors([BASE['time']!, BASE['time']!], api), []);
    assert.equal(errors([BASE['table']!, BASE['table']!], api), []);
  }
});

test('seed: validate names the file, line and column of each member the seed API does not have', async () => {
  const p = tmpProject({
    'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["dashboards/*.yaml"]\n',
    'dashboards/d.yaml': [
      'apiVersion: steward/v1',
      'kind: Dashboard',
      'metadata: { name: d }',
      'spec:',
      '  name: D',
      '  tiles:',
      '    - name: T',
      '      x: 0',
      '      y: 0',
      '      w: 6',
      '      h: 3',
      '      series:',
      '        - type: time',
      '          dataSource: events',
      '          aggFn: quantile',
      '          level: 0.95',
      '          alias: p95',
      '          where: ""',
      '          groupBy: []',
      '',
    ].join('\n'),
  });
  try {
    const r = await steward(['validate'], { cwd: p.dir });
    assert.is(r.code, 1, r.stdout + r.stderr);
    const out = r.stdout + r.stderr;
    assert.match(out, /dashboards\/d\.yaml:16:\d+\s.*level is not a member of the seed API's series/);
    assert.match(out, /dashboards\/d\.yaml:17:\d+\s.*alias is not a member of the seed API's series/);
  } finally {
    p.cleanup();
  }
});

test.run();
