/**
 * The list's body digest (src/clients/body-digest.ts): what the plan's live memo keys a whole list by. It
 * must be the bytes the server sent, under the API that parsed them, and only for the list parsed from them.
 */
import { hash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyDigestOf } from '../../src/clients/body-digest.ts';
import { createObservabilityClient } from '../../src/clients/index.ts';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { raw, startServer, TOKEN } from './helpers.ts';

const DASHBOARD = { id: '65f5e4a3b9e77c001a567890', name: 'Checkout overview', tags: ['managed-by:steward'], tiles: [] };

test('listDashboards: the list carries the digest of the bytes it was parsed from, under the API that read them', async () => {
  let body = JSON.stringify({ data: [DASHBOARD] });
  const server = await startServer((_req, res) => raw(res, 200, body, 'application/json'));
  try {
    const client = createObservabilityClient({ url: server.url, token: TOKEN, retry: { limit: 1 } });
    const first = await client.listDashboards();
    assert.is(bodyDigestOf(first), `seed:${hash('sha256', body, 'base64url')}`);
    // The same bytes again: the same digest, on another list object; a copy of the list has none.
    const again = await client.listDashboards();
    assert.is.not(again, first);
    assert.is(bodyDigestOf(again), bodyDigestOf(first));
    assert.is(bodyDigestOf([...first]), undefined);
    // The same list in other bytes (spacing): another digest, so the memo answers only for these bytes.
    body = JSON.stringify({ data: [DASHBOARD] }, null, 1);
    const spaced = await client.listDashboards();
    assert.equal(spaced, first);
    assert.is.not(bodyDigestOf(spaced), bodyDigestOf(first));
    // Lists of other kinds (alerts, paged) are not digested.
    body = JSON.stringify({ data: [], meta: { total: 0 } });
    assert.is(bodyDigestOf(await client.listAlerts()), undefined);
  } finally {
    await server.close();
  }
});

test('listDashboards: the same bytes read under another API profile get another digest', async () => {
  const body = JSON.stringify({ data: [DASHBOARD] });
  const server = await startServer((_req, res) => raw(res, 200, body, 'application/json'));
  try {
    const seed = await createObservabilityClient({ url: server.url, token: TOKEN, retry: { limit: 1 } }).listDashboards();
    const hx = await createObservabilityClient({
      url: server.url,
      token: TOKEN,
      profile: OBSERVABILITY_PROFILES.hyperdx,
      retry: { limit: 1 },
    }).listDashboards();
    assert.equal(hx, seed);
    assert.is(bodyDigestOf(hx), `hyperdx:${hash('sha256', body, 'base64url')}`);
  } finally {
    await server.close();
  }
});

test.run();
