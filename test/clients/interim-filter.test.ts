/**
 * src/clients/interim.ts: the 100 Continue heads between answers are dropped, and nothing else: not a 100 that
 * is a body's text (Content-Length or chunked), not other 1xx, not what follows a framing it cannot read.
 * Table-driven, each case also cut at random places (the bytes come in as the network cuts them).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { Readable } from 'node:stream';
import { InterimFilter, skipInterimContinue } from '../../src/clients/interim.ts';

const C = 'HTTP/1.1 100 Continue\r\n\r\n';
const ok = (body: string, extra = '') => `HTTP/1.1 200 OK\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const chunked = (...chunks: string[]) =>
  `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('')}0\r\n\r\n`;

const cases: Array<{ what: string; input: string; output: string; dropped: number }> = [
  { what: 'a 100 before an answer', input: C + ok('{"data":[]}'), output: ok('{"data":[]}'), dropped: 1 },
  { what: 'several 100s, one with fields', input: C + 'HTTP/1.1 100 Continue\r\nVia: proxy\r\n\r\n' + C + ok('{}'), output: ok('{}'), dropped: 3 },
  { what: 'a 100 without a reason phrase, and HTTP/1.0', input: 'HTTP/1.1 100\r\n\r\nHTTP/1.0 100 Continue\r\n\r\n' + ok('x'), output: ok('x'), dropped: 2 },
  {
    what: '102 and 103 are kept (undici reads them)',
    input: 'HTTP/1.1 102 Processing\r\n\r\n' + C + 'HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n' + ok('x'),
    output: 'HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n' + ok('x'),
    dropped: 1,
  },
  {
    what: 'keep-alive: 100s before each of three answers',
    input: C + ok('a') + C + ok('bb') + C + C + ok('ccc'),
    output: ok('a') + ok('bb') + ok('ccc'),
    dropped: 4,
  },
  { what: 'a body that holds a 100 head as text is kept', input: C + ok(C) + C + ok(`${C}${C}`), output: ok(C) + ok(`${C}${C}`), dropped: 2 },
  {
    what: 'chunked, with a chunk that holds a 100 head, extensions and trailers',
    input: C + chunked('{"da', C, 'ta":1}').replace('\r\n0\r\n\r\n', '\r\n0;done\r\nX-Trailer: 1\r\n\r\n') + C + ok('n'),
    output: chunked('{"da', C, 'ta":1}').replace('\r\n0\r\n\r\n', '\r\n0;done\r\nX-Trailer: 1\r\n\r\n') + ok('n'),
    dropped: 2,
  },
  {
    what: 'gzip and chunked named in two fields',
    input: C + 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n' + C + ok('k'),
    output: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n' + ok('k'),
    dropped: 2,
  },
  {
    what: '204 and 304 have no body',
    input: C + 'HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n' + C + 'HTTP/1.1 304 Not Modified\r\n\r\n' + C + ok('y'),
    output: 'HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\nHTTP/1.1 304 Not Modified\r\n\r\n' + ok('y'),
    dropped: 3,
  },
  {
    what: 'an error answer with a body',
    input: C + 'HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\n<h1>\n' + C + ok('z'),
    output: 'HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\n<h1>\n' + ok('z'),
    dropped: 2,
  },
  {
    what: 'bare LF line ends',
    input: 'HTTP/1.1 100 Continue\n\nHTTP/1.1 200 OK\nContent-Length: 1\n\nq',
    output: 'HTTP/1.1 200 OK\nContent-Length: 1\n\nq',
    dropped: 1,
  },
  // What is not framed here goes on untouched from then on: undici reads it as it would have.
  {
    what: 'an answer read to the connection end',
    input: C + 'HTTP/1.1 200 OK\r\n\r\n' + C + 'rest',
    output: 'HTTP/1.1 200 OK\r\n\r\n' + C + 'rest',
    dropped: 1,
  },
  {
    what: 'two different lengths',
    input: 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab' + C,
    output: 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab' + C,
    dropped: 0,
  },
  { what: 'a 101', input: 'HTTP/1.1 101 Switching Protocols\r\n\r\n' + C, output: 'HTTP/1.1 101 Switching Protocols\r\n\r\n' + C, dropped: 0 },
  { what: 'a status line that is not HTTP/1.x', input: 'HTTP/2 100\r\n\r\n' + C, output: 'HTTP/2 100\r\n\r\n' + C, dropped: 0 },
  {
    what: 'a chunk size that is not one',
    input: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n' + C,
    output: 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n' + C,
    dropped: 0,
  },
];

function filterAll(pieces: Buffer[]): { out: string; dropped: number } {
  const f = new InterimFilter();
  return { out: Buffer.concat(pieces.map((p) => f.push(p))).toString('latin1'), dropped: f.dropped };
}

for (const c of cases) {
  test(`${c.what}: whole, byte by byte, and cut anywhere`, () => {
    const input = Buffer.from(c.input, 'latin1');
    assert.equal(filterAll([input]), { out: c.output, dropped: c.dropped });
    assert.equal(filterAll([...input].map((b) => Buffer.from([b]))), { out: c.output, dropped: c.dropped });
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: input.length - 1 }), { maxLength: 8 }), (cuts) => {
        const at = [0, ...cuts.sort((a, b) => a - b), input.length];
        const pieces = at.slice(1).map((end, i) => input.subarray(at[i], end));
        assert.equal(filterAll(pieces), { out: c.output, dropped: c.dropped });
      }),
      { numRuns: 200, seed: 7 },
    );
  });
}

test('a status line is held until it is whole; anything else goes on as it comes', () => {
  const f = new InterimFilter();
  assert.is(f.push(Buffer.from('HTTP/1.1 10')).length, 0, 'may be a 100');
  assert.is(f.push(Buffer.from('0 Continue\r\n')).length, 0, 'a 100: dropped');
  assert.is(f.push(Buffer.from('\r\nHTTP/1.1 200 OK\r\nContent-')).toString(), 'HTTP/1.1 200 OK\r\nContent-');
  assert.is(f.push(Buffer.from('Length: 4\r\n\r\n{"a')).toString(), 'Length: 4\r\n\r\n{"a');
});

test('a status line goes on as soon as it cannot be a 100’s: an answer nobody asked for is not held for the next request', () => {
  const f = new InterimFilter();
  assert.is(f.push(Buffer.from(ok('a') + 'HTTP/1.1 2')).toString(), ok('a') + 'HTTP/1.1 2');
  assert.is(f.push(Buffer.from('01 Created\r\nContent-Length: 1\r\n\r\nb')).toString(), '01 Created\r\nContent-Length: 1\r\n\r\nb');
  for (const start of ['X', 'HTTP/2', 'HTTP/1.1 1 ', 'HTTP/1.0 10 ', 'HTTP/1.1 101', 'HTTP/1.1 1000']) {
    assert.is(new InterimFilter().push(Buffer.from(start)).toString(), start, start);
  }
  for (const start of ['H', 'HTTP/1.', 'HTTP/1.0 1', 'HTTP/1.1 100', 'HTTP/1.1 100 Cont']) {
    assert.is(new InterimFilter().push(Buffer.from(start)).length, 0, `${start}: may be a 100`);
  }
});

test('bytes undici gives back (unshift, a paused answer) are not filtered twice', () => {
  const socket = new Readable({ read() {} });
  const filter = skipInterimContinue(socket);
  const body = `x${C}y`;
  socket.push(Buffer.from(C + ok(body), 'latin1'));
  const first = (socket.read() as Buffer).toString('latin1');
  assert.is(first, ok(body));
  // undici paused after the head: the body comes back, and a 100 head in it is text, not an answer.
  socket.unshift(Buffer.from(body, 'latin1'));
  socket.push(Buffer.from(C + ok('z'), 'latin1'));
  assert.is((socket.read() as Buffer).toString('latin1'), body + ok('z'));
  assert.is(filter.dropped, 2);
});

test.run();
