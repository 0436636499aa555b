/**
 * Tiles in the older `series` form on the live profiles (table-driven, no server). HyperDX 2026-08
 * (`DashboardChartSeries`) and ClickStack (`ClickStackDashboardChartSeries`) take series of type time, table,
 * number (each with `sourceId`, `aggFn`, `where` and `whereLanguage`, time and table also `groupBy`), search
 * (`sourceId`, `fields`, `where`, `whereLanguage`) and markdown (`content`), and at least one series. The seed's series (`dataSource: events`, no sourceId) pass `validate` and `plan` today and
 * the server refuses the create: validate must say so, at the series, before anything is sent.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyResource } from '../../src/model/resource.ts';
import { SEED_SERIES_MEMBERS } from '../../src/model/dashboard.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { dashboardResource } from '../helpers/resource.ts';

const SOURCE = '65f5e4a3b9e77c001a0001a1';

function dashboardWith(series: Array<Record<string, unknown>>): AnyResource {
  return dashboardResource({ name: 'D', tiles: [{ name: 'Errors', x: 0, y: 0, w: 6, h: 3, series }] });
}

const full = { sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy: [] };

const CASES: Array<{ name: string; series: Array<Record<string, unknown>>; problems: string[] }> = [
  { name: 'a time series with every member the server requires', series: [{ type: 'time', ...full }], problems: [] },
  { name: 'a number series needs no groupBy', series: [{ type: 'number', ...full, groupBy: undefined }], problems: [] },
  {
    name: "the seed's series (dataSource, no sourceId)",
    series: [{ type: 'time', dataSource: 'events', aggFn: 'count', where: 'level:error', whereLanguage: 'lucene', groupBy: [] }],
    problems: [
      '/spec/tiles/0/series/0: series 0 of tile "Errors" lacks sourceId, which the API requires (dataSource is the seed API\'s: give sourceId, or write the tile in the config form with source: <name>)',
    ],
  },
  {
    name: 'a table series without whereLanguage and groupBy',
    series: [{ type: 'table', sourceId: SOURCE, aggFn: 'count', where: '' }],
    problems: ['/spec/tiles/0/series/0: series 0 of tile "Errors" lacks whereLanguage and groupBy, which the API requires'],
  },
  {
    name: 'a series without a type',
    series: [{ ...full }],
    problems: ['/spec/tiles/0/series/0: series 0 of tile "Errors" needs a type: time, table, number, search or markdown'],
  },
  {
    name: 'a histogram series',
    series: [{ type: 'histogram', ...full }],
    problems: ['/spec/tiles/0/series/0/type: series of type histogram are not taken by the API: write the tile in the config form'],
  },
  {
    name: 'a markdown series without its content',
    series: [{ type: 'markdown' }],
    problems: ['/spec/tiles/0/series/0: series 0 of tile "Errors" lacks content, which the API requires'],
  },
  { name: 'a markdown series with its content', series: [{ type: 'markdown', content: '# Notes' }], problems: [] },
  {
    name: 'a search series needs fields, where and whereLanguage',
    series: [{ type: 'search', sourceId: SOURCE }],
    problems: ['/spec/tiles/0/series/0: series 0 of tile "Errors" lacks fields, where and whereLanguage, which the API requires'],
  },
  {
    name: 'an empty series list',
    series: [],
    problems: ['/spec/tiles/0/series: tile "Errors" has no series; the API needs at least one'],
  },
];

for (const c of CASES) {
  test(`validate, series form: ${c.name}`, () => {
    for (const api of ['hyperdx', 'clickstack-cloud']) {
      const problems = checkSemantics([dashboardWith(c.series)], { api }).filter((p) => p.severity === 'error');
      assert.equal(
        problems.map((p) => `${p.pointer}: ${p.message}`),
        c.problems.map((p) => p.replace('the API', `the ${api} API`)),
        api,
      );
    }
    // The seed profile takes its own series as they are (seed 000's members: not content, fields...).
    if (c.series.length > 0 && c.series.every((s) => s['type'] !== 'histogram' && Object.keys(s).every((k) => SEED_SERIES_MEMBERS.has(k))))
      assert.equal(
        checkSemantics([dashboardWith(c.series)], { api: 'seed' }).filter((p) => p.pointer.includes('series')),
        [],
      );
  });
}

/**
 * HyperDX 2026-08 (and ClickStack) store a series tile as a config and answer only the config: plan has no
 * series to compare with, so an edit to a series tile's where, aggFn or source planned as unchanged, silently.
 * validate says so at the series, on the live profiles only.
 */
test('validate, series form on the live profiles: a warning that plan cannot see a change to it once applied', () => {
  const warning = (api: string) =>
    `warning /spec/tiles/0/series: tile "Errors" is in the series form, which the ${api} API stores and answers in the config form (HyperDX since 2026-08; one of 2026-01-30 answers series, which plan compares): once it is applied, plan cannot see a change to its series. Write it in the config form (steward import rewrites the file so)`;
  for (const api of ['hyperdx', 'clickstack-cloud']) {
    const problems = checkSemantics([dashboardWith([{ type: 'time', ...full }])], { api });
    assert.equal(
      problems.map((p) => `${p.severity} ${p.pointer}: ${p.message}`),
      [warning(api)],
      api,
    );
    const config = dashboardResource({
      name: 'D',
      tiles: [{ name: 'Errors', x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line', sourceId: SOURCE, select: [{ aggFn: 'count' }] } }],
    });
    assert.equal(checkSemantics([config], { api }), [], api);
  }
  assert.equal(
    checkSemantics([dashboardWith([{ type: 'time', ...full }])], { api: 'seed' }).filter((p) => p.severity === 'warning'),
    [],
  );
});

test.run();
