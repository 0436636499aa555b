/**
 * `steward import --template FILE` reads a JSON file from anywhere (a template shared online, a pull
 * request). Members of another shape than HyperDX writes (`tiles: [null]`, `filters: 5`, `tags: 5`, a select
 * that is not a list, a tile without its place) failed with a JavaScript message (`Cannot read properties of
 * null (reading 'config')`, `(src.filters ?? []).map is not a function`) or were called "a bug in the
 * import; please report it" (red team, round 18). Each is now one line naming the member.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const CASES: Array<[string, RegExp]> = [
  ['{"name":"x","tiles":[null]}', /tiles\[0\] is null, expected an object/],
  ['{"name":"x","tiles":[5]}', /tiles\[0\] is a number, expected an object/],
  ['{"name":"x","tiles":[{"config":null}]}', /tiles\[0\]\.config is null, expected an object/],
  ['{"name":"x","tiles":[{"config":{"displayType":"line"}}]}', /tiles\[0\]\.x is missing, expected a whole number/],
  ['{"name":"x","tiles":[{"x":0,"y":0,"w":1,"h":1,"config":{"displayType":"line","select":5}}]}', /tiles\[0\]\.config\.select is a number, expected a list/],
  [
    '{"name":"x","tiles":[{"x":0,"y":0,"w":1,"h":1,"config":{"displayType":"line","select":[null]}}]}',
    /tiles\[0\]\.config\.select\[0\] is null, expected an object/,
  ],
  ['{"name":"x","filters":[null],"tiles":[]}', /filters\[0\] is null, expected an object/],
  ['{"name":"x","filters":5,"tiles":[]}', /filters is a number, expected a list/],
  ['{"name":"x","tags":5,"tiles":[]}', /tags is a number, expected a list/],
];

test('a template with members of another shape: one line naming the member, nothing written', async () => {
  const p = tmpProject({});
  try {
    for (const [i, [json, expected]] of CASES.entries()) {
      const file = `t${i}.json`;
      const q = tmpProject({ [file]: json });
      try {
        const r = await steward(['import', '--template', file, '--out', 'tt'], { cwd: q.dir });
        assert.is(r.code, 1, `${json}\n${r.stdout}${r.stderr}`);
        assert.match(r.stderr, new RegExp(`^error: ${file}: not a HyperDX dashboard template: ${expected.source}\\n$`), json);
        assert.not.match(r.stderr, /is not a function|Cannot read|bug in/, json);
        assert.not.ok(existsSync(join(q.dir, 'tt', `t${i}.yaml`)), json);
      } finally {
        q.cleanup();
      }
    }
  } finally {
    p.cleanup();
  }
});

test('a template whose stamp is no valid dashboard (a tile without a source): the member named, steward not called at fault, nothing written', async () => {
  const json =
    '{"name":"x","tiles":[{"id":"a","x":0,"y":0,"w":6,"h":4,"config":{"name":"t","displayType":"line","select":[{"aggFn":"count","valueExpression":""}]}}]}';
  const q = tmpProject({ 't.json': json });
  try {
    const r = await steward(['import', '--template', 't.json', '--out', 'tt'], { cwd: q.dir });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stderr,
      /^error: the template made from t\.json does not stamp a valid dashboard: \/spec\/dashboards\/0\/spec\/tiles\/0\/config missing required key "sourceId".*; nothing written \(check the template file/,
    );
    assert.not.match(r.stderr, /a bug in the import/);
    assert.not.ok(existsSync(join(q.dir, 'tt', 'x.yaml')));
  } finally {
    q.cleanup();
  }
});

test.run();
