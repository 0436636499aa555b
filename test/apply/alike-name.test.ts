/**
 * What a create is found under after an unknown outcome (listNamed): its very name first; with none, a name
 * alike it (trimmed, spaces collapsed, NFC, case folded) on a dashboard this project's marker marks that was
 * not listed before the creates. Pure tables: a fake list, no server.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { listNamed, type Alike } from '../../src/apply/create.ts';
import { alikeName } from '../../src/shared/alike-name.ts';
import type { ApplyDeps } from '../../src/apply/types.ts';
import type { LiveDashboard } from '../../src/clients/index.ts';

const MARKER = 'managed-by:steward/test';

test('alikeName: what a server that normalizes names may store', () => {
  const rows: Array<[string, string]> = [
    ['CPU usage', 'cpu usage'],
    ['  CPU usage ', 'cpu usage'],
    ['CPU \t  usage', 'cpu usage'],
    ['Cafe\u0301', 'caf\u00e9'],
    ['caf\u00e9', 'caf\u00e9'],
    ['a\u00a0b', 'a b'],
    ['', ''],
  ];
  for (const [name, want] of rows) assert.is(alikeName(name), want, JSON.stringify(name));
});

function deps(live: LiveDashboard[]): ApplyDeps {
  return { client: { listDashboards: async () => live } } as unknown as ApplyDeps;
}

const d = (id: string, name: string, tags: string[] | undefined = [MARKER]): LiveDashboard =>
  ({ id, name, tiles: [], ...(tags ? { tags } : {}) }) as LiveDashboard;

const cases: Array<{ what: string; live: LiveDashboard[]; alike?: Alike; want: string[] }> = [
  { what: 'the very name', live: [d('1', 'CPU '), d('2', 'CPU')], alike: { seen: new Set() }, want: ['1'] },
  { what: 'a trimmed name, new since the plan', live: [d('2', 'CPU')], alike: { seen: new Set() }, want: ['2'] },
  { what: 'a case-folded name, new since the plan', live: [d('2', 'cpu')], alike: { seen: new Set() }, want: ['2'] },
  { what: 'an alike name listed before the creates', live: [d('2', 'CPU')], alike: { seen: new Set(['2']) }, want: [] },
  { what: 'an alike name without the marker', live: [d('2', 'CPU', ['team:a'])], alike: { seen: new Set() }, want: [] },
  { what: 'an alike name where alike names are not looked for (another create is alike)', live: [d('2', 'CPU')], want: [] },
  { what: 'another name', live: [d('2', 'CPU load')], alike: { seen: new Set() }, want: [] },
];

for (const c of cases) {
  test(`listNamed "CPU ": ${c.what}`, async () => {
    const found = await listNamed(deps(c.live), 'CPU ', MARKER, c.alike);
    assert.equal(
      found.map((x) => x.id),
      c.want,
    );
  });
}

test.run();
