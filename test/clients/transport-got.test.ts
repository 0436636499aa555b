/**
 * The transport on got's retry step (src/clients/exchange.ts): a concurrency slot is held only while an
 * attempt is in flight, never during the backoff wait that beforeRetry does through the injected sleep, and
 * Ctrl-C during that wait ends the request without another attempt.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiTransportError, createHttp } from '../../src/clients/index.ts';
import { json, rejects, startServer } from './helpers.ts';

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

test('Ctrl-C during the backoff wait ends the request: exit 130, no further attempt', async () => {
  const server = await startServer((_req, res) => json(res, 503, { message: 'busy' }));
  try {
    const controller = new AbortController();
    const http = createHttp({
      prefixUrl: server.url,
      auth: { type: 'none' },
      signal: controller.signal,
      sleep: (_ms, signal) =>
        new Promise<void>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
          controller.abort();
        }),
    });
    const e = await rejects(() => http.request({ method: 'PUT', path: '/alerts/x', json: { a: 1 } }));
    assert.instance(e, ApiTransportError);
    const err = e as ApiTransportError;
    assert.is(err.failure, 'aborted');
    assert.is(err.exitCode, 130);
    assert.is(err.outcomeUnknown, false, 'interrupted while waiting: nothing more was sent');
    assert.is(err.attempts, 1);
    assert.is(err.message, `PUT /alerts/x on ${new URL(server.url).host}: interrupted`);
    assert.is(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test.run();
