/**
 * Applies that run at once (spawned: each is its own process, as two CI jobs would be). Needs dist/
 * (`npx tsc -p tsconfig.build.json`).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stewardSpawned, steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const NAMES = ['Checkout overview', 'JVM runtime', 'Public API latency'];
const names = (emu: { state(): { dashboards: Array<{ name: string }> } }) => emu.state().dashboards.map((d) => d.name).sort();

test('two applies at once in one folder: one applies, the other refuses naming the holder; one dashboard per name', async () => {
  const x = await examplesWithEmulator({ latencyMs: 100 });
  try {
    const [a, b] = await Promise.all([
      stewardSpawned(['apply', '--auto-approve'], { cwd: x.dir, env: x.env }),
      stewardSpawned(['apply', '--auto-approve'], { cwd: x.dir, env: x.env }),
    ]);
    const codes = [a.code, b.code].sort();
    assert.equal(names(x.emu), NAMES, a.stdout + a.stderr + b.stdout + b.stderr);
    const refused = [a, b].find((r) => r.code === 1);
    if (refused) {
      assert.equal(codes, [0, 1]);
      assert.match(refused.stderr, /another steward holds the lock .*state\.json\.lock: pid \d+ on this host, since \S+, running `steward apply --auto-approve`/);
      assert.is(refused.stderr.trim().split('\n').length, 1, refused.stderr);
    } else {
      // The second started after the first had finished: nothing left to do.
      assert.equal(codes, [0, 0]);
    }
  } finally {
    await x.cleanup();
  }
});

test('with --lock-timeout the second waits, then finds nothing to do', async () => {
  const x = await examplesWithEmulator({ latencyMs: 50 });
  try {
    const [a, b] = await Promise.all([
      stewardSpawned(['apply', '--auto-approve', '--lock-timeout', '60s'], { cwd: x.dir, env: x.env }),
      stewardSpawned(['apply', '--auto-approve', '--lock-timeout', '60s'], { cwd: x.dir, env: x.env }),
    ]);
    assert.is(a.code, 0, a.stderr);
    assert.is(b.code, 0, b.stderr);
    assert.ok([a, b].some((r) => r.stdout.includes('Nothing to apply.')), a.stdout + b.stdout);
    assert.equal(names(x.emu), NAMES);
  } finally {
    await x.cleanup();
  }
});

test('a lock left by a killed apply is named and taken over', async () => {
  const x = await examplesWithEmulator();
  try {
    const { writeFileSync, mkdirSync, existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { hostname } = await import('node:os');
    mkdirSync(join(x.dir, '.steward'), { recursive: true });
    // A pid that cannot be running: above the kernel's pid_max.
    writeFileSync(join(x.dir, '.steward/state.json.lock'), JSON.stringify({ pid: 99_999_999, host: hostname(), since: '2026-11-20T10:00:00.000Z', command: 'steward apply plan.json', nonce: 'n' }));
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stderr, 'took over a stale lock');
    assert.match(r.stderr, 'pid 99999999');
    assert.not.ok(existsSync(join(x.dir, '.steward/state.json.lock')), 'released');
  } finally {
    await x.cleanup();
  }
});

test.run();
