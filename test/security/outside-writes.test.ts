/**
 * What steward writes and the state it reads stay inside the project, whatever links, devices or
 * hand-edited files the tree holds (an outside review found each of these; docs/security.md).
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkArgv } from '../../src/cli/argv.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { DASH, ENV, project } from './project-files.ts';

function withProject(extra: string, fn: (dir: string, outside: string) => Promise<void>) {
  return async () => {
    const outside = mkdtempSync(join(tmpdir(), 'steward-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET-4711\n');
    const p = tmpProject({ 'steward.yaml': project(extra), 'dashboards/d.yaml': DASH });
    try {
      await fn(p.dir, outside);
    } finally {
      p.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  };
}

for (const [key, value, message] of [
  ['state', '../outside/state.json', /spec\.state must be a path inside the project folder/],
  ['state', '/proc/self/environ', /spec\.state must be a path inside the project folder/],
  ['journal', '/tmp/journal.jsonl', /spec\.journal must be a path inside the project folder/],
  // Files the project reads as its own: apply would append to them or replace them.
  ['journal', 'steward.yaml', /spec\.journal names the project file, which apply would overwrite/],
  ['state', './steward.yaml', /spec\.state names the project file/],
  ['journal', 'dashboards/d.yaml', /spec\.journal names a resource file \(it matches "dashboards\/\*\*\/\*\.yaml"\)/],
  ['state', 'dashboards/new.yaml', /spec\.state names a resource file/],
  ['journal', '.steward/state.json', /spec\.journal names the state file/],
  ['journal', '.steward/state.json.lock', /spec\.journal names the state's lock file/],
  // git's own folder: apply appended its journal lines to .git/config and wrote its state as .git/info/attributes.
  ['journal', '.git/config', /spec\.journal names a file inside \.git, git's own folder/],
  ['state', '.git/info/attributes', /spec\.state names a file inside \.git, git's own folder/],
  ['state', '.steward/../.GIT/hooks/pre-push', /spec\.state names a file inside \.git/],
] as const) {
  test(
    `spec.${key}: ${value} is refused at its line, nothing read`,
    withProject(`  ${key}: ${value}\n`, async (dir) => {
      const r = await steward(['plan'], { cwd: dir, env: ENV(dir) });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, /steward\.yaml:9:\d+/);
      assert.not.match(r.stdout + r.stderr, /FOO|PATH=|internal error/);
    }),
  );
}

test('a !pattern in spec.resources takes files out: the default state and journal are no resource files', async () => {
  const p = tmpProject({
    'steward.yaml':
      'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["**/*.json", "dashboards/**/*.yaml", "!dashboards/drafts/**", "!.steward/**"]\n',
    'dashboards/d.yaml': DASH,
  });
  try {
    const r = await steward(['validate'], { cwd: p.dir, env: ENV(p.dir) });
    assert.is(r.code, 0, r.stdout + r.stderr);
  } finally {
    p.cleanup();
  }
});

test(
  'a .steward folder linked outside the project: validate, plan and apply refuse it, nothing is written there',
  withProject('', async (dir, outside) => {
    symlinkSync(outside, join(dir, '.steward'));
    for (const args of [['validate'], ['plan'], ['apply', '--auto-approve']]) {
      const r = await steward(args, { cwd: dir, env: ENV(dir) });
      assert.is(r.code, 1, r.stdout + r.stderr);
      // spec.state is not written: the line names the folder itself
      assert.is(
        r.stderr,
        `error: ${join(dir, '.steward')} is a symbolic link (to ${realpathSync(outside)}): steward keeps its state, journal, lock and caches in .steward and follows no link there; remove the link (steward makes .steward itself)\n`,
      );
    }
    assert.equal(readdirSync(outside).sort(), ['secret.txt'], 'apply wrote no state, journal or lock outside');
  }),
);

// Every command that loads the project, against a live emulator: before, a .steward linked to another folder
// of the project was followed (apply wrote state.json and journal.jsonl into it, import and apply took the
// lock there), and one linked outside was refused as "spec.state leads outside", which says nothing of the link.
for (const where of ['inside', 'outside'] as const) {
  test(`a .steward folder linked ${where} the project: validate, plan, apply, import and report refuse it in one line, nothing written or sent`, async () => {
    const x = await examplesWithEmulator();
    const outside = mkdtempSync(join(tmpdir(), 'steward-outside-'));
    try {
      const target = where === 'inside' ? join(x.dir, 'var') : outside;
      if (where === 'inside') mkdirSync(target);
      symlinkSync(where === 'inside' ? 'var' : outside, join(x.dir, '.steward'));
      const shown = where === 'inside' ? 'var' : realpathSync(outside);
      for (const args of [['validate'], ['plan'], ['apply', '--auto-approve'], ['import', '--all', '--out', 'imported'], ['report']]) {
        const r = await steward(args, { cwd: x.dir, env: x.env });
        assert.is(r.code, 1, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
        // examples/steward.yaml writes spec.state: the line points at it
        assert.is(
          r.stderr,
          `steward.yaml:23:10  /spec/state  .steward is a symbolic link (to ${shown}): steward keeps its state, journal, lock and caches in .steward and follows no link there; remove the link (steward makes .steward itself)\n`,
          args.join(' '),
        );
        assert.is(r.stdout, '', args.join(' '));
      }
      assert.equal(readdirSync(target), [], 'no state, journal, lock or cache written through the link');
      assert.not.ok(existsSync(join(x.dir, 'imported')));
      assert.equal(x.emu.requests(), [], 'nothing read or sent');
      // THEN with the link gone, steward makes .steward itself, a real folder
      rmSync(join(x.dir, '.steward'));
      const applied = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
      assert.is(applied.code, 0, applied.stdout + applied.stderr);
      assert.ok(lstatSync(join(x.dir, '.steward')).isDirectory());
      assert.ok(existsSync(join(x.dir, '.steward/state.json')));
    } finally {
      await x.cleanup();
      rmSync(outside, { recursive: true, force: true });
    }
  });
}

test(
  'spec.state or spec.journal through a linked folder inside the project is refused at its line; folders not made yet are no links',
  withProject('  state: var/state.json\n  journal: .steward/logs/journal.jsonl\n', async (dir) => {
    mkdirSync(join(dir, 'data'));
    symlinkSync('data', join(dir, 'var'));
    let r = await steward(['plan'], { cwd: dir, env: ENV(dir) });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.is(
      r.stderr,
      'steward.yaml:9:10  /spec/state  spec.state goes through var, a symbolic link (to data): steward follows no link to its state, journal and lock; remove the link, or name a folder that is no link\n',
    );
    // A link further down, under a real .steward
    rmSync(join(dir, 'var'));
    mkdirSync(join(dir, '.steward'));
    symlinkSync('../data', join(dir, '.steward/logs'));
    r = await steward(['validate'], { cwd: dir, env: ENV(dir) });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /^steward\.yaml:10:12 {2}\/spec\/journal {2}spec\.journal goes through \.steward\/logs, a symbolic link \(to data\)/);
    // Folders not made yet are no links: validate loads as before
    rmSync(join(dir, '.steward'), { recursive: true });
    r = await steward(['validate'], { cwd: dir, env: ENV(dir) });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.equal(readdirSync(join(dir, 'data')), []);
  }),
);

test(
  'a .steward/cache linked outside the project: validate still works and writes no cache there',
  withProject('', async (dir, outside) => {
    mkdirSync(join(dir, '.steward'));
    symlinkSync(outside, join(dir, '.steward/cache'));
    const r = await steward(['validate'], { cwd: dir, env: ENV(dir) });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.equal(readdirSync(outside), ['secret.txt']);
  }),
);

test(
  'a .steward/cache linked into another folder of the project: no cache, nothing written there (its * .gitignore hid new files from git)',
  withProject('', async (dir) => {
    // GIVEN a pull request that commits .steward/cache as a link to ../dashboards WHEN validate (or plan) runs
    // THEN the cache is off. Before, parse.pack and a .gitignore of "*" landed in dashboards/, so git
    // ignored every dashboard file made there afterwards.
    mkdirSync(join(dir, '.steward'));
    symlinkSync('../dashboards', join(dir, '.steward/cache'));
    const r = await steward(['validate'], { cwd: dir, env: ENV(dir) });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.equal(readdirSync(join(dir, 'dashboards')), ['d.yaml']);
    // A cache folder that is really there still is one.
    rmSync(join(dir, '.steward/cache'));
    assert.is((await steward(['validate'], { cwd: dir, env: ENV(dir) })).code, 0);
    assert.ok(existsSync(join(dir, '.steward/cache/parse.pack')));
  }),
);

test(
  'a state file that is a fifo is refused at once (a read would hang), and a hand-edited one gives a message, not a crash',
  withProject('', async (dir) => {
    mkdirSync(join(dir, '.steward'));
    const state = join(dir, '.steward/state.json');
    execFileSync('mkfifo', [state]);
    let r = await steward(['plan'], { cwd: dir, env: ENV(dir) });
    assert.is(r.code, 1);
    assert.match(r.stderr, /cannot read state file .*not a regular file/);
    rmSync(state);
    for (const [text, message] of [
      ['{"formatVersion":1,"alerts":{"__proto__":{"x":1}}}', /"__proto__" is not an alert id/],
      ['{"formatVersion":1,"alerts":{"65f5e4a3b9e77c001a000001":{"sent":5}}}', /the record of alert "65f5e4a3b9e77c001a000001" needs "sent"/],
      ['{"formatVersion":1,"alerts":{},"appliedPlans":5}', /appliedPlans must be a list/],
      ['FOO_SECRET=1 not json', /is not valid JSON; restore it/],
    ] as const) {
      writeFileSync(state, text);
      r = await steward(['plan'], { cwd: dir, env: ENV(dir) });
      assert.is(r.code, 1, text);
      assert.match(r.stderr, message);
      assert.not.match(r.stderr, /internal error|undefined|FOO_SECRET/);
    }
  }),
);

test(
  'plan --out over a fifo or a folder is refused; the fifo is still a fifo',
  withProject('', async (dir) => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    mkdirSync(join(dir, 'folder'));
    // Offline: the plan fails to connect before --out matters, so the writer is checked directly too.
    const { writeFileAtomic } = await import('../../src/atomic-write.ts');
    for (const name of ['pipe', 'folder']) {
      assert.throws(() => writeFileAtomic(join(dir, name), 'x'), /refusing to write .*(not a regular file|a folder)/);
    }
    assert.ok(lstatSync(join(dir, 'pipe')).isFIFO());
    symlinkSync(join(dir, 'pipe'), join(dir, 'link-to-pipe'));
    assert.throws(() => writeFileAtomic(join(dir, 'link-to-pipe'), 'x'), /links to something that is not a regular file/);
    writeFileAtomic(join(dir, 'plain.json'), 'ok');
    assert.ok(existsSync(join(dir, 'plain.json')));
  }),
);

test(
  'a file whose name is near the 255-byte limit is written (the temp name beside it was too long: ENAMETOOLONG)',
  withProject('', async (dir) => {
    const { writeFileAtomic } = await import('../../src/atomic-write.ts');
    // A name near the 255-byte limit: the temp file beside it must not pass the limit (it did: ENAMETOOLONG).
    for (const long of ['p'.repeat(250) + '.json', 'é'.repeat(120) + '.json']) {
      writeFileAtomic(join(dir, long), 'ok');
      assert.ok(existsSync(join(dir, long)));
    }
  }),
);

test(
  'report into a reports folder linked outside the project is refused; import --out naming a file says so',
  withProject('', async (dir, outside) => {
    symlinkSync(outside, join(dir, 'reports'));
    const r = await steward(['report'], { cwd: dir, env: ENV(dir) });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /refusing to write the report into .*reports: a symbolic link takes it outside/);
    assert.equal(readdirSync(outside), ['secret.txt']);
    const { makeFolderInside } = await import('../../src/shared/paths.ts');
    writeFileSync(join(dir, 'a-file'), '');
    assert.throws(() => makeFolderInside(dir, join(dir, 'a-file'), 'dashboards'), /cannot write dashboards into .*a-file: it is a file, not a folder/);
    assert.throws(() => makeFolderInside(dir, join(dir, 'reports', 'sub'), 'dashboards'), /a symbolic link takes it outside/);
    makeFolderInside(dir, join(outside, 'chosen'), 'dashboards'); // outside by name: the user's explicit choice
    assert.ok(existsSync(join(outside, 'chosen')));
  }),
);

test(
  'plan --out and import --template into a folder linked outside the project are refused, nothing is written there',
  withProject('', async (dir, outside) => {
    // GIVEN a pull request that commits out/ and templates/ as links out of the work tree WHEN plan --out
    // out/plan.json and import --template run THEN both are refused, as report's folder is. Before, both
    // followed the link and wrote plan.json / tpl.yaml outside the project.
    const emu = await startEmulator({ seed: 1 });
    try {
      writeFileSync(join(dir, 'steward.yaml'), readFileSync(join(dir, 'steward.yaml'), 'utf8').replace('http://127.0.0.1:9', emu.url));
      const env = { ...ENV(dir), ...(emu.env as Record<string, string>) };
      symlinkSync(outside, join(dir, 'out'));
      let r = await steward(['plan', '--out', 'out/plan.json'], { cwd: dir, env });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /refusing to write the plan into .*out: a symbolic link takes it outside/);
      r = await steward(['plan', '--out', 'out/deeper/plan.json'], { cwd: dir, env });
      assert.is(r.code, 1, r.stdout + r.stderr);
      // A folder of the work tree that is no link is made as before.
      r = await steward(['plan', '--out', 'plans/plan.json'], { cwd: dir, env });
      assert.is(r.code, 0, r.stdout + r.stderr);
      assert.ok(existsSync(join(dir, 'plans/plan.json')));
      writeFileSync(join(dir, 'tpl.json'), '{"name":"My Tpl","tiles":[]}');
      symlinkSync(outside, join(dir, 'templates'));
      r = await steward(['import', '--template', 'tpl.json'], { cwd: dir, env });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /refusing to write the template into .*templates: a symbolic link takes it outside/);
      assert.equal(readdirSync(outside), ['secret.txt']);
    } finally {
      await emu.close();
    }
  }),
);

test('report replaces none of its three files when one cannot be written (a folder where report.html goes)', async () => {
  // GIVEN reports/ from an earlier run and a folder where report.html goes WHEN report runs THEN it is refused
  // and report.md and report.json are the earlier run's. Before, both were replaced and report.html was not:
  // a report set of two runs.
  const x = await examplesWithEmulator();
  try {
    const env = { ...x.env, XDG_CACHE_HOME: join(x.dir, '.xdg') };
    mkdirSync(join(x.dir, 'reports/report.html'), { recursive: true });
    writeFileSync(join(x.dir, 'reports/report.md'), 'earlier\n');
    writeFileSync(join(x.dir, 'reports/report.json'), '{"earlier":true}\n');
    const r = await steward(['report'], { cwd: x.dir, env });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /refusing to write .*report\.html: it is a folder/);
    assert.is(readFileSync(join(x.dir, 'reports/report.md'), 'utf8'), 'earlier\n');
    assert.is(readFileSync(join(x.dir, 'reports/report.json'), 'utf8'), '{"earlier":true}\n');
  } finally {
    await x.cleanup();
  }
});

test(
  'a file replaced keeps its permissions (a 0600 plan or state file does not come back readable by everyone)',
  withProject('', async (dir) => {
    const { writeFileAtomic } = await import('../../src/atomic-write.ts');
    const file = join(dir, 'plan.json');
    writeFileSync(file, 'old', { mode: 0o600 });
    chmodSync(file, 0o600);
    writeFileAtomic(file, 'new');
    assert.is(readFileSync(file, 'utf8'), 'new');
    assert.is(statSync(file).mode & 0o777, 0o600);
  }),
);

test('--settle -1s stays the value of --settle (yargs read it as the flags -1 and -s)', () => {
  const table = { global: { names: [], takesValue: [], booleans: [] }, commands: { apply: { names: ['settle'], takesValue: ['settle'], booleans: [] } } };
  assert.equal(checkArgv(['apply', '--settle', '-1s'], table), { ok: true, argv: ['apply', '--settle=-1s'] });
  assert.equal(checkArgv(['apply', '--settle', '30s'], table), { ok: true, argv: ['apply', '--settle', '30s'] });
});

test(
  'apply checks --settle before it plans',
  withProject('', async (dir) => {
    for (const [flag, message] of [
      ['-1s', /--settle -1s: write a duration like 30s/],
      ['99999999999999d', /--settle 99999999999999d: write a duration/],
      ['2h', /--settle 2h: at most 1h/],
    ] as const) {
      const r = await steward(['apply', '--auto-approve', '--settle', flag], { cwd: dir, env: ENV(dir) });
      assert.is(r.code, 1);
      assert.match(r.stderr, message);
      assert.not.match(r.stdout, /steward plan/, 'nothing was planned first');
    }
  }),
);

test('a .steward replaced by a link while apply runs (after the project was loaded) takes no state file outside', async () => {
  // GIVEN apply has loaded the project (its .steward a folder) WHEN, at its first create, .steward is moved
  // away and a link to a folder outside the project put in its place THEN no state file is written there: the
  // records are reported not saved, naming the link. Before, the state, replaced by a rename, went outside.
  const x = await examplesWithEmulator();
  const outside = mkdtempSync(join(tmpdir(), 'steward-outside-'));
  let swapped = false;
  const proxy = await startProxy(x.emu.url, {
    intercept: (req) => {
      if (req.method === 'POST' && !swapped) {
        swapped = true;
        renameSync(join(x.dir, '.steward'), join(x.dir, 'moved-steward'));
        symlinkSync(outside, join(x.dir, '.steward'));
      }
      return undefined;
    },
  });
  try {
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: { ...x.env, STEWARD_OBS_URL: proxy.url }, spawn: true });
    assert.ok(swapped);
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /applied, not recorded: .*\.steward is a symbolic link \(to .*steward-outside-/);
    assert.equal(readdirSync(outside), []);
  } finally {
    await proxy.close();
    await x.cleanup();
    rmSync(outside, { recursive: true, force: true });
  }
});

test.run();
