/**
 * `steward plan` in a project whose connection cannot be made (a variable not set) stops once its files are
 * checked, and leaves nothing behind: it wrote `.steward/cache/` first (red team round 18, left). A plan
 * that can connect still fills the cache. `steward apply` says the same and takes no lock (which made
 * `.steward/`).
 */
import { writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

test('plan without STEWARD_OBS_URL: one line naming the variable at its file:line:col, exit 1, no .steward folder', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({});
  try {
    const init = await steward(['init'], { cwd: p.dir });
    assert.is(init.code, 0, init.stderr);
    const r = await steward(['plan'], { cwd: p.dir });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /steward\.yaml:\d+:\d+ {2}\/spec\/observability\/url {2}environment variable STEWARD_OBS_URL is not set/);
    assert.not.ok(existsSync(join(p.dir, '.steward')), 'nothing written');

    // Set: the plan runs, and the files are parsed and cached.
    const ok = await steward(['plan'], { cwd: p.dir, env: emu.env as Record<string, string> });
    assert.is(ok.code, 0, ok.stdout + ok.stderr);
    assert.ok(existsSync(join(p.dir, '.steward', 'cache', 'parse.pack')), 'the parse cache is written');
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test('apply without STEWARD_OBS_URL: what plan says (the files first), exit 1, no lock and no .steward folder', async () => {
  const p = tmpProject({});
  try {
    const init = await steward(['init'], { cwd: p.dir });
    assert.is(init.code, 0, init.stderr);
    const r = await steward(['apply', '--auto-approve'], { cwd: p.dir });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout + r.stderr, /steward\.yaml:\d+:\d+ {2}\/spec\/observability\/url {2}environment variable STEWARD_OBS_URL is not set/);
    assert.not.ok(existsSync(join(p.dir, '.steward')), 'nothing written');

    writeFileSync(join(p.dir, 'dashboards', 'bad.yaml'), 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: {name: x}\nspec: {nme: 1}\n');
    const bad = await steward(['apply', '--auto-approve'], { cwd: p.dir });
    assert.is(bad.code, 1, bad.stdout + bad.stderr);
    assert.match(bad.stdout + bad.stderr, /dashboards\/bad\.yaml:4:8 {2}\/spec\/nme {2}error: unknown key "nme"/);
    assert.not.ok(existsSync(join(p.dir, '.steward')), 'nothing written');
  } finally {
    p.cleanup();
  }
});

test.run();
