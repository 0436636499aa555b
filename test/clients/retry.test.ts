import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, ApiTransportError, createHttp, createObservabilityClient, RateLimitedError } from '../../src/clients/index.ts';
import { backoffMs, parseResetHeader, parseRetryAfter, parseStructuredRateLimit, retryPolicy, serverWait } from '../../src/clients/retry.ts';
import { CLICKSTACK, fakeClock, json, raw, rejects, startServer, TOKEN, type TestServer } from './helpers.ts';

const DASH = { id: 'd1', name: 'One', tiles: [], tags: [] };

/** A client on a fake clock: sleeps return at once and are recorded. */
function fastClient(server: TestServer, extra: Record<string, unknown> = {}) {
  const clock = fakeClock();
  const traces: string[] = [];
  const c = createObservabilityClient({
    url: server.url,
    token: TOKEN,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
    trace: (l) => traces.push(l),
    ...extra,
  });
  return { c, clock, traces };
}

/** Answers with `first` for the first `n` requests, then with the dashboard list. */
function failFirst(n: number, first: (res: import('node:http').ServerResponse) => void) {
  return (_req: unknown, res: import('node:http').ServerResponse, rec: { n: number }) => {
    if (rec.n <= n) first(res);
    else json(res, 200, { data: [DASH] });
  };
}

// ---- the header rules, as plain functions ----

test('Retry-After: delta seconds and HTTP date', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  assert.is(parseRetryAfter('1', now), 1000);
  assert.is(parseRetryAfter(' 2.5 ', now), 2500);
  assert.is(parseRetryAfter('Thu, 01 Jan 2026 12:00:07 GMT', now), 7000);
  assert.is(parseRetryAfter('Thu, 01 Jan 2026 11:00:00 GMT', now), 0, 'a past date means now');
  assert.is(parseRetryAfter('soon', now), undefined);
  assert.is(parseRetryAfter('-3', now), undefined);
  assert.is(parseRetryAfter(undefined, now), undefined);
});

test('RateLimit-Reset / X-RateLimit-Reset: delta seconds told apart from epoch seconds and ms', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  assert.is(parseResetHeader('30', now), 30_000, 'delta seconds');
  assert.is(parseResetHeader(String(now / 1000 + 12), now), 12_000, 'epoch seconds');
  assert.is(parseResetHeader(String(now + 4_000), now), 4_000, 'epoch milliseconds');
  assert.is(parseResetHeader(String(now / 1000 - 100), now), 0, 'an epoch in the past means now');
  assert.is(parseResetHeader('x', now), undefined);
});

test('structured RateLimit header, both draft forms', () => {
  assert.equal(parseStructuredRateLimit('limit=100, remaining=0, reset=30'), { remaining: 0, resetSeconds: 30 });
  assert.equal(parseStructuredRateLimit('"default";r=0;t=12'), { remaining: 0, resetSeconds: 12 });
  assert.equal(parseStructuredRateLimit(undefined), {});
});

test('serverWait: Retry-After on any status; reset headers only on 429 or when nothing remains', () => {
  const now = 1_000_000;
  assert.equal(serverWait(503, { 'retry-after': '3' }, now), { ms: 3000, header: 'Retry-After' });
  assert.equal(serverWait(429, { 'x-ratelimit-reset': '5' }, now), { ms: 5000, header: 'X-RateLimit-Reset' });
  assert.equal(serverWait(429, { 'ratelimit-reset': '2', 'x-ratelimit-reset': '9' }, now), { ms: 2000, header: 'RateLimit-Reset' });
  assert.is(serverWait(200, { 'x-ratelimit-reset': '5', 'x-ratelimit-remaining': '10' }, now), undefined);
  assert.equal(serverWait(200, { 'x-ratelimit-reset': '5', 'x-ratelimit-remaining': '0' }, now), { ms: 5000, header: 'X-RateLimit-Reset' });
  assert.equal(serverWait(429, { ratelimit: 'limit=10, remaining=0, reset=7' }, now), { ms: 7000, header: 'RateLimit' });
  assert.is(serverWait(500, {}, now), undefined);
});

test('backoff: exponential with full jitter, capped', () => {
  const p = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1000 });
  assert.equal(
    [1, 2, 3, 4, 5, 6].map((a) => backoffMs(a, p, () => 0.999999)),
    [99, 199, 399, 799, 999, 999],
  );
  assert.equal(
    [1, 2, 3].map((a) => backoffMs(a, p, () => 0)),
    [0, 0, 0],
  );
  assert.is(
    backoffMs(2, p, () => 0.5),
    100,
  );
});

// ---- the rules against a real server ----

test('429 with Retry-After: 1 is waited for (at least 1 s), then succeeds', async () => {
  const server = await startServer(failFirst(1, (res) => json(res, 429, { message: 'slow down' }, { 'retry-after': '1' })));
  try {
    const { c, clock, traces } = fastClient(server);
    assert.equal(await c.listDashboards(), [DASH]);
    assert.is(server.requests.length, 2);
    assert.ok(clock.sleeps.length >= 1);
    assert.ok(clock.sleeps[0]! >= 1000, `slept ${clock.sleeps[0]} ms`);
    const status = traces.filter((l) => !/ (request|response) body: /.test(l));
    assert.match(status[0]!, /→ 429 Too Many Requests .*attempt 1\/5.*; retry in \d+ ms \(Retry-After\)/);
    assert.match(status[1]!, /→ 200 OK .*attempt 2\/5/);
  } finally {
    await server.close();
  }
});

test('429 with Retry-After: 1 is waited for in real time (default sleep and clock)', async () => {
  const server = await startServer(failFirst(1, (res) => json(res, 429, {}, { 'retry-after': '1' })));
  try {
    const c = createObservabilityClient({ url: server.url, token: TOKEN });
    const t0 = performance.now();
    await c.listDashboards();
    const elapsed = performance.now() - t0;
    assert.ok(elapsed >= 990, `took ${elapsed} ms`);
    // Generous: seconds, not the minutes a misread unit would wait (the machine may be busy).
    assert.ok(elapsed < 15000, `took ${elapsed} ms`);
    assert.is(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

test('X-RateLimit-Reset (epoch seconds) and RateLimit-Reset (delta) are honoured', async () => {
  let resetAt = 0;
  const server = await startServer((_req, res, rec) => {
    if (rec.n === 1) json(res, 429, {}, { 'x-ratelimit-reset': String(resetAt), 'x-ratelimit-remaining': '0' });
    else if (rec.n === 2) json(res, 429, {}, { 'ratelimit-reset': '7' });
    else json(res, 200, { data: [] });
  });
  try {
    const { c, clock } = fastClient(server);
    resetAt = Math.floor(clock.now() / 1000) + 20;
    await c.listDashboards();
    assert.is(server.requests.length, 3);
    assert.ok(clock.sleeps[0]! >= 20_000, `first wait ${clock.sleeps[0]}`);
    const second = clock.sleeps.slice(1).reduce((a, b) => a + b, 0);
    assert.ok(second >= 7_000, `second wait ${second}`);
  } finally {
    await server.close();
  }
});

test('503 is retried, then succeeds; PUT is retried too', async () => {
  const server = await startServer((req, res, rec) => {
    if (rec.n <= 2) return raw(res, 503, 'busy', 'text/plain');
    if (req.method === 'PUT') return json(res, 200, { data: { id: 'a1' } });
    return json(res, 200, { data: [DASH] });
  });
  try {
    const { c, clock } = fastClient(server);
    await c.listDashboards();
    assert.is(server.requests.length, 3);
    assert.equal(clock.sleeps, [250, 500], 'full jitter at 0.5 of 500, 1000');
    await c.updateAlert('a1', { threshold: 1 });
    assert.is(server.requests.length, 4);
  } finally {
    await server.close();
  }
});

test('each retryable status (500, 502, 503, 504, 429) is retried; 400, 404, 409, 422 are not', async () => {
  for (const status of [500, 502, 503, 504, 429]) {
    const server = await startServer(failFirst(1, (res) => json(res, status, { message: 'x' })));
    try {
      await fastClient(server).c.listDashboards();
      assert.is(server.requests.length, 2, `status ${status}`);
    } finally {
      await server.close();
    }
  }
  for (const status of [400, 404, 409, 422]) {
    const server = await startServer((_req, res) => json(res, status, { message: 'threshold must be a number' }));
    try {
      const e = (await rejects(() => fastClient(server).c.updateAlert('abc', { threshold: 1 }))) as ApiError;
      assert.instance(e, ApiError);
      assert.is(server.requests.length, 1, `status ${status} sent once`);
      assert.is(e.attempts, 1);
      assert.is(e.outcomeUnknown, false);
    } finally {
      await server.close();
    }
  }
});

test('a 400 is not retried and reads as one line', async () => {
  const server = await startServer((_req, res) => json(res, 400, { message: 'threshold must be a number' }));
  try {
    const { c, clock } = fastClient(server);
    const e = (await rejects(() => c.updateAlert('abc', { threshold: 1 }))) as ApiError;
    assert.is(e.message, 'PUT /api/v2/alerts/abc → 400 Bad Request: threshold must be a number');
    assert.is(server.requests.length, 1);
    assert.equal(clock.sleeps, []);
  } finally {
    await server.close();
  }
});

test('a POST is not retried on 503: one POST seen, outcome unknown', async () => {
  const server = await startServer((_req, res) => json(res, 503, { message: 'upstream unavailable' }, { 'retry-after': '1' }));
  try {
    const { c, clock } = fastClient(server);
    const e = (await rejects(() => c.createDashboard({ name: 'x' }))) as ApiError;
    assert.instance(e, ApiError);
    assert.is(server.requests.filter((r) => r.method === 'POST').length, 1);
    assert.is(e.outcomeUnknown, true);
    assert.is(e.status, 503);
    assert.match(e.message, /^POST \/api\/v2\/dashboards → 503 Service Unavailable: upstream unavailable; outcome unknown/);
    assert.equal(clock.sleeps, []);
  } finally {
    await server.close();
  }
});

test('a POST is not retried on a dropped connection: one POST seen, ApiTransportError with outcomeUnknown', async () => {
  const server = await startServer((req) => {
    // "commit then drop the connection"
    req.socket.destroy();
  });
  try {
    const { c } = fastClient(server);
    const e = (await rejects(() => c.createDashboard({ name: 'x' }))) as ApiTransportError;
    assert.instance(e, ApiTransportError);
    assert.is(server.requests.filter((r) => r.method === 'POST').length, 1);
    assert.is(e.outcomeUnknown, true);
    assert.is(e.failure, 'reset');
    assert.is(e.method, 'POST');
    assert.match(
      e.message,
      /^POST \/api\/v2\/dashboards on 127\.0\.0\.1:\d+: the connection was closed before the response was complete \(ECONNRESET\); outcome unknown/,
    );
  } finally {
    await server.close();
  }
});

test('a POST answered 400 or 429 is not retried and its outcome is known (not applied)', async () => {
  const server = await startServer((_req, res, rec) =>
    rec.n === 1 ? json(res, 400, { message: 'name is required' }) : json(res, 429, {}, { 'retry-after': '2' }),
  );
  try {
    const { c } = fastClient(server);
    const e1 = (await rejects(() => c.createDashboard({ name: '' }))) as ApiError;
    assert.is(e1.outcomeUnknown, false);
    const e2 = (await rejects(() => c.createDashboard({ name: 'x' }))) as RateLimitedError;
    assert.instance(e2, RateLimitedError);
    assert.is(e2.outcomeUnknown, false);
    assert.is(e2.retryAfterMs, 2000);
    assert.is(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

/** A ClickStack client (Basic auth, the cloud envelope) on a fake clock, as the real-server audit ran it. */
function clickstackClient(server: TestServer) {
  const clock = fakeClock();
  const c = createObservabilityClient({
    url: server.url,
    ...CLICKSTACK,
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
  });
  return { c, clock };
}

test('a POST answered 429 without a wait header is not sent again by the client: apply decides after listing (red team, round 8)', async () => {
  // ClickStack on ClickHouse Cloud answers 429 with no Retry-After or reset header; a gateway may answer so
  // for a create it forwarded. The client sends a POST once, whatever the answer.
  const server = await startServer((_req, res) => json(res, 429, { status: 429, error: 'Too many requests' }));
  try {
    const { c, clock } = clickstackClient(server);
    const e = (await rejects(() => c.createDashboard({ name: 'x' }))) as RateLimitedError;
    assert.instance(e, RateLimitedError);
    assert.is(e.outcomeUnknown, false);
    assert.is(e.retryAfterMs, undefined);
    assert.is(server.requests.length, 1);
    assert.equal(clock.sleeps, []);
  } finally {
    await server.close();
  }
});

test('a POST to a port with nothing listening: refused, not retried, outcome known', async () => {
  const server = await startServer(() => {});
  const url = server.url;
  await server.close();
  const clock = fakeClock();
  const c = createObservabilityClient({ url, token: TOKEN, sleep: clock.sleep, now: clock.now });
  const e = (await rejects(() => c.createDashboard({ name: 'x' }))) as ApiTransportError;
  assert.instance(e, ApiTransportError);
  assert.is(e.failure, 'refused');
  assert.is(e.outcomeUnknown, false);
  assert.match(e.message, /^POST \/api\/v2\/dashboards on 127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\)/);
  assert.equal(clock.sleeps, []);
  // A GET to the same place is retried (the server may be restarting), then gives up.
  const e2 = (await rejects(() => c.listDashboards())) as ApiTransportError;
  assert.is(e2.attempts, 5);
  assert.match(e2.message, /connection refused .*\(gave up after 5 attempts\)$/);
  assert.is(clock.sleeps.length, 4);
});

test('a GET on a dropped connection is retried, then succeeds', async () => {
  const server = await startServer((req, res, rec) => {
    if (rec.n === 1) req.socket.destroy();
    else json(res, 200, { data: [DASH] });
  });
  try {
    const { c } = fastClient(server);
    assert.equal(await c.listDashboards(), [DASH]);
    assert.is(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

test('retries give up after the limit with a clear error', async () => {
  const server = await startServer((_req, res) => json(res, 502, { message: 'bad gateway' }));
  try {
    const { c, clock } = fastClient(server, { retry: { limit: 3 } });
    const e = (await rejects(() => c.listDashboards())) as ApiError;
    assert.is(server.requests.length, 3);
    assert.is(e.attempts, 3);
    assert.is(e.message, 'GET /api/v2/dashboards → 502 Bad Gateway: bad gateway (gave up after 3 attempts)');
    assert.is(clock.sleeps.length, 2);
  } finally {
    await server.close();
  }
});

test('retry limit 1 turns retries off', async () => {
  const server = await startServer((_req, res) => json(res, 503, {}));
  try {
    const { c } = fastClient(server, { retry: { limit: 1 } });
    await rejects(() => c.listDashboards());
    assert.is(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('a server wait longer than the cap fails at once, saying how long the server asked for', async () => {
  const server = await startServer((_req, res) => json(res, 429, { message: 'quota exhausted' }, { 'retry-after': '3600' }));
  try {
    const { c, clock } = fastClient(server);
    const e = (await rejects(() => c.listDashboards())) as RateLimitedError;
    assert.instance(e, RateLimitedError);
    assert.is(server.requests.length, 1);
    assert.equal(clock.sleeps, []);
    assert.is(e.retryAfterMs, 3_600_000);
    assert.match(e.message, /→ 429 Too Many Requests: quota exhausted \(the server asks to wait 3600 s, more than the 60 s retry cap\)/);
  } finally {
    await server.close();
  }
});

test('a 429 holds the other requests of the client too (shared pause)', async () => {
  const server = await startServer((_req, res, rec) => {
    if (rec.n === 1) json(res, 429, {}, { 'retry-after': '5' });
    else json(res, 200, { data: [] });
  });
  try {
    const clock = fakeClock();
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' }, sleep: clock.sleep, now: clock.now, random: () => 0 });
    const t0 = clock.now();
    await http.request({ method: 'GET', path: '/a' }); // 429 → pause 5 s → retry
    const sentAt = clock.now();
    assert.ok(sentAt - t0 >= 5000);
    // A second request right after the pause is not held any more.
    await http.request({ method: 'GET', path: '/b' });
    assert.is(clock.now(), sentAt);
    assert.is(server.requests.length, 3);
  } finally {
    await server.close();
  }
});

test('after a success saying nothing remains, the next request waits for the reset', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [] }, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '3' }));
  try {
    const clock = fakeClock();
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' }, sleep: clock.sleep, now: clock.now });
    await http.request({ method: 'GET', path: '/a' });
    assert.equal(clock.sleeps, []);
    await http.request({ method: 'GET', path: '/b' });
    assert.equal(clock.sleeps, [3000]);
  } finally {
    await server.close();
  }
});

test.run();
