/** The hyperdx profile over real HTTP on 127.0.0.1: what each route does, not only its shape. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type Emulator, HX_ALERT_IDS, HX_SOURCE_IDS, HX_WEBHOOK_IDS, type HyperdxState, startEmulator } from '../../src/emulator/index.ts';
import { HEX24, obs, request } from './http.ts';

const LOGS = HX_SOURCE_IDS.Logs;
const PAGER = HX_WEBHOOK_IDS['ops-pager'];
const SLACK = HX_WEBHOOK_IDS['slack-sre'];

async function withHx(fn: (emu: Emulator<HyperdxState>) => Promise<void>, opts: Parameters<typeof startEmulator>[0] = {}): Promise<void> {
  const emu = await startEmulator({ seed: 11, ...opts, api: 'hyperdx' });
  try {
    await fn(emu);
  } finally {
    await emu.close();
  }
}

function line(name: string, x = 0): Record<string, unknown> {
  return {
    name,
    x,
    y: 0,
    w: 6,
    h: 3,
    config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count', where: 'level:error', whereLanguage: 'lucene' }] },
  };
}

function tileAlert(dashboardId: string, tileId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: 'tile',
    dashboardId,
    tileId,
    threshold: 10,
    interval: '5m',
    thresholdType: 'above',
    channels: [{ type: 'webhook', webhookId: PAGER }],
    ...extra,
  };
}

test('the default seed: sources Logs/Traces/Metrics, webhooks ops-pager and slack-sre, two alerts, no dashboards', () =>
  withHx(async (emu) => {
    const sources = (await obs(emu, 'GET', '/api/v2/sources')).body.data;
    assert.equal(
      sources.map((s: { name: string; kind: string }) => `${s.name}:${s.kind}`),
      ['Logs:log', 'Traces:trace', 'Metrics:metric'],
    );
    const hooks = (await obs(emu, 'GET', '/api/v2/webhooks')).body;
    assert.equal(
      hooks.data.map((w: { name: string }) => w.name),
      ['ops-pager', 'slack-sre'],
    );
    assert.equal(hooks.meta, { total: 2, limit: 1000, offset: 0 });
    const alerts = (await obs(emu, 'GET', '/api/v2/alerts')).body;
    assert.is(alerts.meta.total, 2);
    assert.equal(alerts.data[0].channels, [
      { type: 'webhook', webhookId: PAGER },
      { type: 'webhook', webhookId: SLACK },
    ]);
    assert.equal(alerts.data[0].channel, alerts.data[0].channels[0], 'channel mirrors channels[0]');
    assert.equal((await obs(emu, 'GET', '/api/v2/dashboards')).body, { data: [] });
  }));

test('Bearer auth: missing or wrong token is 401 {message}; /v1/.../clickstack is not served under hyperdx', () =>
  withHx(async (emu) => {
    for (const auth of [null, 'Bearer nope', 'Basic ZGV2LWtleTpkZXYtc2VjcmV0']) {
      const r = await obs(emu, 'GET', '/api/v2/alerts', undefined, auth);
      assert.is(r.status, 401);
      assert.type(r.body.message, 'string');
    }
    const cs = await request(
      emu,
      'GET',
      '/v1/organizations/6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31/services/9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d/clickstack/dashboards',
      {
        auth: 'Basic ' + Buffer.from('dev-key:dev-secret').toString('base64'),
      },
    );
    assert.is(cs.status, 404);
  }));

test('dashboards: create assigns 24-hex ids to the dashboard, tiles and filters; get, list, update, delete', () =>
  withHx(async (emu) => {
    const body = {
      name: 'Checkout',
      tiles: [line('Errors'), line('Latency', 6)],
      tags: ['team:payments'],
      filters: [{ type: 'QUERY_EXPRESSION', name: 'Env', expression: 'env', sourceId: LOGS }],
    };
    const c = await obs(emu, 'POST', '/api/v2/dashboards', { ...body, tiles: body.tiles.map((t) => ({ ...t, id: 'client-chosen' })) });
    assert.is(c.status, 200, c.text);
    const d = c.body.data;
    assert.match(d.id, HEX24);
    for (const t of d.tiles) assert.match(t.id, HEX24);
    assert.match(d.filters[0].id, HEX24);
    // Select items come back as HyperDX answers them: a count with valueExpression "".
    const answered = (c: unknown) => {
      const config = structuredClone(c) as { select: Array<Record<string, unknown>> };
      config.select = config.select.map((i) => ({ ...i, valueExpression: '' }));
      return config;
    };
    assert.equal(d.tiles[0].config, answered(body.tiles[0]!['config']));
    assert.equal((await obs(emu, 'GET', `/api/v2/dashboards/${d.id}`)).body.data, d);
    assert.equal((await obs(emu, 'GET', '/api/v2/dashboards')).body.data, [d]);

    // PUT replaces name, tags and tiles: tiles keep the ids sent, a tile without an id gets one; filters not
    // sent are kept (HyperDX sets them only when the request has them).
    const put = await obs(emu, 'PUT', `/api/v2/dashboards/${d.id}`, { name: 'Checkout v2', tiles: [{ ...d.tiles[1], h: 5 }, line('New', 12)], tags: [] });
    assert.is(put.status, 200, put.text);
    const u = put.body.data;
    assert.is(u.id, d.id);
    assert.is(u.name, 'Checkout v2');
    assert.is(u.tiles[0].id, d.tiles[1].id);
    assert.is(u.tiles[0].h, 5);
    assert.match(u.tiles[1].id, HEX24);
    assert.not.ok([d.tiles[0].id, d.tiles[1].id].includes(u.tiles[1].id));
    assert.equal(u.tags, []);
    assert.equal(u.filters, d.filters);
    assert.equal((await obs(emu, 'GET', `/api/v2/dashboards/${d.id}`)).body.data, u);
    const cleared = await obs(emu, 'PUT', `/api/v2/dashboards/${d.id}`, { name: u.name, tiles: u.tiles, tags: [], filters: [] });
    assert.is(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.data.filters, []);

    assert.equal((await obs(emu, 'DELETE', `/api/v2/dashboards/${d.id}`)).body, {});
    assert.is((await obs(emu, 'GET', `/api/v2/dashboards/${d.id}`)).status, 404);
    assert.is((await obs(emu, 'DELETE', `/api/v2/dashboards/${d.id}`)).status, 404);
    assert.is((await obs(emu, 'PUT', `/api/v2/dashboards/${d.id}`, body)).status, 404);
    assert.is((await obs(emu, 'GET', '/api/v2/dashboards/not-an-id')).status, 404);
  }));

test('dashboards: bodies the spec refuses are 400 naming the field; unknown sources are 400 as HyperDX says', () =>
  withHx(async (emu) => {
    const cases: [unknown, RegExp][] = [
      [{ tiles: [] }, /^Body validation failed: name: Required/],
      [{ name: 'x' }, /^Body validation failed: tiles: Required/],
      [{ name: 'x', tiles: [{ ...line('t'), x: 24 }] }, /tiles\.0\.x: must be <= 23/],
      [{ name: 'x', tiles: [{ ...line('t'), w: 0 }] }, /tiles\.0\.w: must be >= 1/],
      [{ name: 'x', tiles: [{ ...line('t'), x: 1.5 }] }, /tiles\.0\.x: must be integer/],
      [{ name: 'x', tiles: [line('t')], tags: ['a'.repeat(33)] }, /tags\.0: must NOT have more than 32 characters/],
      [
        { name: 'x', tiles: [{ ...line('t'), config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'median' }] } }] },
        /select\.0\.aggFn: must be one of/,
      ],
      [
        { name: 'x', tiles: [{ ...line('t'), config: { displayType: 'line', sourceId: '65f5e4a3b9e77c001a999999', select: [{ aggFn: 'count' }] } }] },
        /^Could not find the following source IDs: 65f5e4a3b9e77c001a999999$/,
      ],
      [
        { name: 'x', tiles: [], filters: [{ type: 'QUERY_EXPRESSION', name: 'f', expression: 'e', sourceId: '65f5e4a3b9e77c001a999998' }] },
        /^Could not find the following source IDs: 65f5e4a3b9e77c001a999998$/,
      ],
      // SelectItem's prose, which HyperDX's server enforces: no valueExpression on a count, a level only on a quantile.
      [
        { name: 'x', tiles: [{ ...line('t'), config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count', valueExpression: 'Duration' }] } }] },
        /^tiles\.0\.config\.select\.0\.valueExpression: Value expression cannot be used with count aggregation function$/,
      ],
      [
        {
          name: 'x',
          tiles: [{ ...line('t'), config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'avg', valueExpression: 'Duration', level: 0.95 }] } }],
        },
        /^tiles\.0\.config\.select\.0\.level: Level can only be used with quantile aggregation function$/,
      ],
      // FilterInput's prose, which HyperDX's server enforces, with its messages.
      ...(
        [
          [{ variableName: 'env' }, /^filters\.0\.variableName: Filter "f" sets variableName but is not available as a variable/],
          [
            { isVariableEnabled: true, isBroadcastEnabled: false, appliesToSourceIds: [LOGS] },
            /^filters\.0\.appliesToSourceIds: Filter "f" sets appliesToSourceIds but does not broadcast its value/,
          ],
          [{ isBroadcastEnabled: false }, /^filters\.0\.isBroadcastEnabled: Filter "f" must broadcast its value, be available as a variable, or both$/],
          [{ isVariableEnabled: true, name: '!!!' }, /^filters\.0\.variableName: Variable name is required for filter "!!!"$/],
        ] as const
      ).map(([f, message]): [unknown, RegExp] => [
        { name: 'x', tiles: [], filters: [{ type: 'QUERY_EXPRESSION', name: 'f', expression: 'e', sourceId: LOGS, ...f }] },
        message,
      ]),
      [
        {
          name: 'x',
          tiles: [],
          filters: ['a', 'b'].map((e) => ({ type: 'QUERY_EXPRESSION', name: 'Env name', expression: e, sourceId: LOGS, isVariableEnabled: true })),
        },
        /^filters\.1\.variableName: Variable names must be unique: "Env_name"$/,
      ],
      [{ name: 'x', tiles: [{ ...line('t'), containerId: 'nope' }] }, /^tiles\.0\.containerId: no container/],
      [
        { name: 'x', tiles: [{ ...line('t'), config: { displayType: 'heatmap', sourceId: LOGS, select: [{ valueExpression: 'Duration' }] } }] },
        /^Heatmap tiles require a Trace source\. The following source IDs are not Trace sources: 65f5e4a3b9e77c001a0001a1$/,
      ],
      [[1], /^Body validation failed: must be object/],
    ];
    for (const [body, message] of cases) {
      const r = await obs(emu, 'POST', '/api/v2/dashboards', body);
      assert.is(r.status, 400, JSON.stringify(body));
      assert.match(r.body.message, message);
    }
    const bad = await request(emu, 'POST', '/api/v2/dashboards', { auth: 'Bearer dev-token', rawBody: '{"name":' });
    assert.is(bad.status, 400);
    assert.equal((await obs(emu, 'GET', '/api/v2/dashboards')).body.data, [], 'nothing was stored');
  }));

test('dashboards: series tiles are accepted and answered in the config form', () =>
  withHx(async (emu) => {
    const r = await obs(emu, 'POST', '/api/v2/dashboards', {
      name: 'Old style',
      tiles: [
        {
          name: 'Errors',
          x: 0,
          y: 0,
          w: 6,
          h: 3,
          asRatio: false,
          series: [
            {
              type: 'time',
              sourceId: LOGS,
              aggFn: 'count',
              field: 'Duration',
              where: 'level:error',
              whereLanguage: 'lucene',
              groupBy: ['ServiceName', 'Host'],
            },
          ],
        },
        { name: 'Total', x: 6, y: 0, w: 6, h: 3, series: [{ type: 'number', sourceId: LOGS, aggFn: 'sum', where: '', whereLanguage: 'sql' }] },
        { name: 'Notes', x: 12, y: 0, w: 6, h: 3, series: [{ type: 'markdown', content: '# hi' }] },
      ],
    });
    assert.is(r.status, 200, r.text);
    const [a, b, c] = r.body.data.tiles;
    assert.not.ok('series' in a);
    // As HyperDX answers it: a count keeps no value expression, groupBy joins with ",".
    assert.equal(a.config, {
      displayType: 'line',
      sourceId: LOGS,
      select: [{ aggFn: 'count', valueExpression: '', where: 'level:error', whereLanguage: 'lucene' }],
      groupBy: 'ServiceName,Host',
      asRatio: false,
    });
    assert.equal(b.config, { displayType: 'number', sourceId: LOGS, select: [{ aggFn: 'sum', where: '', whereLanguage: 'sql', valueExpression: '' }] });
    assert.equal(c.config, { displayType: 'markdown', markdown: '# hi' });
    const both = await obs(emu, 'POST', '/api/v2/dashboards', { name: 'x', tiles: [{ ...line('t'), series: [{ type: 'markdown', content: 'x' }] }] });
    assert.is(both.status, 400);
  }));

test('dashboards/validate: answers {valid, errors, normalized} and stores nothing', () =>
  withHx(async (emu) => {
    const ok = await obs(emu, 'POST', '/api/v2/dashboards/validate', { name: 'V', tiles: [line('t')] });
    assert.is(ok.status, 200);
    assert.equal(ok.body, {
      valid: true,
      errors: [],
      normalized: {
        name: 'V',
        tiles: [
          {
            name: 't',
            x: 0,
            y: 0,
            w: 6,
            h: 3,
            config: { displayType: 'line', sourceId: LOGS, select: [{ aggFn: 'count', where: 'level:error', whereLanguage: 'lucene', valueExpression: '' }] },
          },
        ],
        tags: [],
        filters: [],
      },
    });
    const bad = await obs(emu, 'POST', '/api/v2/dashboards/validate', { name: 'V', tiles: [{ ...line('t'), x: -1 }] });
    assert.is(bad.status, 200);
    assert.is(bad.body.valid, false);
    assert.is(bad.body.normalized, null);
    assert.equal(bad.body.errors[0], { path: 'tiles.0.x', message: 'must be >= 0' });
    assert.equal((await obs(emu, 'GET', '/api/v2/dashboards')).body.data, []);
    assert.equal(
      emu.requests().map((r) => `${r.method} ${r.path} ${r.status}`),
      ['POST /api/v2/dashboards/validate 200', 'POST /api/v2/dashboards/validate 200', 'GET /api/v2/dashboards 200'],
    );
  }));

test('alerts: create, get, PUT replaces the whole alert (a PUT with one channel drops the others), delete', () =>
  withHx(async (emu) => {
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', { name: 'D', tiles: [line('a')] })).body.data;
    const body = tileAlert(d.id, d.tiles[0].id, {
      name: 'Errors',
      message: 'too many',
      channels: [
        { type: 'webhook', webhookId: PAGER },
        { type: 'webhook', webhookId: SLACK },
      ],
      note: 'runbook',
    });
    const c = await obs(emu, 'POST', '/api/v2/alerts', body);
    assert.is(c.status, 200, c.text);
    const a = c.body.data;
    assert.match(a.id, HEX24);
    assert.is(a.state, 'OK');
    assert.is(a.dashboardId, d.id);
    assert.is(a.channels.length, 2);
    assert.equal((await obs(emu, 'GET', `/api/v2/alerts/${a.id}`)).body.data, a);

    const put = await obs(
      emu,
      'PUT',
      `/api/v2/alerts/${a.id}`,
      tileAlert(d.id, d.tiles[0].id, { threshold: 20, channels: undefined, channel: { type: 'webhook', webhookId: SLACK } }),
    );
    assert.is(put.status, 200, put.text);
    const u = put.body.data;
    assert.is(u.threshold, 20);
    assert.equal(u.channels, [{ type: 'webhook', webhookId: SLACK }], 'the channels not sent are gone');
    assert.is(u.name, undefined, 'name was not sent: replaced away');
    assert.is(u.note, undefined);
    assert.is(u.createdAt, a.createdAt);
    assert.is(u.id, a.id);

    const missing = await obs(emu, 'PUT', `/api/v2/alerts/${a.id}`, { channel: { type: 'webhook', webhookId: SLACK } });
    assert.is(missing.status, 400);
    assert.match(missing.body.message, /threshold: Required|Required \(threshold\)|: Required/);

    assert.equal((await obs(emu, 'DELETE', `/api/v2/alerts/${a.id}`)).body, {});
    assert.is((await obs(emu, 'GET', `/api/v2/alerts/${a.id}`)).status, 404);
    assert.is((await obs(emu, 'PUT', `/api/v2/alerts/${a.id}`, body)).status, 404);
  }));

test('alerts: a channel keeps only type and webhookId, as HyperDX stores it (ClickStack members sent are dropped)', () =>
  withHx(async (emu) => {
    // AlertChannelWebhook is {type, webhookId}; HyperDX's server reads a channel with a zod object that drops
    // other members. The emulator stored and answered them, so a client saw a severity the server never keeps.
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', { name: 'D', tiles: [line('a')] })).body.data;
    const extra = { type: 'webhook', webhookId: PAGER, severity: 'critical', slackChannelId: 'C01ABCDEF23', webhookService: 'pagerduty_api' };
    const c = await obs(emu, 'POST', '/api/v2/alerts', tileAlert(d.id, d.tiles[0].id, { channels: [extra] }));
    assert.is(c.status, 200, c.text);
    assert.equal(c.body.data.channels, [{ type: 'webhook', webhookId: PAGER }]);
    assert.equal(c.body.data.channel, { type: 'webhook', webhookId: PAGER });
    const put = await obs(emu, 'PUT', `/api/v2/alerts/${c.body.data.id}`, tileAlert(d.id, d.tiles[0].id, { channels: undefined, channel: extra }));
    assert.is(put.status, 200, put.text);
    assert.equal(put.body.data.channels, [{ type: 'webhook', webhookId: PAGER }]);
    assert.equal((await obs(emu, 'GET', '/api/v2/alerts')).body.data.find((a: { id: string }) => a.id === c.body.data.id).channel, {
      type: 'webhook',
      webhookId: PAGER,
    });
  }));

test('alerts: the rules of the spec prose (tiles, saved searches, ranges, webhooks, intervals)', () =>
  withHx(async (emu) => {
    const d = (
      await obs(emu, 'POST', '/api/v2/dashboards', {
        name: 'D',
        tiles: [line('a'), { name: 'md', x: 6, y: 0, w: 6, h: 3, config: { displayType: 'markdown', markdown: 'x' } }],
      })
    ).body.data;
    const [lineTile, mdTile] = d.tiles;
    const cases: [Record<string, unknown>, RegExp][] = [
      [tileAlert(d.id, lineTile.id, { interval: '10m' }), /interval: must be one of "1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"/],
      [tileAlert(d.id, lineTile.id, { source: 'search' }), /source: must be one of "saved_search", "tile"/],
      [tileAlert(d.id, lineTile.id, { thresholdType: 'between' }), /^thresholdMax: Required when thresholdType is between/],
      [tileAlert(d.id, lineTile.id, { thresholdType: 'not_between', threshold: 5, thresholdMax: 1 }), /^thresholdMax: must be >= threshold/],
      [tileAlert(d.id, mdTile.id), /^tileId: .*markdown tile/],
      [tileAlert(d.id, '65f5e4a3b9e77c001a999999'), /^tileId: dashboard .* has no tile/],
      [tileAlert('65f5e4a3b9e77c001a999999', lineTile.id), /^dashboardId: no dashboard/],
      [{ ...tileAlert(d.id, lineTile.id), dashboardId: undefined }, /^dashboardId: Required when source is tile/],
      [tileAlert(d.id, lineTile.id, { channels: [{ type: 'webhook', webhookId: '65f5e4a3b9e77c001a999999' }] }), /^channels\.0\.webhookId: no webhook/],
      [
        tileAlert(d.id, lineTile.id, {
          channels: [
            { type: 'webhook', webhookId: PAGER },
            { type: 'webhook', webhookId: PAGER },
          ],
        }),
        /listed twice/,
      ],
      // HyperDX's server (validateAlertScheduleOffsetMinutes), beyond the spec's minimum 0.
      [tileAlert(d.id, lineTile.id, { scheduleOffsetMinutes: 5 }), /^scheduleOffsetMinutes: scheduleOffsetMinutes must be less than 5 minutes/],
      [
        tileAlert(d.id, lineTile.id, { scheduleOffsetMinutes: 2, scheduleStartAt: '2026-02-08T10:00:00Z' }),
        /^scheduleOffsetMinutes: scheduleOffsetMinutes must be 0 when scheduleStartAt is provided/,
      ],
      // HyperDX reads scheduleStartAt with zod's datetime() (UTC only); the spec's date-time also takes these.
      [tileAlert(d.id, lineTile.id, { scheduleStartAt: '2026-02-08T10:00:00+02:00' }), /^scheduleStartAt: Invalid datetime/],
      [tileAlert(d.id, lineTile.id, { scheduleStartAt: '2026-02-08t10:00:00z' }), /^scheduleStartAt: Invalid datetime/],
      [tileAlert(d.id, lineTile.id, { scheduleStartAt: '2026-02-08 10:00:00Z' }), /^scheduleStartAt: Invalid datetime/],
      [tileAlert(d.id, lineTile.id, { channels: [] }), /channels: must NOT have fewer than 1 items/],
      [tileAlert(d.id, lineTile.id, { channels: undefined }), /^channels: Required/],
      [
        { source: 'saved_search', threshold: 1, interval: '1h', thresholdType: 'above', channel: { type: 'webhook', webhookId: PAGER } },
        /^savedSearchId: Required/,
      ],
    ];
    for (const [body, message] of cases) {
      const r = await obs(emu, 'POST', '/api/v2/alerts', body);
      assert.is(r.status, 400, JSON.stringify(body));
      assert.match(r.body.message, message, JSON.stringify(body));
    }
    assert.is((await obs(emu, 'GET', '/api/v2/alerts')).body.meta.total, 2, 'nothing was stored');
    const ranged = await obs(emu, 'POST', '/api/v2/alerts', tileAlert(d.id, lineTile.id, { thresholdType: 'between', threshold: 1, thresholdMax: 9 }));
    assert.is(ranged.status, 200, ranged.text);
    const offset = await obs(emu, 'POST', '/api/v2/alerts', tileAlert(d.id, lineTile.id, { scheduleOffsetMinutes: 4 }));
    assert.is(offset.status, 200, offset.text);
    const start = await obs(emu, 'POST', '/api/v2/alerts', tileAlert(d.id, lineTile.id, { scheduleStartAt: '2026-02-08T10:00:00.5Z' }));
    assert.is(start.status, 200, start.text);
    assert.is(start.body.data.scheduleStartAt, '2026-02-08T10:00:00.500Z');
  }));

test("alerts: an empty name or message, or one over HyperDX's bounds (512, 4,096 characters), is 400 on create and update", () =>
  withHx(async (emu) => {
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', { name: 'D', tiles: [line('a')] })).body.data;
    const alert = (extra: Record<string, unknown>) => tileAlert(d.id, d.tiles[0].id, extra);
    const refused: [Record<string, unknown>, RegExp][] = [
      [{ name: '' }, /^name: String must contain at least 1 character/],
      [{ name: 'n'.repeat(513) }, /^name: String must contain at most 512 character/],
      [{ message: '' }, /^message: String must contain at least 1 character/],
      [{ message: 'm'.repeat(4097) }, /^message: String must contain at most 4096 character/],
    ];
    for (const [extra, message] of refused) {
      const r = await obs(emu, 'POST', '/api/v2/alerts', alert(extra));
      assert.is(r.status, 400, JSON.stringify(extra).slice(0, 40));
      assert.match(r.body.message, message);
    }
    assert.is((await obs(emu, 'GET', '/api/v2/alerts')).body.meta.total, 2, 'nothing was stored');
    const ok = await obs(emu, 'POST', '/api/v2/alerts', alert({ name: 'n'.repeat(512), message: 'm'.repeat(4096) }));
    assert.is(ok.status, 200, ok.text);
    const none = await obs(emu, 'POST', '/api/v2/alerts', alert({ name: null, message: null }));
    assert.is(none.status, 200, none.text);
    for (const [extra, message] of refused) {
      const r = await obs(emu, 'PUT', `/api/v2/alerts/${ok.body.data.id}`, alert(extra));
      assert.is(r.status, 400, JSON.stringify(extra).slice(0, 40));
      assert.match(r.body.message, message);
    }
    assert.is((await obs(emu, 'GET', `/api/v2/alerts/${ok.body.data.id}`)).body.data.name, 'n'.repeat(512), 'a refused update changes nothing');
  }));

test('alerts: a tile a dashboard PUT removes takes its alerts with it, and so does deleting the dashboard', () =>
  withHx(async (emu) => {
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', { name: 'D', tiles: [line('a'), line('b', 6)] })).body.data;
    const [ta, tb] = d.tiles;
    const aa = (await obs(emu, 'POST', '/api/v2/alerts', tileAlert(d.id, ta.id))).body.data;
    const ab = (await obs(emu, 'POST', '/api/v2/alerts', tileAlert(d.id, tb.id))).body.data;
    await obs(emu, 'PUT', `/api/v2/dashboards/${d.id}`, { name: 'D', tiles: [{ ...tb, name: 'b renamed' }] });
    assert.is((await obs(emu, 'GET', `/api/v2/alerts/${aa.id}`)).status, 404, 'the alert of the removed tile is gone');
    assert.is((await obs(emu, 'GET', `/api/v2/alerts/${ab.id}`)).body.data.tileId, tb.id, 'the alert of the kept tile stays bound');
    await obs(emu, 'DELETE', `/api/v2/dashboards/${d.id}`);
    assert.is((await obs(emu, 'GET', `/api/v2/alerts/${ab.id}`)).status, 404);
    assert.is((await obs(emu, 'GET', `/api/v2/alerts/${HX_ALERT_IDS['Error spike (saved search)']}`)).status, 200, 'others stay');
  }));

test('alerts and webhooks paginate as the spec says (limit 1..1000, offset >= 0, meta.total)', () =>
  withHx(async (emu) => {
    const d = (await obs(emu, 'POST', '/api/v2/dashboards', { name: 'D', tiles: [line('a')] })).body.data;
    for (let i = 0; i < 5; i++) await obs(emu, 'POST', '/api/v2/alerts', tileAlert(d.id, d.tiles[0].id, { name: `a${i}` }));
    const all = (await obs(emu, 'GET', '/api/v2/alerts')).body;
    assert.is(all.data.length, 7);
    const pages: string[] = [];
    for (let offset = 0; offset < 7; offset += 3) {
      const p = (await obs(emu, 'GET', `/api/v2/alerts?limit=3&offset=${offset}`)).body;
      assert.equal(p.meta, { total: 7, limit: 3, offset });
      pages.push(...p.data.map((a: { id: string }) => a.id));
    }
    assert.equal(
      pages,
      all.data.map((a: { id: string }) => a.id),
    );
    assert.equal((await obs(emu, 'GET', '/api/v2/alerts?offset=50')).body, { data: [], meta: { total: 7, limit: 1000, offset: 50 } });
    for (const q of ['limit=0', 'limit=1001', 'limit=abc', 'offset=-1', 'limit=1.5']) {
      const r = await obs(emu, 'GET', `/api/v2/alerts?${q}`);
      assert.is(r.status, 400, q);
      assert.match(r.body.message, /^Query validation failed: (limit|offset)/);
    }
    assert.equal(
      (await obs(emu, 'GET', '/api/v2/webhooks?limit=1&offset=1')).body.data.map((w: { name: string }) => w.name),
      ['slack-sre'],
    );
  }));

test('other methods on served paths are 405 with Allow; unserved paths 404', () =>
  withHx(async (emu) => {
    for (const [m, p, allow] of [
      ['PATCH', '/api/v2/dashboards', 'GET, POST'],
      ['GET', '/api/v2/dashboards/validate', 'POST'],
      ['POST', '/api/v2/alerts/65f5e4a3b9e77c001a0003c1', 'GET, PUT, DELETE'],
      ['POST', '/api/v2/sources', 'GET'],
    ] as const) {
      const r = await obs(emu, m, p, m === 'GET' ? undefined : {});
      assert.is(r.status, 405, `${m} ${p}`);
      assert.is(r.headers.get('allow'), allow);
    }
    assert.is((await obs(emu, 'GET', '/api/v2/saved-searches')).status, 404);
  }));

test('faults, persistence, reset and the admin state work under hyperdx', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'steward-emu-hx-'));
  const file = join(dir, 'state.json');
  try {
    await withHx(
      async (emu) => {
        const r = await obs(emu, 'POST', '/api/v2/dashboards', { name: 'Dropped', tiles: [line('a')] }).catch((e: Error) => e);
        assert.instance(r, Error, 'the connection was cut after commit');
        const listed = (await obs(emu, 'GET', '/api/v2/dashboards')).body.data;
        assert.equal(
          listed.map((d: { name: string }) => d.name),
          ['Dropped'],
        );
        const saved = JSON.parse(readFileSync(file, 'utf8'));
        assert.is(saved.api, 'hyperdx');
        assert.is(saved.dashboards[0].name, 'Dropped');
        const state = (await request(emu, 'GET', '/__emulator/state')).body;
        assert.equal(Object.keys(state).sort(), ['alerts', 'api', 'dashboards', 'organizations', 'sources', 'webhooks'].sort());
        assert.is(emu.state().dashboards.length, 1);
        assert.equal((await request(emu, 'POST', '/__emulator/reset')).body, { reset: true, dashboards: 0 });
        assert.equal((await obs(emu, 'GET', '/api/v2/dashboards')).body.data, []);
      },
      { dropAfterCommit: 1, persist: file },
    );
    // A second start reads the file exactly (tile ids a PUT kept, filter ids, alerts); a seed emulator refuses it.
    let before: unknown;
    await withHx(
      async (emu) => {
        const d = (
          await obs(emu, 'POST', '/api/v2/dashboards', {
            name: 'Kept',
            tiles: [line('a')],
            filters: [{ type: 'QUERY_EXPRESSION', name: 'f', expression: 'e', sourceId: LOGS }],
          })
        ).body.data;
        const put = await obs(emu, 'PUT', `/api/v2/dashboards/${d.id}`, { name: 'Kept', tiles: [{ ...line('b'), id: 'new-tile-123' }], filters: d.filters });
        assert.is(put.status, 200, put.text);
        await obs(emu, 'POST', '/api/v2/alerts', tileAlert(d.id, 'new-tile-123'));
        const st = (await request(emu, 'GET', '/__emulator/state')).body;
        before = { dashboards: st.dashboards, alerts: st.alerts };
      },
      { persist: file },
    );
    await withHx(
      async (emu) => {
        assert.equal(
          emu.state().dashboards.map((d) => d.name),
          ['Kept'],
        );
        const st = (await request(emu, 'GET', '/__emulator/state')).body;
        assert.equal({ dashboards: st.dashboards, alerts: st.alerts }, before, 'seed times are relative to each start; the rest is the file');
      },
      { persist: file },
    );
    await startEmulator({ persist: file }).then(
      () => assert.unreachable('a seed emulator must refuse a hyperdx state file'),
      (err: Error) => assert.match(err.message, /written by the hyperdx profile/),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await withHx(
    async (emu) => {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await obs(emu, 'GET', '/api/v2/sources')).status);
      assert.equal(codes, [200, 200, 429]);
    },
    { rateLimitPerMinute: 2 },
  );
  await withHx(
    async (emu) => {
      assert.is((await obs(emu, 'GET', '/api/v2/sources')).status, 503);
    },
    { failRate: 1 },
  );
});

test('--data: a hyperdx seed file with its own sources, webhooks, alerts and dashboards; bad seeds name the place', async () => {
  const data = {
    $comment: 'ignored',
    sources: [
      {
        id: '65f5e4a3b9e77c001a00a001',
        name: 'App logs',
        kind: 'log',
        connection: 'c',
        from: { databaseName: 'd', tableName: 't' },
        defaultTableSelectExpression: '*',
        timestampValueExpression: 'ts',
      },
    ],
    webhooks: [{ id: '65f5e4a3b9e77c001a00b001', name: 'oncall', service: 'generic', createdAt: '-1d' }],
    dashboards: [
      {
        id: '65f5e4a3b9e77c001a00c001',
        name: 'Seeded',
        tiles: [
          {
            id: '65f5e4a3b9e77c001a00c002',
            name: 't',
            x: 0,
            y: 0,
            w: 6,
            h: 3,
            config: { displayType: 'number', sourceId: '65f5e4a3b9e77c001a00a001', select: [{ aggFn: 'count' }] },
          },
        ],
      },
    ],
    alerts: [
      {
        id: '65f5e4a3b9e77c001a00d001',
        source: 'tile',
        dashboardId: '65f5e4a3b9e77c001a00c001',
        tileId: '65f5e4a3b9e77c001a00c002',
        threshold: 1,
        interval: '1m',
        thresholdType: 'above',
        channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a00b001' },
      },
    ],
  };
  await withHx(
    async (emu) => {
      assert.equal((await obs(emu, 'GET', '/api/v2/dashboards/65f5e4a3b9e77c001a00c001')).body.data.tiles[0].id, '65f5e4a3b9e77c001a00c002');
      const a = (await obs(emu, 'GET', '/api/v2/alerts/65f5e4a3b9e77c001a00d001')).body.data;
      assert.equal(a.channels, [{ type: 'webhook', webhookId: '65f5e4a3b9e77c001a00b001' }]);
      assert.is(emu.state().organizations.length, 0);
    },
    { data },
  );
  for (const [bad, message] of [
    [{ ...data, extra: 1 }, /^seed\.extra: unknown member/],
    [{ webhooks: [{ id: 'x', name: 'n', service: 'slack' }] }, /^seed\.webhooks\[0\]\.id: must be 24 lowercase hex/],
    [{ sources: [{ id: '65f5e4a3b9e77c001a00a001', kind: 'log' }] }, /^seed\.sources\[0\]\.name/],
    [{ dashboards: [{ name: 'x', tiles: [{ name: 't', x: 99, y: 0, w: 1, h: 1 }] }] }, /^seed\.dashboards\[0\]\.tiles\.0\.x: must be <= 23/],
  ] as const) {
    await startEmulator({ api: 'hyperdx', data: bad as never }).then(
      (emu) => emu.close().then(() => assert.unreachable(JSON.stringify(bad))),
      (err: Error) => assert.match(err.message, message),
    );
  }
});

test.run();
