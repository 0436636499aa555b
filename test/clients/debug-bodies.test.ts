/**
 * --debug shows what a real server's 400 needs: the request body steward sent and the body it got back,
 * redacted (the token never), escaped (a server's ESC cannot drive the terminal) and cut at a limit.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHttp } from '../../src/clients/http.ts';
import { raw, rejects, startServer, TOKEN } from './helpers.ts';

test('--debug traces the request body and an error response body, redacted, escaped and bounded', async () => {
  // A raw text body with a real line break and ESC, the token echoed, and more than the trace shows.
  const server = await startServer((_req, res) => raw(res, 400, `tiles.0.config: bad\n\u001b[2J echo ${TOKEN} ${'x'.repeat(10_000)}`, 'text/plain'));
  try {
    const lines: string[] = [];
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'bearer', token: TOKEN }, trace: (l) => lines.push(l) });
    await rejects(() => http.request({ method: 'POST', path: '/api/v2/dashboards', json: { name: 'Checkout', note: `has ${TOKEN}` } }));
    const sent = lines.find((l) => l.includes('request body:'));
    assert.ok(sent, lines.join('\n'));
    assert.match(sent!, '"name":"Checkout"');
    const got = lines.find((l) => l.includes('response body:'));
    assert.ok(got, lines.join('\n'));
    assert.ok(got!.includes(String.raw`tiles.0.config: bad\n\u001b[2J echo [redacted]`), got);
    assert.match(got!, /… \(\d+ more characters\)$/);
    for (const l of lines) {
      assert.not.ok(l.includes(TOKEN), `the token is redacted: ${l}`);
      assert.not.ok(l.includes('\u001b'), 'no raw ESC');
      assert.not.ok(l.includes('\n'), 'one line each');
    }
  } finally {
    await server.close();
  }
});

test('--debug shows a reason phrase as errors do: no terminal escapes or control characters from the server, redacted', async () => {
  // Written to the socket as is: node's own server refuses such a reason phrase. It closes the connection, as
  // the server would never finish the answer it thinks it is still writing there.
  const server = await startServer((req, res) => {
    const status = req.url === '/ok' ? '200 OK' : '503 Busy';
    const body = req.url === '/ok' ? '{"data":[]}' : '{"message":"busy"}';
    res.socket?.end(`HTTP/1.1 ${status} \x1b[2J\x1b[31mred\x07 ${TOKEN}\r\nconnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
  });
  try {
    const lines: string[] = [];
    const http = createHttp({ prefixUrl: server.url, auth: { type: 'bearer', token: TOKEN }, retry: { limit: 1 }, trace: (l) => lines.push(l) });
    await http.request({ method: 'GET', path: '/ok' });
    await rejects(() => http.request({ method: 'GET', path: '/busy' }));
    const status = lines.filter((l) => / → \d{3} /.test(l));
    assert.is(status.length, 2, lines.join('\n'));
    for (const l of status) {
      assert.not.match(l, /[\u0000-\u001f\u007f]/, JSON.stringify(l));
      assert.not.ok(l.includes(TOKEN), l);
      assert.match(l, / → (200 OK|503 Busy) red \[redacted\] \(/);
    }
  } finally {
    await server.close();
  }
});

test.run();
