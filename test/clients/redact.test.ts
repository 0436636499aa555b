import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, createCloudClient, createObservabilityClient, redact, REDACTED } from '../../src/clients/index.ts';
import { fakeClock, json, raw, rejects, startServer, KEY_ID, KEY_SECRET, TOKEN } from './helpers.ts';

const BASIC = Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64');

function assertClean(text: string) {
  for (const secret of [TOKEN, KEY_SECRET, KEY_ID, BASIC, encodeURIComponent(KEY_SECRET)]) {
    assert.not.ok(text.includes(secret), `leaked ${secret} in: ${text}`);
  }
}

test('redact: configured secrets and their encoded forms', () => {
  const s = 'p@ss/word+1';
  assert.is(redact(`a ${s} b`, [s]), `a ${REDACTED} b`);
  assert.is(redact(`a=${encodeURIComponent(s)}`, [s]), `a=${REDACTED}`);
  assert.is(redact(`"${JSON.stringify('x"y\\z').slice(1, -1)}"`, ['x"y\\z']), `"${REDACTED}"`);
  assert.is(redact(Buffer.from('hunter22').toString('base64'), ['hunter22']), REDACTED);
  assert.is(redact('short ab', ['ab']), 'short ab', 'secrets under 4 characters are not replaced');
  assert.is(redact('nothing', [undefined, null, '']), 'nothing');
});

test('redact: a secret URL-encoded any way an encoder may write it (hex in either case, some characters only)', () => {
  const s = 'hdx+Sec/ret=9f8e7d6c5b4a';
  const CASES: Array<[string, string]> = [
    ['every reserved character, upper-case hex', encodeURIComponent(s)],
    ['lower-case hex', 'hdx%2bSec%2fret%3d9f8e7d6c5b4a'],
    ['mixed case hex', 'hdx%2BSec%2fret%3D9f8e7d6c5b4a'],
    ['only the + encoded', 'hdx%2BSec/ret=9f8e7d6c5b4a'],
    ['an unreserved character encoded too', '%68dx%2bSec/ret%3D9f8e7d6c5b4a'],
    ['a space as +, in a form', 'a+b+c%2Fde'],
    ['a non-ASCII character as its UTF-8 bytes, lower case', 'p%c3%a4ss-word'],
  ];
  for (const [name, form] of CASES) assert.is(redact(`q=${form}&x=1`, [s, 'a b c/de', 'päss-word']), `q=${REDACTED}&x=1`, name);
  // Near misses stay: the token's own letters are case-sensitive, another character is another token.
  for (const other of ['hdx+sec/ret=9f8e7d6c5b4a', 'hdx%2CSec/ret=9f8e7d6c5b4a', 'a+b+c+de'])
    assert.is(redact(`q=${other}`, [s, 'a b c/de']), `q=${other}`, other);
});

test('redact: credential-shaped text whatever its value', () => {
  assert.is(redact('Authorization: Bearer abc.def'), `Authorization: Bearer ${REDACTED}`);
  assert.is(redact('authorization=Basic Zm9vOmJhcg=='), `authorization=Basic ${REDACTED}`);
  assert.is(redact('{"authorization":"Token xyz"}'), `{"authorization":"Token ${REDACTED}"}`);
  assert.is(redact('sent Bearer eyJhbGciOiJIUzI1NiJ9.payload'), `sent Bearer ${REDACTED}`);
  assert.is(redact('GET https://h/x?api_key=123&page=2&token=abc'), `GET https://h/x?api_key=${REDACTED}&page=2&token=${REDACTED}`);
  assert.is(redact('https://user:pw@host/path'), `https://${REDACTED}@host/path`);
  assert.is(redact('401 Unauthorized: Basic auth required'), '401 Unauthorized: Basic auth required');
});

test('redact: idempotent', () => {
  const once = redact(`Authorization: Bearer ${TOKEN} and ${TOKEN}`, [TOKEN]);
  assert.is(redact(once, [TOKEN]), once);
  assert.is(once, `Authorization: Bearer ${REDACTED} and ${REDACTED}`);
});

test('trace: one line per attempt with method, URL, status, ms and attempt', async () => {
  const server = await startServer((_req, res, rec) => (rec.n === 1 ? json(res, 503, { message: 'busy' }) : json(res, 200, { data: [] })));
  try {
    const lines: string[] = [];
    const clock = fakeClock();
    const c = createObservabilityClient({
      url: server.url,
      token: TOKEN,
      trace: (l) => lines.push(l),
      sleep: clock.sleep,
      now: clock.now,
      random: () => 0,
    });
    await c.listDashboards();
    // Bodies get lines of their own (--debug shows what a 400 needs); the status lines are one per attempt.
    assert.is(lines.filter((l) => / (request|response) body: /.test(l)).length, 1, 'the 503 body');
    lines.splice(0, lines.length, ...lines.filter((l) => !/ (request|response) body: /.test(l)));
    assert.is(lines.length, 2);
    assert.match(lines[0]!, new RegExp(`^http GET ${server.url}/api/v2/dashboards → 503 Service Unavailable \\(\\d+ ms, attempt 1/5\\); retry in 0 ms$`));
    assert.match(lines[1]!, new RegExp(`^http GET ${server.url}/api/v2/dashboards → 200 OK \\(\\d+ ms, attempt 2/5, \\d+ bytes\\)$`));
  } finally {
    await server.close();
  }
});

test('trace and errors never show the token, key or secret, even when the server echoes them', async () => {
  const server = await startServer((req, res) => {
    const echo = `you sent ${req.headers['authorization']} (${TOKEN} ${KEY_SECRET} ${KEY_ID})`;
    if (req.url?.startsWith('/v1/')) raw(res, 400, JSON.stringify({ status: 400, error: echo, requestId: 'r1' }), 'application/json');
    else raw(res, 401, echo, 'text/plain');
  });
  try {
    const lines: string[] = [];
    // The CLI passes every credential it read to both clients, so either can scrub the other's.
    const obs = createObservabilityClient({ url: server.url, token: TOKEN, secrets: [KEY_ID, KEY_SECRET], trace: (l) => lines.push(l) });
    const cloud = createCloudClient({ url: server.url, keyId: KEY_ID, keySecret: KEY_SECRET, secrets: [TOKEN], trace: (l) => lines.push(l) });
    const e1 = (await rejects(() => obs.listDashboards())) as ApiError;
    const e2 = (await rejects(() => cloud.listIngestPipes('o', 's'))) as ApiError;
    assert.ok(server.requests[1]!.headers['authorization'] === `Basic ${BASIC}`);
    for (const text of [...lines, e1.message, e2.message, e1.serverMessage ?? '', e2.serverMessage ?? '']) assertClean(text);
    assert.match(e1.message, /you sent Bearer \[redacted\]/);
    assert.match(e2.message, /you sent Basic \[redacted\]/);
  } finally {
    await server.close();
  }
});

test('errors cut at 200 characters keep no part of a secret spelled in escapes, entities, a request id or the reason phrase', async () => {
  // The token sits near the cut, so a summary cleaned before it is decoded, or cut before it is cleaned, keeps its start.
  const pad = 'A'.repeat(161);
  const escaped = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  const entities = [...TOKEN].map((c) => `&#${c.charCodeAt(0)};`).join('');
  const CASES: Array<[string, (res: import('node:http').ServerResponse) => void]> = [
    ['JSON message in \\u escapes', (res) => raw(res, 400, `{"message":"${pad}${escaped}"}`, 'application/json')],
    ['HTML character references', (res) => raw(res, 400, `<html><body><h1>${pad}${entities}</h1></body></html>`, 'text/html')],
    ['request id in \\u escapes', (res) => raw(res, 400, `{"message":"no","requestId":"${'r'.repeat(190)}${escaped}"}`, 'application/json')],
    [
      'reason phrase',
      (res) => {
        res.writeHead(400, `${pad}${TOKEN}`, { 'content-type': 'text/plain', 'content-length': '0' });
        res.end();
      },
    ],
    ['broken JSON, message salvaged', (res) => raw(res, 400, `{"message":"${pad}${escaped}"`, 'application/json')],
  ];
  for (const [name, answer] of CASES) {
    const server = await startServer((_req, res) => answer(res));
    try {
      const lines: string[] = [];
      const obs = createObservabilityClient({ url: server.url, token: TOKEN, trace: (l) => lines.push(l) });
      const e = (await rejects(() => obs.listDashboards())) as ApiError;
      for (const raw of [e.message, e.serverMessage ?? '', e.requestId ?? '', ...lines]) {
        // As a reader would see it: character references read (a browser, a log viewer).
        const text = raw.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));
        assert.not.ok(text.includes(TOKEN.slice(0, 8)), `${name}: ${text}`);
        assert.not.ok(text.includes(escaped.slice(0, 48)), `${name} (escaped): ${text}`);
      }
    } finally {
      await server.close();
    }
  }
});

test('trace: a sink that throws does not break the request', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [] }));
  try {
    const c = createObservabilityClient({
      url: server.url,
      token: TOKEN,
      trace: () => {
        throw new Error('sink broken');
      },
    });
    assert.equal(await c.listDashboards(), []);
  } finally {
    await server.close();
  }
});

test('the client exposes its redaction for others (report, journal)', () => {
  const c = createCloudClient({ url: 'http://127.0.0.1:9', keyId: KEY_ID, keySecret: KEY_SECRET, secrets: ['extra-canary-value'] });
  assert.is(c.http.redact(`${KEY_SECRET} extra-canary-value ${BASIC}`), `${REDACTED} ${REDACTED} ${REDACTED}`);
});

test('credential patterns stay linear on hostile text: what a server sends is redacted in one pass (red team, round 7)', () => {
  // A cubic pattern took 29 s on 12 KB of `;token`; these are 120-200 KB. No time bound: a pattern that
  // backtracks does not finish, and the runner's own timeout reports it.
  const hostile = [';token'.repeat(20_000), '?token'.repeat(20_000), '&api_key;'.repeat(20_000), 'a.'.repeat(100_000), 'x-'.repeat(100_000) + '://'];
  for (const text of hostile) assert.is(redact(text), text);
  // The same patterns still mask what they are for, wherever the parameter sits.
  const cases: Array<[string, string]> = [
    ['GET /x?token=abc123&page=2', `GET /x?token=${REDACTED}&page=2`],
    ['/x;page=1;access_token=abc', `/x;page=1;access_token=${REDACTED}`],
    ['?a?API-KEY=zz', `?a?API-KEY=${REDACTED}`],
    ['?page=2&q=token', '?page=2&q=token'],
    ['see foo.https://user:pw@host/x', `see foo.https://${REDACTED}@host/x`],
    ['a.b.c http://u:p@h', `a.b.c http://${REDACTED}@h`],
  ];
  for (const [text, want] of cases) assert.is(redact(text), want, text);
});

test.run();
