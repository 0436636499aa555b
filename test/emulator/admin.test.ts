import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ALERT_IDS, DEFAULT_ORGANIZATION_ID, DEFAULT_SERVICE_IDS, EmulatorError, startEmulator } from '../../src/emulator/index.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { basic, cloud, dashboardBody, obs, request } from './http.ts';

const CHECKOUT = DEFAULT_ALERT_IDS['Checkout errors'];
const BACKUPS = `/v1/organizations/${DEFAULT_ORGANIZATION_ID}/services/${DEFAULT_SERVICE_IDS['prod-warehouse']}/backups`;

test('the request log lists method, path, status, time and credential kind; admin requests are not in it', async () => {
  const emu = await startEmulator({ now: () => new Date('2030-01-01T00:00:00.000Z') });
  try {
    await obs(emu, 'GET', '/api/v2/dashboards?limit=5');
    await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A'));
    await obs(emu, 'GET', '/api/v2/dashboards', undefined, null);
    await cloud(emu, BACKUPS);
    await cloud(emu, BACKUPS, 'Token abc');
    await request(emu, 'GET', '/__emulator/state');
    await request(emu, 'GET', '/nowhere');
    const r = await request(emu, 'GET', '/__emulator/requests');
    assert.is(r.status, 200);
    assert.is(r.body.total, 6);
    assert.equal(
      r.body.requests.map((e: Record<string, unknown>) => [e['seq'], e['method'], e['path'], e['status'], e['credential']]),
      [
        [1, 'GET', '/api/v2/dashboards', 200, 'bearer'],
        [2, 'POST', '/api/v2/dashboards', 200, 'bearer'],
        [3, 'GET', '/api/v2/dashboards', 401, 'none'],
        [4, 'GET', BACKUPS, 200, 'basic'],
        [5, 'GET', BACKUPS, 401, 'other'],
        [6, 'GET', '/nowhere', 404, 'none'],
      ],
    );
    for (const e of r.body.requests) {
      assert.type(e.ms, 'number');
      assert.ok(e.ms >= 0 && e.ms < 60_000, `${e.ms} ms`);
      assert.is(e.time, '2030-01-01T00:00:00.000Z');
    }
    assert.equal(emu.requests(), r.body.requests, 'the in-process view agrees');
    assert.is((await request(emu, 'DELETE', '/__emulator/requests')).status, 204);
    assert.equal((await request(emu, 'GET', '/__emulator/requests')).body, { requests: [], total: 0 });
  } finally {
    await emu.close();
  }
});

test('the request log keeps the newest logLimit entries and counts them all', async () => {
  const emu = await startEmulator({ logLimit: 3 });
  try {
    for (let i = 0; i < 10; i++) await obs(emu, 'GET', `/api/v2/dashboards/${i}`);
    const r = (await request(emu, 'GET', '/__emulator/requests')).body;
    assert.is(r.total, 10);
    assert.equal(
      r.requests.map((e: { path: string }) => e.path),
      ['/api/v2/dashboards/7', '/api/v2/dashboards/8', '/api/v2/dashboards/9'],
    );
  } finally {
    await emu.close();
  }
});

test('a plan-like session that only reads leaves no write in the log', async () => {
  const emu = await startEmulator();
  try {
    await obs(emu, 'GET', '/api/v2/dashboards');
    await cloud(emu, BACKUPS);
    const writes = emu.requests().filter((e) => e.method !== 'GET');
    assert.equal(writes, []);
  } finally {
    await emu.close();
  }
});

test('GET /__emulator/state shows dashboards, alerts and cloud data', async () => {
  const emu = await startEmulator();
  try {
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A'))).body.data;
    const s = (await request(emu, 'GET', '/__emulator/state')).body;
    assert.equal(Object.keys(s), ['dashboards', 'alerts', 'organizations']);
    assert.equal(s.dashboards, [d]);
    assert.is(s.alerts.length, 5);
    assert.is(s.organizations[0].id, DEFAULT_ORGANIZATION_ID);
    assert.equal(
      s.organizations[0].services.map((x: { name: string }) => x.name),
      ['prod-warehouse', 'staging-warehouse'],
    );
    assert.equal(s, JSON.parse(JSON.stringify(emu.state())));
  } finally {
    await emu.close();
  }
});

test('state() is a copy: changing it changes nothing served', async () => {
  const emu = await startEmulator();
  try {
    const s = emu.state();
    s.alerts[0]!.threshold = -1;
    s.organizations[0]!.services[0]!.pipes.length = 0;
    assert.is(emu.state().alerts[0]!.threshold, 100);
    assert.is((await cloud(emu, BACKUPS.replace('/backups', '/ingestpipes'))).body.result.length, 5);
  } finally {
    await emu.close();
  }
});

test('POST /__emulator/reset goes back to the seed and clears the log and the rate-limit windows', async () => {
  const emu = await startEmulator({ rateLimitPerMinute: 2 });
  try {
    const initial = emu.state();
    await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A'));
    await obs(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, { threshold: 1, name: 'changed' });
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards')).status, 429);
    const r = await request(emu, 'POST', '/__emulator/reset');
    assert.is(r.status, 200);
    assert.equal(r.body, { reset: true, dashboards: 0 });
    assert.equal(emu.state(), initial);
    assert.equal(emu.requests(), []);
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards')).status, 200, 'the window is empty again');
    assert.is((await request(emu, 'GET', '/__emulator/reset')).status, 405);
    assert.is((await request(emu, 'GET', '/__emulator/nothing')).status, 404);
    assert.is((await request(emu, 'POST', '/__emulator/state')).status, 405);
    await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('B'));
    await emu.reset();
    assert.equal(emu.state(), initial, 'reset() in process does the same');
  } finally {
    await emu.close();
  }
});

test('persist: dashboards and alerts survive a restart; the file is written atomically', async () => {
  const tmp = tmpProject({});
  const file = join(tmp.dir, 'state', 'emulator.json');
  try {
    let emu = await startEmulator({ persist: file });
    assert.ok(existsSync(file), 'written at start');
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('Kept'))).body.data;
    const a = (await obs(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, { threshold: 42, dashboardId: d.id, tileId: d.tiles[0].id })).body.data;
    // Concurrent writes are coalesced and all land.
    await Promise.all(Array.from({ length: 20 }, (_, i) => obs(emu, 'POST', '/api/v2/dashboards', { name: `c${i}` })));
    await emu.close();
    const onDisk = JSON.parse(readFileSync(file, 'utf8'));
    assert.is(onDisk.$format, 'steward-emulator-state/1');
    assert.is(onDisk.dashboards.length, 21);
    assert.equal(
      readdirSync(join(tmp.dir, 'state')).filter((f) => f.endsWith('.tmp')),
      [],
      'no temp files left',
    );

    emu = await startEmulator({ persist: file });
    try {
      assert.equal((await obs(emu, 'GET', `/api/v2/dashboards/${d.id}`)).body.data, d);
      assert.is((await obs(emu, 'GET', '/api/v2/dashboards')).body.data.length, 21);
      const alert = emu.state().alerts.find((x) => x.id === CHECKOUT)!;
      assert.equal(alert, a);
      // A new dashboard never reuses an id from the file.
      const fresh = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('New'))).body.data;
      const used = new Set(onDisk.dashboards.flatMap((x: { id: string; tiles: { id: string }[] }) => [x.id, ...x.tiles.map((t) => t.id)]));
      assert.not.ok(used.has(fresh.id));
      await request(emu, 'POST', '/__emulator/reset');
    } finally {
      await emu.close();
    }
    const afterReset = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(afterReset.dashboards, [], 'reset is persisted too');
    assert.is(afterReset.alerts.find((x: { id: string }) => x.id === CHECKOUT).threshold, 100);
  } finally {
    tmp.cleanup();
  }
});

test('a persist file that is not an emulator state file is refused at start', async () => {
  const tmp = tmpProject({ 'bad.json': '{"dashboards": [', 'other.json': '{"hello": 1}' });
  try {
    for (const [name, message] of [
      ['bad.json', /not valid JSON/],
      ['other.json', /not an emulator state file/],
    ] as const) {
      try {
        await startEmulator({ persist: join(tmp.dir, name) });
        assert.unreachable('should refuse');
      } catch (err) {
        assert.instance(err, EmulatorError);
        assert.match((err as Error).message, message);
      }
    }
    writeFileSync(join(tmp.dir, 'x.json'), JSON.stringify({ $format: 'steward-emulator-state/1', dashboards: [{ tiles: [] }], alerts: [] }));
    try {
      await startEmulator({ persist: join(tmp.dir, 'x.json') });
      assert.unreachable('should refuse');
    } catch (err) {
      assert.match((err as Error).message, /dashboards\[0\]\.name: is required/);
    }
  } finally {
    tmp.cleanup();
  }
});

test('basic auth helper sanity: credentials of another emulator do not leak between instances', async () => {
  const a = await startEmulator({ keyId: 'a', keySecret: 'a' });
  const b = await startEmulator();
  try {
    assert.is.not(a.port, b.port);
    assert.is((await cloud(a, BACKUPS, basic('a', 'a'))).status, 200);
    assert.is((await cloud(b, BACKUPS, basic('a', 'a'))).status, 401);
  } finally {
    await a.close();
    await b.close();
  }
});

test('listening on all interfaces (--host 0.0.0.0, a container reached by its service name), any Host is answered', async () => {
  const emu = await startEmulator({ host: '0.0.0.0' });
  try {
    const url = `http://127.0.0.1:${emu.port}`;
    const r = await rawRequest(url, 'GET', '/api/v2/dashboards', { host: 'emulator:7878', authorization: 'Bearer dev-token' });
    assert.is(r.status, 200, r.body);
  } finally {
    await emu.close();
  }
});

/** A request with the Host and Origin headers a browser page would send (fetch cannot set Host). */
function rawRequest(url: string, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const PAGE_HEADERS: Array<{ name: string; headers: Record<string, string>; refused: boolean }> = [
  { name: 'no Origin, Host 127.0.0.1 (steward, curl)', headers: {}, refused: false },
  { name: 'Host localhost', headers: { host: 'localhost:1' }, refused: false },
  { name: 'Host [::1]', headers: { host: '[::1]:1' }, refused: false },
  { name: 'Origin of the emulator itself', headers: { origin: 'http://127.0.0.1:7878' }, refused: false },
  { name: 'Host a DNS name (DNS rebinding)', headers: { host: 'rebind.evil.example:7878' }, refused: true },
  { name: 'Origin another site (a cross-site form)', headers: { origin: 'https://evil.example' }, refused: true },
  { name: 'Origin null (a sandboxed or file page)', headers: { origin: 'null' }, refused: true },
];
for (const c of PAGE_HEADERS) {
  test(`a request with ${c.name}: ${c.refused ? 'refused, nothing reset' : 'answered'}`, async () => {
    const emu = await startEmulator({});
    try {
      await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('Kept'));
      const reset = await rawRequest(emu.url, 'POST', '/__emulator/reset', c.headers);
      const list = await rawRequest(emu.url, 'GET', '/api/v2/dashboards', { ...c.headers, authorization: 'Bearer dev-token' });
      if (c.refused) {
        assert.is(reset.status, 403);
        assert.match(reset.body, 'the emulator answers requests to an IP address or localhost only');
        assert.is(list.status, 403);
        assert.ok(
          (await obs(emu, 'GET', '/api/v2/dashboards')).body.data.some((d: { name: string }) => d.name === 'Kept'),
          'the state was not reset',
        );
      } else {
        assert.is(reset.status, 200, reset.body);
        assert.is(list.status, 200, list.body);
      }
    } finally {
      await emu.close();
    }
  });
}

test.run();
