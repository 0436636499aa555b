/**
 * asRatio plots the first series (or select item) over the second. HyperDX stores a series tile's asRatio as
 * false unless it has exactly two series, so a file saying true planned as a change on every run; its spec says
 * the config form "requires exactly two select items". validate passed every count.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { dashboardResource } from '../helpers/resource.ts';

const series = (n: number) => Array.from({ length: n }, (_, j) => ({ type: 'time', sourceId: 's1', aggFn: 'count', where: `level:${j}` }));
const select = (n: number) => Array.from({ length: n }, () => ({ aggFn: 'count' }));
const seedSeries = (n: number) => Array.from({ length: n }, () => ({ type: 'time', dataSource: 'events', aggFn: 'count' }));

const cases: Array<{ name: string; api: string; tile: Record<string, unknown>; want: string[] }> = [
  { name: 'series, two', api: 'hyperdx', tile: { asRatio: true, series: series(2) }, want: [] },
  {
    name: 'series, three',
    api: 'hyperdx',
    tile: { asRatio: true, series: series(3) },
    want: [
      'error /spec/tiles/0/asRatio: tile "T" sets asRatio, which divides the first of its series by the second: it needs exactly two, and has 3; the hyperdx API stores asRatio false then, which plan would show as a change on every run',
    ],
  },
  {
    name: 'series, one, on ClickStack',
    api: 'clickstack-cloud',
    tile: { asRatio: true, series: series(1) },
    want: [
      'error /spec/tiles/0/asRatio: tile "T" sets asRatio, which divides the first of its series by the second: it needs exactly two, and has 1; the clickstack-cloud API stores asRatio false then, which plan would show as a change on every run',
    ],
  },
  { name: 'series, three, asRatio false', api: 'hyperdx', tile: { asRatio: false, series: series(3) }, want: [] },
  {
    name: 'seed series, one: a warning (the seed server is not known to drop it)',
    api: 'seed',
    tile: { asRatio: true, series: seedSeries(1) },
    want: ['warning /spec/tiles/0/asRatio: tile "T" sets asRatio, which divides the first of its series by the second: it needs exactly two, and has 1'],
  },
  { name: 'config, two select items', api: 'hyperdx', tile: { config: { displayType: 'line', sourceId: 's1', asRatio: true, select: select(2) } }, want: [] },
  {
    name: 'config, three select items: a warning (the spec says "requires", not what the server does)',
    api: 'hyperdx',
    tile: { config: { displayType: 'line', sourceId: 's1', asRatio: true, select: select(3) } },
    want: [
      'warning /spec/tiles/0/config/asRatio: tile "T" sets asRatio, which divides the first of its select items by the second: it needs exactly two, and has 3',
    ],
  },
];

for (const c of cases) {
  test(`asRatio: ${c.name}`, () => {
    const r = dashboardResource({ name: 'D', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 2, ...c.tile }] });
    const got = checkSemantics([r], { api: c.api })
      .filter((p) => p.message.includes('asRatio'))
      .map((p) => `${p.severity} ${p.pointer}: ${p.message}`);
    assert.equal(got, c.want);
  });
}

test.run();
