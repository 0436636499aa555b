/**
 * The command plan's text ends with ("Run `steward apply` to delete 1.") is the one that applies that plan.
 * It said `steward apply` after `plan --prune` (which applies nothing of the kind: apply plans afresh, without
 * prune), after `plan --env prod` and `plan --target …`, and after `plan some/path`, which apply does not take.
 * The flags that shape a plan now go with it, a narrowed plan is saved and applied by its file, and every word
 * is quoted as a shell reads it back. The end-to-end cases run the printed command itself through sh.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyCommand } from '../../src/cli/commands/plan.ts';
import { shellWords } from '../../src/shared/text.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { BIN, run, steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const base = { allowEmpty: false, reassertAlerts: false };
const cases: Array<{ name: string; args: Parameters<typeof applyCommand>[0]; fromPath?: boolean; want: string }> = [
  { name: 'nothing shaped', args: { ...base }, want: 'steward apply' },
  { name: '--prune', args: { ...base, prune: true }, want: 'steward apply --prune' },
  { name: '--no-prune (over spec.prune)', args: { ...base, prune: false }, want: 'steward apply --no-prune' },
  {
    name: 'every shaping flag, in order',
    args: { config: 'ops/steward.yaml', env: 'prod', target: ['dashboard/a', 'alert/b'], prune: true, allowEmpty: true, reassertAlerts: true },
    want: 'steward apply --config ops/steward.yaml --env prod --target dashboard/a --target alert/b --prune --allow-empty --reassert-alerts',
  },
  { name: 'a saved plan: its file, nothing that shapes', args: { ...base, out: 'plan.json', prune: true, env: 'prod' }, want: 'steward apply plan.json' },
  { name: 'a saved plan of another project', args: { ...base, out: 'p.json', config: 'ops' }, want: 'steward apply p.json --config ops' },
  { name: 'a project named by its folder', args: { ...base, paths: ['ops'] }, fromPath: true, want: 'steward apply --config ops' },
  {
    name: 'narrowed by paths: saved, then applied by its file',
    args: { ...base, paths: ['dashboards/team a'], prune: true },
    want: "steward plan 'dashboards/team a' --prune --out plan.json && steward apply plan.json",
  },
];
for (const c of cases) {
  test(`applyCommand: ${c.name}`, () => {
    assert.is(applyCommand(c.args, c.fromPath ?? false), c.want);
  });
}

test('shellWords: sh reads every word back as it was', () => {
  const words = ['plain-1.yaml', 'a b', "it's", '$HOME', '`id`', 'x;y', 'back\\slash', '*', '', 'new\nline', 'ünï'];
  const r = spawnSync('sh', ['-c', `printf '%s\\0' ${shellWords(words)}`], { encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  assert.equal(r.stdout.split('\0').slice(0, -1), words);
  assert.is(shellWords(['steward', 'apply', '--config', 'a/b.yaml']), 'steward apply --config a/b.yaml');
});

/** Runs a command line as a user pastes it, with `steward` on PATH (not blocking: the emulator is in this process). */
function sh(line: string, cwd: string, env: Record<string, string>) {
  const bin = join(cwd, '..', 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'steward'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  return run('sh', ['-c', line], { cwd, env: { ...env, PATH: `${bin}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1' } });
}

test('the printed command applies the plan: --prune deletes the orphan, a narrowed plan creates only its own', async () => {
  const p = tmpProject({});
  const dir = join(p.dir, 'project');
  mkdirSync(dir);
  copyExample(dir, 'hyperdx');
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  try {
    const env = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
    assert.is((await steward(['apply', '--auto-approve'], { cwd: dir, env })).code, 0);
    // GIVEN a dashboard file removed (an orphan) and a new one in a folder whose name has a space
    rmSync(join(dir, 'dashboards/jvm.yaml'));
    mkdirSync(join(dir, 'dashboards/team a'));
    writeFileSync(
      join(dir, 'dashboards/team a/new.yaml'),
      'apiVersion: steward/v1\nkind: Dashboard\nmetadata:\n  name: team-a\nspec:\n  name: Team A\n  tiles:\n    - { name: Note, x: 0, y: 0, w: 6, h: 2, config: { displayType: markdown, markdown: hello } }\n',
    );
    // WHEN plan --prune is narrowed to the new folder, the printed command is run as printed
    const narrowed = await steward(['plan', 'dashboards/team a', '--prune'], { cwd: dir, env });
    assert.is(narrowed.code, 0, narrowed.stdout + narrowed.stderr);
    const first = /^Run `(.+)` to create 1\.$/m.exec(narrowed.stdout);
    assert.ok(first, narrowed.stdout);
    assert.is(first[1], "steward plan 'dashboards/team a' --prune --out plan.json && steward apply plan.json");
    const ran = await sh(first[1]!, dir, env);
    assert.is(ran.code, 0, ran.stdout + ran.stderr);
    assert.match(ran.stdout, '1 created');
    // THEN only Team A was created; the orphan is still there, and plan --prune says how to delete it
    const pruning = await steward(['plan', '--prune'], { cwd: dir, env });
    assert.match(pruning.stdout, '0 to create, 0 to update');
    const second = /^Run `(.+)` to delete 1\.$/m.exec(pruning.stdout);
    assert.ok(second, pruning.stdout);
    assert.is(second[1], 'steward apply --prune');
    const deleted = await sh(`${second[1]} --auto-approve`, dir, env);
    assert.is(deleted.code, 0, deleted.stdout + deleted.stderr);
    assert.match(deleted.stdout, '1 deleted');
    const after = await steward(['plan', '--prune', '--detailed-exitcode'], { cwd: dir, env });
    assert.is(after.code, 0, after.stdout + after.stderr);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
