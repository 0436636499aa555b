/**
 * A new project's first import: `steward init` leaves `alerts/**` out of spec.resources until the first alert,
 * and `import --all` writes the service's alerts into alerts/. Those files were read by nothing (validate, plan
 * and apply did not see them) while import said "plan now shows them as unchanged". It now names them and the
 * pattern to add; with --out (a folder of copies by choice) it says nothing.
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
    // --out writes copies by choice, outside spec.resources: nothing is said.
    const again = await steward(['import', '--all', '--out', 'copies'], { cwd: dir, env });
    assert.is(again.code, 0, again.stdout + again.stderr);
    assert.not.match(again.stdout, 'spec.resources');
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
