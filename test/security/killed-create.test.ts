/**
 * An apply killed (kill -9) while its create was on the wire, and the next apply started at once: the
 * killed run's create may still be committed by the service after its client is gone (a server finishes a
 * request whose connection closed; a gateway had already passed it on). The next apply took over the stale
 * lock and listed at once, saw no dashboard of the name, and created it again: two dashboards of one name,
 * for good on the seed API, which has no delete (red team, round 15). Now it waits the settle window for the
 * killed run's creates whose outcome nobody learned, as the killed run itself would have, then plans.
 */
import type { ChildProcess } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward, stewardSpawned } from '../helpers/exec.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { DASH, ENV, project } from './project-files.ts';

test('an apply killed mid-create, the next one started at once: the late commit is waited for, no second dashboard', async () => {
  const emu = await startEmulator({ seed: 1 });
  let child: ChildProcess | undefined;
  let killedAt: number | undefined;
  let listedAfterKill: (() => void) | undefined;
  const listed = new Promise<void>((r) => (listedAfterKill = r));
  let secondStarted: (() => void) | undefined;
  const started = new Promise<void>((r) => (secondStarted = r));
  const proxy = await startProxy(emu.url, {
    intercept: async (req, path) => {
      if (req.method !== 'POST' || path !== '/api/v2/dashboards' || killedAt !== undefined) return undefined;
      // GIVEN the first create on the wire WHEN its apply is killed THEN the service still commits it, a
      // moment later: once the next apply has read the list, or 3 s after it started.
      killedAt = Date.now();
      child?.kill('SIGKILL');
      await Promise.race([listed, started.then(() => new Promise((r) => setTimeout(r, 3000)))]);
      return undefined; // forwarded: the emulator makes the dashboard
    },
    rewrite: (req, path, _status, text) => {
      if (req.method === 'GET' && path === '/api/v2/dashboards' && killedAt !== undefined) listedAfterKill?.();
      return text;
    },
  });
  const p = tmpProject({ 'steward.yaml': project('    timeoutSeconds: 5\n').replace('http://127.0.0.1:9', proxy.url), 'dashboards/d.yaml': DASH });
  try {
    const env = { ...ENV(p.dir), ...(emu.env as Record<string, string>) };
    const first = await stewardSpawned(['apply', '--auto-approve'], { cwd: p.dir, env, onChild: (c) => (child = c) });
    assert.is(first.code, null, first.stdout + first.stderr); // killed
    assert.ok(killedAt !== undefined, 'the first apply sent its create');
    secondStarted?.();
    const second = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    const named = (emu.state().dashboards as Array<{ name: string }>).filter((d) => d.name === 'D');
    assert.is(named.length, 1, `${named.length} dashboards named D\n${second.stdout}${second.stderr}`);
    assert.is(second.code, 0, second.stdout + second.stderr);
    assert.match(second.stderr, /took over a stale lock/);
    assert.match(second.stderr, /waiting \d+ s before planning: the killed run sent 1 create whose outcome it never learned/);
    assert.match(second.stdout, /unchanged|Nothing to apply/i);
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
