/**
 * The parse cache through the built CLI: on by default for validate, plan and apply, off with --no-cache or
 * STEWARD_NO_CACHE=1, and documented in --help.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES, examplesWithEmulator } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PACK = '.steward/cache/parse.pack';

test('validate writes the cache by default, not with --no-cache or STEWARD_NO_CACHE=1; the output is the same', async () => {
  const p = tmpProject({});
  try {
    cpSync(EXAMPLES, p.dir, { recursive: true });
    // examples/ may hold a cache of its own (other tests validate it in place)
    rmSync(join(p.dir, '.steward'), { recursive: true, force: true });
    const off = await steward(['validate', '--no-cache'], { cwd: p.dir });
    assert.is(off.code, 0, off.stderr);
    assert.not.ok(existsSync(join(p.dir, PACK)));
    const envOff = await steward(['validate'], { cwd: p.dir, env: { STEWARD_NO_CACHE: '1' } });
    assert.is(envOff.code, 0, envOff.stderr);
    assert.not.ok(existsSync(join(p.dir, PACK)));
    const cold = await steward(['validate'], { cwd: p.dir });
    assert.ok(existsSync(join(p.dir, PACK)));
    const warm = await steward(['validate'], { cwd: p.dir });
    assert.is(warm.code, 0);
    assert.is(cold.stdout, off.stdout);
    assert.is(warm.stdout, off.stdout);
  } finally {
    p.cleanup();
  }
});

test('plan: the same plan cold, warm and with --no-cache', async () => {
  const x = await examplesWithEmulator();
  try {
    rmSync(join(x.dir, '.steward'), { recursive: true, force: true });
    const run = async (args: string[]) => {
      const r = await steward(['plan', '--format', 'json', ...args], { cwd: x.dir, env: x.env });
      assert.is(r.code, 0, r.stderr);
      const { createdAt: _t, ...plan } = JSON.parse(r.stdout) as Record<string, unknown>;
      return plan;
    };
    const off = await run(['--no-cache']);
    assert.not.ok(existsSync(join(x.dir, PACK)));
    const cold = await run([]);
    assert.ok(existsSync(join(x.dir, PACK)));
    const warm = await run([]);
    assert.equal(cold, off);
    assert.equal(warm, off);
  } finally {
    await x.cleanup();
  }
});

test('apply --no-cache plans afresh without the cache, as plan --no-cache does (it was an unknown option)', async () => {
  const x = await examplesWithEmulator();
  try {
    rmSync(join(x.dir, '.steward'), { recursive: true, force: true });
    const r = await steward(['apply', '--auto-approve', '--no-cache'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stderr);
    assert.not.ok(existsSync(join(x.dir, PACK)));
    const again = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(again.code, 0, again.stderr);
    assert.ok(existsSync(join(x.dir, PACK)));
  } finally {
    await x.cleanup();
  }
});

test('--help of validate, plan and apply documents --no-cache', async () => {
  for (const cmd of ['validate', 'plan', 'apply']) {
    const r = await steward([cmd, '--help']);
    assert.is(r.code, 0);
    assert.match(r.stdout, '--cache');
    assert.match(r.stdout, '--no-cache');
    assert.match(r.stdout, 'STEWARD_NO_CACHE=1');
  }
});

test.run();
