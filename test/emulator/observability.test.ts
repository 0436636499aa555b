import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ALERT_IDS, type Emulator, startEmulator } from '../../src/emulator/index.ts';
import { basic, dashboardBody, HEX24, ISO_MS, obs, request } from './http.ts';

const CHECKOUT = DEFAULT_ALERT_IDS['Checkout errors'];
const SEARCH_ALERT = DEFAULT_ALERT_IDS['Slow queries (saved search)'];

async function withEmulator(f: (emu: Emulator) => Promise<void>, opts: Parameters<typeof startEmulator>[0] = {}): Promise<void> {
  const emu = await startEmulator(opts);
  try {
    await f(emu);
  } finally {
    await emu.close();
  }
}

test('POST /api/v2/dashboards assigns 24-hex ids to the dashboard and every tile and echoes the rest', () =>
  withEmulator(async (emu) => {
    const body = dashboardBody('Checkout overview', 3);
    const r = await obs(emu, 'POST', '/api/v2/dashboards', body);
    assert.is(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const d = r.body.data;
    assert.match(d.id, HEX24);
    assert.is(d.tiles.length, 3);
    const ids = new Set([d.id, ...d.tiles.map((t: { id: string }) => t.id)]);
    assert.is(ids.size, 4, 'ids are distinct');
    for (const t of d.tiles) assert.match(t.id, HEX24);
    const withoutIds = { ...d, tiles: d.tiles.map(({ id: _id, ...rest }: { id: string }) => rest) };
    delete withoutIds.id;
    assert.equal(withoutIds, body);
    assert.equal(Object.keys(d), ['id', 'name', 'tiles', 'tags']);
  }));

test('a dashboard created with only a name has empty tiles and tags', () =>
  withEmulator(async (emu) => {
    const r = await obs(emu, 'POST', '/api/v2/dashboards', { name: 'Bare' });
    assert.is(r.status, 200);
    assert.equal(r.body.data.tiles, []);
    assert.equal(r.body.data.tags, []);
  }));

test('ids sent with tiles are ignored and members the seed does not list are dropped', () =>
  withEmulator(async (emu) => {
    const r = await obs(emu, 'POST', '/api/v2/dashboards', {
      name: 'Extras',
      id: 'ffffffffffffffffffffffff',
      color: 'red',
      tiles: [{ id: 'eeeeeeeeeeeeeeeeeeeeeeee', name: 'T', config: {}, series: [{ aggFn: 'count', sortOrder: 'desc' }] }],
    });
    assert.is(r.status, 200);
    const d = r.body.data;
    assert.is.not(d.id, 'ffffffffffffffffffffffff');
    assert.is.not(d.tiles[0].id, 'eeeeeeeeeeeeeeeeeeeeeeee');
    assert.is(d.color, undefined);
    assert.equal(d.tiles[0], { id: d.tiles[0].id, name: 'T', series: [{ aggFn: 'count' }] });
  }));

test('GET one and GET list return what POST stored, in creation order; two dashboards may share a name', () =>
  withEmulator(async (emu) => {
    const empty = await obs(emu, 'GET', '/api/v2/dashboards');
    assert.equal(empty.body, { data: [] }, 'the default seed has no dashboards');
    const a = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A'))).body.data;
    const b = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('B', 1))).body.data;
    const a2 = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A', 0))).body.data;
    const one = await obs(emu, 'GET', `/api/v2/dashboards/${b.id}`);
    assert.is(one.status, 200);
    assert.equal(one.body, { data: b });
    const all = await obs(emu, 'GET', '/api/v2/dashboards');
    assert.is(all.status, 200);
    assert.equal(all.body, { data: [a, b, a2] });
    const trailing = await obs(emu, 'GET', '/api/v2/dashboards/?x=1');
    assert.equal(trailing.body, all.body, 'a trailing slash and a query string change nothing');
  }));

test('404 for an unknown or malformed dashboard id, an unknown alert, and unknown paths', () =>
  withEmulator(async (emu) => {
    for (const [method, path, body] of [
      ['GET', '/api/v2/dashboards/65f5e4a3b9e77c001a999999', undefined],
      ['GET', '/api/v2/dashboards/not-an-id', undefined],
      ['GET', '/api/v2/dashboards/%E0%A4%A', undefined],
      ['PUT', '/api/v2/alerts/65f5e4a3b9e77c001a999999', { threshold: 1 }],
      ['PUT', '/api/v2/alerts/nope', { threshold: 1 }],
      ['GET', '/api/v2/alerts', undefined],
      ['GET', '/api/v2/charts/series', undefined],
      ['GET', '/api/v2/dashboards/a/b', undefined],
      ['GET', '/api/v2', undefined],
      ['GET', '/', undefined],
      ['GET', '/api/v1/dashboards', undefined],
    ] as const) {
      const r = await obs(emu, method, path, body);
      assert.is(r.status, 404, `${method} ${path}`);
      assert.type(r.body.message, 'string', `${method} ${path} has a message`);
    }
  }));

test('a method the API does not offer on a known path is 405 with Allow', () =>
  withEmulator(async (emu) => {
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A'))).body.data;
    for (const [method, path, allow] of [
      ['DELETE', `/api/v2/dashboards/${d.id}`, 'GET'],
      ['PUT', `/api/v2/dashboards/${d.id}`, 'GET'],
      ['DELETE', '/api/v2/dashboards', 'GET, POST'],
      ['GET', `/api/v2/alerts/${CHECKOUT}`, 'PUT'],
      ['DELETE', `/api/v2/alerts/${CHECKOUT}`, 'PUT'],
    ] as const) {
      const r = await obs(emu, method, path, method === 'PUT' ? { name: 'x' } : undefined);
      assert.is(r.status, 405, `${method} ${path}`);
      assert.is(r.headers.get('allow'), allow);
      assert.type(r.body.message, 'string');
    }
    assert.is((await obs(emu, 'GET', `/api/v2/dashboards/${d.id}`)).body.data.name, 'A', 'nothing changed');
  }));

const ENDPOINTS: [string, string, unknown?][] = [
  ['GET', '/api/v2/dashboards'],
  ['POST', '/api/v2/dashboards', { name: 'Should not exist' }],
  ['GET', '/api/v2/dashboards/65f5e4a3b9e77c001a999999'],
  ['PUT', `/api/v2/alerts/${CHECKOUT}`, { threshold: 1 }],
];
const BAD_CREDENTIALS: [string, string | null, RegExp][] = [
  ['no Authorization header', null, /missing Authorization/],
  ['an empty Authorization header', '', /missing Authorization/],
  ['the Basic scheme with the cloud key', basic(), /Bearer/],
  ['a bare token without a scheme', 'dev-token', /Bearer/],
  ['a wrong token', 'Bearer not-the-token', /invalid access token/],
  ['the right token in the wrong case', 'Bearer DEV-TOKEN', /invalid access token/],
  ['Bearer without a token', 'Bearer ', /invalid access token/],
];

for (const [what, auth, message] of BAD_CREDENTIALS) {
  test(`401 on every observability endpoint with ${what}, and nothing changes`, () =>
    withEmulator(async (emu) => {
      for (const [method, path, body] of ENDPOINTS) {
        const r = await request(emu, method, path, { auth, body });
        assert.is(r.status, 401, `${method} ${path}`);
        assert.match(r.body.message, message);
        assert.is(r.headers.get('www-authenticate'), 'Bearer');
      }
      const state = emu.state();
      assert.is(state.dashboards.length, 0);
      assert.is(state.alerts.find((a) => a.id === CHECKOUT)?.threshold, 100);
    }));
}

test('a 401 never repeats a credential sent without a scheme or under an unknown one (it used to, lower-cased)', () =>
  withEmulator(async (emu) => {
    const secret = 'ghp_CANARYSecretValue0123456789';
    for (const auth of [secret, `${secret} trailing`, `Token${secret} x`]) {
      for (const path of ['/api/v2/dashboards', '/v1/organizations']) {
        const r = await request(emu, 'GET', path, { auth });
        assert.is(r.status, 401, `${path} ${auth}`);
        const text = JSON.stringify(r.body).toLowerCase();
        assert.not.ok(text.includes('canarysecretvalue'), `${path}: ${text}`);
        assert.match(text, /without a scheme|an unknown scheme/);
      }
    }
  }));

test('the scheme name is case-insensitive, the token is not', () =>
  withEmulator(async (emu) => {
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards', undefined, 'bearer dev-token')).status, 200);
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards', undefined, 'Bearer dev-token')).status, 200);
  }));

test('a custom token replaces dev-token', () =>
  withEmulator(
    async (emu) => {
      assert.is((await obs(emu, 'GET', '/api/v2/dashboards')).status, 401);
      assert.is((await obs(emu, 'GET', '/api/v2/dashboards', undefined, 'Bearer s3cr3t')).status, 200);
    },
    { token: 's3cr3t' },
  ));

const BAD_DASHBOARDS: [string, string | unknown, RegExp][] = [
  ['no name', { tiles: [] }, /^name: is required/],
  ['a name that is not a string', { name: 42 }, /^name: must be a string/],
  ['an empty name', { name: '  ' }, /^name: must not be empty/],
  ['tiles that are not an array', { name: 'x', tiles: {} }, /^tiles: must be an array/],
  ['a tile that is not an object', { name: 'x', tiles: ['t'] }, /^tiles\[0\]: must be an object/],
  ['a tile x that is not a number', { name: 'x', tiles: [{ name: 'a' }, { name: 'b', x: '1' }] }, /^tiles\[1\]\.x: must be a number/],
  ['a tile name that is not a string', { name: 'x', tiles: [{ name: 1 }] }, /^tiles\[0\]\.name: must be a string/],
  ['asRatio that is not a boolean', { name: 'x', tiles: [{ asRatio: 'no' }] }, /^tiles\[0\]\.asRatio: must be a boolean/],
  ['series that are not an array', { name: 'x', tiles: [{ series: {} }] }, /^tiles\[0\]\.series: must be an array/],
  [
    'a series groupBy that is not a string array',
    { name: 'x', tiles: [{ series: [{ groupBy: 'a' }] }] },
    /^tiles\[0\]\.series\[0\]\.groupBy: must be an array of strings/,
  ],
  ['a series aggFn that is not a string', { name: 'x', tiles: [{ series: [{ aggFn: 3 }] }] }, /^tiles\[0\]\.series\[0\]\.aggFn: must be a string/],
  ['tags that are not an array', { name: 'x', tags: 'a,b' }, /^tags: must be an array of strings/],
  ['a tag that is not a string', { name: 'x', tags: ['a', 1] }, /^tags\[1\]: must be a string/],
  ['a JSON array body', [{ name: 'x' }], /^body: must be a JSON object/],
  ['a JSON null body', null, /^body: must be a JSON object/],
  ['a body that is not JSON', '{"name": ', /^body: not valid JSON/],
  ['an empty body', '', /^body: must be a JSON object, got an empty body/],
];

for (const [what, body, message] of BAD_DASHBOARDS) {
  test(`POST /api/v2/dashboards with ${what} is 400 naming the field`, () =>
    withEmulator(async (emu) => {
      const r =
        typeof body === 'string'
          ? await request(emu, 'POST', '/api/v2/dashboards', { auth: 'Bearer dev-token', rawBody: body })
          : await obs(emu, 'POST', '/api/v2/dashboards', body);
      assert.is(r.status, 400);
      assert.match(r.body.message, message);
      assert.is(emu.state().dashboards.length, 0, 'nothing stored');
    }));
}

test('PUT /api/v2/alerts/{id} answers the alert with `dashboard` (not dashboardId), a new updatedAt and the old createdAt', () =>
  withEmulator(
    async (emu) => {
      const before = emu.state().alerts.find((a) => a.id === CHECKOUT)!;
      const d = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('Checkout overview'))).body.data;
      const body = {
        threshold: 50,
        interval: '5m',
        thresholdType: 'above',
        source: 'tile',
        dashboardId: d.id,
        tileId: d.tiles[1].id,
        channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a0000aa' },
        name: 'Checkout errors',
        message: 'Error count above 50 in 5m',
      };
      const r = await obs(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, body);
      assert.is(r.status, 200);
      const a = r.body.data;
      assert.is(a.id, CHECKOUT);
      assert.is(a.dashboard, d.id);
      assert.is(a.dashboardId, undefined);
      assert.is(a.tileId, d.tiles[1].id);
      assert.is(a.threshold, 50);
      assert.is(a.interval, '5m');
      assert.is(a.message, 'Error count above 50 in 5m');
      assert.is(a.state, 'inactive');
      assert.is(a.team, '65f5e4a3b9e77c001a0000bb');
      assert.is(a.silenced, false);
      assert.match(a.createdAt, ISO_MS);
      assert.match(a.updatedAt, ISO_MS);
      assert.is(a.createdAt, before.createdAt);
      assert.is(a.updatedAt, '2030-01-02T03:04:05.678Z');
      assert.equal(
        emu.state().alerts.find((x) => x.id === CHECKOUT),
        a,
        'the state holds what was answered',
      );
    },
    { now: () => new Date('2030-01-02T03:04:05.678Z') },
  ));

const BAD_ALERTS: [string, unknown, RegExp][] = [
  ['a threshold that is not a number', { threshold: 'high' }, /^threshold: must be a number/],
  ['a threshold that is null', { threshold: null }, /^threshold: must be a number/],
  ['a thresholdType outside above|below', { thresholdType: 'sideways' }, /^thresholdType: must be one of above, below/],
  ['an interval in days', { interval: '1d' }, /^interval: must be a number of minutes or hours/],
  ['an interval in words', { interval: '5 minutes' }, /^interval: /],
  ['a zero interval', { interval: '0m' }, /^interval: /],
  ['an interval that is a number', { interval: 5 }, /^interval: must be a string/],
  ['a source outside tile|search', { source: 'metric' }, /^source: must be one of tile, search/],
  ['a channel that is not an object', { channel: 'webhook' }, /^channel: must be an object/],
  ['a channel without a type', { channel: { webhookId: 'x' } }, /^channel\.type: is required/],
  ['a webhook channel without webhookId', { channel: { type: 'webhook' } }, /^channel\.webhookId: is required/],
  ['a name that is not a string', { name: ['x'] }, /^name: must be a string/],
  ['a dashboardId no dashboard has', { dashboardId: '65f5e4a3b9e77c001a999999' }, /^dashboardId: no dashboard/],
  ['a tileId without a live dashboard', { tileId: '65f5e4a3b9e77c001a999999' }, /^tileId: /],
  ['a body that is an array', [], /^body: must be a JSON object/],
];

for (const [what, body, message] of BAD_ALERTS) {
  test(`PUT /api/v2/alerts/{id} with ${what} is 400 naming the field, and the alert is unchanged`, () =>
    withEmulator(async (emu) => {
      const before = emu.state().alerts.find((a) => a.id === CHECKOUT);
      const r = await obs(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, body);
      assert.is(r.status, 400);
      assert.match(r.body.message, message);
      assert.equal(
        emu.state().alerts.find((a) => a.id === CHECKOUT),
        before,
      );
    }));
}

test('PUT with a tileId that is not a tile of the dashboard is 400', () =>
  withEmulator(async (emu) => {
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A'))).body.data;
    const r = await obs(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, { dashboardId: d.id, tileId: '65f5e4a3b9e77c001a999999' });
    assert.is(r.status, 400);
    assert.match(r.body.message, /^tileId: dashboard [0-9a-f]{24} has no tile/);
  }));

test('merge: a new dashboardId without a tileId is 400 when the old tile is not on that dashboard', () =>
  withEmulator(async (emu) => {
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A'))).body.data;
    const r = await obs(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, { dashboardId: d.id });
    assert.is(r.status, 400);
    assert.match(r.body.message, /^tileId: dashboard [0-9a-f]{24} has no tile .*send tileId with dashboardId/);
  }));

test('PUT with a body that is not JSON is 400', () =>
  withEmulator(async (emu) => {
    const r = await request(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, { auth: 'Bearer dev-token', rawBody: 'threshold=5' });
    assert.is(r.status, 400);
    assert.match(r.body.message, /^body: not valid JSON/);
  }));

test('merge (the default) changes only the members sent', () =>
  withEmulator(async (emu) => {
    const before = emu.state().alerts.find((a) => a.id === CHECKOUT)!;
    const r = await obs(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, { threshold: 7 });
    assert.is(r.status, 200);
    const { updatedAt: _u, ...rest } = r.body.data;
    const { updatedAt: _b, ...restBefore } = before;
    assert.equal(rest, { ...restBefore, threshold: 7 });
    const search = await obs(emu, 'PUT', `/api/v2/alerts/${SEARCH_ALERT}`, { interval: '30m', source: 'search' });
    assert.is(search.body.data.savedSearch, '65f5e4a3b9e77c001a0000c1', 'savedSearch is the service’s');
    assert.is(search.body.data.interval, '30m');
  }));

test('replace requires threshold, interval, thresholdType, source and channel, and clears what is not sent', () =>
  withEmulator(
    async (emu) => {
      const partial = await obs(emu, 'PUT', `/api/v2/alerts/${SEARCH_ALERT}`, { threshold: 7 });
      assert.is(partial.status, 400);
      assert.match(partial.body.message, /^interval: is required/);
      const noThreshold = await obs(emu, 'PUT', `/api/v2/alerts/${SEARCH_ALERT}`, { interval: '5m' });
      assert.match(noThreshold.body.message, /^threshold: is required/);
      const full = { threshold: 3, interval: '1h', thresholdType: 'below', source: 'search', channel: { type: 'webhook', webhookId: 'w1' } };
      const r = await obs(emu, 'PUT', `/api/v2/alerts/${SEARCH_ALERT}`, full);
      assert.is(r.status, 200);
      const a = r.body.data;
      assert.is(a.name, undefined, 'name cleared');
      assert.is(a.message, undefined, 'message cleared');
      assert.is(a.threshold, 3);
      assert.is(a.thresholdType, 'below');
      assert.equal(a.channel, { type: 'webhook', webhookId: 'w1' });
      assert.is(a.savedSearch, '65f5e4a3b9e77c001a0000c1');
      assert.is(a.team, '65f5e4a3b9e77c001a0000bb');
      const tileWithoutRefs = await obs(emu, 'PUT', `/api/v2/alerts/${CHECKOUT}`, { ...full, source: 'tile' });
      assert.is(tileWithoutRefs.status, 400);
      assert.match(tileWithoutRefs.body.message, /^dashboardId: is required when source is tile/);
    },
    { alertUpdate: 'replace' },
  ));

test('assigned ids are reproducible with a seed and a fixed clock', async () => {
  const now = () => new Date('2031-05-06T07:08:09.000Z');
  const run = async () => {
    const emu = await startEmulator({ seed: 99, now });
    try {
      const a = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('A', 3))).body.data;
      const b = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('B', 1))).body.data;
      return [a, b];
    } finally {
      await emu.close();
    }
  };
  const first = await run();
  assert.equal(await run(), first);
  assert.ok(first[0].id.startsWith((Date.parse('2031-05-06T07:08:09.000Z') / 1000).toString(16)), 'ObjectId-style: seconds first');
});

test.run();
