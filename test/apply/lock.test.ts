import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, LockedError, parseDuration, type LockEnv } from '../../src/apply/lock.ts';
import { CliError } from '../../src/errors.ts';
import { tmpProject } from '../helpers/tmp.ts';

function env(over: Partial<LockEnv> = {}): LockEnv {
  return {
    pid: 1000,
    host: 'runner-a',
    command: 'steward apply --auto-approve',
    now: () => new Date(),
    isAlive: () => true,
    isTracked: () => false,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    ...over,
  };
}

test('the lock is an exclusive file holding pid, host, start time and command; release removes it', async () => {
  const p = tmpProject({});
  try {
    const path = join(p.dir, '.steward', 'state.json.lock');
    const lock = await acquireLock(path, env(), { timeoutMs: 0 });
    const held = JSON.parse(readFileSync(path, 'utf8'));
    assert.is(held.pid, 1000);
    assert.is(held.host, 'runner-a');
    assert.is(held.command, 'steward apply --auto-approve');
    assert.ok(!Number.isNaN(Date.parse(held.since)));
    lock.release();
    assert.not.ok(existsSync(path));
    lock.release();
  } finally {
    p.cleanup();
  }
});

test('release removes the folders the lock made while they are empty, and no folder that held anything or was there before', async () => {
  const p = tmpProject({});
  try {
    // Made by the lock, nothing else written: a run stopped before it wrote anything leaves no trace.
    const deep = join(p.dir, '.steward', 'ci', 'state.json.lock');
    const a = await acquireLock(deep, env(), { timeoutMs: 0 });
    a.release();
    assert.not.ok(existsSync(join(p.dir, '.steward')), 'the folders the lock made are gone');

    // Made by the lock, then the run wrote its state: kept, and its parent too.
    const b = await acquireLock(deep, env(), { timeoutMs: 0 });
    writeFileSync(join(p.dir, '.steward', 'ci', 'state.json'), '{}');
    b.release();
    assert.ok(existsSync(join(p.dir, '.steward', 'ci', 'state.json')));

    // There before the lock, empty: kept.
    mkdirSync(join(p.dir, 'kept'));
    const c = await acquireLock(join(p.dir, 'kept', 'state.json.lock'), env(), { timeoutMs: 0 });
    c.release();
    assert.ok(existsSync(join(p.dir, 'kept')));
  } finally {
    p.cleanup();
  }
});

test("a taker whose folder another run's release removed makes it again", async () => {
  const p = tmpProject({});
  try {
    const path = join(p.dir, '.steward', 'state.json.lock');
    const first = await acquireLock(path, env(), { timeoutMs: 1000 });
    // The second waits on the first; the first's release removes the empty folder it made.
    const second = acquireLock(path, env({ pid: 2000 }), { timeoutMs: 1000 });
    await new Promise((r) => setTimeout(r, 150));
    first.release();
    const lock = await second;
    assert.is(JSON.parse(readFileSync(path, 'utf8')).pid, 2000);
    lock.release();
  } finally {
    p.cleanup();
  }
});

test('a second taker is refused at once with one line naming the holder', async () => {
  const p = tmpProject({});
  try {
    const path = join(p.dir, 'state.json.lock');
    const first = await acquireLock(path, env(), { timeoutMs: 0 });
    try {
      await acquireLock(path, env({ pid: 2000 }), { timeoutMs: 0 });
      assert.unreachable('the second taker got the lock');
    } catch (e) {
      assert.instance(e, LockedError);
      const msg = (e as Error).message;
      assert.not.match(msg, '\n');
      assert.match(msg, 'pid 1000 on this host');
      assert.match(msg, first.owner.since);
      assert.match(msg, '`steward apply --auto-approve`');
      assert.is((e as LockedError).exitCode, 1);
    }
    // A holder on another host cannot be checked: it is named with its host and the way out.
    const other = await acquireLock(path, env({ pid: 3000, host: 'runner-b' }), { timeoutMs: 0 }).catch((e: Error) => e);
    assert.instance(other, LockedError);
    assert.match((other as Error).message, 'pid 1000 on runner-a');
    assert.match((other as Error).message, `delete ${path}`);
    first.release();
  } finally {
    p.cleanup();
  }
});

test('--lock-timeout waits for the holder to finish', async () => {
  const p = tmpProject({});
  try {
    const path = join(p.dir, 'state.json.lock');
    const first = await acquireLock(path, env(), { timeoutMs: 0 });
    setTimeout(() => first.release(), 150);
    const second = await acquireLock(path, env({ pid: 2000 }), { timeoutMs: 5_000 });
    assert.is(JSON.parse(readFileSync(path, 'utf8')).pid, 2000);
    second.release();
    // And gives up with the holder's name once the wait is over.
    const third = await acquireLock(path, env({ pid: 3000 }), { timeoutMs: 0 });
    const refused = await acquireLock(path, env({ pid: 4000 }), { timeoutMs: 120 }).catch((e: Error) => e);
    assert.instance(refused, LockedError);
    assert.match((refused as Error).message, 'pid 3000');
    third.release();
  } finally {
    p.cleanup();
  }
});

test('a stale lock of a dead process on this host is named and taken over; only one of two takers gets it', async () => {
  const p = tmpProject({});
  try {
    const path = join(p.dir, 'state.json.lock');
    writeFileSync(path, JSON.stringify({ pid: 4242, host: 'runner-a', since: '2026-11-20T10:00:00.000Z', command: 'steward apply plan.json', nonce: 'dead' }));
    const dead = (pid: number) => pid !== 4242;
    const results = await Promise.allSettled([
      acquireLock(path, env({ pid: 1, isAlive: dead }), { timeoutMs: 0 }),
      acquireLock(path, env({ pid: 2, isAlive: dead }), { timeoutMs: 0 }),
    ]);
    const won = results.filter((r) => r.status === 'fulfilled');
    assert.is(won.length, 1, 'exactly one taker holds the lock');
    const lock = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireLock>>>).value;
    assert.is(lock.tookOverFrom?.pid, 4242);
    assert.is(lock.tookOverFrom?.command, 'steward apply plan.json');
    assert.is(JSON.parse(readFileSync(path, 'utf8')).pid, lock.owner.pid);
    lock.release();
  } finally {
    p.cleanup();
  }
});

test('a lock file caught between its create and its write is read again, so the refusal names the holder', async () => {
  const p = tmpProject({});
  try {
    const path = join(p.dir, 'state.json.lock');
    writeFileSync(path, '');
    setTimeout(
      () => writeFileSync(path, JSON.stringify({ pid: 77, host: 'runner-a', since: '2026-11-24T12:00:00.000Z', command: 'steward apply', nonce: 'n' })),
      50,
    );
    const refused = await acquireLock(path, env(), { timeoutMs: 0 }).catch((e: Error) => e);
    assert.instance(refused, LockedError);
    assert.match((refused as Error).message, 'pid 77 on this host');
  } finally {
    p.cleanup();
  }
});

test('release leaves a lock that is no longer its own', async () => {
  const p = tmpProject({});
  try {
    const path = join(p.dir, 'state.json.lock');
    const lock = await acquireLock(path, env(), { timeoutMs: 0 });
    writeFileSync(path, JSON.stringify({ pid: 9, host: 'runner-a', since: 'x', command: 'other', nonce: 'other' }));
    lock.release();
    assert.ok(existsSync(path));
  } finally {
    p.cleanup();
  }
});

test('a lock that is a link or not a regular file (committed to /dev/zero, a fifo, nowhere) is refused in one line, never read', async () => {
  const p = tmpProject({});
  try {
    const fifo = join(p.dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const CASES: Array<[string, (path: string) => void, string]> = [
      ['a link to /dev/zero', (path) => symlinkSync('/dev/zero', path), 'is a symbolic link'],
      ['a link to a fifo', (path) => symlinkSync(fifo, path), 'is a symbolic link'],
      ['a dangling link', (path) => symlinkSync(join(p.dir, 'nowhere'), path), 'is a symbolic link'],
      ['a fifo', (path) => execFileSync('mkfifo', [path]), 'is not a regular file'],
      ['a folder', (path) => mkdirSync(path), 'is not a regular file'],
    ];
    for (const [i, [name, plant, says]] of CASES.entries()) {
      const path = join(p.dir, `state-${i}.json.lock`);
      plant(path);
      const e = await acquireLock(path, env(), { timeoutMs: 0 }).catch((x: Error) => x);
      assert.instance(e, CliError, name);
      assert.match((e as Error).message, `the lock ${path} ${says}`, name);
      assert.not.match((e as Error).message, '\n');
    }
  } finally {
    p.cleanup();
  }
});

test('a lock file that git tracks is refused at once in one line saying it is committed, never waited for, taken over or removed', async () => {
  const p = tmpProject({});
  try {
    const path = join(p.dir, '.steward', 'state.json.lock');
    const CASES: Array<[string, string]> = [
      // A hostile pull request's lock naming another host: waited for and refused for ever before.
      ['another host', JSON.stringify({ pid: 1, host: 'elsewhere', since: '2026-01-01T00:00:00.000Z', command: 'steward apply', nonce: 'x' }) + '\n'],
      // One of this host naming a dead pid: taken over (the tracked file deleted from the checkout) before.
      ['a dead pid here', JSON.stringify({ pid: 999999, host: 'runner-a', since: '2026-01-01T00:00:00.000Z', command: 'steward apply', nonce: 'x' }) + '\n'],
      ['unreadable', 'not json'],
    ];
    for (const [name, text] of CASES) {
      mkdirSync(join(p.dir, '.steward'), { recursive: true });
      writeFileSync(path, text);
      const trackedEnv = env({ isAlive: () => false, isTracked: (f) => f === path });
      const started = Date.now();
      const e = await acquireLock(path, trackedEnv, { timeoutMs: 10_000 }).catch((x: Error) => x);
      assert.ok(Date.now() - started < 2_000, `${name}: waited for a committed lock`);
      assert.instance(e, LockedError, name);
      const msg = (e as Error).message;
      assert.not.match(msg, '\n', name);
      assert.match(msg, `the lock ${path} is committed to git`, name);
      assert.match(msg, 'git rm --cached', name);
      assert.is(readFileSync(path, 'utf8'), text, `${name}: the committed file was changed`);
    }
    // A lock git does not track is still a lock: refused as held, with the holder named.
    const held = await acquireLock(path, env({ isTracked: () => false }), { timeoutMs: 0 }).catch((x: Error) => x);
    assert.instance(held, LockedError);
    assert.not.match((held as Error).message, 'committed');
  } finally {
    p.cleanup();
  }
});

test('durations', () => {
  assert.is(parseDuration('30s'), 30_000);
  assert.is(parseDuration('2m'), 120_000);
  assert.is(parseDuration('500ms'), 500);
  assert.is(parseDuration('0'), 0);
  assert.is(parseDuration('1.5'), 1500);
  assert.is(parseDuration('soon'), undefined);
});

test.run();
