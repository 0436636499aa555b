import { request as httpRequest } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ORGANIZATION_ID, DEFAULT_SERVICE_IDS, type Emulator, type EmulatorOptions, startEmulator } from '../../src/emulator/index.ts';
import { basic, BEARER, cloud, dashboardBody, obs, request } from './http.ts';

const BACKUPS = `/v1/organizations/${DEFAULT_ORGANIZATION_ID}/services/${DEFAULT_SERVICE_IDS['prod-warehouse']}/backups`;

async function withEmulator(opts: EmulatorOptions, f: (emu: Emulator) => Promise<void>): Promise<void> {
  const emu = await startEmulator(opts);
  try {
    await f(emu);
  } finally {
    await emu.close();
  }
}

test('latency delays every API request by at least latencyMs, and the log shows it; admin paths are not delayed', () =>
  withEmulator({ latencyMs: 120 }, async (emu) => {
    let t = performance.now();
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards')).status, 200);
    assert.ok(performance.now() - t >= 115, 'observability delayed');
    t = performance.now();
    assert.is((await cloud(emu, BACKUPS)).status, 200);
    assert.ok(performance.now() - t >= 115, 'cloud delayed');
    // Order, not a wall-clock bound (the machine may be busy): sent after a delayed request, the admin
    // request is answered first.
    const order: string[] = [];
    await Promise.all([
      obs(emu, 'GET', '/api/v2/dashboards').then(() => order.push('api')),
      request(emu, 'GET', '/__emulator/state').then(() => order.push('admin')),
    ]);
    assert.equal(order, ['admin', 'api'], 'admin not delayed');
    for (const e of emu.requests()) assert.ok(e.ms >= 115, `logged ${e.ms} ms`);
  }));

test('rate limit: N requests a minute per credential, then 429 with Retry-After; the window slides with the clock', async () => {
  let t = Date.parse('2030-01-01T00:00:00.000Z');
  await withEmulator({ rateLimitPerMinute: 3, now: () => new Date(t) }, async (emu) => {
    for (let i = 0; i < 3; i++) {
      const r = await obs(emu, 'GET', '/api/v2/dashboards');
      assert.is(r.status, 200);
      assert.is(r.headers.get('ratelimit-limit'), '3');
      assert.is(r.headers.get('ratelimit-remaining'), String(2 - i));
      t += 1000;
    }
    const limited = await obs(emu, 'GET', '/api/v2/dashboards');
    assert.is(limited.status, 429);
    assert.is(limited.headers.get('retry-after'), '57', 'the first request leaves the window 57 s from now');
    assert.match(limited.body.message, /at most 3 requests a minute/);
    assert.is((await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('x'))).status, 429, 'writes count too');
    assert.is(emu.state().dashboards.length, 0, 'a refused write stores nothing');

    // Other credentials have their own windows: the cloud key, and even a wrong token.
    assert.is((await cloud(emu, BACKUPS)).status, 200);
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards', undefined, 'Bearer other')).status, 401);

    t += 57_000;
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards')).status, 200, 'one slot free after the oldest left the window');
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards')).status, 429);
    const faults = emu.requests().filter((e) => e.fault === 'rate-limit');
    assert.is(faults.length, 3);
    for (const f of faults) assert.is(f.status, 429);
  });
});

test('a rate-limited cloud request gets the cloud error envelope', async () => {
  await withEmulator({ rateLimitPerMinute: 1, now: () => new Date('2030-01-01T00:00:00.000Z') }, async (emu) => {
    assert.is((await cloud(emu, BACKUPS)).status, 200);
    const r = await cloud(emu, BACKUPS);
    assert.is(r.status, 429);
    assert.is(r.headers.get('retry-after'), '60');
    assert.is(r.body.status, 429);
    assert.type(r.body.error, 'string');
    assert.type(r.body.requestId, 'string');
  });
});

async function statuses(opts: EmulatorOptions, n: number): Promise<number[]> {
  const out: number[] = [];
  await withEmulator(opts, async (emu) => {
    for (let i = 0; i < n; i++) out.push((await obs(emu, 'GET', '/api/v2/dashboards')).status);
  });
  return out;
}

test('fail rate: about that share of requests is 503, the same seed gives the same sequence', async () => {
  const a = await statuses({ failRate: 0.3, seed: 42 }, 200);
  const b = await statuses({ failRate: 0.3, seed: 42 }, 200);
  const c = await statuses({ failRate: 0.3, seed: 43 }, 200);
  assert.equal(a, b, 'reproducible');
  assert.not.equal(a, c, 'another seed, another sequence');
  assert.ok(a.every((s) => s === 200 || s === 503));
  const share = a.filter((s) => s === 503).length / a.length;
  assert.ok(share > 0.2 && share < 0.4, `503 share ${share}`);
});

test('a 503 happens before anything else: no write, logged as a fault, error bodies per API', () =>
  withEmulator({ failRate: 1, seed: 1 }, async (emu) => {
    const r = await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('never'));
    assert.is(r.status, 503);
    assert.match(r.body.message, /Service Unavailable/);
    assert.is(emu.state().dashboards.length, 0);
    const c = await cloud(emu, BACKUPS);
    assert.is(c.status, 503);
    assert.is(c.body.status, 503);
    assert.is(emu.requests()[0]!.fault, 'fail');
    assert.is((await request(emu, 'GET', '/__emulator/state')).status, 200, 'admin paths never fail');
  }));

/** POSTs a dashboard with node:http; resolves with the status or the socket error's code. */
function post(emu: Emulator, name: string): Promise<number | string> {
  return new Promise((resolve) => {
    const body = JSON.stringify(dashboardBody(name, 1));
    const req = httpRequest(
      `${emu.url}/api/v2/dashboards`,
      { method: 'POST', agent: false, headers: { authorization: BEARER, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end(body);
  });
}

test('drop after commit: the client sees a socket error, yet the dashboard was stored', () =>
  withEmulator({ dropAfterCommit: 1, seed: 3 }, async (emu) => {
    const outcome = await post(emu, 'Dropped');
    assert.is(outcome, 'ECONNRESET');
    let failed = false;
    await fetch(`${emu.url}/api/v2/dashboards`, {
      method: 'POST',
      headers: { authorization: BEARER },
      body: JSON.stringify(dashboardBody('Dropped too')),
    }).catch(() => (failed = true));
    assert.ok(failed, 'fetch rejects too');
    const list = await obs(emu, 'GET', '/api/v2/dashboards');
    assert.equal(
      list.body.data.map((d: { name: string }) => d.name),
      ['Dropped', 'Dropped too'],
    );
    const log = emu.requests().filter((e) => e.method === 'POST');
    assert.equal(
      log.map((e) => [e.status, e.fault]),
      [
        [0, 'drop-after-commit'],
        [0, 'drop-after-commit'],
      ],
    );
    assert.is((await obs(emu, 'POST', '/api/v2/dashboards', { tiles: [] })).status, 400, 'an invalid body is answered, not dropped');
    assert.is((await obs(emu, 'PUT', '/api/v2/alerts/65f5e4a3b9e77c001a000001', { threshold: 1 })).status, 200, 'alert updates are not dropped');
  }));

test('drop after commit with a share: which creations drop is fixed by the seed', async () => {
  const run = async (seed: number) => {
    const out: (number | string)[] = [];
    await withEmulator({ dropAfterCommit: 0.5, seed }, async (emu) => {
      for (let i = 0; i < 24; i++) out.push(await post(emu, `d${i}`));
      assert.is(emu.state().dashboards.length, 24, 'every creation was stored');
    });
    return out;
  };
  const a = await run(11);
  assert.equal(await run(11), a);
  assert.not.equal(await run(12), a);
  const dropped = a.filter((x) => x === 'ECONNRESET').length;
  assert.ok(dropped > 4 && dropped < 20, `${dropped} of 24 dropped`);
  assert.ok(a.every((x) => x === 200 || x === 'ECONNRESET'));
});

test('faults combine: a seeded fail rate does not change the ids the emulator assigns', async () => {
  const now = () => new Date('2030-01-01T00:00:00.000Z');
  const ids = async (failRate: number) => {
    const out: string[] = [];
    await withEmulator({ seed: 8, failRate, now }, async (emu) => {
      while (out.length < 3) {
        const r = await obs(emu, 'POST', '/api/v2/dashboards', { name: 'x' });
        if (r.status === 200) out.push(r.body.data.id);
      }
    });
    return out;
  };
  assert.equal(await ids(0.5), await ids(0));
});

test('basic() is accepted while the limiter counts per credential', () =>
  withEmulator({ rateLimitPerMinute: 2, now: () => new Date('2030-01-01T00:00:00.000Z') }, async (emu) => {
    assert.is((await cloud(emu, BACKUPS, basic())).status, 200);
    assert.is((await cloud(emu, BACKUPS, basic())).status, 200);
    assert.is((await cloud(emu, BACKUPS, basic())).status, 429);
    assert.is((await cloud(emu, BACKUPS, basic('dev-key', 'other'))).status, 401, 'another credential, another window');
  }));

test.run();
