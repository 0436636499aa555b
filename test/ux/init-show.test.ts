import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { projectNameFrom } from '../../src/cli/commands/init.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

// Issue 14, point 6: no `steward init`, no `steward show plan.json`.

for (const api of ['seed', 'hyperdx', 'clickstack-cloud'] as const) {
  test(`a project from \`steward init --api ${api}\` validates, plans, applies and plans clean against the emulator`, async () => {
    const p = tmpProject({});
    const emu = await startEmulator({ seed: 1, api });
    try {
      const env = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, 'xdg') };
      // A folder name long enough that the default marker tag would pass HyperDX's 32-character tags.
      const init = await steward(['init', 'platform-observability', '--api', api], { cwd: p.dir });
      assert.is(init.code, 0, init.stderr);
      assert.match(init.stdout, 'Wrote project platform-observability:');
      const dir = join(p.dir, 'platform-observability');
      const project = join(dir, 'steward.yaml');
      // The profile's rate, under ClickHouse Cloud's 10 requests in 10 s for clickstack-cloud; raised for the emulator.
      const rate = /^ {4}requestsPerMinute: (\d+)/m.exec(readFileSync(project, 'utf8'))?.[1];
      assert.is(rate, api === 'clickstack-cloud' ? '50' : '100');
      writeFileSync(project, readFileSync(project, 'utf8').replace(/requestsPerMinute: \d+/, 'requestsPerMinute: 6000'));
      const marker = /^ {4}markerTag: (\S+)$/m.exec(readFileSync(join(dir, 'steward.yaml'), 'utf8'))?.[1];
      if (api === 'seed') assert.is(marker, undefined);
      else assert.ok(marker && marker.length <= 32 && marker.startsWith('managed-by:steward/platform-'), String(marker));
      for (const f of ['steward.yaml', 'dashboards/service-errors.yaml']) {
        assert.match(readFileSync(join(dir, f), 'utf8'), /^# yaml-language-server: \$schema=\S+\.schema\.json\n/, f);
      }
      assert.match(readFileSync(join(dir, '.gitignore'), 'utf8'), '.steward/*');

      const v = await steward(['validate'], { cwd: dir, env });
      assert.is(v.code, 0, v.stdout + v.stderr);
      assert.is(v.stdout, '✓ valid: 2 files, 1 resource (1 dashboard)\n', 'no warnings about patterns the user never wrote');
      const plan = await steward(['plan', '--detailed-exitcode'], { cwd: dir, env });
      assert.is(plan.code, 2, plan.stdout + plan.stderr);
      assert.match(plan.stdout, '1 to create');
      const apply = await steward(['apply', '--auto-approve'], { cwd: dir, env });
      assert.is(apply.code, 0, apply.stdout + apply.stderr);
      const again = await steward(['plan', '--detailed-exitcode'], { cwd: dir, env });
      assert.is(again.code, 0, again.stdout + again.stderr);
      assert.match(again.stdout, 'Nothing to apply.');
    } finally {
      await emu.close();
      p.cleanup();
    }
  });
}

test('init refuses to overwrite and writes nothing then; it adds to an existing .gitignore', async () => {
  const p = tmpProject({ 'steward.yaml': 'mine\n', '.gitignore': 'node_modules/' });
  try {
    const r = await steward(['init'], { cwd: p.dir });
    assert.is(r.code, 1);
    assert.match(r.stderr, 'steward.yaml already exists; init writes new projects only and overwrites nothing');
    assert.is(readFileSync(join(p.dir, 'steward.yaml'), 'utf8'), 'mine\n');
    assert.is(readFileSync(join(p.dir, '.gitignore'), 'utf8'), 'node_modules/');

    const q = tmpProject({ '.gitignore': 'node_modules/' });
    try {
      const ok = await steward(['init', '--name', 'team-a'], { cwd: q.dir });
      assert.is(ok.code, 0, ok.stderr);
      const gi = readFileSync(join(q.dir, '.gitignore'), 'utf8');
      assert.ok(gi.startsWith('node_modules/\n\n# steward'), gi);
      assert.match(readFileSync(join(q.dir, 'steward.yaml'), 'utf8'), 'name: team-a');
      const bad = await steward(['init', 'x', '--name', 'Team A'], { cwd: q.dir });
      assert.is(bad.code, 1);
      assert.match(bad.stderr, '--name Team A: use lowercase letters');
    } finally {
      q.cleanup();
    }
  } finally {
    p.cleanup();
  }
});

test('init writes nothing through a link: a dashboards/ or .gitignore that is a link is refused, and nothing written', async () => {
  const outside = tmpProject({ 'secret.txt': 'not for the project\n' });
  const p = tmpProject({});
  try {
    symlinkSync(outside.dir, join(p.dir, 'dashboards'));
    symlinkSync(join(outside.dir, 'secret.txt'), join(p.dir, '.gitignore'));
    const r = await steward(['init', '--name', 'linked'], { cwd: p.dir });
    assert.is(r.code, 1, r.stdout);
    assert.match(r.stderr, 'dashboards, .gitignore are links; init writes its files inside the folder, never through a link');
    assert.not.ok(existsSync(join(p.dir, 'steward.yaml')), 'nothing written');
    assert.equal(readdirSync(outside.dir), ['secret.txt']);
    assert.is(readFileSync(join(outside.dir, 'secret.txt'), 'utf8'), 'not for the project\n');
  } finally {
    p.cleanup();
    outside.cleanup();
  }
});

test('init into a path that is a file, or under one, is a usage error naming it, not an internal error', async () => {
  // GIVEN a file where the project folder would be WHEN init runs THEN it is named (before: "internal error:
  // ENOTDIR ... this is a bug in steward"), and nothing is written
  const p = tmpProject({ notes: 'x' });
  try {
    const r = await steward(['init', 'notes'], { cwd: p.dir });
    assert.is(r.code, 1);
    assert.is(r.stderr, 'error: notes is a file, not a folder: init writes a project into a folder\n');
    const under = await steward(['init', 'notes/new'], { cwd: p.dir });
    assert.is(under.code, 1);
    assert.is(under.stderr, 'error: notes is a file, not a folder: init writes a project into a folder\n');
    assert.equal(readdirSync(p.dir), ['notes']);
  } finally {
    p.cleanup();
  }
});

test('init refuses a .gitignore that is a fifo or a folder, and a file where dashboards/ goes, before writing anything', async () => {
  // GIVEN what another user (or an old checkout) left in the folder WHEN init runs THEN it is named and nothing
  // is written. Before: a fifo .gitignore hung init for good (SIGTERM could not stop the read) after
  // steward.yaml and dashboards/ were written; a folder .gitignore or a file named dashboards was "internal error".
  for (const [what, make, message] of [
    ['a fifo .gitignore', (d: string) => execFileSync('mkfifo', [join(d, '.gitignore')]), 'error: .gitignore is not a regular file'],
    ['a folder .gitignore', (d: string) => mkdirSync(join(d, '.gitignore')), 'error: .gitignore is not a regular file'],
    ['a file named dashboards', (d: string) => writeFileSync(join(d, 'dashboards'), 'mine\n'), 'error: dashboards is not a folder'],
  ] as const) {
    const p = tmpProject({});
    try {
      make(p.dir);
      const before = readdirSync(p.dir);
      // Spawned, with a kill timer: the old code blocked on the fifo forever.
      const r = await steward(['init', '--name', 'blocked'], { cwd: p.dir, spawn: true, timeoutMs: 30_000 });
      assert.is(r.code, 1, `${what}: ${r.stdout}${r.stderr}`);
      assert.ok(r.stderr.startsWith(message), `${what}: ${r.stderr}`);
      assert.match(r.stderr, 'nothing was written');
      assert.not.match(r.stderr, /internal error/);
      assert.equal(readdirSync(p.dir), before, `${what}: nothing written`);
    } finally {
      p.cleanup();
    }
  }
});

test('projectNameFrom: a folder name the schema accepts', () => {
  assert.is(projectNameFrom('My Project'), 'my-project');
  assert.is(projectNameFrom('--x--'), 'x');
  assert.is(projectNameFrom('@@@'), 'observability');
});

test('show renders a saved plan in every format, as plan printed it, without reading the service', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ seed: 1 });
  try {
    const env = emu.env as Record<string, string>;
    await steward(['init', '--name', 'showcase'], { cwd: p.dir });
    const text = await steward(['plan', '--out', 'plan.json'], { cwd: p.dir, env });
    assert.is(text.code, 0, text.stderr);
    assert.match(text.stdout, 'Run `steward apply plan.json` to create 1.');
    const md = await steward(['plan', '--out', 'plan2.json', '--format', 'markdown'], { cwd: p.dir, env });
    const before = emu.requests().length;
    await emu.close();

    const shown = await steward(['show', 'plan.json'], { cwd: p.dir });
    assert.is(shown.code, 0, shown.stderr);
    assert.is(shown.stdout, text.stdout.replace('Saved the plan to plan.json.\n', ''));
    const showMd = await steward(['show', 'plan2.json', '--format', 'markdown'], { cwd: p.dir });
    assert.is(showMd.stdout, md.stdout);
    const showJson = await steward(['show', 'plan.json', '--format', 'json'], { cwd: p.dir });
    assert.equal(JSON.parse(showJson.stdout), JSON.parse(readFileSync(join(p.dir, 'plan.json'), 'utf8')));
    const gh = await steward(['show', 'plan.json', '--format', 'github'], { cwd: p.dir });
    assert.match(gh.stdout, '::notice file=dashboards/service-errors.yaml');
    assert.ok(before > 0);

    writeFileSync(join(p.dir, 'not-a-plan.json'), '{"hello": 1}');
    const bad = await steward(['show', 'not-a-plan.json'], { cwd: p.dir });
    assert.is(bad.code, 1);
    assert.match(bad.stderr, 'not-a-plan.json is not a steward plan');
    const missing = await steward(['show', 'nope.json'], { cwd: p.dir });
    assert.match(missing.stderr, 'cannot read plan nope.json: no such file');
    // Not a regular file (a link to /dev/zero would read until memory ran out, a fifo would hang): one line.
    symlinkSync('/dev/zero', join(p.dir, 'zero.json'));
    execFileSync('mkfifo', [join(p.dir, 'fifo.json')]);
    for (const [file, command] of [
      ['zero.json', 'show'],
      ['fifo.json', 'show'],
      ['zero.json', 'apply'],
      ['dashboards', 'show'],
    ] as const) {
      const odd = await steward([command, file], { cwd: p.dir });
      assert.is(odd.code, 1, `${command} ${file}: ${odd.stderr}`);
      assert.match(odd.stderr, `cannot read plan ${file}: not a regular file`);
    }

    // A hand-edited plan is checked as apply checks it before anything is shown: a count that is text (here
    // a terminal title sequence and a forged workflow command) is refused, not printed.
    const tampered = JSON.parse(readFileSync(join(p.dir, 'plan.json'), 'utf8'));
    tampered.summary.create = '\u001b]0;pwned\u0007\n::error title=forged::from a plan file';
    writeFileSync(join(p.dir, 'tampered.json'), JSON.stringify(tampered));
    for (const format of ['text', 'markdown', 'github']) {
      const t = await steward(['show', 'tampered.json', '--format', format], { cwd: p.dir });
      assert.is(t.code, 1, t.stdout);
      assert.is(t.stdout, '');
      assert.match(t.stderr, 'tampered.json is not a steward plan (summary.create must be integer)');
      assert.not.match(t.stderr, /\u001b|\n::/);
    }
    // An edited action names the allowed ones and what was found, not ajv's "equal to one of the allowed values"
    const edited = JSON.parse(readFileSync(join(p.dir, 'plan.json'), 'utf8'));
    edited.items[0].action = 'explode';
    writeFileSync(join(p.dir, 'edited.json'), JSON.stringify(edited));
    const e = await steward(['show', 'edited.json'], { cwd: p.dir });
    assert.is(e.code, 1, e.stdout);
    assert.match(e.stderr, /edited\.json is not a steward plan \(items\.0\.action must be one of "create", .*; found "explode"\)/);
  } finally {
    await emu.close().catch(() => {});
    p.cleanup();
  }
});

test('apply prints the plan without telling the user to run apply', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ seed: 1 });
  try {
    await steward(['init', '--name', 'applying'], { cwd: p.dir });
    const r = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: emu.env as Record<string, string> });
    assert.is(r.code, 0, r.stderr);
    assert.not.match(r.stdout, 'Run `steward apply`');
    assert.match(r.stdout, 'This apply will create 1.');
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
