/**
 * Servers that misbehave: each must give a clear error within the timeout, with memory bounded.
 * (Issue 8 adds the stress versions: 100 MB bodies, soak runs.)
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, ApiResponseError, ApiTransportError, createCloudClient, createHttp, createObservabilityClient } from '../../src/clients/index.ts';
import { fakeClock, json, raw, rejects, startServer, TOKEN, KEY_ID, KEY_SECRET } from './helpers.ts';

function quick(url: string, extra: Record<string, unknown> = {}) {
  return createObservabilityClient({ url, token: TOKEN, retry: { limit: 1 }, ...extra });
}

test('a body that never ends: timeout error within the whole-request timeout', async () => {
  let timer: NodeJS.Timeout | undefined;
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":[');
    // A trickle that keeps the connection alive, so only the whole-request deadline can stop it.
    timer = setInterval(() => res.write(' '), 20);
  });
  try {
    const t0 = performance.now();
    const e = (await rejects(() => quick(server.url, { timeoutMs: 400, idleTimeoutMs: 300 }).listDashboards())) as ApiTransportError;
    const ms = performance.now() - t0;
    assert.instance(e, ApiTransportError);
    assert.is(e.failure, 'timeout');
    assert.is(e.outcomeUnknown, false);
    assert.match(e.message, /^GET \/api\/v2\/dashboards on 127\.0\.0\.1:\d+: no complete response within 400 ms \(timeout\)$/);
    assert.ok(ms < 4500, `took ${ms} ms`);
  } finally {
    clearInterval(timer);
    await server.close();
  }
});

test('a connection that stalls after the headers: stalled error after the idle timeout', async () => {
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":[');
  });
  try {
    const t0 = performance.now();
    const e = (await rejects(() => quick(server.url, { timeoutMs: 5000, idleTimeoutMs: 200 }).listDashboards())) as ApiTransportError;
    const ms = performance.now() - t0;
    assert.instance(e, ApiTransportError);
    assert.is(e.failure, 'stalled');
    assert.match(e.message, /the connection stalled: nothing received for 200 ms$/);
    assert.ok(ms < 4500, `took ${ms} ms`);
  } finally {
    await server.close();
  }
});

test('a server that never answers a POST: timeout, not retried, outcome unknown', async () => {
  const server = await startServer(() => {
    /* never answers */
  });
  try {
    const e = (await rejects(() =>
      createObservabilityClient({ url: server.url, token: TOKEN, timeoutMs: 300, idleTimeoutMs: 300 }).createDashboard({ name: 'x' }),
    )) as ApiTransportError;
    assert.instance(e, ApiTransportError);
    assert.ok(['timeout', 'stalled'].includes(e.failure));
    assert.is(e.outcomeUnknown, true);
    assert.match(e.message, /outcome unknown: the server may have applied this POST, check before sending it again$/);
    assert.is(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('a GET that times out is retried within the limit, then gives up', async () => {
  const server = await startServer(() => {});
  try {
    const clock = fakeClock();
    const c = createObservabilityClient({
      url: server.url,
      token: TOKEN,
      timeoutMs: 150,
      retry: { limit: 2 },
      sleep: clock.sleep,
      now: clock.now,
    });
    const e = (await rejects(() => c.listDashboards())) as ApiTransportError;
    assert.is(server.requests.length, 2);
    assert.match(e.message, /\(gave up after 2 attempts\)$/);
  } finally {
    await server.close();
  }
});

test('a response over the size limit (declared length) is refused without reading it', async () => {
  const big = JSON.stringify({ data: [{ id: 'x', name: 'y'.repeat(200_000) }] });
  const server = await startServer((_req, res) => raw(res, 200, big, 'application/json'));
  try {
    const e = (await rejects(() => quick(server.url, { maxResponseBytes: 64 * 1024 }).listDashboards())) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.is(e.message, 'GET /api/v2/dashboards: response larger than 64 KiB (maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it); refused');
  } finally {
    await server.close();
  }
});

test('a chunked response over the size limit is aborted while streaming', async () => {
  let sent = 0;
  let stopped = false;
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":[');
    const chunk = `{"id":"x","name":"${'z'.repeat(16 * 1024)}"},`;
    const pump = () => {
      // Up to 50 MB if nobody stops us.
      while (!stopped && sent < 50 * 1024 * 1024) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (stopped = true));
    pump();
  });
  try {
    const e = (await rejects(() => quick(server.url, { maxResponseBytes: 1024 * 1024 }).listDashboards())) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.match(e.message, /response larger than 1 MiB \(maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it\); refused/);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(sent < 20 * 1024 * 1024, `server managed to send ${sent} bytes`);
  } finally {
    await server.close();
  }
});

test('a 200 with an HTML page: ApiResponseError saying it is not JSON, with the page text', async () => {
  const server = await startServer((_req, res) =>
    raw(res, 200, '<html><head><title>Sign in</title></head><body>Corporate proxy login</body></html>', 'text/html'),
  );
  try {
    const e = (await rejects(() => quick(server.url).listDashboards())) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.match(e.message, /^GET \/api\/v2\/dashboards: response is not valid JSON \(200, text\/html, \d+ bytes\): Sign in: Corporate proxy login$/);
  } finally {
    await server.close();
  }
});

test('a 200 with truncated JSON: ApiResponseError, not retried', async () => {
  const server = await startServer((_req, res) => raw(res, 200, '{"data":[{"id":"d1","na', 'application/json'));
  try {
    const e = (await rejects(() => createObservabilityClient({ url: server.url, token: TOKEN }).listDashboards())) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.match(e.message, /^GET \/api\/v2\/dashboards: response is not valid JSON \(200, application\/json, 23 bytes\)/);
    assert.is(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('a body cut short by the server (content-length not reached) is a transport error, retried for GET', async () => {
  const server = await startServer((_req, res, rec) => {
    if (rec.n === 1) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":[');
      setTimeout(() => res.socket?.destroy(), 10);
    } else json(res, 200, { data: [] });
  });
  try {
    const clock = fakeClock();
    const c = createObservabilityClient({ url: server.url, token: TOKEN, sleep: clock.sleep, now: clock.now });
    assert.equal(await c.listDashboards(), []);
    assert.is(server.requests.length, 2);
  } finally {
    await server.close();
  }
});

test('a 200 with an empty body: ApiResponseError', async () => {
  const server = await startServer((_req, res) => raw(res, 200, '', 'application/json'));
  try {
    const e = (await rejects(() => createCloudClient({ url: server.url, keyId: KEY_ID, keySecret: KEY_SECRET }).listBackups('o', 's'))) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.is(e.message, 'GET /v1/organizations/o/services/s/backups: empty response body (200), expected JSON');
  } finally {
    await server.close();
  }
});

test('a redirect is not followed (the credential stays home): clear error', async () => {
  const server = await startServer((_req, res) => {
    res.writeHead(301, { location: 'https://elsewhere.example/api/v2/dashboards' });
    res.end();
  });
  try {
    const e = (await rejects(() => quick(server.url).listDashboards())) as ApiError;
    assert.instance(e, ApiError);
    assert.is(server.requests.length, 1);
    assert.is(
      e.message,
      'GET /api/v2/dashboards → 301 Moved Permanently; unexpected redirect to https://elsewhere.example/api/v2/dashboards: check the API URL',
    );
  } finally {
    await server.close();
  }
});

test('a redirect to a long address holding the credential: redacted before the address is cut (no half a token)', async () => {
  const server = await startServer((_req, res) => {
    res.writeHead(302, { location: `https://evil.example/${'a'.repeat(160)}${TOKEN}/x` });
    res.end();
  });
  try {
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'bearer', token: TOKEN }, retry: { limit: 1 } });
    const e = (await rejects(() => http.request({ method: 'GET', path: '/api/v2/dashboards' }))) as ApiError;
    assert.is(e.status, 302);
    assert.match(e.message, /a\[redacted\]\/x: check the API URL$/);
    assert.not.ok(e.message.includes(TOKEN.slice(0, 6)), e.message);
  } finally {
    await server.close();
  }
});

test('a redirect with a large body: read to 64 KiB like any error body, not to the success limit', async () => {
  const server = await startServer((_req, res) => {
    res.writeHead(302, { location: 'https://elsewhere.example/', 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(1 << 20, 0x61);
    let sent = 0;
    let stopped = false;
    res.on('close', () => (stopped = true));
    const pump = () => {
      while (!stopped && sent++ < 8) if (!res.write(chunk)) return void res.once('drain', pump);
      if (!stopped) res.end();
    };
    pump();
  });
  try {
    const e = (await rejects(() => quick(server.url).listDashboards())) as ApiError;
    assert.instance(e, ApiError);
    assert.is(e.status, 302);
    assert.match(
      e.message,
      /^GET \/api\/v2\/dashboards → 302 Found: a+… \(body cut at 64 KiB\); unexpected redirect to https:\/\/elsewhere\.example\/: check the API URL$/,
    );
  } finally {
    await server.close();
  }
});

test('an abort signal interrupts a request with exit code 130', async () => {
  const server = await startServer(() => {});
  try {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const e = (await rejects(() => quick(server.url).listDashboards({ signal: ac.signal }))) as ApiTransportError;
    assert.instance(e, ApiTransportError);
    assert.is(e.failure, 'aborted');
    assert.is(e.exitCode, 130);
    assert.match(e.message, /: interrupted$/);
  } finally {
    await server.close();
  }
});

test.run();
