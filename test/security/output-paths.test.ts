/**
 * Output paths named on the command line (plan --out, report --out, import --out, init DIR): what each
 * writes where a demanding user expects it, and never into git's own folder (red team, round 15).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, type Emulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { DASH, ENV, project } from './project-files.ts';

/** A one-dashboard project pointed at a fresh emulator, with a `.git` folder holding a config. */
function withLiveProject(fn: (dir: string, env: Record<string, string>, emu: Emulator) => Promise<void>) {
  return async () => {
    const emu = await startEmulator({ seed: 1 });
    const p = tmpProject({
      'steward.yaml': project().replace('http://127.0.0.1:9', emu.url),
      'dashboards/d.yaml': DASH,
      '.git/config': '[core]\n\trepositoryformatversion = 0\n',
      '.git/hooks/README': 'hooks\n',
    });
    try {
      await fn(p.dir, { ...ENV(p.dir), ...(emu.env as Record<string, string>) }, emu);
    } finally {
      await emu.close();
      p.cleanup();
    }
  };
}

test(
  'plan --out with a trailing slash names a folder: refused with the file to name instead (it wrote a file named like the folder)',
  withLiveProject(async (dir, env) => {
    // GIVEN --out plans/ WHEN plan runs THEN it is refused and nothing named plans is made. Before, resolve()
    // dropped the slash and the plan was saved as a file named plans (exit 0, "Saved the plan to plans/").
    const r = await steward(['plan', '--out', 'plans/'], { cwd: dir, env });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.is(r.stderr, "error: --out plans/ ends in /, so it names a folder; name the plan's file (plans/plan.json)\n");
    assert.not.ok(existsSync(join(dir, 'plans')));
    // An existing folder with the slash: the same, and the folder is left as it was.
    mkdirSync(join(dir, 'out'));
    const again = await steward(['plan', '--out', 'out/'], { cwd: dir, env });
    assert.is(again.code, 1, again.stdout + again.stderr);
    assert.equal(readdirSync(join(dir, 'out')), []);
  }),
);

test(
  "no output goes into .git, git's own folder, by any name or link: plan, report, import and init refuse it in one line",
  withLiveProject(async (dir, env) => {
    // GIVEN a clone WHEN an output is named inside .git THEN it is refused before anything is written there.
    // Before, plan --out .git/config replaced git's config with the plan (every git command then failed:
    // "bad config line 1"), plan --out .git/hooks/pre-push put a file where git runs hooks, and report,
    // import and init wrote their files into .git.
    const config = readFileSync(join(dir, '.git/config'), 'utf8');
    symlinkSync('.git', join(dir, 'gitlink'));
    const runs: Array<[string[], RegExp]> = [
      [['plan', '--out', '.git/config'], /^error: refusing to write the plan to \.git\/config: it is inside "\.git", git's own folder/],
      [['plan', '--out', '.git/hooks/pre-push'], /^error: refusing to write the plan to \.git\/hooks\/pre-push: it is inside "\.git"/],
      [['plan', '--out', '.GIT/hooks/pre-push'], /^error: refusing to write the plan to \.GIT\/hooks\/pre-push: it is inside "\.GIT"/],
      [['plan', '--out', 'gitlink/config'], /^error: refusing to write the plan to gitlink\/config: it leads to \.git\/config, which is inside "\.git"/],
      [['plan', '--out', '.git'], /^error: refusing to write the plan to \.git: it is inside "\.git"/],
      [['report', '--out', '.git/review'], /^error: refusing to write the report to \.git\/review: it is inside "\.git"/],
      [['import', '--all', '--out', '.git/hooks'], /^error: refusing to write dashboards to \.git\/hooks: it is inside "\.git"/],
      [['init', '.git/p'], /^error: refusing to write a project to \.git\/p: it is inside "\.git"/],
    ];
    // import needs a live dashboard to write.
    const applied = await steward(['apply', '--yes'], { cwd: dir, env });
    assert.is(applied.code, 0, applied.stdout + applied.stderr);
    for (const [args, message] of runs) {
      const r = await steward(args, { cwd: dir, env });
      assert.is(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    assert.is(readFileSync(join(dir, '.git/config'), 'utf8'), config);
    assert.equal(readdirSync(join(dir, '.git')).sort(), ['config', 'hooks']);
    assert.equal(readdirSync(join(dir, '.git/hooks')), ['README']);
    assert.not.ok(existsSync(join(dir, '.GIT')));
    // A project kept below a folder named .git still saves its plans (only the part below the project counts).
    const nested = join(dir, '.git', 'inner');
    mkdirSync(nested);
    writeFileSync(join(nested, 'steward.yaml'), readFileSync(join(dir, 'steward.yaml')));
    const inside = await steward(['plan', '--out', 'plan.json'], { cwd: nested, env });
    assert.is(inside.code, 0, inside.stdout + inside.stderr);
    rmSync(nested, { recursive: true });
  }),
);

test(
  'an --out with escape sequences is shown escaped on stdout, never sent to the terminal',
  withLiveProject(async (dir, env) => {
    // GIVEN --out named with ESC (a branch name pasted into a job) WHEN plan and report print where they
    // wrote THEN the escape is shown as \e. Before, "Saved the plan to" and "wrote" printed it raw.
    const plan = await steward(['plan', '--out', 'p\x1b[2Jx.json'], { cwd: dir, env });
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
    assert.match(plan.stdout, /Saved the plan to p\\e\[2Jx\.json\./);
    const report = await steward(['report', '--out', 'r\x1b]0;x\x07'], { cwd: dir, env });
    assert.match(report.stdout, /wrote r\\e\]0;x\\u0007\/report\.md/);
    for (const r of [plan, report]) assert.not.match(r.stdout + r.stderr, /\x1b/);
  }),
);

test(
  "no output replaces another environment's state file or journal (plan --out, import --out)",
  withLiveProject(async (dir, env) => {
    // GIVEN a project whose staging environment keeps its own state and journal WHEN plan --out (without --env)
    // names them THEN it is refused and they are as they were. Before, only this run's state and journal
    // were protected: `plan --out .steward/state.staging.json` replaced staging's record of its alerts with
    // a plan, and every staging plan then failed ("not a steward state file"); import --out likewise.
    writeFileSync(
      join(dir, 'steward.yaml'),
      readFileSync(join(dir, 'steward.yaml'), 'utf8') +
        '  environments:\n    staging: { state: .steward/state.staging.json, journal: .steward/journal.staging.jsonl }\n    qa: { state: out/d.yaml }\n',
    );
    mkdirSync(join(dir, '.steward'));
    mkdirSync(join(dir, 'out'));
    const state = '{"formatVersion":1,"alerts":{}}\n';
    for (const f of ['.steward/state.staging.json', '.steward/journal.staging.jsonl', '.steward/state.json', 'out/d.yaml']) writeFileSync(join(dir, f), state);
    const runs: Array<[string[], RegExp]> = [
      [
        ['plan', '--out', '.steward/state.staging.json'],
        /--out \.steward\/state\.staging\.json names the state file of --env staging, which the plan would replace/,
      ],
      [['plan', '--out', '.steward/journal.staging.jsonl'], /names the journal of --env staging/],
      [['plan', '--out', '.steward/state.staging.json.lock'], /names the state's lock file of --env staging/],
      [['plan', '--env', 'staging', '--out', '.steward/state.json'], /names the state file of the project without --env/],
      [['plan', '--out', 'out/d.yaml'], /names the state file of --env qa/],
    ];
    for (const [args, message] of runs) {
      const r = await steward(args, { cwd: dir, env });
      assert.is(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
    }
    const applied = await steward(['apply', '--yes'], { cwd: dir, env });
    assert.is(applied.code, 0, applied.stdout + applied.stderr);
    const imported = await steward(['import', '--all', '--out', 'out', '--force'], { cwd: dir, env });
    assert.is(imported.code, 0, imported.stdout + imported.stderr);
    assert.ok(existsSync(join(dir, 'out/d-2.yaml')), imported.stdout);
    for (const f of ['.steward/state.staging.json', '.steward/journal.staging.jsonl', 'out/d.yaml']) assert.is(readFileSync(join(dir, f), 'utf8'), state, f);
  }),
);

test("an environment's state that is another's journal (or the reverse) is refused at load: apply would replace one with the other", async () => {
  // GIVEN staging keeping its state where the project keeps its journal WHEN any command loads it THEN it is
  // refused at the line. Before, each environment was checked alone: `apply --env staging` replaced the
  // journal with a state file, and the next apply without --env appended journal lines to staging's state.
  // Each names both places, and points at one where the clash is written (the third was shown at line 1, where
  // nothing is written: qa's overlay alone makes it).
  const line =
    project(`  environments:\n    X\n`)
      .split('\n')
      .findIndex((l) => l.includes('X')) + 1;
  for (const [overlay, env, message] of [
    [
      'staging: { state: .steward/journal.jsonl, journal: .steward/j-staging.jsonl }',
      undefined,
      /spec\.journal names the state file of --env staging, .*; this run's comes from the default, that one from spec\.environments\.staging\.state \(line \d+\)/,
    ],
    [
      'staging: { state: .steward/journal.jsonl, journal: .steward/j-staging.jsonl }',
      'staging',
      /spec\.state names the journal of the project without --env, .*; this run's comes from spec\.environments\.staging\.state \(line \d+\), that one from the default/,
    ],
    [
      'qa: { journal: .steward/state.json }',
      undefined,
      /spec\.state names the journal of --env qa, .*that one from spec\.environments\.qa\.journal \(line \d+\)/,
    ],
  ] as const) {
    const p = tmpProject({ 'steward.yaml': project(`  environments:\n    ${overlay}\n`), 'dashboards/d.yaml': DASH });
    try {
      const r = await steward(['validate', ...(env ? ['--env', env] : [])], { cwd: p.dir, env: ENV(p.dir) });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, new RegExp(`^steward\\.yaml:${line}:\\d+ `), r.stderr);
    } finally {
      p.cleanup();
    }
  }
  // Environments sharing one state file, or one journal, are no clash.
  const shared = tmpProject({
    'steward.yaml': project('  environments:\n    a: { journal: .steward/j.jsonl }\n    b: { journal: .steward/j.jsonl }\n'),
    'dashboards/d.yaml': DASH,
  });
  try {
    for (const env of [[], ['--env', 'a'], ['--env', 'b']]) {
      const r = await steward(['validate', ...env], { cwd: shared.dir, env: ENV(shared.dir) });
      assert.is(r.code, 0, r.stdout + r.stderr);
    }
  } finally {
    shared.cleanup();
  }
});

test.run();
