/**
 * Compressed answers: the client offers gzip, deflate and br, decodes what comes back, and counts its size
 * limits on the decoded bytes, so a small compressed body that decodes to gigabytes (a decompression bomb)
 * is cut off at the limit, and an error body at its 64 KiB.
 */
import { brotliCompressSync, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, ApiResponseError, createHttp } from '../../src/clients/index.ts';
import { rejects, startServer } from './helpers.ts';

const LIST = { data: [{ id: 'd1', name: 'Checkout – latency' }] };
const ENCODED: Array<[string, string, (b: Buffer) => Buffer]> = [
  ['gzip', 'gzip', gzipSync],
  ['deflate (zlib)', 'deflate', deflateSync],
  ['deflate (raw)', 'deflate', deflateRawSync],
  ['br', 'br', brotliCompressSync],
];

test('gzip, deflate and br are offered and decoded; the caller sees the headers of the decoded body', async () => {
  const server = await startServer((req, res) => {
    const [, encoding, compress] = ENCODED[Number(req.url?.slice(1))]!;
    const body = compress(Buffer.from(JSON.stringify(LIST)));
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': body.length });
    res.end(body);
  });
  try {
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' } });
    for (const [i, [name]] of ENCODED.entries()) {
      const r = await http.request({ method: 'GET', path: `/${i}` });
      assert.equal(r.body, LIST, name);
      assert.is(r.headers['content-encoding'], undefined, name);
      assert.is(r.headers['content-length'], undefined, name);
    }
    for (const r of server.requests) assert.match(String(r.headers['accept-encoding']), /^gzip, deflate, br\b/);
  } finally {
    await server.close();
  }
});

test('a decompression bomb is cut off at the limit, counted decoded: refused, the transfer stopped', async () => {
  let sent = 0;
  const server = await startServer((_req, res) => {
    // Up to 1 GiB of spaces inside a JSON value, gzipped to about a thousandth of that.
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    const gz = createGzip();
    gz.pipe(res);
    const spaces = Buffer.alloc(1 << 20, 0x20);
    let stopped = false;
    res.on('close', () => (stopped = true));
    gz.write('{"data":');
    const pump = () => {
      while (!stopped && sent < 1024) {
        sent++;
        if (!gz.write(spaces)) return void gz.once('drain', pump);
      }
      if (!stopped) gz.end('[]}');
    };
    pump();
  });
  try {
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' }, maxResponseBytes: 1 << 20 });
    const e = (await rejects(() => http.request({ method: 'GET', path: '/api/v2/dashboards' }))) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.is(e.message, 'GET /api/v2/dashboards: response larger than 1 MiB (maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it); refused');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(sent < 512, `the server got to compress ${sent} MiB of the 1,024`);
  } finally {
    await server.close();
  }
});

test('a compressed error body is decoded and cut at 64 KiB decoded', async () => {
  const server = await startServer((_req, res) => {
    const body = gzipSync(Buffer.from(`upstream failed: ${'x'.repeat(300_000)}`));
    res.writeHead(500, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': body.length });
    res.end(body);
  });
  try {
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' }, retry: { limit: 1 } });
    const e = (await rejects(() => http.request({ method: 'GET', path: '/x' }))) as ApiError;
    assert.instance(e, ApiError);
    assert.is(e.status, 500);
    assert.match(e.message, /^GET \/x → 500 Internal Server Error: upstream failed: x+… \(body cut at 64 KiB\)$/);
  } finally {
    await server.close();
  }
});

test('an error body that does not decode keeps its status: the error, retry and outcome of that status, and the next request is answered', async () => {
  // What each request is answered: a status with a body labelled gzip that is not gzip (or is cut short).
  const cases: Array<{ method: 'GET' | 'POST'; status: number; body: Buffer; then?: number; error: string; outcomeUnknown: boolean }> = [
    { method: 'POST', status: 409, body: Buffer.from('not gzip at all'), error: 'ConflictError', outcomeUnknown: false },
    { method: 'POST', status: 400, body: gzipSync('{"message":"name is required"}').subarray(0, 15), error: 'ApiError', outcomeUnknown: false },
    { method: 'POST', status: 429, body: Buffer.from('xx'), error: 'RateLimitedError', outcomeUnknown: false },
    { method: 'GET', status: 401, body: Buffer.from('xx'), error: 'UnauthorizedError', outcomeUnknown: false },
    { method: 'POST', status: 502, body: Buffer.from('xx'), error: 'ApiError', outcomeUnknown: true },
    // A GET asked to wait is tried again (and the second answer is whole).
    { method: 'GET', status: 503, body: Buffer.from('xx'), then: 200, error: '', outcomeUnknown: false },
  ];
  const seen = new Map<string, number>();
  const server = await startServer((req, res) => {
    const url = req.url ?? '';
    seen.set(url, (seen.get(url) ?? 0) + 1);
    const c = cases[Number(url.slice(1))];
    if (!c || (c.then !== undefined && seen.get(url)! > 1)) {
      res.writeHead(c?.then ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: url }));
      return;
    }
    res.writeHead(c.status, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'retry-after': '0' });
    // Sent in two writes: the part after the one that fails to decode is not read.
    res.write(c.body);
    setImmediate(() => res.end(Buffer.alloc(64, 1)));
  });
  try {
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' }, concurrency: 1, retry: { limit: 2, baseDelayMs: 0 }, sleep: async () => {} });
    for (const [i, c] of cases.entries()) {
      const label = `${c.method} ${c.status}`;
      const request = { method: c.method, path: `/${i}`, ...(c.method === 'POST' ? { json: { name: 'x' } } : {}) };
      if (c.error === '') {
        const r = await http.request(request);
        assert.equal(r.body, { data: `/${i}` }, label);
        assert.is(r.attempts, 2, label);
      } else {
        const e = (await rejects(() => http.request(request))) as ApiError;
        assert.is(e.constructor.name, c.error, label);
        assert.is(e.status, c.status, label);
        assert.is(e.outcomeUnknown, c.outcomeUnknown, label);
      }
      // The connection the cut body was on is not reused for a mixed answer.
      assert.equal((await http.request({ method: 'GET', path: '/next' })).body, { data: '/next' }, label);
    }
  } finally {
    await server.close();
  }
});

test('a success whose body does not decode is an unreadable answer with its status (a write: applied, its answer lost)', async () => {
  const server = await startServer((req, res) => {
    if (req.url === '/next') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: 'next' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(req.url === '/cut' ? gzipSync(JSON.stringify(LIST)).subarray(0, 20) : Buffer.from('{"data":"not gzip"}'));
  });
  try {
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' }, concurrency: 1, sleep: async () => {} });
    const cases = [
      { method: 'PUT' as const, path: '/dashboards/d1', outcomeUnknown: true, why: 'incorrect header check' },
      { method: 'GET' as const, path: '/cut', outcomeUnknown: false, why: 'unexpected end of file' },
    ];
    for (const c of cases) {
      const e = (await rejects(() => http.request({ method: c.method, path: c.path, ...(c.method === 'PUT' ? { json: {} } : {}) }))) as ApiResponseError;
      assert.instance(e, ApiResponseError, c.path);
      assert.is(e.status, 200, c.path);
      assert.is(e.outcomeUnknown, c.outcomeUnknown, c.path);
      assert.is(e.attempts, 1, c.path);
      assert.ok(e.message.startsWith(`${c.method} ${c.path}: response body could not be decoded (gzip: ${c.why})`), e.message);
      assert.equal((await http.request({ method: 'GET', path: '/next' })).body, { data: 'next' });
    }
  } finally {
    await server.close();
  }
});

test.run();
