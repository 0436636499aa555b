/**
 * The list's body digest (src/clients/body-digest.ts): what the plan's live memo keys a whole list by. It
 * must be the bytes the server sent, under the API that parsed them, and only for the list parsed from them.
 */
import { hash } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyDigestOf, digestWithoutRequestId, requestIdSpan } from '../../src/clients/body-digest.ts';
import { createObservabilityClient } from '../../src/clients/index.ts';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { CLICKSTACK, raw, startServer, TOKEN } from './helpers.ts';
import { summaryOf } from '../../src/clients/lazy-list.ts';

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

test('listDashboards with `known`: a body the caller knows is not parsed until more than its summaries is read', async () => {
  const body = JSON.stringify({ data: [DASHBOARD] });
  const digest = `seed:${hash('sha256', body, 'base64url')}`;
  const server = await startServer((_req, res) => raw(res, 200, body, 'application/json'));
  try {
    const trace: string[] = [];
    const client = createObservabilityClient({ url: server.url, token: TOKEN, retry: { limit: 1 }, trace: (l) => trace.push(l) });
    const asked: string[] = [];
    const known = (d: string) => (asked.push(d), d === digest ? [summaryOf(DASHBOARD)!] : undefined);
    const list = await client.listDashboards({ known });
    assert.equal(asked, [digest]);
    assert.is(bodyDigestOf(list), digest);
    assert.equal([list[0]!.id, list[0]!.name, list[0]!.tags], [DASHBOARD.id, DASHBOARD.name, DASHBOARD.tags]);
    assert.ok(
      trace.some((l) => l.includes('kept unparsed')),
      trace.join('\n'),
    );
    assert.not.ok(trace.some((l) => l.includes('parsing the kept body')));
    // Anything else: the body is parsed (once), and the list is what a plain read gives.
    assert.equal(list[0]!.tiles, []);
    assert.equal(JSON.parse(JSON.stringify(list)), await client.listDashboards());
    assert.is(trace.filter((l) => l.includes('parsing the kept body')).length, 1);
    // A caller that does not know the body, or fails when asked: parsed as it arrives.
    for (const other of [
      () => undefined,
      () => {
        throw new Error('memo unreadable');
      },
    ]) {
      trace.length = 0;
      assert.equal(await client.listDashboards({ known: other }), [DASHBOARD]);
      assert.not.ok(trace.some((l) => l.includes('kept unparsed')));
    }
  } finally {
    await server.close();
  }
});

test('listDashboards with `known`: a kept body that fails the checks throws the same error when it is read', async () => {
  const body = JSON.stringify({ data: [{ ...DASHBOARD, tiles: 'not a list' }] });
  const server = await startServer((_req, res) => raw(res, 200, body, 'application/json'));
  try {
    const client = createObservabilityClient({ url: server.url, token: TOKEN, retry: { limit: 1 } });
    const plain = await client.listDashboards().then(
      () => 'no error',
      (e: Error) => e.message,
    );
    assert.match(plain, /tiles/);
    const list = await client.listDashboards({ known: () => [summaryOf(DASHBOARD)!] });
    assert.is(list[0]!.name, DASHBOARD.name);
    assert.throws(
      () => list[0]!.tiles,
      (e: Error) => e.message === plain,
    );
  } finally {
    await server.close();
  }
});

test("digestWithoutRequestId: answers that differ only in the envelope head's requestId string get one digest", () => {
  const d = (text: string) => digestWithoutRequestId(Buffer.from(text));
  const whole = (text: string) => hash('sha256', text, 'base64url');
  const base = '{"status":200,"requestId":"a1","result":[{"id":"x"}]}';
  const rows: Array<[string, string, boolean]> = [
    ['another requestId', '{"status":200,"requestId":"b2-longer","result":[{"id":"x"}]}', true],
    ['spaces around it', '{ "status" : 200 , "requestId" : "zz" , "result":[{"id":"x"}]}', false],
    ['an escaped quote in it', '{"status":200,"requestId":"q\\"x","result":[{"id":"x"}]}', true],
    ['another status', '{"status":201,"requestId":"a1","result":[{"id":"x"}]}', false],
    ['another list', '{"status":200,"requestId":"a1","result":[{"id":"y"}]}', false],
    ['the requestId member moved', '{"requestId":"a1","status":200,"result":[{"id":"x"}]}', false],
  ];
  for (const [what, other, same] of rows) assert.is(d(other) === d(base), same, what);
  // Set aside only as a plain string in the head; anything else hashes the bytes whole.
  const wholeRows: Array<[string, string]> = [
    ['after the list', '{"status":200,"result":[{"id":"x"}],"requestId":"a1"}'],
    ['a number', '{"status":200,"requestId":7,"result":[]}'],
    ['an object', '{"requestId":{"v":"a1"},"result":[]}'],
    ['not an object', '[{"requestId":"a1"}]'],
    ['cut short', '{"status":200,"requestId":"a1'],
    ['empty', ''],
    ['a raw control character in it', '{"requestId":"a\u0001b","result":[]}'],
  ];
  for (const [what, text] of wholeRows) {
    assert.is(requestIdSpan(Buffer.from(text)), undefined, what);
    assert.is(d(text), whole(text), what);
  }
  assert.equal(requestIdSpan(Buffer.from(base)), [26, 30]);
});

test('listDashboards, clickstack-cloud: a new requestId in every answer, and the list is still known by its digest', async () => {
  let n = 0;
  const server = await startServer((_req, res) =>
    raw(res, 200, JSON.stringify({ status: 200, requestId: `req-${++n}`, result: [DASHBOARD] }), 'application/json'),
  );
  try {
    const client = createObservabilityClient({ url: server.url, ...CLICKSTACK, retry: { limit: 1 } });
    const first = await client.listDashboards();
    const seen: string[] = [];
    const second = await client.listDashboards({ known: (digest) => (seen.push(digest), [summaryOf(DASHBOARD)!]) });
    assert.equal(seen, [bodyDigestOf(first)]);
    assert.is(bodyDigestOf(second), bodyDigestOf(first));
    assert.is(second[0]!.name, DASHBOARD.name);
    assert.equal(JSON.parse(JSON.stringify(second)), first);
  } finally {
    await server.close();
  }
});

test.run();
