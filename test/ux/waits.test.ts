import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttp } from '../../src/clients/http.ts';
import { waitNotifier } from '../../src/cli/deps.ts';
import { fakeClock } from '../clients/helpers.ts';

// Issue 14, point 4: apply was silent for ~48 s while it waited out a 429.

test('the client says what it waits for before it waits: a 429 with Retry-After 47 s', async () => {
  let calls = 0;
  const server = createServer((_req, res) => {
    calls++;
    if (calls === 1) {
      res.writeHead(429, { 'retry-after': '47', 'content-type': 'application/json' });
      res.end('{"message":"slow down"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const clock = fakeClock();
    const waits: Array<[number, string]> = [];
    const http = createHttp({
      prefixUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      auth: { type: 'bearer', token: 't0k' },
      sleep: clock.sleep,
      now: clock.now,
      random: () => 0,
      onWait: (ms, reason) => waits.push([ms, reason]),
    });
    const r = await http.request({ method: 'GET', path: '/api/v2/dashboards' });
    assert.is(r.status, 200);
    assert.equal(waits, [[47_000, 'rate limited (429)']]);
  } finally {
    server.close();
  }
});

test('the CLI writes one line per wait of 2 s or more, not one per request waiting for the same reason', () => {
  const lines: string[] = [];
  let t = 0;
  const notify = waitNotifier(
    (l) => lines.push(l),
    () => t,
  );
  notify(600, 'rate limit');
  notify(47_000, 'rate limited (429)');
  notify(46_900, 'rate limited (429)');
  notify(46_800, 'rate limited (429)');
  notify(4_000, 'ETIMEDOUT, retrying GET /api/v2/dashboards');
  t = 50_000;
  notify(3_000, 'rate limited (429)');
  assert.equal(lines, ['waiting 47 s: rate limited (429)\n', 'waiting 3 s: rate limited (429)\n']);
});

test.run();
