/**
 * A new project's first import: `steward init` leaves `alerts/**` out of spec.resources until the first alert,
 * and `import --all` writes the service's alerts into alerts/. Those files were read by nothing (validate, plan
 * and apply did not see them) while import said "plan now shows them as unchanged". It now names them and the
 * pattern to add. With --out (a folder of copies by choice) it said the same "plan now shows them as
 * unchanged", true of neither case: a folder spec.resources does not read (plan never sees the copies), or one
 * it reads (validate then refuses every dashboard declared twice). Each is now said as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

test('import after init: alert files spec.resources does not read are named, with the pattern to add', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  try {
    const env = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
    const init = await steward(['init', 'obs', '--api', 'hyperdx'], { cwd: p.dir });
    assert.is(init.code, 0, init.stdout + init.stderr);
    const dir = join(p.dir, 'obs');
    // The client's rate limit raised from the real service's, so the test does not wait on it.
    const project = join(dir, 'steward.yaml');
    writeFileSync(project, readFileSync(project, 'utf8').replace(/requestsPerMinute: \d+/, 'requestsPerMinute: 6000'));
    const imp = await steward(['import', '--all'], { cwd: dir, env });
    assert.is(imp.code, 0, imp.stdout + imp.stderr);
    assert.match(imp.stdout, '+ alerts/error-spike-saved-search.yaml');
    assert.match(
      imp.stdout,
      'warning: the project\'s spec.resources reads none of these 2 files: alerts/error-spike-saved-search.yaml, alerts/slow-requests-saved-search.yaml; validate, plan and apply do not see them until it does: add "alerts/**/*.yaml" to spec.resources\n',
    );
    assert.match(imp.stdout, 'plan now shows them as unchanged once spec.resources reads them');
    // What the warning says is so: validate reads no alert until the pattern is added.
    const before = await steward(['validate'], { cwd: dir });
    assert.match(before.stdout, /\(1 dashboard\)/);
    const f = join(dir, 'steward.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace(/ {4}# - alerts\/\*\*\/\*\.yaml.*\n/, '    - alerts/**/*.yaml\n'));
    const after = await steward(['validate'], { cwd: dir });
    assert.is(after.code, 0, after.stdout + after.stderr);
    assert.match(after.stdout, /2 alerts/);
    // The project's dashboard live, so --out has a declared dashboard to copy.
    const applied = await steward(['apply', '--auto-approve'], { cwd: dir, env });
    assert.is(applied.code, 0, applied.stdout + applied.stderr);
    // --out outside spec.resources: copies by choice, said in a note, with no promise about plan.
    const again = await steward(['import', '--all', '--out', 'copies'], { cwd: dir, env });
    assert.is(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /^note: spec\.resources reads none of these 3 files \(copies\/[a-z-]+\.yaml, .*\): validate, plan and apply do not see them$/m);
    assert.not.match(again.stdout, 'warning');
    assert.not.match(again.stdout, 'unchanged');
    // --out inside spec.resources: the dashboard's copy repeats dashboards/<name>.yaml, which validate refuses.
    const inside = await steward(['import', '--all', '--out', 'dashboards/again'], { cwd: dir, env });
    assert.is(inside.code, 0, inside.stdout + inside.stderr);
    const repeat =
      /^warning: (dashboards\/again\/[a-z-]+\.yaml) declares again what (dashboards\/[a-z-]+\.yaml) declares, and spec\.resources reads both/m.exec(
        inside.stdout,
      );
    assert.ok(repeat, inside.stdout);
    assert.not.match(inside.stdout, 'unchanged');
    const refused = await steward(['validate'], { cwd: dir });
    assert.is(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stdout, `first at ${repeat[1]}`);
    assert.match(refused.stdout, repeat[2]!);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
