/**
 * A lock file naming pid 0 or -1 (by hand, or another tool): `process.kill(0, 0)` asks about this process's
 * own group and `process.kill(-1, 0)` about every process, so the holder always looked alive and every apply
 * was refused as locked by "pid 0 on this host" until the file was found and removed (red team, round 18).
 * No process has such a pid: the lock is stale and is taken over.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { DASH, ENV, project } from './project-files.ts';

for (const pid of [0, -1]) {
  test(`a lock naming pid ${pid} on this host is stale`, async () => {
    const emu = await startEmulator({ seed: 1 });
    const p = tmpProject({ 'steward.yaml': project('    timeoutSeconds: 2\n').replace('http://127.0.0.1:9', emu.url), 'dashboards/d.yaml': DASH });
    try {
      mkdirSync(join(p.dir, '.steward'), { recursive: true });
      const since = new Date(Date.now() - 60_000).toISOString();
      writeFileSync(join(p.dir, '.steward/state.json.lock'), JSON.stringify({ pid, host: hostname(), since, command: 'apply', nonce: 'n'.repeat(16) }));
      const r = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: { ...ENV(p.dir), ...(emu.env as Record<string, string>) } });
      assert.is(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /took over a stale lock/);
    } finally {
      await emu.close();
      p.cleanup();
    }
  });
}

test.run();
