/**
 * A dashboard's filters as the live APIs take them (table-driven, no server). HyperDX 2026-08's FilterInput
 * says in prose what its server refuses with a 400: variableName "is rejected when isVariableEnabled is not
 * true", a non-empty appliesToSourceIds "is rejected when isBroadcastEnabled is false", "Variable names must be
 * unique", and a variable whose name "derives nothing usable must send this field explicitly". validate passed
 * every one, and the create failed. The server also refuses a filter that neither broadcasts nor is a variable,
 * which the spec leaves open: a warning.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { dashboardResource } from '../helpers/resource.ts';

const SOURCE = '65f5e4a3b9e77c001a0001a1';
const filter = (f: Record<string, unknown>) => ({ type: 'QUERY_EXPRESSION', name: 'Env', expression: 'environment', sourceId: SOURCE, ...f });

function errors(filters: Array<Record<string, unknown>>, api: string): string[] {
  return checkSemantics([dashboardResource({ name: 'D', tiles: [], filters: filters.map(filter) })], { api })
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.pointer}: ${p.message}`);
}

const CASES: Array<{ name: string; filters: Array<Record<string, unknown>>; problems: (api: string) => string[] }> = [
  { name: 'a plain filter (broadcasts)', filters: [{}], problems: () => [] },
  { name: 'a variable with its name', filters: [{ isVariableEnabled: true, variableName: 'env' }], problems: () => [] },
  { name: 'a variable named after its display name', filters: [{ isVariableEnabled: true, name: 'Service name' }], problems: () => [] },
  { name: 'a variable only', filters: [{ isVariableEnabled: true, isBroadcastEnabled: false }], problems: () => [] },
  { name: 'scoped to sources', filters: [{ appliesToSourceIds: [SOURCE] }], problems: () => [] },
  { name: 'not broadcast, scoped to nothing', filters: [{ isVariableEnabled: true, isBroadcastEnabled: false, appliesToSourceIds: [] }], problems: () => [] },
  {
    name: 'variableName without isVariableEnabled',
    filters: [{ variableName: 'env' }],
    problems: (api) => [
      `/spec/filters/0/variableName: filter "Env" sets variableName but is not a variable; the ${api} API refuses it: set isVariableEnabled: true, or leave variableName out`,
    ],
  },
  {
    name: 'appliesToSourceIds on a filter that does not broadcast',
    filters: [{ isVariableEnabled: true, isBroadcastEnabled: false, appliesToSourceIds: [SOURCE] }],
    problems: (api) => [
      `/spec/filters/0/appliesToSourceIds: filter "Env" sets appliesToSourceIds but does not broadcast its value; the ${api} API refuses it: leave isBroadcastEnabled out (or true), or leave appliesToSourceIds out`,
    ],
  },
  {
    name: 'two variables of one name (given, and derived)',
    filters: [
      { isVariableEnabled: true, name: 'Env', variableName: 'Service_name' },
      { isVariableEnabled: true, name: 'Service name' },
    ],
    problems: (api) => [
      `/spec/filters/1/name: filter "Service name" is the variable $Service_name, as filter 0 is; the ${api} API takes each variable name once: give variableName`,
    ],
  },
  {
    name: 'a variable whose name derives nothing',
    filters: [{ isVariableEnabled: true, name: '!!!' }],
    problems: (api) => [
      `/spec/filters/0/name: filter "!!!" is a variable, and no variable name can be made from its name; the ${api} API needs one: give variableName`,
    ],
  },
];

for (const api of ['hyperdx']) {
  for (const c of CASES) test(`${api}: ${c.name}`, () => assert.equal(errors(c.filters, api), c.problems(api)));
  test(`${api}: a filter that does nothing is a warning (the server refuses it; the spec says "typically")`, () => {
    const problems = checkSemantics([dashboardResource({ name: 'D', tiles: [], filters: [filter({ isBroadcastEnabled: false })] })], { api });
    assert.equal(
      problems.map((p) => `${p.severity} ${p.pointer}: ${p.message}`),
      [
        'warning /spec/filters/0/isBroadcastEnabled: filter "Env" neither broadcasts its value nor is a variable, and HyperDX\'s server refuses a filter that does nothing (the spec does not say so): set isVariableEnabled: true, or leave isBroadcastEnabled out',
      ],
    );
  });
}

/**
 * ClickStack's filters (ClickStackFilterInput, ClickStackFilter: ClickHouse Cloud spec 2026-07-31 and 2026-04-14)
 * have none of HyperDX's filter modes, and its builder configs none of HyperDX's formulas, seriesLimit or
 * showOperandSeries. validate passed them on clickstack-cloud and apply sent them: a member the API does not
 * define is refused or dropped, and a dropped one plans as drift after every apply (and a `$variable` in a tile
 * names nothing). Each is refused at the member, and the HyperDX mode checks do not run there.
 */
test('clickstack-cloud: the filter members and chart members the ClickStack API does not have are refused at the member', () => {
  const problems = checkSemantics(
    [
      dashboardResource({
        name: 'D',
        tiles: [
          {
            name: 'T',
            x: 0,
            y: 0,
            w: 6,
            h: 3,
            config: {
              displayType: 'line',
              sourceId: SOURCE,
              select: [{ aggFn: 'count' }],
              seriesLimit: 5,
              showOperandSeries: false,
              formulas: [{ expression: 'A' }],
            },
          },
        ],
        filters: [
          filter({ isVariableEnabled: true, variableName: 'env' }),
          filter({ name: 'Svc', isBroadcastEnabled: false }),
          filter({ name: 'Plain', appliesToSourceIds: [SOURCE] }),
        ],
      }),
    ],
    { api: 'clickstack-cloud' },
  );
  const filterNote =
    "which the ClickStack API's filters do not have (ClickHouse Cloud spec 2026-07-31: no variables, every filter broadcasts): leave it out, or use observability.api: hyperdx";
  const configNote = "which the ClickStack API's chart configs do not have (ClickHouse Cloud spec 2026-07-31): leave it out, or use observability.api: hyperdx";
  assert.equal(
    problems.map((p) => `${p.severity} ${p.pointer}: ${p.message}`),
    [
      `error /spec/tiles/0/config/formulas: tile "T" sets formulas, ${configNote}`,
      `error /spec/tiles/0/config/seriesLimit: tile "T" sets seriesLimit, ${configNote}`,
      `error /spec/tiles/0/config/showOperandSeries: tile "T" sets showOperandSeries, ${configNote}`,
      `error /spec/filters/0/isVariableEnabled: filter "Env" sets isVariableEnabled, ${filterNote}`,
      `error /spec/filters/0/variableName: filter "Env" sets variableName, ${filterNote}`,
      `error /spec/filters/1/isBroadcastEnabled: filter "Svc" sets isBroadcastEnabled, ${filterNote}`,
    ],
  );
  // The same dashboard is fine on hyperdx, whose API has them all.
  const hyperdx = checkSemantics([dashboardResource({ name: 'D', tiles: [], filters: [filter({ isVariableEnabled: true, variableName: 'env' })] })], {
    api: 'hyperdx',
  });
  assert.equal(hyperdx, []);
});

test.run();
