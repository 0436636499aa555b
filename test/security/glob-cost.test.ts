/**
 * A pull request writes both the resources patterns and the file names. picomatch matches a glob with a
 * backtracking regular expression, so a pattern of many wildcards and a file name chosen for it kept
 * `steward validate` at full CPU for hours, deaf to SIGTERM (the event loop never turned). Such globs are
 * refused at their line in steward.yaml before any file is matched (src/config/file-role.ts, globCost).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { globCost } from '../../src/config/file-role.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const project = (resources: string[], extra = '') => `apiVersion: steward/v1
kind: Project
metadata: { name: p }
spec:
  resources: ${JSON.stringify(resources)}
${extra}`;

const DASH = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d }
spec: { name: D, tiles: [] }
`;

const A60 = 'a'.repeat(60);

interface Case {
  name: string;
  pattern: string;
  files: Record<string, string>;
  extra?: string;
}

// Each of these ran for minutes to hours on the old code (measured: the first at 40 a's took 20 s, at 60 it
// had not ended after ten minutes).
const CASES: Case[] = [
  { name: 'many stars in one name', pattern: 'dashboards/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b.yaml', files: { [`dashboards/${A60}.yaml`]: DASH } },
  {
    name: 'brace groups with overlapping alternatives',
    pattern: `dashboards/${'{a,aa}'.repeat(30)}b.yaml`,
    files: { [`dashboards/${'a'.repeat(250)}.yaml`]: DASH },
  },
  { name: 'an extglob over stars', pattern: 'dashboards/+(*a|*aa)b.yaml', files: { [`dashboards/${'a'.repeat(200)}.yaml`]: DASH } },
  { name: 'a repeated group, no wildcard at all', pattern: 'dashboards/(a|aa)+b.yaml', files: { [`dashboards/${'a'.repeat(200)}.yaml`]: DASH } },
  { name: 'repeated classes', pattern: 'dashboards/x[a-z]+[a-z]+[a-z]+[a-z]+[a-z]+[a-z]+y.yaml', files: { [`dashboards/x${'a'.repeat(200)}.yaml`]: DASH } },
  {
    // The state file's name is checked against the patterns while the project loads, before they are globbed.
    name: 'the state file named for the pattern',
    pattern: '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b',
    files: {},
    extra: `  state: ${A60}.json\n`,
  },
];

for (const c of CASES) {
  test(`refused, not matched: ${c.name}`, async () => {
    const { dir, cleanup } = tmpProject({ 'steward.yaml': project([c.pattern], c.extra), ...c.files });
    try {
      const started = Date.now();
      // Spawned: the old code never returned, and a hung child is killed where an in-process run is not.
      const r = await steward(['validate'], { cwd: dir, spawn: true, timeoutMs: 20_000 });
      assert.ok(Date.now() - started < 20_000, `validate was still running after 20 s: ${r.stderr}`);
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stdout + r.stderr, /steward\.yaml:5:\d+ +\/spec\/resources\/0 +error: .*cannot be used as a glob: /);
    } finally {
      cleanup();
    }
  });
}

test('globCost: the bounds, and the patterns people write', () => {
  for (const ok of [
    'dashboards/*.yaml',
    '**/*.yaml',
    '**/*.{yaml,yml}',
    '{dashboards,alerts}/**/*.{yaml,yml}',
    'dashboards/**/team-*/*.yaml',
    '!dashboards/drafts/**',
    'dashboards/dash?.yaml',
    'services.yaml',
    // One * alone in each segment, no **: each segment matches one way, so nothing multiplies.
    'services/*/teams/*/dashboards/*/*.yaml',
    'a/*/b/*/c/*/d/*/e/*.yaml',
  ])
    assert.is(globCost(ok), undefined, ok);
  for (const bad of [
    '*a*a*a*a.yaml', // four wildcards in one name: seconds on a 250-character name
    '*a*a*a/*a*a*a.yaml', // names in a row multiply
    '**/b/**/b/**/x.yaml', // three ** over a deep path
    '*{a,aa}{a,aa}{a,aa}{a,aa}b',
    '{a,aa}{a,aa}{a,aa}{a,aa}{a,aa}b',
    '+(a|aa)b',
    '(a|aa)+b.yaml', // a plain group is the regular expression's own
    `${'(a|aa)'.repeat(30)}b.yaml`,
    'x[a-z]+[a-z]+[a-z]+y.yaml', // so is + after a class
    '!*(a|aa)',
    '!*a*a*a*a',
    'a/*/b/*/c/*/d/*a*a*a*a.yaml', // the one segment of four still counts
    '*/*a*a/*a*a.yaml', // two ambiguous segments in a row multiply
    '**/*/*/*/*.yaml', // with **, every * counts: ** splits a deep path among them
    '{a/*,b/*}/*/*/*.yaml', // a brace group spanning a / : every * counts
  ])
    assert.type(globCost(bad), 'string', bad);
});

test('patterns within the bounds still find their files', async () => {
  const { dir, cleanup } = tmpProject({
    'steward.yaml': project(['{dashboards,more}/**/*.{yaml,yml}']),
    'dashboards/x/a.yaml': DASH,
    'more/b.yml': DASH.replace('name: d }', 'name: e }').replace('name: D,', 'name: E,'),
  });
  try {
    const r = await steward(['validate'], { cwd: dir });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /valid: 3 files, 2 resources/); // the project file and the two
  } finally {
    cleanup();
  }
});

test.run();
