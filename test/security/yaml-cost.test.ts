/**
 * A pull request's resource file of many keys (up to the 4 MiB limit) made validate quadratic: the YAML
 * parser's uniqueKeys compared each key with every key before it in its mapping (40,000 keys: 49 s), and
 * every problem was located by searching its mapping from the start (40,000 unknown keys: 68 s); a 4 MiB
 * file of either ran for hours. Duplicate keys are now found with one set per mapping
 * (src/config/source.ts, markDuplicateKeys) and large mappings are indexed once for locating problems.
 * And `${VAR}` may not make a file's text larger than 16 Mi characters (src/config/interpolate.ts).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseYamlFile } from '../../src/config/source.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ["dashboards/*.yaml"]
`;

const HEAD = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: big }
spec:
  name: Big
  tiles: []
`;

const KEYS = 60_000;
const keys = (indent: string) => Array.from({ length: KEYS }, (_, i) => `${indent}k${i}: 1\n`).join('');

const CASES = [
  // A mapping the schema never sees as unknown keys one by one: only the parser's duplicate check is quadratic.
  { name: 'distinct keys in one nested mapping', text: `${HEAD}  extra:\n${keys('    ')}`, problems: /1 problem/ },
  { name: 'distinct unknown keys, each a problem to locate', text: HEAD + keys('  '), problems: new RegExp(`${KEYS} problems`) },
];

for (const c of CASES) {
  test(`bounded: ${c.name}`, async () => {
    const { dir, cleanup } = tmpProject({ 'steward.yaml': PROJECT, 'dashboards/big.yaml': c.text });
    try {
      const started = Date.now();
      // Spawned: the old code ran for minutes, and a hung child is killed where an in-process run is not.
      const r = await steward(['validate'], { cwd: dir, spawn: true, timeoutMs: 45_000 });
      assert.ok(Date.now() - started < 45_000, 'validate was still running after 45 s');
      assert.is(r.code, 1, r.stderr);
      assert.match(r.stdout + r.stderr, c.problems);
    } finally {
      cleanup();
    }
  });
}

test('${VAR} cannot blow a file up past 16 Mi characters', async () => {
  // 3.5 MB of references to a variable of 2,000 characters: 700 MB, past what V8 can hold in one string
  // ("internal error: Invalid string length" after 640 MB of memory, before).
  const refs = '${LONGVAR}'.repeat(350_000);
  const { dir, cleanup } = tmpProject({ 'steward.yaml': PROJECT, 'dashboards/big.yaml': `${HEAD.replace('name: Big', `name: "${refs}"`)}` });
  try {
    const r = await steward(['validate'], { cwd: dir, spawn: true, env: { LONGVAR: 'x'.repeat(2000) }, timeoutMs: 45_000 });
    assert.is(r.code, 1, r.stderr);
    assert.not.match(r.stdout + r.stderr, /internal error/);
    assert.match(r.stdout, /big\.yaml:5:9 +\/spec\/name +error: \$\{LONGVAR\} makes the file's text longer than 16 Mi characters/);
  } finally {
    cleanup();
  }
});

test('nor a url of steward.yaml, resolved when plan connects', async () => {
  const project = `${PROJECT}  observability:\n    url: "http://127.0.0.1:1/${'${LONGVAR}'.repeat(350_000)}"\n    token: { env: STEWARD_OBS_TOKEN }\n`;
  const { dir, cleanup } = tmpProject({ 'steward.yaml': project, 'dashboards/d.yaml': HEAD });
  try {
    const env = { LONGVAR: 'x'.repeat(2000), STEWARD_OBS_TOKEN: 'token-for-the-test' };
    const r = await steward(['plan'], { cwd: dir, spawn: true, env, timeoutMs: 45_000 });
    assert.is(r.code, 1, r.stderr);
    assert.not.match(r.stdout + r.stderr, /internal error/);
    assert.match(r.stderr, /steward\.yaml:7:\d+ +\/spec\/observability\/url +\$\{LONGVAR\} makes the file's text longer than 16 Mi characters/);
  } finally {
    cleanup();
  }
});

test('the 16 Mi are shared by the documents of a file, and said once', async () => {
  // Three documents of 8 Mi each: the second is over, and the refusal is not repeated for every later string.
  const doc = (n: number) => HEAD.replace('name: big', `name: big${n}`).replace('name: Big', `name: "${'${MID}'.repeat(8192)}"\n  tags: ["\${MID}"]`);
  const { dir, cleanup } = tmpProject({ 'steward.yaml': PROJECT, 'dashboards/big.yaml': [doc(1), doc(2), doc(3)].join('---\n') });
  try {
    const r = await steward(['validate', '--format', 'json'], { cwd: dir, spawn: true, env: { MID: 'y'.repeat(1024) }, timeoutMs: 45_000 });
    const over = (JSON.parse(r.stdout) as { issues: Array<{ message: string; line: number }> }).issues.filter((p) => /16 Mi characters/.test(p.message));
    assert.is(over.length, 1, r.stdout.slice(0, 500));
  } finally {
    cleanup();
  }
});

const issues = (text: string) => parseYamlFile('f.yaml', new TextEncoder().encode(text)).issues.map((i) => `${i.line}:${i.col} ${i.message} (${i.severity})`);

test('duplicate keys are still errors, where the parser put them, in every form', () => {
  const DUP = 'YAML: a key appears twice in the same mapping (error)';
  assert.equal(issues('a: 1\nb: 2\na: 3\n'), [`3:1 ${DUP}`]);
  assert.equal(issues('x: {a: 1, b: 2, a: 3}\n'), [`1:17 ${DUP}`]);
  assert.equal(issues('x:\n  - {a: 1, a: 1}\n  - y: 1\n    y: 2\n'), [`2:12 ${DUP}`, `4:5 ${DUP}`]);
  assert.equal(issues('"a": 1\n\'a\': 2\n'), [`2:1 ${DUP}`]);
  assert.equal(issues('~: 1\nnull: 2\n'), [`2:1 ${DUP}`]);
  assert.equal(issues('? {a: 1, a: 2}\n: x\n'), [`1:10 ${DUP}`]);
  // Not duplicates to the parser: another type, another mapping, collection keys.
  assert.equal(issues('1: a\n"1": b\nx: {1: c}\n'), []);
  assert.equal(issues('[a]: 1\n[a]: 2\n'), []);
  // In source order among the parser's other errors, each once.
  assert.equal(
    issues('a: 1\na: 2\nb: "x\n'),
    issues('a: 1\na: 2\nb: "x\n').filter((x, i, all) => all.indexOf(x) === i),
  );
  assert.ok(issues('a: 1\na: 2\nb: "x\n').length >= 2);
  assert.is(issues('a: 1\na: 2\nb: "x\n')[0], `2:1 ${DUP}`);
});

test.run();
