/**
 * Keep-alive sockets (src/clients/connections.ts): reused while fresh, closed once unused for `freeSocketMs`
 * (FREE_SOCKET_MS, 4 s, by default), so that a request is not sent on a connection the server may be closing
 * (for a create, an unknown outcome). A server on 127.0.0.1 counts the connections it accepts.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createConnections, type ResponseSink } from '../../src/clients/connections.ts';
import { json, startServer } from './helpers.ts';

/** Sends one GET and resolves with its status once the answer is read. */
function get(connections: ReturnType<typeof createConnections>): Promise<number> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const sink: ResponseSink = {
      onRequestStart() {},
      onResponseStart(_c, s) {
        status = s;
      },
      onResponseData() {},
      onResponseEnd: () => resolve(status),
      onResponseError: (_c, e) => reject(e),
    };
    connections.send({ method: 'GET', path: '/x', headers: {} }, sink);
  });
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a socket is reused while fresh, and closed once unused for freeSocketMs: the next request opens another', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [] }));
  try {
    const connections = createConnections(new URL(server.url), { connections: 1, connectTimeoutMs: 5000, freeSocketMs: 600 });
    assert.is(await get(connections), 200);
    await pause(20);
    assert.is(await get(connections), 200);
    assert.is(server.connections, 1, 'reused while fresh');
    await pause(1500);
    assert.is(await get(connections), 200);
    assert.is(server.connections, 2, 'a socket unused past freeSocketMs is not reused');
  } finally {
    await server.close();
  }
});

test('an answer slower than freeSocketMs is still read: the limit is for unused sockets only', async () => {
  const server = await startServer((_req, res) => void setTimeout(() => json(res, 200, { data: [] }), 400));
  try {
    const connections = createConnections(new URL(server.url), { connections: 1, connectTimeoutMs: 5000, freeSocketMs: 100 });
    assert.is(await get(connections), 200);
  } finally {
    await server.close();
  }
});

test.run();
