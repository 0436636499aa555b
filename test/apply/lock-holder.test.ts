/**
 * Whether the process named in a lock is its holder: decided by when that process started (clock ticks since
 * boot, Linux), not by the wall clock or the times of /proc/<pid>. Needs dist/ (`npm run build`).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const LINUX_PROC = existsSync('/proc/self/stat');

/** Node's Date an hour behind the system clock: the clock was stepped back after the process started. */
const CLOCK_BACK = `const Real = Date;
const shift = -3_600_000;
globalThis.Date = class extends Real {
  constructor(...a) { if (a.length === 0) super(Real.now() + shift); else super(...a); }
  static now() { return Real.now() + shift; }
};
`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a live holder whose lock says a time before its /proc entry (the clock stepped back) keeps the lock: the second apply is refused', async () => {
  if (!LINUX_PROC) return; // the liveness check is the pid alone elsewhere
  const x = await examplesWithEmulator();
  // The holder's requests go to a server that accepts and never answers, so it holds the lock until stopped.
  const sockets: Socket[] = [];
  const blackHole = createServer((s) => void sockets.push(s));
  await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
  const port = (blackHole.address() as { port: number }).port;
  let holder: ReturnType<typeof spawn> | undefined;
  try {
    // The environment `hang` only points elsewhere: it shares the state file, so its lock.
    const project = join(x.dir, 'steward.yaml');
    writeFileSync(project, readFileSync(project, 'utf8') + `    hang:\n      observability:\n        url: http://127.0.0.1:${port}\n`);
    const shim = join(x.dir, '.clock-back.mjs');
    writeFileSync(shim, CLOCK_BACK);
    holder = spawn(process.execPath, [BIN, 'apply', '--auto-approve', '--env', 'hang'], {
      cwd: x.dir,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...x.env, NODE_OPTIONS: `--import=${pathToFileURL(shim).href}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let holderErr = '';
    holder.stderr!.setEncoding('utf8').on('data', (d: string) => (holderErr += d));
    const exited = new Promise<number | null>((r) => holder!.on('close', r));
    const lockPath = join(x.dir, '.steward/state.json.lock');
    // Held once the lock names it and its first request has reached the server.
    while (!(existsSync(lockPath) && readFileSync(lockPath, 'utf8').includes(`"pid":${holder.pid},`) && sockets.length > 0)) {
      assert.is(holder.exitCode, null, `the holder ended: ${holderErr}`);
      await sleep(50);
    }
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, `another steward holds the lock ${lockPath}: pid ${holder.pid} on this host`);
    assert.not.match(r.stderr, 'took over');
    assert.is(x.emu.state().dashboards.length, 0, 'nothing applied beside the holder');
    holder.kill('SIGTERM');
    await exited;
    holder = undefined;
    assert.not.ok(existsSync(lockPath), 'the holder released its lock');
  } finally {
    if (holder?.pid !== undefined) process.kill(holder.pid, 'SIGKILL');
    for (const s of sockets) s.destroy();
    await new Promise((r) => blackHole.close(r));
    await x.cleanup();
  }
});

test('a lock naming a live pid that started at another time than the lock says (a reused pid) is stale', async () => {
  if (!LINUX_PROC) return;
  const x = await examplesWithEmulator();
  try {
    mkdirSync(join(x.dir, '.steward'), { recursive: true });
    // This test process runs, and its lock says "now", but it did not start at tick 1 after boot.
    writeFileSync(
      join(x.dir, '.steward/state.json.lock'),
      JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), command: 'steward apply', nonce: 'old', started: '1' }),
    );
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stderr, `took over a stale lock`);
  } finally {
    await x.cleanup();
  }
});

test.run();
