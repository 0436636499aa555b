import { type ChildProcess, type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN, steward, stewardSpawned } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { basic, cloud, obs } from './http.ts';

interface Running {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<number | null>;
}

/** Spawns `steward emulator ...` and resolves once it printed its URL (it runs until killed). */
function spawnEmulator(args: string[]): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'emulator', ...args], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    const exit = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no URL printed in 10 s; stdout: ${out}; stderr: ${err}`));
    }, 10_000);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('Stop with Ctrl-C')) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => out, stderr: () => err, exit });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    void exit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code} before listening; stderr: ${err}`));
    });
  });
}

test('steward emulator --port 0 prints its URL, credentials and env vars, serves, and stops on SIGTERM with 0', async () => {
  const emu = await spawnEmulator(['--port', '0', '--seed', '3', '--log-requests']);
  try {
    const out = emu.stdout();
    for (const line of [
      `export STEWARD_OBS_URL=${emu.url}`,
      `export STEWARD_CLOUD_URL=${emu.url}`,
      'export STEWARD_OBS_TOKEN=dev-token',
      'export STEWARD_CLOUD_KEY_ID=dev-key',
      'export STEWARD_CLOUD_KEY_SECRET=dev-secret',
    ]) {
      assert.ok(out.includes(line), line);
    }
    assert.match(out, /Bearer auth, token dev-token/);
    assert.match(out, /faults\s+none \(seed 3\)/);
    const r = await obs(emu.url, 'GET', '/api/v2/dashboards');
    assert.is(r.status, 200);
    assert.equal(r.body, { data: [] });
    assert.is(
      (await cloud(emu.url, '/v1/organizations/6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31/services/9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d/backups', basic())).status,
      200,
    );
  } finally {
    emu.child.kill('SIGTERM');
  }
  assert.is(await emu.exit, 0);
  assert.match(emu.stdout(), /GET \/api\/v2\/dashboards 200 [\d.]+ ms bearer/);
  assert.match(emu.stderr(), /steward emulator stopped/);
});

test('flags reach the server: credentials, alert update mode, faults', async () => {
  const emu = await spawnEmulator([
    '--port',
    '0',
    '--token',
    'tok',
    '--key-id',
    'kid',
    '--key-secret',
    'ks',
    '--alert-update',
    'replace',
    '--rate-limit',
    '2',
    '--latency',
    '1',
  ]);
  try {
    assert.match(emu.stdout(), /export STEWARD_OBS_TOKEN=tok/);
    assert.match(emu.stdout(), /alert updates\s+replace/);
    assert.match(emu.stdout(), /latency 1 ms, rate limit 2\/min per credential/);
    assert.is((await obs(emu.url, 'GET', '/api/v2/dashboards')).status, 401);
    assert.is((await obs(emu.url, 'PUT', '/api/v2/alerts/65f5e4a3b9e77c001a000001', { threshold: 1 }, 'Bearer tok')).status, 400, 'replace wants every field');
    assert.is((await obs(emu.url, 'GET', '/api/v2/dashboards', undefined, 'Bearer tok')).status, 200);
    assert.is((await obs(emu.url, 'GET', '/api/v2/dashboards', undefined, 'Bearer tok')).status, 429, 'the third request of this token');
  } finally {
    emu.child.kill('SIGINT');
  }
  assert.is(await emu.exit, 0);
});

test('--api hyperdx and --api clickstack-cloud print their profile and the variables to export, and serve it', async () => {
  const hx = await spawnEmulator(['--port', '0', '--api', 'hyperdx', '--seed', '4']);
  try {
    const out = hx.stdout();
    assert.match(out, /api profile: hyperdx/);
    assert.match(out, /HyperDX external API v2, 2026-08-21/);
    assert.ok(out.includes(`export STEWARD_OBS_URL=${hx.url}`));
    assert.ok(out.includes('export STEWARD_OBS_TOKEN=dev-token'));
    assert.not.match(out, /STEWARD_CLICKSTACK_/);
    const r = await obs(hx.url, 'GET', '/api/v2/webhooks');
    assert.equal(
      r.body.data.map((w: { name: string }) => w.name),
      ['ops-pager', 'slack-sre'],
    );
  } finally {
    hx.child.kill('SIGTERM');
  }
  assert.is(await hx.exit, 0);

  const cs = await spawnEmulator(['--port', '0', '--api', 'clickstack-cloud']);
  const org = '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31';
  const svc = '9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d';
  try {
    const out = cs.stdout();
    assert.match(out, /api profile: clickstack-cloud/);
    for (const line of [
      `export STEWARD_CLOUD_URL=${cs.url}`,
      'export STEWARD_CLOUD_KEY_ID=dev-key',
      'export STEWARD_CLOUD_KEY_SECRET=dev-secret',
      `export STEWARD_CLICKSTACK_ORGANIZATION_ID=${org}`,
      `export STEWARD_CLICKSTACK_SERVICE_ID=${svc}`,
    ]) {
      assert.ok(out.includes(line), line);
    }
    assert.ok(out.includes(`${cs.url}/v1/organizations/${org}/services/${svc}/clickstack`));
    const r = await cloud(cs.url, `/v1/organizations/${org}/services/${svc}/clickstack/sources`);
    assert.equal(
      r.body.result.map((s: { name: string }) => s.name),
      ['Logs', 'Traces', 'Metrics'],
    );
  } finally {
    cs.child.kill('SIGTERM');
  }
  assert.is(await cs.exit, 0);
});

test('--print-seed follows --api', async () => {
  const hx = await steward(['emulator', '--api', 'hyperdx', '--print-seed']);
  assert.is(hx.code, 0);
  const data = JSON.parse(hx.stdout);
  assert.equal(
    data.sources.map((s: { name: string }) => s.name),
    ['Logs', 'Traces', 'Metrics'],
  );
  assert.equal(
    data.webhooks.map((w: { name: string }) => w.name),
    ['ops-pager', 'slack-sre'],
  );
  assert.equal(data.dashboards, []);
  assert.ok(data.alerts.length >= 2);
  assert.is(data.organizations[0].id, '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31');
});

test('bad flags are a clear error with exit 1', async () => {
  for (const [args, message] of [
    [['--port', 'abc'], /--port takes a decimal number, not "abc"/],
    [['--port', '70000'], /--port: must be an integer from 0 to 65535/],
    [['--fail-rate', '2'], /--fail-rate: must be a share from 0 to 1/],
    [['--drop-after-commit', '-1'], /--drop-after-commit: must be a share/],
    [['--rate-limit', '0'], /--rate-limit: must be an integer from 1/],
    [['--latency', '-3'], /--latency: must be a number of milliseconds/],
    [['--seed', '1.5'], /--seed: must be an integer/],
    [['--alert-update', 'patch'], /alert-update/],
    [['--api', 'datadog'], /api.*seed, hyperdx, clickstack-cloud|Choices: "seed", "hyperdx", "clickstack-cloud"/],
    [['--key-id', 'a:b'], /--key-id: must not contain ":"/],
    [['--data', '/nonexistent/seed.json', '--port', '0'], /cannot read seed data/],
    [['--bogus'], /unknown option --bogus/],
  ] as const) {
    const r = await steward(['emulator', ...args]);
    assert.is(r.code, 1, args.join(' '));
    assert.match(r.stderr, message);
    assert.not.match(r.stderr, /internal error|\n\s+at /);
  }
});

test('--persist and --data naming a fifo or a folder are refused at start with exit 1, not waited on', async () => {
  // Before: the emulator blocked reading the fifo for good (Ctrl-C could not stop it).
  const tmp = tmpProject({});
  try {
    execFileSync('mkfifo', [join(tmp.dir, 'state.fifo')]);
    mkdirSync(join(tmp.dir, 'folder'));
    for (const [args, message] of [
      [['--persist', join(tmp.dir, 'state.fifo')], /cannot read persisted state .*state\.fifo: not a regular file/],
      [['--data', join(tmp.dir, 'state.fifo')], /cannot read seed data .*state\.fifo: not a regular file/],
      [['--persist', join(tmp.dir, 'folder')], /cannot read persisted state .*folder: not a regular file/],
    ] as const) {
      const r = await stewardSpawned(['emulator', '--port', '0', ...args], { timeoutMs: 30_000 });
      assert.is(r.code, 1, args.join(' ') + r.stderr);
      assert.match(r.stderr, message);
    }
  } finally {
    tmp.cleanup();
  }
});

test('--persist (and --data) under /proc, or under a file, end at start with one error line and exit 1, not a loop', async () => {
  // Before: Node 20's recursive mkdir looped for good on /proc/<nope>/ (100% CPU, SIGTERM did not stop it),
  // and under a file the clean-up's own error came out as "internal error". A child process: a loop in
  // this process would hang the run; the child gets a generous time and must have exited by itself.
  if (!existsSync('/proc/self')) return;
  const tmp = tmpProject({ file: '' });
  try {
    for (const [args, message] of [
      [
        ['--persist', '/proc/steward-nope/state.json'],
        /^error: cannot write persisted state \/proc\/steward-nope\/state\.json: its folder \/proc\/steward-nope cannot be made \(ENOENT\)/,
      ],
      [
        ['--persist', join(tmp.dir, 'file', 'state.json')],
        /^error: cannot write persisted state .*file\/state\.json: its folder .*file cannot be made \(a file stands on its path\)/,
      ],
      [['--data', '/proc/steward-nope/seed.json'], /^error: cannot read seed data \/proc\/steward-nope\/seed\.json: ENOENT/],
    ] as const) {
      let child: ChildProcess | undefined;
      try {
        const r = await stewardSpawned(['emulator', '--port', '0', ...args], { timeoutMs: 60_000, onChild: (c) => (child = c) });
        assert.is(child?.signalCode, null, `${args.join(' ')}: killed after 60 s, it did not end by itself`);
        assert.is(r.code, 1, args.join(' ') + r.stderr);
        assert.match(r.stderr, message);
        assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.not.match(r.stdout, /listening/);
      } finally {
        if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
      }
    }
  } finally {
    tmp.cleanup();
  }
});

test('--help explains every flag; --print-seed prints the default seed', async () => {
  const help = await steward(['emulator', '--help']);
  assert.is(help.code, 0);
  for (const flag of [
    '--api',
    '--port',
    '--data',
    '--persist',
    '--alert-update',
    '--latency',
    '--rate-limit',
    '--fail-rate',
    '--drop-after-commit',
    '--seed',
    '--token',
    '--key-id',
    '--key-secret',
  ]) {
    assert.ok(help.stdout.includes(flag), flag);
  }
  const seed = await steward(['emulator', '--print-seed']);
  assert.is(seed.code, 0);
  const data = JSON.parse(seed.stdout);
  assert.is(data.organizations[0].id, '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31');
  assert.is(data.alerts.length, 5);
  const top = await steward(['--help']);
  assert.match(top.stdout, /emulator/);
});

test.run();
