/**
 * Interim answers from a hostile server: a raw `net` server on 127.0.0.1 answers two creates on one
 * keep-alive connection with bytes a reader of 100 Continue heads could misframe. Whatever it sends, a create
 * is sent once, never takes bytes sent before it as its answer, ends within its timeouts, and a failure is one
 * line without the token.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Socket } from 'node:net';
import { createHttp } from '../../src/clients/http.ts';
import { startRawServer } from './raw-answer-server.ts';

const TOKEN = 'Interim-Hostile-Token-4711';
const C = 'HTTP/1.1 100 Continue\r\n\r\n';
const created = (body: string) => `HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** Two creates, one after the other on one connection: each one's answer body, or its error message. */
async function twoCreates(url: string): Promise<string[]> {
  const http = createHttp({ prefixUrl: url, auth: { type: 'bearer', token: TOKEN }, timeoutMs: 2000, idleTimeoutMs: 500, concurrency: 1 });
  const out: string[] = [];
  for (const name of ['a', 'b']) {
    try {
      out.push(JSON.stringify((await http.request({ method: 'POST', path: `/${name}`, json: { name } })).body));
    } catch (e) {
      out.push(`error: ${(e as Error).message}`);
    }
    // A turn of the event loop between them, so that what the server wrote after the first answer has arrived
    // when the second create goes out on the same connection.
    await new Promise((r) => setImmediate(r));
  }
  return out;
}

/** Writes `text` again and again until the connection closes. */
function forever(socket: Socket, text: string): void {
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : socket.write(text)), 5);
  socket.on('close', () => clearInterval(timer));
}

test('an answer nobody asked for, cut in its status line, is not read as the next create’s answer', async () => {
  // The server answers the first create and, in the same write, starts an answer no request is waiting for;
  // the rest of it comes with the second create's answer. Held back, those bytes were the second create's.
  const server = await startRawServer((n, socket) => {
    if (n === 0) socket.write(created('{"id":"a1"}') + 'HTTP/1.1 201 Crea');
    else socket.write('ted\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n{"id":"EARLY"}' + created('{"id":"b1"}'));
  });
  try {
    const [a, b] = await twoCreates(server.url);
    assert.is(a, '{"id":"a1"}');
    assert.not.match(b!, 'EARLY', 'bytes sent before the second create were taken as its answer');
    assert.match(b!, /^error: POST \/b on 127\.0\.0\.1:\d+: .*outcome unknown/);
    assert.is(server.requests.filter((r) => r.startsWith('POST')).length, 2, 'no create sent twice');
  } finally {
    await server.close();
  }
});

test('bytes written to an idle connection close it: the next create goes out on a new one and gets its own answer', async () => {
  // 30 ms after answering the first create, the server starts an answer nobody asked for on that connection,
  // and finishes it when a request comes in there. Read there, the second create would fail (its answer would
  // start in the middle of another) or take that answer as its own.
  let first: Socket | undefined;
  let started = false;
  const server = await startRawServer((n, socket) => {
    if (n === 0) {
      first = socket;
      socket.write(created('{"id":"0"}'));
      setTimeout(() => {
        socket.write('HTTP/1.1 201 Crea');
        started = true;
      }, 30);
    } else if (socket === first) socket.write(`ted\r\nContent-Length: 14\r\n\r\n{"id":"EARLY"}${created(`{"id":"${n}"}`)}`);
    else socket.write(created(`{"id":"${n}"}`));
  });
  try {
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'bearer', token: TOKEN }, timeoutMs: 2000, idleTimeoutMs: 500, concurrency: 1 });
    const a = await http.request({ method: 'POST', path: '/a', json: { name: 'a' } });
    // Sent once those bytes have had time to arrive (on a loaded machine the server's timer may be late).
    while (!started) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    const b = await http.request({ method: 'POST', path: '/b', json: { name: 'b' } });
    assert.equal([a.body, b.body], [{ id: '0' }, { id: '1' }]);
    assert.is(server.requests.length, 2, 'no create sent twice');
  } finally {
    await server.close();
  }
});

const endless: Array<{ what: string; script: (n: number, socket: Socket) => void; expect: RegExp }> = [
  { what: '100 Continue heads forever', script: (_n, s) => forever(s, C.repeat(50)), expect: /the connection stalled/ },
  {
    what: 'a 100 head whose field never ends',
    script: (_n, s) => {
      s.write('HTTP/1.1 100 Continue\r\nX-Pad: ');
      forever(s, 'a'.repeat(65536));
    },
    expect:
      /^error: POST \/[ab] on 127\.0\.0\.1:\d+: the server's answer is not valid HTTP\/1\.1 \(HPE_HEADER_OVERFLOW: headers over 16 KiB\); outcome unknown/,
  },
  { what: '10,000 100 heads, then the answer', script: (n, s) => s.write(C.repeat(10000) + created(`{"id":"${n}"}`)), expect: /^\{"id":"[01]"\}$/ },
  {
    what: 'a 100 with a body (RFC 9110: a 1xx has none, so it is the next answer)',
    script: (n, s) => s.write(`HTTP/1.1 100 Continue\r\nContent-Length: 5\r\n\r\n${created(`{"id":"${n}"}`)}`),
    expect: /^\{"id":"[01]"\}$/,
  },
  {
    what: 'a 101 Switching Protocols nobody asked for, without Upgrade',
    script: (n, s) => s.write(`HTTP/1.1 101 Switching Protocols\r\n\r\n${created(`{"id":"${n}"}`)}`),
    expect: /^error: POST \/[ab] on 127\.0\.0\.1:\d+: the server answered 101 Switching Protocols, which steward never asks for; outcome unknown/,
  },
  {
    what: 'a 101 Switching Protocols nobody asked for',
    script: (n, s) => s.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: upgrade\r\n\r\n${created(`{"id":"${n}"}`)}`),
    expect: /^error: POST \/[ab] on 127\.0\.0\.1:\d+: the server answered 101 Switching Protocols, which steward never asks for; outcome unknown/,
  },
];

for (const { what, script, expect } of endless) {
  test(`${what}: each create is sent once and ends, in one line without the token`, async () => {
    const server = await startRawServer(script);
    try {
      const results = await twoCreates(server.url);
      for (const r of results) {
        assert.match(r, expect);
        assert.not.ok(r.includes('\n') || r.includes(TOKEN), r);
      }
      assert.is(server.requests.length, 2, 'no create sent twice');
    } finally {
      await server.close();
    }
  });
}

test.run();
