import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { confirmedEntries, parseJournal } from '../../src/apply/journal.ts';
import { BIN, steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

test('plan → apply → plan is empty (--detailed-exitcode 0) for examples/', async () => {
  const x = await examplesWithEmulator();
  try {
    const fast = { ...x.env };
    const a = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: fast });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, 'Apply complete: 3 created, 4 updated, 0 unchanged, 0 failed, 0 skipped.');
    const p = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: fast });
    assert.is(p.code, 0, p.stdout);
    assert.match(p.stdout, '0 to create, 0 to update, 0 blocked, 7 unchanged');
    const journal = confirmedEntries(parseJournal(readFileSync(join(x.dir, '.steward/journal.jsonl'), 'utf8')));
    assert.equal(journal.map((j) => j.op).sort(), [
      'alert.update',
      'alert.update',
      'alert.update',
      'alert.update',
      'dashboard.create',
      'dashboard.create',
      'dashboard.create',
    ]);
    const state = JSON.parse(readFileSync(join(x.dir, '.steward/state.json'), 'utf8'));
    assert.is(Object.keys(state.alerts).length, 4);
    // A second apply has nothing to do and writes nothing.
    x.emu.clearRequests();
    const again = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: fast });
    assert.is(again.code, 0);
    assert.match(again.stdout, 'Nothing to apply.');
    assert.equal(
      x.emu.requests().map((r) => r.method),
      ['GET'],
    );
  } finally {
    await x.cleanup();
  }
});

test('a stale saved plan is refused before any write', async () => {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0);
    // Someone creates a dashboard by hand in between.
    const res = await fetch(`${x.emu.url}/api/v2/dashboards`, {
      method: 'POST',
      headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Made by hand' }),
    });
    assert.is(res.status, 200);
    x.emu.clearRequests();
    const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 1);
    assert.match(a.stderr, 'plan is stale');
    assert.match(a.stderr, 'run `steward plan` again');
    assert.equal(
      x.emu.requests().map((r) => r.method),
      ['GET'],
      'only the re-read, no write',
    );
  } finally {
    await x.cleanup();
  }
});

test('a saved plan applies without asking; apply without a plan and without a terminal needs --auto-approve', async () => {
  const x = await examplesWithEmulator();
  try {
    const no = await steward(['apply'], { cwd: x.dir, env: x.env });
    assert.is(no.code, 1);
    assert.match(no.stderr, 'apply needs --auto-approve when not run in a terminal');
    assert.equal(
      x.emu.requests().filter((r) => r.method !== 'GET'),
      [],
    );
    await steward(['plan', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    const a = await steward(['apply', 'plan.json', '--format', 'json'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stderr);
    const r = JSON.parse(a.stdout);
    assert.is(r.ok, true);
    assert.is(r.created.length, 3);
    assert.is(r.updated.length, 4);
  } finally {
    await x.cleanup();
  }
});

test('a file that is not a plan is one clear line', async () => {
  const x = await examplesWithEmulator();
  try {
    writeFileSync(join(x.dir, 'bad.json'), '{"hello": 1}');
    const a = await steward(['apply', 'bad.json'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 1);
    assert.match(a.stderr, 'bad.json is not a steward plan');
    const b = await steward(['apply', 'missing.json'], { cwd: x.dir, env: x.env });
    assert.match(b.stderr, 'no such file');
  } finally {
    await x.cleanup();
  }
});

test('killed in the middle of an apply: state and journal stay parseable and the next apply converges without a duplicate', async () => {
  // The next apply waits out the killed run's unanswered create (a request timeout and a settle window): 3 s.
  const x = await examplesWithEmulator({ latencyMs: 150, timeoutSeconds: 3 });
  try {
    const journalPath = join(x.dir, '.steward/journal.jsonl');
    // Kill it after its first confirmed write, with the others in flight.
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'apply', '--auto-approve', '--concurrency', '1'], {
        cwd: x.dir,
        env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...x.env },
        stdio: 'ignore',
      });
      const timer = setInterval(() => {
        if (existsSync(journalPath) && readFileSync(journalPath, 'utf8').includes('\n')) {
          child.kill('SIGKILL');
        }
      }, 10);
      child.on('exit', () => {
        clearInterval(timer);
        resolve();
      });
      child.on('error', reject);
    });
    const firstRun = parseJournal(readFileSync(journalPath, 'utf8'));
    assert.ok(firstRun.length >= 1 && firstRun.length < 7, `the kill landed mid-apply (${firstRun.length} writes)`);
    const statePath = join(x.dir, '.steward/state.json');
    if (existsSync(statePath)) JSON.parse(readFileSync(statePath, 'utf8'));
    const a = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    const p = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stdout);
    assert.equal(
      x.emu
        .state()
        .dashboards.map((d: { name: string }) => d.name)
        .sort(),
      ['Checkout overview', 'JVM runtime', 'Public API latency'],
    );
  } finally {
    await x.cleanup();
  }
});

test.run();
