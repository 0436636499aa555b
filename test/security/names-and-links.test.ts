/**
 * Two ways a name can reach a file steward must not write (outside review): a hard link (a second name of
 * steward.yaml or of a file elsewhere, which a pull request or a tarball can carry), and a name that is a
 * protected file only as macOS and Windows compare names (`STEWARD.yaml`, `.GIT`, NFD, a trailing dot).
 * docs/security.md lists both.
 */
import { existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { DASH, ENV, project } from './project-files.ts';

const FOLDED = 'only in case, Unicode form or trailing dots, so macOS and Windows take them for one file; refused on every system';

// Each is one file on macOS or Windows with a file apply writes through or replaces: refused at its line.
for (const [key, value, message] of [
  ['state', 'STEWARD.yaml', `spec.state names the project file ("STEWARD.yaml" differs from "steward.yaml" ${FOLDED}), which apply would overwrite`],
  ['journal', 'steward.yaml.', `spec.journal names the project file ("steward.yaml." differs from "steward.yaml" ${FOLDED})`],
  ['journal', 'Dashboards/D.yaml', 'spec.journal names a resource file as macOS and Windows compare names (it matches "dashboards/**/*.yaml" but for case'],
  ['journal', '.steward/State.json', `spec.journal names the state file (".steward/State.json" differs from ".steward/state.json" ${FOLDED})`],
  ['journal', '.Steward/state.json.LOCK', "spec.journal names the state's lock file ("],
  ['state', '.git./config', `spec.state names a file inside .git, git's own folder, which steward never writes (".git." is that folder on macOS or Windows`],
  ['journal', 'git~1/config', 'spec.journal names a file inside .git, git\'s own folder, which steward never writes ("git~1" is that folder'],
  ['journal', '.g\u200cit/config', 'spec.journal names a file inside .git, git\'s own folder, which steward never writes (".g\\u200cit" is that folder'],
  // NTFS: `name::$DATA` is the file's content, so the journal was appended to steward.yaml on a Windows runner.
  [
    'journal',
    'steward.yaml::$DATA',
    'spec.journal names the project file ("steward.yaml::$DATA" is "steward.yaml" on Windows, where a name\'s ":stream" suffix',
  ],
  ['journal', '.steward/state.json:j', 'spec.journal names the state file (".steward/state.json:j" is ".steward/state.json" on Windows'],
  // A lock takeover deletes its guard (and an old one as left by a crash): the journal, and what a crash left in it.
  ['journal', '.steward/state.json.lock.takeover', "spec.journal names the guard of the state lock's takeover (apply deletes it), which apply would overwrite"],
  // The caches replace their files and git ignores the folder: the state was replaced by the parse pack.
  [
    'state',
    '.steward/cache/parse.pack',
    "spec.state names a file of steward's cache folder (.steward/cache: the caches replace their files there, and git ignores it)",
  ],
] as const) {
  test(`spec.${key}: ${JSON.stringify(value)} is refused at its line as the file it is on macOS and Windows; nothing written`, async () => {
    const p = tmpProject({ 'steward.yaml': project(`  ${key}: ${JSON.stringify(value)}\n`), 'dashboards/d.yaml': DASH });
    try {
      const r = await steward(['plan'], { cwd: p.dir, env: ENV(p.dir) });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.is(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
      assert.ok(r.stderr.startsWith(`steward.yaml:9:${key === 'state' ? 10 : 12}  /spec/${key}  `), r.stderr);
      assert.ok(r.stderr.includes(message), r.stderr);
      assert.not.match(r.stderr, /internal error|\n\s+at /);
      assert.is(readFileSync(join(p.dir, 'steward.yaml'), 'utf8'), project(`  ${key}: ${JSON.stringify(value)}\n`));
    } finally {
      p.cleanup();
    }
  });
}

test('spec.state and spec.journal named as distinct files on Linux, not only by case, still load', async () => {
  const p = tmpProject({
    'steward.yaml': project('  state: .steward/state.staging.json\n  journal: Dashboards/journal.jsonl\n'),
    'dashboards/d.yaml': DASH,
  });
  try {
    const r = await steward(['validate'], { cwd: p.dir, env: ENV(p.dir) });
    assert.is(r.code, 0, r.stdout + r.stderr);
  } finally {
    p.cleanup();
  }
});

test('apply refuses a journal that is a hard link to steward.yaml or to a file outside the project: nothing appended, nothing sent', async () => {
  const x = await examplesWithEmulator();
  const outside = mkdtempSync(join(tmpdir(), 'steward-outside-'));
  try {
    const projectFile = join(x.dir, 'steward.yaml');
    const before = readFileSync(projectFile, 'utf8');
    const notes = join(outside, 'notes.txt');
    writeFileSync(notes, 'kept\n');
    const journal = join(x.dir, '.steward/journal.jsonl');
    mkdirSync(join(x.dir, '.steward'));
    for (const target of [projectFile, notes]) {
      // GIVEN .steward/journal.jsonl as a second name of the target (a tarball or a PR can carry hard links)
      rmSync(journal, { force: true });
      linkSync(target, journal);
      // WHEN apply runs THEN it is refused in one line before any write
      const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.ok(
        r.stderr.includes(
          `cannot open the journal ${journal}: it is a hard link (one of 2 names of one file), which steward never makes; remove it (steward starts a new journal)`,
        ),
        r.stderr,
      );
      assert.not.match(r.stderr, /\n\s+at /);
      assert.is(readFileSync(projectFile, 'utf8'), before, 'steward.yaml unchanged');
      assert.is(readFileSync(notes, 'utf8'), 'kept\n', 'the outside file unchanged');
      // Nothing was sent: the plan still has everything to create.
      const plan = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
      assert.is(plan.code, 2, plan.stdout + plan.stderr);
    }
    // AND once the link is removed, apply starts a journal of its own
    rmSync(journal);
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.is(statSync(journal).nlink, 1);
    assert.is(readFileSync(projectFile, 'utf8'), before);
  } finally {
    rmSync(outside, { recursive: true, force: true });
    await x.cleanup();
  }
});

test('report --out refuses to replace a file of the project with a report file, also by another case; nothing written', async () => {
  for (const [out, says] of [
    ['reports', 'report.json there is the state file, which the report would replace'],
    [
      'REPORTS',
      'report.json there is the state file ("REPORTS/report.json" differs from "reports/report.json" ' + FOLDED + '), which the report would replace',
    ],
  ] as const) {
    const p = tmpProject({ 'steward.yaml': project('  state: reports/report.json\n'), 'dashboards/d.yaml': DASH });
    try {
      const r = await steward(['report', '--out', out], { cwd: p.dir, env: ENV(p.dir) });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.ok(r.stderr.includes(`--out ${out}: ${says}; give the report a folder of its own (reports)`), r.stderr);
      assert.not.ok(existsSync(join(p.dir, out)), 'no report written');
    } finally {
      p.cleanup();
    }
  }
});

test('import --out never writes over the state file, --force or not (a state named like a dashboard file)', async () => {
  const x = await examplesWithEmulator();
  try {
    const f = join(x.dir, 'steward.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('  state: .steward/state.json\n', '  state: copies/checkout-overview.yaml\n'));
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    const state = readFileSync(join(x.dir, 'copies/checkout-overview.yaml'), 'utf8');
    const r = await steward(['import', '--all', '--out', 'copies', '--force'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.is(readFileSync(join(x.dir, 'copies/checkout-overview.yaml'), 'utf8'), state, 'the state file is still the state');
    assert.ok(existsSync(join(x.dir, 'copies/checkout-overview-2.yaml')), r.stdout);
  } finally {
    await x.cleanup();
  }
});

test.run();
