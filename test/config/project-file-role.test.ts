/**
 * projectFileRole: what of the project a path is, for a file steward would write there (spec.state,
 * spec.journal, plan --out, report --out). Names that are the project's files only as macOS and Windows
 * compare names (case, NFC/NFD, trailing dots) are refused too, saying so; distinct names are not.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { projectFileRole } from '../../src/config/project.ts';

const P = {
  file: '/p/steward.yaml',
  dir: '/p',
  resources: ['dashboards/**/*.yaml', 'alerts/**/*.{yaml,yml}', 'literal/cafe\u0301.yaml', '!dashboards/drafts/**'],
  statePath: '/p/.steward/state.json',
  journalPath: '/p/.steward/journal.jsonl',
};

const FOLDED = 'only in case, Unicode form or trailing dots, so macOS and Windows take them for one file; refused on every system';

const CASES: Array<{ name: string; path: string; self?: string; role: string | RegExp | undefined }> = [
  { name: 'the project file', path: '/p/steward.yaml', role: 'the project file' },
  { name: 'the project file in upper case', path: '/p/STEWARD.yaml', role: `the project file ("STEWARD.yaml" differs from "steward.yaml" ${FOLDED})` },
  { name: 'the project file with a trailing dot', path: '/p/steward.yaml.', role: /^the project file \("steward\.yaml\." differs/ },
  { name: 'the state file', path: '/p/.steward/state.json', role: 'the state file' },
  {
    name: 'the state file in another case',
    path: '/p/.Steward/State.json',
    role: `the state file (".Steward/State.json" differs from ".steward/state.json" ${FOLDED})`,
  },
  { name: "the state's lock in another case", path: '/p/.steward/state.json.LOCK', role: /^the state's lock file \(/ },
  { name: 'the journal in another case', path: '/p/.steward/JOURNAL.jsonl', role: /^the journal \(".steward\/JOURNAL.jsonl" differs/ },
  { name: 'the state, checked as itself', path: '/p/.steward/state.json', self: '/p/.steward/state.json', role: undefined },
  {
    name: 'the content stream of the project file (NTFS)',
    path: '/p/steward.yaml::$DATA',
    role: /^the project file \("steward\.yaml::\$DATA" is "steward\.yaml" on Windows/,
  },
  {
    name: 'a named stream of the state (NTFS)',
    path: '/p/.steward/state.json:j',
    role: /^the state file \(".steward\/state.json:j" is ".steward\/state.json" on Windows/,
  },
  {
    name: 'a stream of a resource file (NTFS)',
    path: '/p/dashboards/d.yaml::$DATA',
    role: 'a resource file as Windows reads a stream name (it matches "dashboards/**/*.yaml" but for a ":stream" suffix; refused on every system)',
  },
  {
    name: "the guard of the lock's takeover, which apply deletes",
    path: '/p/.steward/state.json.lock.takeover',
    role: "the guard of the state lock's takeover (apply deletes it)",
  },
  { name: 'the guard in another case', path: '/p/.steward/STATE.json.lock.takeover', role: /^the guard of the state lock's takeover \(apply deletes it\) \(/ },
  {
    name: 'the parse pack',
    path: '/p/.steward/cache/parse.pack',
    role: "a file of steward's cache folder (.steward/cache: the caches replace their files there, and git ignores it)",
  },
  { name: 'any file of the cache folder, in another case', path: '/p/.Steward/Cache/state.json', role: /^a file of steward's cache folder/ },
  { name: 'the cache folder itself', path: '/p/.steward/cache', role: /^a file of steward's cache folder/ },
  { name: 'a resource file', path: '/p/dashboards/d.yaml', role: 'a resource file (it matches "dashboards/**/*.yaml")' },
  {
    name: 'a resource file in another case',
    path: '/p/Dashboards/D.yaml',
    role: 'a resource file as macOS and Windows compare names (it matches "dashboards/**/*.yaml" but for case, Unicode form or trailing dots; refused on every system)',
  },
  { name: 'a resource file with a trailing dot', path: '/p/alerts/a.yml.', role: /^a resource file as macOS and Windows compare names \(it matches "alerts/ },
  {
    name: 'a literal pattern in NFD, the path in NFC',
    path: '/p/literal/caf\u00e9.yaml',
    role: /^a resource file as macOS and Windows compare names \(it matches "literal\/cafe\u0301\.yaml"/,
  },
  // A name Linux reads as a resource is one as written (the !pattern takes out only its own spelling there).
  {
    name: 'a folder the !pattern takes out only in its own case',
    path: '/p/dashboards/Drafts/x.yaml',
    role: 'a resource file (it matches "dashboards/**/*.yaml")',
  },
  { name: 'taken out by the !pattern', path: '/p/dashboards/drafts/x.yaml', role: undefined },
  // Distinct names: no role.
  { name: 'a plan of its own', path: '/p/plan.json', role: undefined },
  { name: 'a file beside the state', path: '/p/.steward/state.staging.json', role: undefined },
  { name: 'another extension', path: '/p/steward.yml', role: undefined },
  { name: 'a json in the dashboards folder', path: '/p/Dashboards/x.json', role: undefined },
  { name: 'a report beside the project file', path: '/p/report.json', role: undefined },
  { name: 'a folder named like the cache beside it', path: '/p/.steward/cached/state.json', role: undefined },
];

for (const c of CASES) {
  test(`projectFileRole: ${c.name}`, () => {
    const role = projectFileRole({ ...P, ...(c.self ? { self: c.self } : {}) }, c.path);
    if (c.role instanceof RegExp) assert.match(role ?? '', c.role);
    else assert.is(role, c.role);
  });
}

test('projectFileRole: a project folder whose name holds a colon (a Linux name): its files are told apart', () => {
  const Q = {
    file: '/w/a:b/steward.yaml',
    dir: '/w/a:b',
    resources: ['dashboards/*.yaml'],
    statePath: '/w/a:b/.steward/state.json',
    journalPath: '/w/a:b/.steward/journal.jsonl',
  };
  assert.is(projectFileRole(Q, '/w/a:b/plan.json'), undefined);
  assert.is(projectFileRole(Q, '/w/a:b/steward.yaml'), 'the project file');
  assert.is(projectFileRole(Q, '/w/a:b/dashboards/x.yaml'), 'a resource file (it matches "dashboards/*.yaml")');
});

test.run();
