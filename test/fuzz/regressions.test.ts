/**
 * Bugs the fuzz suite found, each pinned by the smallest input that showed it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { processFile } from '../../src/config/resources.ts';
import { computePlan } from '../../src/plan/plan.ts';
import { renderIssuesText } from '../../src/render/issues.ts';
import { dashboard, DIR, emptyState, liveOf, MARKER, NOW } from '../plan/fixtures.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { assertIssuesWellFormed } from './mutate.ts';

const FILE = '/repo/dashboards/x.yaml';

function load(text: string) {
  const bytes = Buffer.from(text);
  const r = processFile(FILE, bytes, {}, { isProjectFile: false });
  assertIssuesWellFormed(r.issues, new Map([[FILE, bytes]]), () => text);
  return r;
}

test('positions after a YAML syntax error stay on the right line (the parser skipped a newline while recovering)', () => {
  // GIVEN a stray "]" after an anchor, and a mis-indented key further down
  const text = 'apiVersion: &a] steward/v1\nkind: Dashboard\nmetadata:\n  name: a\nspec:\n  name: x\n   tags: []\n  tiles: []\n';
  const r = load(text);
  const at = (message: string, after = 0) => r.issues.filter((i) => i.message.includes(message)).map((i) => `${i.line}:${i.col}`)[after];
  // THEN the ":" of "   tags:" is reported on line 7 (it was 6:18, past the end of line 6), and "tiles" on line 8
  assert.ok(
    r.issues.some((i) => i.line === 7 && i.col === 8 && i.message.includes('map-value-ind')),
    JSON.stringify(r.issues),
  );
  assert.is(at('"tiles"'), '8:3');
  assert.not.ok(
    r.issues.some((i) => i.line === 6 && i.col > 10),
    'nothing beyond the end of line 6',
  );
});

test('a collection used as a key: reported as an unknown key, with no Node warning on stderr', async () => {
  const p = tmpProject({
    'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["*.yaml"]\n',
    'd.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: a }\nspec:\n  name: A\n  ? [x, y]\n  : 1\n',
  });
  try {
    const r = await steward(['validate'], { cwd: p.dir });
    assert.is(r.code, 1);
    assert.match(r.stdout, 'd.yaml:5:3  /spec/[ x, y ]  error: unknown key "[ x, y ]"');
    // It was: "(node:…) Warning: Keys with collection values will be stringified … Set mapAsMap: true …"
    assert.is(r.stderr, '');
  } finally {
    p.cleanup();
  }
});

test('a resource glob too long to compile is a located problem, not a crash inside the directory walk', async () => {
  // It threw "Invalid regular expression … too large" from a readdir callback: an uncaught exception.
  const p = tmpProject({
    'steward.yaml': `apiVersion: steward/v1\nkind: Project\nspec:\n  resources:\n    - ${'a'.repeat(40_000)}\n    - "*.yaml"\n`,
    'd.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: a }\nspec: { name: A }\n',
  });
  try {
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: p.dir }, {});
    assert.equal(
      loaded.issues.map((i) => `${i.file}:${i.line}:${i.col} ${i.pointer} ${i.severity}`),
      ['steward.yaml:5:7 /spec/resources/0 error'],
    );
    assert.match(loaded.issues[0]!.message, /cannot be used as a glob: it is too long \(40000 characters\); split it into shorter patterns$/);
    assert.is(loaded.resources.length, 1, 'the other pattern is still read');
  } finally {
    p.cleanup();
  }
});

test('a tile named "__proto__" is diffed like any other (it vanished: drift in it was planned as unchanged)', () => {
  // GIVEN a file and a live dashboard that differ only in the x of a tile named "__proto__"
  const d = dashboard('d1', { tiles: [{ name: '__proto__', x: 0, y: 0, w: 6, h: 3 }] });
  const live = liveOf('d1', '65f5e4a3b9e77c001a111111', { tiles: [{ id: '65f5e4a3b9e77c001a11t001', name: '__proto__', x: 6, y: 0, w: 6, h: 3 }] });
  // WHEN planned
  const p = computePlan({ resources: [d], live: [live], state: emptyState, markerTag: MARKER, now: NOW, projectDir: DIR });
  // THEN the drift is seen, and a create shows the tile
  assert.is(p.items[0]!.action, 'blocked');
  assert.equal(p.items[0]!.patch, [{ op: 'replace', path: '/tiles/__proto__/x', value: 0 }]);
  const created = computePlan({ resources: [d], live: [], state: emptyState, markerTag: MARKER, now: NOW, projectDir: DIR });
  assert.ok(JSON.stringify(created.items[0]!.after).includes('"__proto__":{"x":0'), JSON.stringify(created.items[0]!.after));
});

test('problems quoting user text with line breaks (a multi-line key, a tile name) stay one line each in text', async () => {
  // GIVEN a flow mapping used as a key over several lines, and two tiles named "a\nb"
  const text =
    'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: a }\nspec:\n  name: A\n  ? { tiles: [ { name: a-tile-name-long-enough-to-pass-the-line-width, x: 0, y: 100000000, h: 100000000 } ] }\n  : 1\n';
  const r = load(text);
  const dup = tmpProject({
    'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["*.yaml"]\n',
    'd.yaml':
      'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d }\nspec:\n  name: D\n  tiles:\n    - { name: "a\\nb", x: 0, y: 0, w: 1, h: 1 }\n    - { name: "a\\nb", x: 1, y: 0, w: 1, h: 1 }\n',
  });
  try {
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: dup.dir }, {});
    const issues = [...r.issues, ...loaded.issues];
    assert.is(issues.length, 2, JSON.stringify(issues));
    // WHEN rendered as text THEN one line each, the line break shown as \n (it was printed raw: the
    // message of the first ran over eight lines)
    const out = renderIssuesText(issues, { color: false });
    assert.is(out.split('\n').length, 2, out);
    assert.match(out, /unknown key "\{\\n {2}tiles:\\n/);
    assert.match(out, 'duplicate tile name "a\\nb"');
  } finally {
    dup.cleanup();
  }
});

test.run();
