/**
 * A request ended while its connection is still being made (Ctrl-C during a TLS handshake that never
 * finishes) lets that connection go at once: nothing of it is sent, and no connect lingers until its timeout
 * holding the process open. Real sockets on 127.0.0.1: a `net` server that accepts and never answers.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { createHttp } from '../../src/clients/http.ts';
import { ApiTransportError } from '../../src/clients/errors.ts';
import { rejects } from './helpers.ts';

test('Ctrl-C during a TLS handshake that never ends: the request fails as aborted and its socket is closed at once', async () => {
  const sockets: Socket[] = [];
  let closedAt = 0;
  let received = 0;
  const server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', (d: Buffer) => void (received += d.length));
    socket.on('error', () => {});
    socket.on('close', () => void (closedAt = performance.now()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  try {
    const ctl = new AbortController();
    const http = createHttp({ prefixUrl: `https://127.0.0.1:${port}`, auth: { type: 'none' }, timeoutMs: 20_000, idleTimeoutMs: 20_000, signal: ctl.signal });
    const pending = rejects(() => http.request({ method: 'POST', path: '/api/x', json: { name: 'n' } }));
    await until(() => sockets.length === 1 && received > 0);
    const abortedAt = performance.now();
    ctl.abort();
    const e = (await pending) as ApiTransportError;
    assert.instance(e, ApiTransportError);
    assert.is(e.failure, 'aborted');
    assert.is(e.outcomeUnknown, false, 'never on a connection: nothing of the POST was sent');
    await until(() => closedAt > 0);
    assert.ok(closedAt - abortedAt < 2000, `socket closed ${Math.round(closedAt - abortedAt)} ms after the abort`);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
});

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ok(), 'timed out waiting');
}

test.run();
