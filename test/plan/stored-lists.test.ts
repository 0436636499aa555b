/**
 * groupBy and search fields as HyperDX stores them (storedFieldList): one comma-separated text, answered split at
 * the commas outside brackets and quotes, each part trimmed, empty parts left out. plan compares both sides so:
 * a file's `" host"` against the server's `host` is no change; a real difference still is. Table-driven.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { storedFieldList } from '../../src/model/dashboard.ts';
import { computePlan, type PlanInput } from '../../src/plan/plan.ts';
import type { LiveDashboardInput } from '../../src/plan/types.ts';
import { dashboard, DIR, emptyState, MARKER, NOW } from './fixtures.ts';

const cases: Array<[string, unknown[], unknown[]]> = [
  ['plain names are kept', ['host', 'service'], ['host', 'service']],
  ['spaces around are trimmed', [' host', 'service '], ['host', 'service']],
  ['a comma splits an item', ['host,region'], ['host', 'region']],
  ['a comma and spaces', ['Body, SeverityText '], ['Body', 'SeverityText']],
  ['empty items and empty parts are left out', ['', 'a,,b', ' '], ['a', 'b']],
  ['a comma inside parentheses is kept', ['concat(a, b)', 'c'], ['concat(a, b)', 'c']],
  ['inside square brackets', ['arr[1, 2]'], ['arr[1, 2]']],
  ['inside quotes', ["'a,b'", '"c, d"'], ["'a,b'", '"c, d"']],
  ['items joined before splitting (brackets across items)', ['f(a', 'b)'], ['f(a,b)']],
  ['spaces inside are kept', ['  toStartOfHour( ts )  '], ['toStartOfHour( ts )']],
  ['items that are not text are kept as they are', [1, ' a'], [1, ' a']],
  ['nothing', [], []],
];

for (const [name, input, stored] of cases) test(`storedFieldList: ${name}`, () => assert.equal(storedFieldList(input), stored));

const SOURCE = '65f5e4a3b9e77c001a0001a1';
const ID = '65f5e4a3b9e77c001a111111';
const plan = (p: Partial<PlanInput>) =>
  computePlan({
    resources: [],
    live: [],
    state: emptyState,
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
    capabilities: { updateDashboard: true } as PlanInput['capabilities'],
    ...p,
  });
const time = (groupBy: string[]) => ({ type: 'time', sourceId: SOURCE, aggFn: 'count', where: '', whereLanguage: 'lucene', groupBy });
const search = (fields: string[]) => ({ type: 'search', sourceId: SOURCE, where: '', whereLanguage: 'lucene', fields });
const tile = (series: Record<string, unknown>) => ({ name: 'T', x: 0, y: 0, w: 6, h: 3, series: [series] });
const live = (series: Record<string, unknown>): LiveDashboardInput =>
  ({ id: ID, name: 'Dash d1', tags: ['team:a', MARKER], tiles: [{ id: 'tile-1', ...tile(series) }] }) as LiveDashboardInput;

const plans: Array<{ name: string; file: Record<string, unknown>; server: Record<string, unknown>; action: string }> = [
  { name: 'groupBy " host" against the stored host: no change', file: time([' host']), server: time(['host']), action: 'noop' },
  { name: 'groupBy "host,region" against the stored two: no change', file: time(['host,region']), server: time(['host', 'region']), action: 'noop' },
  {
    name: 'fields with spaces and commas against the stored list: no change',
    file: search(['Timestamp', ' Body, SeverityText']),
    server: search(['Timestamp', 'Body', 'SeverityText']),
    action: 'noop',
  },
  { name: 'concat(a, b) against concat(a, b): no change', file: search(['concat(a, b)']), server: search(['concat(a, b)']), action: 'noop' },
  { name: 'another field is still a change', file: time([' host']), server: time(['service']), action: 'update' },
  { name: 'another order is still a change', file: search(['b, a']), server: search(['a', 'b']), action: 'update' },
];

for (const c of plans) {
  test(`plan: ${c.name}`, () => {
    // GIVEN a file's series and the series a 2026-01-30 server answers for the same tile
    const d = dashboard('d1', { tiles: [tile(c.file)] as never });
    // THEN the plan compares them as the server stores them
    assert.is(plan({ resources: [d], live: [live(c.server)] }).items[0]!.action, c.action);
  });
}

test.run();
