/**
 * `steward import` as the way out of drift on hyperdx, for a file whose tiles name their source
 * (`source: Logs`). The rewrite checks its result by planning it, but planned the file without resolving the
 * source names, so every named source read as different from the live id: every rewrite said "the file still
 * differs from the live dashboard after the rewrite", and the server's defaults it had written while syncing
 * (`valueExpression: ""`, `where: ""`, `whereLanguage: lucene`) were kept in the file instead of undone.
 */
import { lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

test('hyperdx: import --name rewrites a drifted file with source names in place, only what differs, without a false warning', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  try {
    copyExample(p.dir, 'hyperdx');
    const env = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
    const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    const f = join(p.dir, 'dashboards', 'checkout.yaml');
    const original = readFileSync(f, 'utf8');
    // The file drifts from the live dashboard: the first tile is narrower.
    writeFileSync(f, original.replace('      w: 8\n', '      w: 7\n'));
    const imp = await steward(['import', '--name', 'Checkout overview (HyperDX)'], { cwd: p.dir, env });
    assert.is(imp.code, 0, imp.stdout + imp.stderr);
    assert.match(imp.stdout, '~ dashboards/checkout.yaml  ← "Checkout overview (HyperDX)"');
    assert.match(imp.stdout, ': 1 field rewritten in place');
    assert.not.match(imp.stdout, 'still differs');
    assert.is(readFileSync(f, 'utf8'), original);
    const plan = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test('import rewrites a resource file that is a link where it leads, and keeps the link', async () => {
  // GIVEN dashboards/checkout.yaml is a link to shared/checkout.yaml (inside the project) and the file drifts
  // WHEN import rewrites it THEN shared/checkout.yaml gets the change and the link stays. Before, the link was
  // replaced by a rewritten copy and shared/checkout.yaml kept the drift, while import said "in place".
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  try {
    copyExample(p.dir, 'hyperdx');
    const env = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
    assert.is((await steward(['apply', '--auto-approve'], { cwd: p.dir, env })).code, 0);
    const link = join(p.dir, 'dashboards', 'checkout.yaml');
    const shared = join(p.dir, 'shared', 'checkout.yaml');
    const original = readFileSync(link, 'utf8');
    mkdirSync(join(p.dir, 'shared'));
    writeFileSync(shared, original.replace('      w: 8\n', '      w: 7\n'));
    rmSync(link);
    symlinkSync('../shared/checkout.yaml', link);
    const imp = await steward(['import', '--name', 'Checkout overview (HyperDX)'], { cwd: p.dir, env });
    assert.is(imp.code, 0, imp.stdout + imp.stderr);
    assert.match(imp.stdout, ': 1 field rewritten in place');
    assert.ok(lstatSync(link).isSymbolicLink(), 'the link is kept');
    assert.is(readFileSync(shared, 'utf8'), original);
    assert.is((await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env })).code, 0);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
