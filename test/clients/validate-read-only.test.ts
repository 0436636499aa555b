/**
 * `POST .../dashboards/validate` saves nothing: HyperDX 2026-08-21 and ClickHouse Cloud 2026-07-31 (ClickStack)
 * both say "The dashboard is **never persisted**". The client treated it as any POST: a 500 was not tried
 * again, and the error said "outcome unknown: the server may have applied this POST, check before sending it
 * again" (plan --server-validate against a 500, in one line, but telling the user to check a write that
 * cannot have happened). It is now sent as a read: 5xx and dropped connections are tried again as for a GET,
 * and no error says its outcome is unknown.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError, createObservabilityClient } from '../../src/clients/index.ts';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { fakeClock, json, rejects, startServer, TOKEN } from './helpers.ts';

const BODY = { name: 'D', tiles: [], tags: [] };

function client(url: string) {
  const clock = fakeClock();
  return createObservabilityClient({ url, token: TOKEN, profile: OBSERVABILITY_PROFILES.hyperdx, sleep: clock.sleep, now: clock.now, random: () => 0.5 });
}

test('validate: a 500 is tried again (it saves nothing), and an answer after it is taken', async () => {
  const server = await startServer((_req, res, rec) => {
    if (rec.n === 1) json(res, 500, { message: 'Internal Server Error' });
    else json(res, 200, { valid: true });
  });
  try {
    const v = await client(server.url).validateDashboard(BODY as never);
    assert.is(server.requests.length, 2);
    assert.is((v as { valid?: boolean }).valid, true);
  } finally {
    await server.close();
  }
});

test('validate: when every try fails, the error does not say the server may have applied it', async () => {
  const server = await startServer((_req, res) => json(res, 500, { message: 'Internal Server Error' }));
  try {
    const e = await rejects(() => client(server.url).validateDashboard(BODY as never));
    assert.instance(e, ApiError);
    assert.is((e as ApiError).outcomeUnknown, false);
    assert.not.match(e.message, /outcome unknown|may have applied/);
    assert.match(e.message, /^POST \/api\/v2\/dashboards\/validate → 500 Internal Server Error: Internal Server Error \(gave up after \d+ attempts\)$/);
  } finally {
    await server.close();
  }
});

test('a dashboard create (POST) still is not tried again on a 500, and its outcome is unknown', async () => {
  const server = await startServer((_req, res) => json(res, 500, { message: 'Internal Server Error' }));
  try {
    const e = await rejects(() => client(server.url).createDashboard(BODY as never));
    assert.is(server.requests.length, 1);
    assert.is((e as ApiError).outcomeUnknown, true);
    assert.match(e.message, /outcome unknown: the server may have applied this POST/);
  } finally {
    await server.close();
  }
});

test.run();
