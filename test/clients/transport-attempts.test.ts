/**
 * The attempt loop (src/clients/exchange.ts) and one attempt on the wire (attempt.ts): a concurrency slot is
 * held only while an attempt is in flight, never during the backoff wait (the injected sleep); Ctrl-C ends
 * a request in its backoff wait, in flight or queued for a slot, and only a write that reached the server
 * is of unknown outcome; TLS is verified.
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, ApiTransportError, ConflictError, createHttp } from '../../src/clients/index.ts';
import { outcomeNote } from '../../src/clients/transport-errors.ts';
import { json, rejects, startServer } from './helpers.ts';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

test('a request waiting to retry does not hold its concurrency slot', async () => {
  const server = await startServer((req, res, rec) => {
    if (req.url === '/a' && rec.n === 1) json(res, 503, { message: 'busy' });
    else json(res, 200, { ok: req.url });
  });
  try {
    let release!: () => void;
    const waiting = new Promise<void>((resolve) => (release = resolve));
    let sleeping!: () => void;
    const asleep = new Promise<void>((resolve) => (sleeping = resolve));
    const sleeps: number[] = [];
    const http = createHttp({
      prefixUrl: server.url,
      auth: { type: 'none' },
      concurrency: 1,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
        sleeping();
        await waiting;
      },
    });
    const a = http.request({ method: 'GET', path: '/a' });
    await asleep;
    // /a is in its backoff wait: with one slot, /b can only finish if that slot was let go.
    const b = await http.request({ method: 'GET', path: '/b' });
    assert.equal(b.body, { ok: '/b' });
    release();
    const done = await a;
    assert.equal(done.body, { ok: '/a' });
    assert.is(done.attempts, 2);
    assert.equal(sleeps, [250]);
    assert.equal(
      server.requests.map((r) => r.url),
      ['/a', '/b', '/a'],
    );
  } finally {
    await server.close();
  }
});

/** A client whose first backoff wait is where Ctrl-C comes: the wait aborts its own signal. */
function ctrlCInBackoff(url: string) {
  const controller = new AbortController();
  return createHttp({
    prefixUrl: url,
    auth: { type: 'none' },
    signal: controller.signal,
    sleep: (_ms, signal) =>
      new Promise<void>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        controller.abort();
      }),
  });
}

test('Ctrl-C during the backoff wait ends the request: exit 130, no further attempt', async () => {
  const server = await startServer((_req, res) => json(res, 503, { message: 'busy' }));
  try {
    const http = ctrlCInBackoff(server.url);
    const e = await rejects(() => http.request({ method: 'PUT', path: '/alerts/x', json: { a: 1 } }));
    assert.instance(e, ApiTransportError);
    const err = e as ApiTransportError;
    assert.is(err.failure, 'aborted');
    assert.is(err.exitCode, 130);
    // Nothing more was sent, but the PUT answered 503 may have been applied (as the 503 alone would say).
    assert.is(err.outcomeUnknown, true, 'interrupted while waiting after a 503');
    assert.is(err.attempts, 1);
    assert.is(err.message, `PUT /alerts/x on ${new URL(server.url).host}: interrupted${outcomeNote('PUT')}`);
    assert.is(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('a write an earlier attempt may have applied stays of unknown outcome: after a retry answered 409, or Ctrl-C in the backoff wait', async () => {
  // Each first try of a path is read and its connection dropped (the server may have applied it); the second is a 409.
  const server = await startServer((req, res, rec) => {
    if (server.requests.filter((r) => r.url === rec.url).length === 1) return void req.socket.destroy();
    json(res, 409, { message: 'version moved' });
  });
  try {
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' }, sleep: async () => {} });
    const conflict = (await rejects(() => http.request({ method: 'PUT', path: '/alerts/a', json: { v: 1 } }))) as ApiError;
    assert.instance(conflict, ConflictError);
    assert.is(conflict.attempts, 2);
    assert.is(conflict.outcomeUnknown, true, 'the first PUT reached the server before its connection dropped');
    assert.ok(conflict.message.endsWith(outcomeNote('PUT')), conflict.message);
    // A read is never of unknown outcome.
    const read = (await rejects(() => http.request({ method: 'GET', path: '/alerts/b' }))) as ApiError;
    assert.is(read.status, 409);
    assert.is(read.outcomeUnknown, false);

    const interrupted = ctrlCInBackoff(server.url);
    const e = (await rejects(() => interrupted.request({ method: 'PUT', path: '/alerts/c', json: { v: 1 } }))) as ApiTransportError;
    assert.is(e.failure, 'aborted');
    assert.is(e.exitCode, 130);
    assert.is(e.outcomeUnknown, true, 'interrupted after a PUT that reached the server');
    assert.is(server.requests.filter((r) => r.url === '/alerts/c').length, 1);
  } finally {
    await server.close();
  }
});

test('Ctrl-C reaches a request in flight and one queued for its slot: the write that was sent is of unknown outcome, the queued one was never sent', async () => {
  const server = await startServer(() => {
    /* never answers */
  });
  try {
    const controller = new AbortController();
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'none' }, concurrency: 1, signal: controller.signal });
    const inFlight = rejects(() => http.request({ method: 'POST', path: '/a', json: { n: 1 } }));
    const queued = rejects(() => http.request({ method: 'POST', path: '/b', json: { n: 2 } }));
    while (server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const [a, b] = (await Promise.all([inFlight, queued])) as ApiTransportError[];
    const host = new URL(server.url).host;
    assert.is(a!.failure, 'aborted');
    assert.is(a!.outcomeUnknown, true);
    assert.is(a!.message, `POST /a on ${host}: interrupted; outcome unknown: the server may have applied this POST, check before sending it again`);
    assert.is(b!.failure, 'aborted');
    assert.is(b!.exitCode, 130);
    assert.is(b!.outcomeUnknown, false, 'never sent');
    assert.is(b!.message, `POST /b on ${host}: interrupted`);
    assert.equal(
      server.requests.map((r) => r.url),
      ['/a'],
    );
  } finally {
    await server.close();
  }
});

test('TLS is verified: a self-signed certificate fails the request at once, before anything is sent', async () => {
  // A self-signed certificate for localhost, made once (openssl req -x509 -newkey ec, 100 years) and kept
  // as a fixture, so the test needs no openssl on the machine. Its key protects nothing.
  const key = join(FIXTURES, 'self-signed.key.pem');
  const cert = join(FIXTURES, 'self-signed.cert.pem');
  let served = 0;
  const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
    served++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const http = createHttp({ prefixUrl: `https://localhost:${port}`, auth: { type: 'bearer', token: 'tok-tls-check-1' }, sleep: async () => {} });
    for (const method of ['GET', 'POST'] as const) {
      const e = (await rejects(() => http.request({ method, path: '/api/v2/dashboards', ...(method === 'POST' ? { json: {} } : {}) }))) as ApiTransportError;
      assert.instance(e, ApiTransportError);
      assert.is(e.failure, 'tls');
      assert.is(e.outcomeUnknown, false);
      assert.is(e.attempts, 1, 'a bad certificate does not heal: not retried');
      assert.is(e.message, `${method} /api/v2/dashboards on localhost:${port}: TLS failed: self-signed certificate`);
    }
    assert.is(served, 0);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test.run();
