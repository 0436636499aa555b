/**
 * Answers that are not valid HTTP/1.1 (a server or a proxy in front of it that breaks the framing): each is
 * one line saying so and what was wrong (node:http's HPE_* code and llhttp's reason), never "the connection
 * was closed", never the answer's bytes. A POST's outcome is unknown (the server may have applied it); a GET
 * is not tried again (the same server answers the same way). A connection closed before the body was whole
 * is still a reset, retried for a GET. Real HTTP over loopback: a raw `net` server writes the bytes.
 *
 * The last table is the border: each head node:http refuses is named by its reason, and each one it reads is read
 * (so that a connection closed early after such a head is still a reset, not a fault of the answer).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHttp } from '../../src/clients/http.ts';
import { ApiTransportError } from '../../src/clients/errors.ts';
import { startRawAnswerServer, type RawAnswer } from './raw-answer-server.ts';
import { TOKEN, fakeClock, rejects } from './helpers.ts';

/** Bytes of the answer after the fault: never shown (a proxy may echo the request's credential). */
const TAIL = `X-Echo: Bearer ${TOKEN} ANSWER-BYTES-7731\r\n\r\n{}`;
const OK = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n';

interface Case {
  what: string;
  answer: RawAnswer;
  /** What the parenthesis says: `HPE_CODE: reason`, or the reason alone. */
  says: string;
  code: string | undefined;
}

const cases: Case[] = [
  {
    what: 'two different Content-Length fields',
    answer: { bytes: `${OK}Content-Length: 2\r\nContent-Length: 3\r\n${TAIL}` },
    says: 'HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length',
    code: 'HPE_UNEXPECTED_CONTENT_LENGTH',
  },
  {
    what: 'the same Content-Length twice',
    answer: { bytes: `${OK}Content-Length: 2\r\nContent-Length: 2\r\n${TAIL}` },
    says: 'HPE_UNEXPECTED_CONTENT_LENGTH: Duplicate Content-Length',
    code: 'HPE_UNEXPECTED_CONTENT_LENGTH',
  },
  {
    what: 'Content-Length, then Transfer-Encoding: chunked',
    answer: { bytes: `${OK}Content-Length: 2\r\nTransfer-Encoding: chunked\r\n${TAIL}` },
    says: "HPE_INVALID_TRANSFER_ENCODING: Transfer-Encoding can't be present with Content-Length",
    code: 'HPE_INVALID_TRANSFER_ENCODING',
  },
  {
    what: 'Transfer-Encoding: chunked, then Content-Length',
    answer: { bytes: `${OK}Transfer-Encoding: chunked\r\nContent-Length: 2\r\n${TAIL}` },
    says: "HPE_INVALID_CONTENT_LENGTH: Content-Length can't be present with Transfer-Encoding",
    code: 'HPE_INVALID_CONTENT_LENGTH',
  },
  {
    what: 'a status code that is not one',
    answer: { bytes: `HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n${TAIL}` },
    says: 'HPE_INVALID_STATUS: Invalid status code',
    code: 'HPE_INVALID_STATUS',
  },
  {
    what: 'no status line: another protocol on the port',
    answer: { bytes: `SSH-2.0-OpenSSH_9.6 ${TOKEN} ANSWER-BYTES-7731\r\n` },
    says: 'HPE_INVALID_CONSTANT: Expected HTTP/, RTSP/ or ICE/',
    code: 'HPE_INVALID_CONSTANT',
  },
  { what: 'an HTTP/2 status line', answer: { bytes: `HTTP/2 200\r\n${TAIL}` }, says: 'HPE_INVALID_VERSION: Expected dot', code: 'HPE_INVALID_VERSION' },
  {
    what: 'a chunk size that is not hex',
    answer: { bytes: `${OK}Transfer-Encoding: chunked\r\n\r\nzz\r\n${TAIL}` },
    says: 'HPE_INVALID_CHUNK_SIZE: Invalid character in chunk size',
    code: 'HPE_INVALID_CHUNK_SIZE',
  },
  {
    what: 'headers over 16 KiB',
    answer: { bytes: `${OK}X-Pad: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n${TAIL}` },
    says: 'HPE_HEADER_OVERFLOW: headers over 16 KiB',
    code: 'HPE_HEADER_OVERFLOW',
  },
  {
    what: 'a control character in a field value',
    answer: { bytes: `${OK}X-Bad: a\u0001b\r\nContent-Length: 2\r\n${TAIL}` },
    says: 'HPE_INVALID_HEADER_TOKEN: Invalid header value char',
    code: 'HPE_INVALID_HEADER_TOKEN',
  },
  {
    what: 'a control character in a field value after Content-Length',
    answer: { bytes: `${OK}Content-Length: 2\r\nX-Bad: a\u0001b\r\n${TAIL}` },
    says: 'HPE_INVALID_HEADER_TOKEN: Invalid header value char',
    code: 'HPE_INVALID_HEADER_TOKEN',
  },
  {
    what: 'a space in a field name after Content-Length',
    answer: { bytes: `${OK}Content-Length: 2\r\nX Bad: b\r\n${TAIL}` },
    says: 'HPE_INVALID_HEADER_TOKEN: Invalid header token',
    code: 'HPE_INVALID_HEADER_TOKEN',
  },
  {
    what: 'a folded field after Content-Length',
    answer: { bytes: `${OK}Content-Length: 2\r\nX-A: a\r\n  folded\r\n${TAIL}` },
    says: 'HPE_INVALID_HEADER_TOKEN: Unexpected whitespace after header value',
    code: 'HPE_INVALID_HEADER_TOKEN',
  },
  {
    what: 'a field line ended by a bare LF after Content-Length',
    answer: { bytes: `${OK}Content-Length: 2\r\nX-A: b\n${TAIL}` },
    says: 'HPE_CR_EXPECTED: Missing expected CR after header value',
    code: 'HPE_CR_EXPECTED',
  },
  {
    what: 'a Content-Length over 2^64',
    answer: { bytes: `${OK}Content-Length: 18446744073709551616\r\n${TAIL}` },
    says: 'HPE_INVALID_CONTENT_LENGTH: Content-Length overflow',
    code: 'HPE_INVALID_CONTENT_LENGTH',
  },
  {
    what: 'a tab after the Content-Length',
    answer: { bytes: `${OK}Content-Length: 2\t\r\n${TAIL}` },
    says: 'HPE_INVALID_CONTENT_LENGTH: Invalid character in Content-Length',
    code: 'HPE_INVALID_CONTENT_LENGTH',
  },
];

function client(url: string) {
  const clock = fakeClock();
  const http = createHttp({
    prefixUrl: url,
    auth: { type: 'bearer', token: TOKEN },
    timeoutMs: 5000,
    idleTimeoutMs: 5000,
    retry: { limit: 3 },
    sleep: clock.sleep,
    now: clock.now,
    random: () => 0.5,
  });
  return { http, clock };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** Every message and stack of an error and its causes: what `--debug` prints. */
function chain(e: unknown): string {
  let out = '';
  for (let cur = e; cur instanceof Error; cur = cur.cause) out += `${cur.message}\n${cur.stack ?? ''}\n`;
  return out;
}

for (const c of cases) {
  test(`${c.what}: not valid HTTP/1.1, in one line; a POST's outcome is unknown, a GET is not tried again`, async () => {
    const server = await startRawAnswerServer(c.answer);
    try {
      const { http, clock } = client(server.url);
      const post = (await rejects(() => http.request({ method: 'POST', path: '/api/x', json: { name: 'n' } }))) as ApiTransportError;
      assert.instance(post, ApiTransportError);
      assert.match(
        post.message,
        new RegExp(
          `^POST /api/x on 127\\.0\\.0\\.1:\\d+: the server's answer is not valid HTTP/1\\.1 \\(${escape(c.says)}\\); outcome unknown: the server may have applied this POST, check before sending it again$`,
        ),
      );
      assert.is(post.outcomeUnknown, true);
      assert.is(post.failure, 'protocol');
      assert.is(post.transportCode, c.code);
      assert.not.match(chain(post), /ANSWER-BYTES|tok_canary/, 'the answer’s bytes are shown');

      const get = (await rejects(() => http.request({ method: 'GET', path: '/api/x' }))) as ApiTransportError;
      assert.match(get.message, new RegExp(`^GET /api/x on 127\\.0\\.0\\.1:\\d+: the server's answer is not valid HTTP/1\\.1 \\(${escape(c.says)}\\)$`));
      assert.is(get.outcomeUnknown, false);
      assert.is(get.attempts, 1);
      assert.equal(clock.sleeps, []);
      assert.equal(
        server.requests.map((r) => r.split(' ')[0]),
        ['POST', 'GET'],
      );
    } finally {
      await server.close();
    }
  });
}

const truncated: Array<{ what: string; answer: RawAnswer }> = [
  { what: 'Connection: close and a body cut short', answer: { bytes: `${OK}Connection: close\r\nContent-Length: 10\r\n\r\n{}`, end: true } },
  { what: 'a keep-alive body cut short', answer: { bytes: `${OK}Content-Length: 10\r\n\r\n{}`, end: true } },
];

for (const c of truncated) {
  test(`${c.what}: still a reset (retried for a GET), not a fault of the answer`, async () => {
    const server = await startRawAnswerServer(c.answer);
    try {
      const { http } = client(server.url);
      const post = (await rejects(() => http.request({ method: 'POST', path: '/api/x', json: {} }))) as ApiTransportError;
      assert.is(post.failure, 'reset');
      assert.is(post.outcomeUnknown, true);
      assert.match(post.message, /: the connection was closed before the response was complete \(ECONNRESET\); outcome unknown/);
      const get = (await rejects(() => http.request({ method: 'GET', path: '/api/x' }))) as ApiTransportError;
      assert.is(get.failure, 'reset');
      assert.is(get.attempts, 3);
      assert.is(server.requests.length, 4);
    } finally {
      await server.close();
    }
  });
}

test('a 204 with a Content-Length is read as having no body (RFC 9112 6.3); bytes after it are a fault, not the next answer', async () => {
  const bare = await startRawAnswerServer({ bytes: 'HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n' });
  try {
    const { http } = client(bare.url);
    for (const path of ['/api/x', '/api/y']) {
      const got = await http.request({ method: 'DELETE', path });
      assert.is(got.status, 204);
      assert.is(got.body, undefined);
    }
  } finally {
    await bare.close();
  }
  // The five bytes the Content-Length announces, sent after the 204: they answer nothing.
  const trailing = await startRawAnswerServer({ bytes: 'HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n{"a":' });
  try {
    const { http } = client(trailing.url);
    const e = (await rejects(() => http.request({ method: 'DELETE', path: '/api/x' }))) as ApiTransportError;
    assert.match(e.message, /the server's answer is not valid HTTP\/1\.1 \(HPE_INVALID_CONSTANT: /);
  } finally {
    await trailing.close();
  }
});

/**
 * Where node:http draws the line: every head with a fault is refused and named by llhttp's reason; every head
 * without one is read (an answer cut short after it is a reset, retried for a GET, not a fault of the answer).
 */
const heads: Array<{ head: string; fault: string | undefined }> = [
  { head: 'Content-Length: 2\r\nContent-Length: 2\r\n', fault: 'Duplicate Content-Length' },
  { head: 'Content-Length: 2\r\nTransfer-Encoding: gzip\r\n', fault: "Transfer-Encoding can't be present with Content-Length" },
  { head: 'Content-Length: 2\r\nX-A: a\u007fb\r\n', fault: 'Invalid header value char' },
  { head: 'Content-Length: 2\r\nX-A: a\rb\r\n', fault: 'Missing expected LF after header value' },
  { head: 'Content-Length: 2\r\nX-\u00e9: v\r\n', fault: 'Invalid header token' },
  { head: 'Content-Length: 2\r\nX-A : v\r\n', fault: 'Invalid header token' },
  { head: 'Content-Length: 2\r\n: v\r\n', fault: 'Invalid header token' },
  { head: 'Content-Length: 2\r\nno-colon\r\n', fault: 'Invalid header token' },
  { head: 'Content-Length: 2\n', fault: 'Missing expected CR after header value' },
  { head: 'Content-Length: 2\r\n\r', fault: 'Expected LF after headers' },
  { head: 'Content-Length:\r\n', fault: 'Empty Content-Length' },
  { head: 'Content-Length: +2\r\n', fault: 'Invalid character in Content-Length' },
  { head: 'Content-Length: 2  \r\n', fault: undefined },
  { head: 'Content-Length:\t2\r\n', fault: undefined },
  { head: 'Content-Length:2\r\n', fault: undefined },
  { head: 'Content-Length: 0002\r\n', fault: undefined },
  { head: "X!#$%&'*+-.^_`|~: v\r\nContent-Length: 2\r\n", fault: undefined },
  { head: 'Content-Length: 2\r\nX-A: caf\u00e9 \t x\r\nX-B:\r\n', fault: undefined },
];

for (const { head, fault } of heads) {
  test(`${JSON.stringify(head)}: ${fault ? `refused as ${fault}` : 'read'}`, async () => {
    const server = await startRawAnswerServer({ bytes: `HTTP/1.1 200 OK\r\n${head}\r\n{}` });
    try {
      const { http } = client(server.url);
      if (fault === undefined) {
        const got = await http.request({ method: 'GET', path: '/api/x' });
        assert.equal(got.body, {});
      } else {
        const e = (await rejects(() => http.request({ method: 'GET', path: '/api/x' }))) as ApiTransportError;
        assert.instance(e, ApiTransportError);
        assert.ok(e.message.includes(`${fault})`), e.message);
        assert.not.ok(e.message.includes('reset'), e.message);
      }
    } finally {
      await server.close();
    }
  });
}

test.run();
