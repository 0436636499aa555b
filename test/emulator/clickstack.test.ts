/** The clickstack-cloud profile over real HTTP on 127.0.0.1: paths, envelope, auth, path parameters. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DEFAULT_ORGANIZATION_ID,
  DEFAULT_SERVICE_IDS,
  type Emulator,
  HX_SOURCE_IDS,
  HX_WEBHOOK_IDS,
  type HyperdxState,
  startEmulator,
} from '../../src/emulator/index.ts';
import { basic, BEARER, HEX24, obs, request, UUID_V4 } from './http.ts';

const ORG = DEFAULT_ORGANIZATION_ID;
const PROD = DEFAULT_SERVICE_IDS['prod-warehouse'];
const STAGING = DEFAULT_SERVICE_IDS['staging-warehouse'];
const CS = `/v1/organizations/${ORG}/services/${PROD}/clickstack`;

async function withCs(fn: (emu: Emulator<HyperdxState>) => Promise<void>, opts: Parameters<typeof startEmulator>[0] = {}): Promise<void> {
  const emu = await startEmulator({ seed: 12, ...opts, api: 'clickstack-cloud' });
  try {
    await fn(emu);
  } finally {
    await emu.close();
  }
}

function call(emu: Emulator<unknown>, method: string, path: string, body?: unknown, auth: string | null = basic()) {
  return request(emu, method, path, { auth, body });
}

const tile = { name: 'Errors', x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line', sourceId: HX_SOURCE_IDS.Logs, select: [{ aggFn: 'count' }] } };

test('the ClickStack home is the default seed prod-warehouse; emu.env and state say so', () =>
  withCs(async (emu) => {
    assert.equal(emu.clickstack, { organizationId: ORG, serviceId: PROD });
    assert.is(emu.env.STEWARD_CLICKSTACK_ORGANIZATION_ID, ORG);
    assert.is(emu.env.STEWARD_CLICKSTACK_SERVICE_ID, PROD);
    assert.equal(emu.state().clickstack, emu.clickstack);
    assert.is(emu.state().api, 'clickstack-cloud');
  }));

test('success answers are {status: 200, requestId, result}; deletes {status, requestId}', () =>
  withCs(async (emu) => {
    const sources = await call(emu, 'GET', `${CS}/sources`);
    assert.is(sources.status, 200);
    assert.is(sources.body.status, 200);
    assert.match(sources.body.requestId, UUID_V4);
    assert.equal(
      sources.body.result.map((s: { name: string }) => s.name),
      ['Logs', 'Traces', 'Metrics'],
    );
    assert.equal(
      (await call(emu, 'GET', `${CS}/webhooks`)).body.result.map((w: { name: string }) => w.name),
      ['ops-pager', 'slack-sre', 'slack-alerts', 'pagerduty'],
    );
    const alerts = (await call(emu, 'GET', `${CS}/alerts`)).body.result;
    assert.is(alerts.length, 2, 'no pagination on the ClickStack list');
    for (const a of alerts) assert.not.ok('channels' in a, 'the ClickStack alert has channel only');
    assert.equal(alerts[0].channel, { type: 'webhook', webhookId: HX_WEBHOOK_IDS['ops-pager'] }, 'the first of the seed channels');

    const d = (await call(emu, 'POST', `${CS}/dashboards`, { name: 'D', tiles: [tile] })).body.result;
    assert.match(d.id, HEX24);
    assert.equal((await call(emu, 'GET', `${CS}/dashboards/${d.id}`)).body.result, d);
    const u = (await call(emu, 'PUT', `${CS}/dashboards/${d.id}`, { name: 'D2', tiles: d.tiles })).body.result;
    assert.is(u.tiles[0].id, d.tiles[0].id);
    const v = (await call(emu, 'POST', `${CS}/dashboards/validate`, { name: 'V', tiles: [tile] })).body;
    assert.is(v.result.valid, true);
    const a = await call(emu, 'POST', `${CS}/alerts`, {
      source: 'tile',
      dashboardId: d.id,
      tileId: d.tiles[0].id,
      threshold: 3,
      interval: '15m',
      thresholdType: 'below',
      channel: { type: 'email', emailRecipients: ['sre@example.com'] },
    });
    assert.is(a.status, 200, a.text);
    assert.equal(a.body.result.channel, { type: 'email', emailRecipients: ['sre@example.com'] });
    const del = await call(emu, 'DELETE', `${CS}/alerts/${a.body.result.id}`);
    assert.equal(Object.keys(del.body).sort(), ['requestId', 'status']);
    assert.is(del.body.status, 200);
    assert.is((await call(emu, 'DELETE', `${CS}/dashboards/${d.id}`)).status, 200);
    assert.equal((await call(emu, 'GET', `${CS}/dashboards`)).body.result, []);
  }));

test("a webhook channel keeps ClickStack's Slack channel, service and PagerDuty severity as sent; a PUT without them clears them", () =>
  withCs(async (emu) => {
    // GIVEN the seed's Slack API and PagerDuty API webhooks (ClickStack's own services)
    const hooks = (await call(emu, 'GET', `${CS}/webhooks`)).body.result;
    assert.equal(
      hooks.slice(2).map((w: { name: string; service: string }) => [w.name, w.service]),
      [
        ['slack-alerts', 'slack_api'],
        ['pagerduty', 'pagerduty_api'],
      ],
    );
    const seeded = (await call(emu, 'GET', `${CS}/alerts`)).body.result[0];
    const { id, state: _s, teamId: _t, createdAt: _c, updatedAt: _u, ...body } = seeded;
    const slack = { type: 'webhook', webhookId: HX_WEBHOOK_IDS['slack-alerts'], webhookService: 'slack_api', slackChannelId: 'C01ABCDEF23' };
    // WHEN an update sends them, THEN the answer and every later read have them
    const put = await call(emu, 'PUT', `${CS}/alerts/${id}`, { ...body, channel: slack });
    assert.is(put.status, 200, put.text);
    assert.equal(put.body.result.channel, slack);
    assert.equal((await call(emu, 'GET', `${CS}/alerts/${id}`)).body.result.channel, slack);
    const pager = { type: 'webhook', webhookId: HX_WEBHOOK_IDS.pagerduty, severity: 'critical' };
    assert.equal((await call(emu, 'PUT', `${CS}/alerts/${id}`, { ...body, channel: pager })).body.result.channel, pager, 'the PUT replaces the channel');
    // A severity the spec does not name, or a channel with both shapes' members, is refused (oneOf).
    const bad = await call(emu, 'PUT', `${CS}/alerts/${id}`, { ...body, channel: { ...pager, severity: 'urgent' } });
    assert.is(bad.status, 400);
    assert.match(bad.body.error, /channel\.severity: must be one of "critical", "error", "warning", "info"/);
    const both = await call(emu, 'PUT', `${CS}/alerts/${id}`, { ...body, channel: { ...pager, emailRecipients: ['sre@example.com'] } });
    assert.is(both.status, 400);
    assert.equal((await call(emu, 'GET', `${CS}/alerts/${id}`)).body.result.channel, pager, 'a refused update changes nothing');
  }));

test('errors use the cloud envelope: 400 body and path parameters, 401 auth, 404 ids and services', () =>
  withCs(async (emu) => {
    const expect = async (r: Promise<{ status: number; body: any }>, status: number, message: RegExp) => {
      const x = await r;
      assert.is(x.status, status, JSON.stringify(x.body));
      assert.is(x.body.status, status);
      assert.match(x.body.error, message);
      assert.match(x.body.requestId, UUID_V4);
    };
    await expect(call(emu, 'POST', `${CS}/dashboards`, { name: 'x' }), 400, /^Body validation failed: tiles: Required/);
    await expect(
      call(emu, 'POST', `${CS}/dashboards`, { name: 'x', tiles: [{ ...tile, config: { ...tile.config, sourceId: '65f5e4a3b9e77c001a999999' } }] }),
      400,
      /^Could not find the following source IDs/,
    );
    await expect(call(emu, 'POST', `${CS}/alerts`, { threshold: 1, interval: '2m', thresholdType: 'above' }), 400, /interval: must be one of/);
    await expect(
      call(emu, 'POST', `${CS}/alerts`, {
        source: 'saved_search',
        savedSearchId: 's',
        interval: '1m',
        thresholdType: 'above',
        channel: { type: 'webhook', webhookId: HX_WEBHOOK_IDS['ops-pager'] },
      }),
      400,
      /^threshold: Required/,
    );
    await expect(call(emu, 'GET', `/v1/organizations/${ORG}/services/prod/clickstack/alerts`), 400, /^serviceId: must be a UUID/);
    await expect(call(emu, 'GET', `/v1/organizations/nope/services/${PROD}/clickstack/alerts`), 400, /^organizationId: must be a UUID/);
    await expect(call(emu, 'GET', `${CS}/alerts`, undefined, null), 401, /^Unauthorized/);
    await expect(call(emu, 'GET', `${CS}/alerts`, undefined, BEARER), 401, /^Unauthorized/);
    await expect(call(emu, 'GET', `${CS}/alerts/65f5e4a3b9e77c001a999999`), 404, /^Alert not found \(clickStackAlertId 65f5e4a3b9e77c001a999999\)/);
    await expect(call(emu, 'GET', `${CS}/dashboards/nope`), 404, /^Dashboard not found \(clickStackDashboardId nope\)/);
    await expect(call(emu, 'GET', `/v1/organizations/${ORG}/services/${STAGING}/clickstack/alerts`), 404, /^ClickStack is not enabled on service/);
    await expect(call(emu, 'GET', `/v1/organizations/${ORG}/services/00000000-0000-4000-8000-000000000000/clickstack/alerts`), 404, /^service .* not found/);
    await expect(call(emu, 'GET', `${CS}/roles`), 404, /^not found/);
  }));

test("HyperDX's dashboard variables, formulas and series limits, which ClickStack's schemas lack, are dropped, not stored", () =>
  withCs(async (emu) => {
    // ClickStackFilter and the ClickStack builder configs (2026-07-31) have none of these members.
    const hyperdxOnly = {
      ...tile,
      config: {
        ...tile.config,
        select: [{ aggFn: 'count' }, { aggFn: 'count' }],
        formulas: [{ expression: 'A / B' }],
        seriesLimit: 5,
        showOperandSeries: true,
      },
    };
    const variable = { type: 'QUERY_EXPRESSION', name: 'Env', expression: 'env', sourceId: HX_SOURCE_IDS.Logs, isVariableEnabled: true, variableName: 'env' };
    // A filter that neither broadcasts nor is a variable is refused by HyperDX; ClickStack has neither member.
    const quiet = { type: 'QUERY_EXPRESSION', name: 'Svc', expression: 'svc', sourceId: HX_SOURCE_IDS.Logs, isBroadcastEnabled: false };
    const absent = (d: { tiles: Array<{ config: Record<string, unknown> }>; filters: Array<Record<string, unknown>> }) => {
      for (const k of ['formulas', 'seriesLimit', 'showOperandSeries']) assert.not.ok(k in d.tiles[0]!.config, `config.${k} stored`);
      for (const f of d.filters) for (const k of ['isBroadcastEnabled', 'isVariableEnabled', 'variableName']) assert.not.ok(k in f, `filter ${k} stored`);
    };
    const created = await call(emu, 'POST', `${CS}/dashboards`, { name: 'D', tiles: [hyperdxOnly], filters: [variable, quiet] });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const d = created.body.result;
    absent(d);
    assert.equal(
      d.filters.map((f: { name: string }) => f.name),
      ['Env', 'Svc'],
    );
    assert.equal(d.tiles[0].config.select.length, 2);
    absent((await call(emu, 'GET', `${CS}/dashboards/${d.id}`)).body.result);
    const updated = await call(emu, 'PUT', `${CS}/dashboards/${d.id}`, {
      name: 'D',
      tiles: [{ ...hyperdxOnly, id: d.tiles[0].id }],
      filters: d.filters.map((f: object) => ({ ...f, ...variable })),
    });
    assert.is(updated.status, 200, JSON.stringify(updated.body));
    absent(updated.body.result);
    const v = (await call(emu, 'POST', `${CS}/dashboards/validate`, { name: 'V', tiles: [hyperdxOnly], filters: [variable] })).body.result;
    assert.is(v.valid, true);
    absent(v.normalized);
  }));

test('/api/v2 is not served under clickstack-cloud; the cloud paths are', () =>
  withCs(async (emu) => {
    const r = await obs(emu, 'GET', '/api/v2/dashboards');
    assert.is(r.status, 404);
    assert.match(r.body.message, /clickstack-cloud/);
    assert.is((await call(emu, 'GET', `/v1/organizations/${ORG}/services/${PROD}/clickpipes`)).body.result.length, 5);
    assert.is((await call(emu, 'GET', `/v1/organizations/${ORG}/services/${PROD}/ingestpipes`)).body.result.length, 5);
  }));

test('a seed without the default service puts ClickStack on the first service; none at all is an error', async () => {
  const org = '11111111-1111-4111-8111-111111111111';
  const svc = '22222222-2222-4222-8222-222222222222';
  await withCs(
    async (emu) => {
      assert.equal(emu.clickstack, { organizationId: org, serviceId: svc });
      assert.is((await call(emu, 'GET', `/v1/organizations/${org}/services/${svc}/clickstack/sources`)).body.result.length, 0);
    },
    { data: { organizations: [{ id: org, services: [{ id: svc }] }] } },
  );
  await startEmulator({ api: 'clickstack-cloud', data: {} }).then(
    (emu) => emu.close().then(() => assert.unreachable('no service')),
    (err: Error) => assert.match(err.message, /needs at least one organization with a service/),
  );
});

test.run();
