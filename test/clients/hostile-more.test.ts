/**
 * Hostile servers, the stress versions (issue 8), beside hostile.test.ts: a 100 MB body against the default
 * size limit with the memory measured in a child process, and the hostile answers on writes and on the
 * cloud client: each a clear one-line error within the timeout.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiResponseError, ApiTransportError, createCloudClient, createObservabilityClient, DEFAULT_MAX_RESPONSE_BYTES } from '../../src/clients/index.ts';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { fakeClock, KEY_ID, KEY_SECRET, raw, rejects, startServer, TOKEN, type TestServer } from './helpers.ts';

const MiB = 1024 * 1024;
const CHILD = fileURLToPath(new URL('./big-body-child.ts', import.meta.url));

/** A server that streams up to `total` bytes of one JSON list, honouring backpressure; counts what it sent. */
async function bigBodyServer(total: number, opts: { declareLength?: boolean; envelope?: 'data' | 'result' } = {}) {
  const stats = { sent: 0 };
  const server = await startServer((_req, res) => {
    const head = opts.envelope === 'result' ? '{"status":200,"result":[' : '{"data":[';
    res.writeHead(200, { 'content-type': 'application/json', ...(opts.declareLength ? { 'content-length': String(total) } : {}) });
    res.write(head);
    const chunk = Buffer.from(`{"id":"x","name":"${'z'.repeat(64 * 1024)}"},`);
    let stopped = false;
    res.on('close', () => (stopped = true));
    const pump = () => {
      while (!stopped && stats.sent < total) {
        stats.sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!stopped) res.end('{}]}');
    };
    pump();
  });
  return { server, stats };
}

function runChild(
  url: string,
  which: 'observability' | 'cloud',
): Promise<{ error?: { name: string; message: string }; ms: number; rssBefore: number; maxRss: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, which], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`child exited ${code}: ${err}`))));
  });
}

test('a 100 MB body against the default limit (64 MiB): refused, the transfer cut, memory bounded by the limit', async () => {
  const { server, stats } = await bigBodyServer(100 * MiB);
  try {
    // WHEN a client with the default options lists dashboards (in a child, so its memory is its own)
    const r = await runChild(server.url, 'observability');
    // THEN one clear line, and the server did not get to send the 100 MB
    assert.equal(r.error, {
      name: 'ApiResponseError',
      message: 'GET /api/v2/dashboards: response larger than 64 MiB (maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it); refused',
    });
    assert.ok(stats.sent < 90 * MiB, `the server sent ${(stats.sent / MiB).toFixed(0)} MiB`);
    // AND the process grew by less than twice the limit (what arrived is held once, never copied again:
    // before that was fixed, a refused body was also concatenated, and the growth was 160-180 MiB)
    const growth = r.maxRss - r.rssBefore;
    assert.ok(growth < 2 * DEFAULT_MAX_RESPONSE_BYTES, `peak RSS grew by ${(growth / MiB).toFixed(0)} MiB`);
  } finally {
    await server.close();
  }
});

test('a body sent one byte per chunk: memory stays near the body size (a view per byte held ~120 bytes per byte)', async () => {
  const payload = 4 * MiB;
  const server = await startServer((_req, res) => {
    // Written to the socket as is: chunked encoding, one byte of body per chunk (6 bytes on the wire).
    const socket = res.socket!;
    socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
    const oneByte = (c: string) => `1\r\n${c}\r\n`;
    socket.write([...'{"data":['].map(oneByte).join(''));
    const block = Buffer.from(oneByte(' ').repeat(64 * 1024));
    let sent = 0;
    const pump = () => {
      while (!socket.destroyed && sent < payload) {
        sent += 64 * 1024;
        if (!socket.write(block)) return void socket.once('drain', pump);
      }
      if (!socket.destroyed) socket.write([...']}'].map(oneByte).join('') + '0\r\n\r\n');
    };
    pump();
  });
  try {
    const r = await runChild(server.url, 'observability');
    assert.is(r.error, undefined, JSON.stringify(r.error));
    // Before: 4 MiB of body grew the process by ~500 MiB.
    const growth = r.maxRss - r.rssBefore;
    assert.ok(growth < 16 * payload, `peak RSS grew by ${(growth / MiB).toFixed(0)} MiB for ${payload / MiB} MiB of body`);
  } finally {
    await server.close();
  }
});

test('a 100 MB body announced by content-length: refused from the headers, nothing read', async () => {
  const { server, stats } = await bigBodyServer(100 * MiB, { declareLength: true, envelope: 'result' });
  try {
    const before = process.memoryUsage().rss;
    const e = (await rejects(() => createCloudClient({ url: server.url, keyId: KEY_ID, keySecret: KEY_SECRET }).listBackups('o', 's'))) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.is(
      e.message,
      'GET /v1/organizations/o/services/s/backups: response larger than 64 MiB (maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it); refused',
    );
    assert.ok(process.memoryUsage().rss - before < 32 * MiB, 'nothing like the body was buffered');
    assert.ok(stats.sent < 32 * MiB, `the server sent ${(stats.sent / MiB).toFixed(0)} MiB`);
  } finally {
    await server.close();
  }
});

/** Hostile answers for a write: each must be one line, not retried, and say the outcome is unknown. */
const WRITE_CASES: Array<{ name: string; handler: Parameters<typeof startServer>[0]; expect: RegExp; failure?: string }> = [
  {
    name: 'a 200 with truncated JSON',
    handler: (_req, res) => raw(res, 200, '{"data":{"id":"65f5e4a3b9e77c001a000001","na', 'application/json'),
    expect: /^POST \/api\/v2\/dashboards: response is not valid JSON \(200, application\/json, 44 bytes\)/,
  },
  {
    name: 'a 200 with the wrong types',
    handler: (_req, res) => raw(res, 200, JSON.stringify({ data: { id: 7, name: ['x'], tiles: 'none' } }), 'application/json'),
    expect: /^POST \/api\/v2\/dashboards: data\.id: must be string \(and \d+ more problems?\)/,
  },
  {
    name: 'a 502 HTML page',
    handler: (_req, res) =>
      raw(
        res,
        502,
        '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
        'text/html',
      ),
    expect: /^POST \/api\/v2\/dashboards → 502 Bad Gateway: 502 Bad Gateway: nginx/,
  },
  {
    name: 'a body that never ends',
    handler: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
      const t = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(t));
    },
    expect: /^POST \/api\/v2\/dashboards on 127\.0\.0\.1:\d+: no complete response within 400 ms \(timeout\)/,
    failure: 'timeout',
  },
  {
    name: 'a connection that stalls after the headers',
    handler: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
    },
    expect: /^POST \/api\/v2\/dashboards on 127\.0\.0\.1:\d+: the connection stalled: nothing received for 200 ms/,
    failure: 'stalled',
  },
];

for (const c of WRITE_CASES) {
  test(`POST answered with ${c.name}: one line, not retried, outcome unknown, within the timeout`, async () => {
    const server = await startServer(c.handler);
    try {
      const client = createObservabilityClient({ url: server.url, token: TOKEN, timeoutMs: 400, idleTimeoutMs: 200 });
      const e = await rejects(() => client.createDashboard({ name: 'Checkout overview' }));
      assert.match(e.message, c.expect);
      assert.match(e.message, /; outcome unknown: the server may have applied this POST, check before sending it again$/);
      assert.not.match(e.message, /\n/);
      assert.is((e as ApiTransportError).outcomeUnknown, true);
      if (c.failure) assert.is((e as ApiTransportError).failure, c.failure);
      assert.is(server.requests.length, 1, 'a POST is never retried');
    } finally {
      await server.close();
    }
  });
}

test('a list of 150,000 webhooks in one answer (past what a spread can pass as arguments) is read whole', async () => {
  const n = 150_000;
  const body = JSON.stringify({ data: Array.from({ length: n }, (_, i) => ({ id: `w${i}`, name: `hook-${i}` })), meta: { total: n } });
  const server = await startServer((_req, res) => raw(res, 200, body, 'application/json'));
  try {
    const client = createObservabilityClient({ url: server.url, token: TOKEN, profile: OBSERVABILITY_PROFILES.hyperdx });
    const hooks = await client.listWebhooks();
    assert.is(hooks.length, n);
    assert.equal(hooks.at(-1), { id: `w${n - 1}`, name: `hook-${n - 1}` });
  } finally {
    await server.close();
  }
});

test('cloud reads: a never-ending body, a stall before the headers, truncated JSON: each a clear error within tries × timeout', async () => {
  const intervals: NodeJS.Timeout[] = [];
  const servers: TestServer[] = [];
  try {
    const modes = {
      never: await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"status":200,"result":[');
        intervals.push(setInterval(() => res.write(' '), 20));
      }),
      stall: await startServer(() => {
        /* accepts, never answers */
      }),
      truncated: await startServer((_req, res) => raw(res, 200, '{"status":200,"result":[{"id":"b1","sta', 'application/json')),
    };
    servers.push(...Object.values(modes));
    const clock = fakeClock();
    const client = (url: string) =>
      createCloudClient({
        url,
        keyId: KEY_ID,
        keySecret: KEY_SECRET,
        timeoutMs: 300,
        idleTimeoutMs: 200,
        retry: { limit: 3 },
        sleep: clock.sleep,
        now: clock.now,
      });
    const [never, stall, truncated] = await Promise.all([
      rejects(() => client(modes.never.url).listBackups('o', 's')),
      rejects(() => client(modes.stall.url).listIngestPipes('o', 's')),
      rejects(() => client(modes.truncated.url).listReversePrivateEndpoints('o', 's')),
    ]);
    assert.match(
      never.message,
      /^GET \/v1\/organizations\/o\/services\/s\/backups on 127\.0\.0\.1:\d+: no complete response within 300 ms \(timeout\) \(gave up after 3 attempts\)$/,
    );
    assert.match(
      stall.message,
      /^GET \/v1\/organizations\/o\/services\/s\/ingestpipes on 127\.0\.0\.1:\d+: (the connection stalled: nothing received for 200 ms|no complete response within 300 ms \(timeout\)) \(gave up after 3 attempts\)$/,
    );
    assert.match(
      truncated.message,
      /^GET \/v1\/organizations\/o\/services\/s\/ingestpipesReversePrivateEndpoints: response is not valid JSON \(200, application\/json, \d+ bytes\)/,
    );
    assert.is(modes.never.requests.length, 3);
    assert.is(modes.truncated.requests.length, 1, 'an unreadable 200 is not retried');
  } finally {
    for (const t of intervals) clearInterval(t);
    await Promise.all(servers.map((s) => s.close()));
  }
});

test.run();
