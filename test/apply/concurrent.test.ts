/**
 * Applies that run at once (spawned: each is its own process, as two CI jobs would be). Needs dist/
 * (`npm run build`).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stewardSpawned, steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const NAMES = ['Checkout overview', 'JVM runtime', 'Public API latency'];
const names = (emu: { state(): { dashboards: Array<{ name: string }> } }) =>
  emu
    .state()
    .dashboards.map((d) => d.name)
    .sort();

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
      assert.match(
        refused.stderr,
        /another steward holds the lock .*state\.json\.lock: pid \d+ on this host, since \S+, running `steward apply --auto-approve`/,
      );
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
    assert.ok(
      [a, b].some((r) => r.stdout.includes('Nothing to apply.')),
      a.stdout + b.stdout,
    );
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
    writeFileSync(
      join(x.dir, '.steward/state.json.lock'),
      JSON.stringify({ pid: 99_999_999, host: hostname(), since: '2026-11-20T10:00:00.000Z', command: 'steward apply plan.json', nonce: 'n' }),
    );
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stderr, 'took over a stale lock');
    assert.match(r.stderr, 'pid 99999999');
    assert.not.ok(existsSync(join(x.dir, '.steward/state.json.lock')), 'released');
  } finally {
    await x.cleanup();
  }
});

test('a lock whose pid now belongs to a process started after it (a reused pid) is stale', async () => {
  const { existsSync, writeFileSync, mkdirSync } = await import('node:fs');
  if (!existsSync('/proc/self')) return; // only where /proc says when a process started
  const { join } = await import('node:path');
  const { hostname } = await import('node:os');
  const x = await examplesWithEmulator();
  try {
    mkdirSync(join(x.dir, '.steward'), { recursive: true });
    // This test process runs, but it started long after 2020: it cannot be the holder.
    writeFileSync(
      join(x.dir, '.steward/state.json.lock'),
      JSON.stringify({ pid: process.pid, host: hostname(), since: '2020-01-01T00:00:00.000Z', command: 'steward apply', nonce: 'old' }),
    );
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stderr, `took over a stale lock`);
  } finally {
    await x.cleanup();
  }
});

test('import writes files under the same lock: refused while an apply holds it, released after', async () => {
  const x = await examplesWithEmulator();
  try {
    const { writeFileSync, mkdirSync, existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { hostname } = await import('node:os');
    const a = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stderr);
    const lockPath = join(x.dir, '.steward/state.json.lock');
    mkdirSync(join(x.dir, '.steward'), { recursive: true });
    // A live holder: this very process.
    writeFileSync(
      lockPath,
      JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), command: 'steward apply --auto-approve', nonce: 'held' }),
    );
    const refused = await steward(['import', '--all', '--out', 'imported'], { cwd: x.dir, env: x.env });
    assert.is(refused.code, 1);
    assert.match(refused.stderr, `another steward holds the lock`);
    assert.not.ok(existsSync(join(x.dir, 'imported')), 'nothing written');
    const { rmSync } = await import('node:fs');
    rmSync(lockPath);
    const ok = await steward(['import', '--all', '--out', 'imported'], { cwd: x.dir, env: x.env });
    assert.is(ok.code, 0, ok.stderr);
    assert.not.ok(existsSync(lockPath), 'released');
  } finally {
    await x.cleanup();
  }
});

test('two copies of the project at once (no shared lock): the later copy of each dashboard is removed, both ids named', async () => {
  const { startEmulator } = await import('../../src/emulator/index.ts');
  const { tmpProject } = await import('../helpers/tmp.ts');
  const { copyExample } = await import('../helpers/project.ts');
  // Slow enough that both plan before either creates.
  const emu = await startEmulator({ api: 'hyperdx', seed: 5, latencyMs: 150 });
  const copies = [tmpProject({}), tmpProject({})];
  try {
    for (const c of copies) copyExample(c.dir, 'hyperdx');
    const env = { ...emu.env } as Record<string, string>;
    const runs = await Promise.all(copies.map((c) => stewardSpawned(['apply', '--auto-approve'], { cwd: c.dir, env })));
    const names = emu
      .state()
      .dashboards.map((d: { name: string }) => d.name)
      .sort();
    assert.equal(names, [...new Set(names)], `one dashboard per name: ${names.join(', ')}\n${runs.map((r) => r.stdout + r.stderr).join('\n')}`);
    const alertNames = emu
      .state()
      .alerts.map((a) => String((a as { name?: unknown }).name))
      .sort();
    assert.equal(alertNames, [...new Set(alertNames)], `one alert per name: ${alertNames.join(', ')}`);
    assert.ok(names.length > 0);
    const reported = runs.filter((r) => /dashboards are named/.test(r.stdout));
    if (reported.length > 0) {
      // Fails loudly: exit 1 and both ids.
      for (const r of reported) {
        assert.is(r.code, 1);
        assert.match(r.stdout, /2 dashboards are named "[^"]+" \(\S+, \S+\)/);
      }
      assert.ok(
        runs.some((r) => r.stdout.includes("removed this run's copy")),
        'the later runner removed its copy',
      );
    }
  } finally {
    await emu.close();
    for (const c of copies) c.cleanup();
  }
});

test('two copies of the project at once on the seed API (which cannot delete): a duplicate is never silent', async () => {
  const { cpSync } = await import('node:fs');
  const { tmpProject } = await import('../helpers/tmp.ts');
  const x = await examplesWithEmulator({ latencyMs: 150 });
  const second = tmpProject({});
  try {
    cpSync(x.dir, second.dir, { recursive: true });
    const runs = await Promise.all([x.dir, second.dir].map((dir) => stewardSpawned(['apply', '--auto-approve'], { cwd: dir, env: x.env })));
    const names = x.emu.state().dashboards.map((d: { name: string }) => d.name);
    const duplicated = names.length !== new Set(names).size;
    if (duplicated) {
      // Both ids named, exit 1: CI goes red instead of leaving a plan that is ambiguous for good.
      const loud = runs.filter((r) => /2 dashboards are named "[^"]+" \(\S+, \S+\)/.test(r.stdout));
      assert.ok(loud.length >= 1, runs.map((r) => r.stdout).join('\n'));
      for (const r of loud) assert.is(r.code, 1);
    } else {
      for (const r of runs) assert.is(r.code, 0, r.stdout + r.stderr);
    }
  } finally {
    await x.cleanup();
    second.cleanup();
  }
});

test.run();

test('a lock file committed to git (a pull request naming another host) is refused at once in one line, and left as it is', async () => {
  const x = await examplesWithEmulator();
  try {
    const { writeFileSync, mkdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { execFileSync } = await import('node:child_process');
    const git = (...args: string[]) => execFileSync('git', ['-C', x.dir, '-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { stdio: 'ignore' });
    const lockPath = join(x.dir, '.steward/state.json.lock');
    const text = JSON.stringify({ pid: 4242, host: 'ci-runner-elsewhere', since: '2026-11-20T10:00:00.000Z', command: 'steward apply', nonce: 'n' });
    mkdirSync(join(x.dir, '.steward'), { recursive: true });
    writeFileSync(lockPath, text);
    git('init', '-q');
    git('add', '-f', '.');
    git('commit', '-q', '-m', 'hostile');
    const r = await steward(['apply', '--auto-approve', '--lock-timeout', '30s'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 1, r.stderr);
    assert.match(r.stderr, `the lock ${lockPath} is committed to git`);
    assert.match(r.stderr, 'git rm --cached');
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.is(readFileSync(lockPath, 'utf8'), text);
    assert.is(x.emu.state().dashboards.length, 0, 'nothing applied');
  } finally {
    await x.cleanup();
  }
});
