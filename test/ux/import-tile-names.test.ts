/**
 * A live dashboard whose tiles cannot all be told apart by name (two tiles of one name, a tile with no name)
 * is skipped by import with the reason, instead of written under made-up names that plan then shows as a
 * rename: on the seed API that was a blocked dashboard whose way out (import) said "already matches" (red
 * team round 9, F7).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tileNameProblem } from '../../src/render/dashboard-yaml.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const tile = (id: string, name: string | undefined, x: number) => ({
  id,
  ...(name === undefined ? {} : { name }),
  x,
  y: 0,
  w: 6,
  h: 4,
  series: [{ type: 'time', dataSource: 'events', aggFn: 'count', where: `x:${x}`, whereLanguage: 'lucene', groupBy: [] }],
});
const TWINS = {
  id: '6b0864220000000000000001',
  name: 'Twins',
  tags: [],
  tiles: [tile('6b0864220000000000000011', 'a', 0), tile('6b0864220000000000000012', 'a', 6)],
};
const NAMELESS = { id: '6b0864220000000000000002', name: 'Nameless', tags: [], tiles: [tile('6b0864220000000000000021', undefined, 0)] };
const FINE = {
  id: '6b0864220000000000000003',
  name: 'Fine',
  tags: [],
  tiles: [tile('6b0864220000000000000031', 'a', 0), tile('6b0864220000000000000032', 'b', 6)],
};

test('tileNameProblem: names each way tiles cannot be told apart, nothing for distinct names', () => {
  const cases: Array<[string, unknown[], string | undefined]> = [
    ['distinct', [{ name: 'a' }, { name: 'b' }], undefined],
    ['no tiles', [], undefined],
    ['two of one name', [{ name: 'a' }, { name: 'b' }, { name: 'a' }], 'two tiles are named "a"'],
    ['no name', [{ name: 'a' }, {}], 'tile 2 of 2 has no name'],
    ['empty name', [{ name: '' }], 'tile 1 of 1 has no name'],
    ['a name that is not text', [{ name: 7 }], 'tile 1 of 1 has no name'],
    ['"a" and "a (2)" are two names', [{ name: 'a' }, { name: 'a (2)' }], undefined],
  ];
  for (const [label, tiles, want] of cases) assert.is(tileNameProblem({ id: 'x', name: 'd', tiles } as never)?.replace(/, and steward .*/, ''), want, label);
});

test('import skips such dashboards with the reason (new files and a declaring file alike), writes the rest', async () => {
  const x = await examplesWithEmulator({ data: { dashboards: [TWINS, NAMELESS, FINE], alerts: [], organizations: [] } as never });
  try {
    // GIVEN a file that declares Twins as the old import wrote it (the second "a" renamed "a (2)")
    writeFileSync(
      join(x.dir, 'dashboards/twins.yaml'),
      [
        'apiVersion: steward/v1',
        'kind: Dashboard',
        'metadata:',
        '  name: twins',
        'spec:',
        '  name: Twins',
        '  tiles:',
        ...['a', 'a (2)'].flatMap((n, i) => [
          `    - name: ${n}`,
          `      x: ${i * 6}`,
          '      y: 0',
          '      w: 6',
          '      h: 4',
          '      series:',
          `        - { type: time, dataSource: events, aggFn: count, where: "x:${i * 6}", whereLanguage: lucene }`,
        ]),
        '',
      ].join('\n'),
    );
    const out = join(x.dir, 'imported');
    // WHEN every live dashboard is imported into a folder of copies, and Twins by id in place
    const all = await steward(['import', '--all', '--out', out], { cwd: x.dir, env: x.env });
    const inPlace = await steward(['import', '--id', TWINS.id], { cwd: x.dir, env: x.env });
    // THEN the two are skipped with their reason, exit 1; Fine is written
    assert.is(all.code, 1, all.stdout + all.stderr);
    assert.match(all.stdout, /- skipped "Twins" \(6b0864220000000000000001\): two tiles are named "a", and steward tells tiles apart by their names/);
    assert.match(all.stdout, /- skipped "Nameless" \(6b0864220000000000000002\): tile 1 of 1 has no name/);
    assert.match(all.stdout, /name each tile once in the UI, then import again/);
    assert.ok(existsSync(join(out, 'fine.yaml')), all.stdout);
    assert.not.ok(existsSync(join(out, 'twins.yaml')) || existsSync(join(out, 'nameless.yaml')), all.stdout);
    // AND the declaring file is not called a match (it never will be): the same reason, exit 1
    assert.is(inPlace.code, 1, inPlace.stdout + inPlace.stderr);
    assert.match(inPlace.stdout, /- skipped "Twins" .*two tiles are named "a"/);
    assert.not.match(inPlace.stdout, /already matches/);
  } finally {
    await x.cleanup();
  }
});

test.run();
