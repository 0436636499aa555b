import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHttp, createObservabilityClient, RateLimiter, Semaphore } from '../../src/clients/index.ts';
import { fakeClock, json, startServer, TOKEN } from './helpers.ts';

test('rate limiter: 100 requests per minute start 600 ms apart, in call order', async () => {
  const clock = fakeClock(0);
  const rl = new RateLimiter({ requestsPerMinute: 100, now: clock.now, sleep: clock.sleep });
  const starts: number[] = [];
  // Sequential callers.
  for (let i = 0; i < 4; i++) {
    await rl.acquire();
    starts.push(clock.now());
  }
  assert.equal(starts, [0, 600, 1200, 1800]);
});

test('rate limiter: concurrent callers reserve distinct slots', async () => {
  const t = 0;
  const waits: number[] = [];
  // A clock that stands still: each caller's wait shows the slot it was given.
  const rl = new RateLimiter({ requestsPerMinute: 60, now: () => t, sleep: async (ms) => void waits.push(ms) });
  await Promise.all([rl.acquire(), rl.acquire(), rl.acquire(), rl.acquire()]);
  assert.equal(waits, [1000, 2000, 3000]);
});

test('rate limiter: after an idle period no debt is kept (no catch-up burst)', async () => {
  const clock = fakeClock(0);
  const rl = new RateLimiter({ requestsPerMinute: 60, now: clock.now, sleep: clock.sleep });
  await rl.acquire();
  clock.advance(10_000);
  await rl.acquire();
  await rl.acquire();
  assert.equal(clock.sleeps, [1000]);
});

test('rate limiter: burst lets N start at once, then spaces', async () => {
  const t = 0;
  const waits: number[] = [];
  const rl = new RateLimiter({ requestsPerMinute: 60, burst: 3, now: () => t, sleep: async (ms) => void waits.push(ms) });
  for (let i = 0; i < 5; i++) await rl.acquire();
  assert.equal(waits, [1000, 2000]);
});

test('rate limiter: pauseUntil holds every start; no limit when requestsPerMinute is unset', async () => {
  const clock = fakeClock(0);
  const rl = new RateLimiter({ now: clock.now, sleep: clock.sleep });
  await rl.acquire();
  await rl.acquire();
  assert.equal(clock.sleeps, []);
  rl.pauseUntil(5000);
  await rl.acquire();
  assert.equal(clock.sleeps, [5000]);
});

test('semaphore: never more than the limit at once, all finish', async () => {
  const sem = new Semaphore(3);
  let active = 0;
  let max = 0;
  const tick = () => new Promise((r) => setImmediate(r));
  await Promise.all(
    Array.from({ length: 20 }, () =>
      sem.run(async () => {
        active++;
        max = Math.max(max, active);
        await tick();
        await tick();
        active--;
      }),
    ),
  );
  assert.is(max, 3);
  assert.is(sem.inUse, 0);
});

test('client: concurrency bound holds against a real server', async () => {
  const server = await startServer((_req, res) => void setTimeout(() => json(res, 200, { data: [] }), 30));
  try {
    const c = createObservabilityClient({ url: server.url, token: TOKEN, concurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, () => c.listDashboards()));
    assert.is(server.requests.length, 8);
    assert.is(server.maxInFlight, 2);
    assert.ok(server.connections <= 2, `${server.connections} connections for concurrency 2`);
  } finally {
    await server.close();
  }
});

test('client: the next request goes out on the connection that just answered, never a request more in flight', async () => {
  const server = await startServer((_req, res) => void setTimeout(() => json(res, 200, { data: { id: 'd1', name: 'x', tiles: [] } }), 5));
  try {
    const c = createObservabilityClient({ url: server.url, token: TOKEN, concurrency: 1 });
    for (let i = 0; i < 6; i++) await c.getDashboard('d1');
    assert.is(server.requests.length, 6);
    assert.is(server.maxInFlight, 1);
    // Back in the Agent's free list a tick after its answer, before the next request is sent: no new connection.
    assert.is(server.connections, 1);
  } finally {
    await server.close();
  }
});

test('client: the rate limit spaces requests of one client (injected clock)', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [] }));
  try {
    // A clock that stands still: each request's wait shows the start slot it was given.
    const waits: number[] = [];
    const http = createHttp({
      prefixUrl: server.url,
      auth: { type: 'bearer', token: TOKEN },
      requestsPerMinute: 120,
      concurrency: 8,
      sleep: async (ms) => void waits.push(ms),
      now: () => 0,
    });
    await Promise.all(Array.from({ length: 5 }, (_, i) => http.request({ method: 'GET', path: `/r/${i}` })));
    assert.is(server.requests.length, 5);
    // 120/min → starts 500 ms apart: 0, 500, 1000, 1500, 2000.
    assert.equal(
      [...waits].sort((a, b) => a - b),
      [500, 1000, 1500, 2000],
    );
  } finally {
    await server.close();
  }
});

test('client: two clients have separate limits', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [] }));
  try {
    const clock = fakeClock(0);
    const mk = () => createHttp({ prefixUrl: server.url, auth: { type: 'none' }, requestsPerMinute: 60, sleep: clock.sleep, now: clock.now });
    const a = mk();
    const b = mk();
    await a.request({ method: 'GET', path: '/a' });
    await b.request({ method: 'GET', path: '/b' });
    assert.equal(clock.sleeps, []);
  } finally {
    await server.close();
  }
});

test('rate limiter: a clock stepped back an hour does not turn into an hour of waiting', async () => {
  const clock = fakeClock(0);
  const rl = new RateLimiter({ requestsPerMinute: 100, now: clock.now, sleep: clock.sleep });
  await rl.acquire();
  await rl.acquire();
  clock.advance(-3_600_000);
  await rl.acquire();
  // The spacing holds across the step; before, the third start waited 3,600,600 ms.
  assert.equal(clock.sleeps, [600, 600]);
  // A pause the server asked for keeps its length, whichever way the clock is stepped after it was set.
  rl.pauseUntil(clock.now() + 5_000);
  clock.advance(-3_600_000);
  await rl.acquire();
  clock.advance(7_200_000);
  await rl.acquire();
  assert.equal(clock.sleeps, [600, 600, 5_000]);
});

test("client: requests go on at the limit's pace after the clock is stepped back (injected clock, real server)", async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [] }));
  try {
    const clock = fakeClock(Date.UTC(2026, 0, 1, 12));
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'bearer', token: TOKEN }, requestsPerMinute: 60, sleep: clock.sleep, now: clock.now });
    await http.request({ method: 'GET', path: '/a' });
    clock.advance(-3_600_000);
    await http.request({ method: 'GET', path: '/b' });
    await http.request({ method: 'GET', path: '/c' });
    assert.is(server.requests.length, 3);
    assert.equal(clock.sleeps, [1000, 1000]);
  } finally {
    await server.close();
  }
});

test.run();
