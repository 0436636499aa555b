/**
 * A select item as the live APIs take it (table-driven, no server). HyperDX 2026-08's SelectItem says "The
 * valueExpression must be omitted when aggFn is "count", and required for all other functions. The level field
 * may only be used with aggFn "quantile"", and its server refuses both with a 400
 * (externalDashboardSelectItemSchema). validate said only the half about a missing valueExpression: a count
 * with a valueExpression, or an avg with a level, passed validate and plan, and the create or update failed.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { dashboardResource } from '../helpers/resource.ts';

const SOURCE = '65f5e4a3b9e77c001a0001a1';

function errors(select: Array<Record<string, unknown>>, api: string, displayType = 'line'): string[] {
  const d = dashboardResource({ name: 'D', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, config: { displayType, sourceId: SOURCE, select } }] });
  return checkSemantics([d], { api })
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.pointer}: ${p.message}`);
}

const AT = '/spec/tiles/0/config/select/0';
const CASES: Array<{ name: string; select: Array<Record<string, unknown>>; displayType?: string; hyperdx: string[] }> = [
  { name: 'a count', select: [{ aggFn: 'count' }], hyperdx: [] },
  { name: 'a count with an empty valueExpression (what the UI writes)', select: [{ aggFn: 'count', valueExpression: '' }], hyperdx: [] },
  {
    name: 'a count with a valueExpression',
    select: [{ aggFn: 'count', valueExpression: 'Duration' }],
    hyperdx: [`${AT}/valueExpression: aggFn count counts rows and takes no valueExpression; the hyperdx API refuses one: leave it out`],
  },
  { name: 'a quantile with a level', select: [{ aggFn: 'quantile', valueExpression: 'Duration', level: 0.95 }], hyperdx: [] },
  {
    name: 'an avg with a level',
    select: [{ aggFn: 'avg', valueExpression: 'Duration', level: 0.95 }],
    hyperdx: [`${AT}/level: level is for aggFn quantile; the hyperdx API refuses it with aggFn avg`],
  },
  {
    name: 'a level on a table and a number tile too',
    select: [{ aggFn: 'max', valueExpression: 'Duration', level: 0.5 }],
    displayType: 'number',
    hyperdx: [`${AT}/level: level is for aggFn quantile; the hyperdx API refuses it with aggFn max`],
  },
  {
    name: 'an avg without a valueExpression (as before)',
    select: [{ aggFn: 'avg' }],
    hyperdx: [
      `${AT}/valueExpression: aggFn avg needs a valueExpression, the column or expression it aggregates (a metric's is Value); the hyperdx API refuses it empty`,
    ],
  },
];

for (const c of CASES) {
  test(`hyperdx: ${c.name}`, () => {
    assert.equal(errors(c.select, 'hyperdx', c.displayType), c.hyperdx);
  });
  test(`clickstack-cloud: ${c.name}`, () => {
    // ClickStack refuses every level (its spec's enum), said once in its own words.
    const got = errors(c.select, 'clickstack-cloud', c.displayType);
    const expected = c.hyperdx
      .filter((e) => !e.includes('/level:'))
      .map((e) => e.replace('the hyperdx API', 'the clickstack-cloud API'))
      .concat(
        'level' in c.select[0]!
          ? [
              `${AT}/level: the ClickStack API (ClickHouse Cloud spec 2026-07-31) refuses every quantile level: use another aggFn, or observability.api: hyperdx`,
            ]
          : [],
      );
    assert.equal(got, expected);
  });
}

test('seed: the series form only; a config is refused once, its select not read', () => {
  assert.equal(errors([{ aggFn: 'count', valueExpression: 'Duration' }], 'seed').length, 1);
});

test.run();
