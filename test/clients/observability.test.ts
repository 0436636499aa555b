import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiResponseError, createObservabilityClient, NotFoundError, UnauthorizedError, type LiveDashboard } from '../../src/clients/index.ts';
import { CliError } from '../../src/errors.ts';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { json, raw, rejects, startServer, TOKEN, type TestServer } from './helpers.ts';

const DASHBOARD: LiveDashboard = {
  id: '65f5e4a3b9e77c001a567890',
  name: 'Checkout overview',
  tags: ['team:payments', 'managed-by:steward'],
  tiles: [
    {
      id: '65f5e4a3b9e77c001a901234',
      name: 'Error count',
      x: 0,
      y: 0,
      w: 6,
      h: 3,
      asRatio: false,
      series: [{ type: 'time', dataSource: 'events', aggFn: 'count', where: 'level:error', whereLanguage: 'lucene', groupBy: [] }],
    },
  ],
};

const ALERT = {
  id: '65f5e4a3b9e77c001a123456',
  name: 'Checkout errors',
  message: 'Error count above 50 in 5m',
  threshold: 50,
  interval: '5m',
  thresholdType: 'above',
  source: 'tile',
  state: 'inactive',
  channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a789012' },
  team: '65f5e4a3b9e77c001a345678',
  tileId: '65f5e4a3b9e77c001a901234',
  dashboard: '65f5e4a3b9e77c001a567890',
  silenced: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function client(server: TestServer, extra: Record<string, unknown> = {}) {
  return createObservabilityClient({
    url: server.url,
    token: TOKEN,
    retry: { limit: 1 },
    credentialHint: 'the token in STEWARD_OBS_TOKEN',
    ...extra,
  });
}

/** The page a paged list request asks for. */
function pageOf(req: { url?: string }): { offset: number; limit: number } {
  const q = new URL(req.url ?? '', 'http://x').searchParams;
  return { offset: Number(q.get('offset')), limit: Number(q.get('limit')) };
}

test('listDashboards: GET /api/v2/dashboards with Bearer, returns data', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [DASHBOARD] }));
  try {
    const list = await client(server).listDashboards();
    assert.equal(list, [DASHBOARD]);
    assert.is(server.requests.length, 1);
    const r = server.requests[0]!;
    assert.is(r.method, 'GET');
    assert.is(r.url, '/api/v2/dashboards');
    assert.is(r.headers['authorization'], `Bearer ${TOKEN}`);
    assert.match(String(r.headers['accept']), /application\/json/);
    assert.is(r.body, '');
  } finally {
    await server.close();
  }
});

test('getDashboard: the id is URL-encoded as one path segment', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: DASHBOARD }));
  try {
    const d = await client(server).getDashboard('a/b c?d#e');
    assert.is(d.id, DASHBOARD.id);
    assert.is(server.requests[0]!.url, '/api/v2/dashboards/a%2Fb%20c%3Fd%23e');
  } finally {
    await server.close();
  }
});

test('createDashboard: POST with the JSON body, returns the created dashboard', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: DASHBOARD }));
  try {
    const body = {
      name: 'Checkout overview',
      tags: ['team:payments'],
      tiles: [{ name: 'Error count', x: 0, y: 0, w: 6, h: 3, series: [{ type: 'time', aggFn: 'count', groupBy: [] }] }],
    };
    const created = await client(server).createDashboard(body);
    assert.is(created.id, DASHBOARD.id);
    const r = server.requests[0]!;
    assert.is(r.method, 'POST');
    assert.is(r.url, '/api/v2/dashboards');
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.is(r.headers['authorization'], `Bearer ${TOKEN}`);
    assert.equal(JSON.parse(r.body), body);
  } finally {
    await server.close();
  }
});

test('updateAlert: PUT /api/v2/alerts/{id} with the body, returns the alert', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: ALERT }));
  try {
    const body = {
      name: 'Checkout errors',
      threshold: 50,
      thresholdType: 'above' as const,
      interval: '5m',
      source: 'tile' as const,
      dashboardId: ALERT.dashboard,
      tileId: ALERT.tileId,
      channel: { type: 'webhook', webhookId: ALERT.channel.webhookId },
    };
    const alert = await client(server).updateAlert(ALERT.id, body);
    assert.equal(alert, ALERT);
    const r = server.requests[0]!;
    assert.is(r.method, 'PUT');
    assert.is(r.url, `/api/v2/alerts/${ALERT.id}`);
    assert.equal(JSON.parse(r.body), body);
  } finally {
    await server.close();
  }
});

test('a prefix URL with a base path and a trailing slash keeps the base path', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [] }));
  try {
    await createObservabilityClient({ url: `${server.url}/hyperdx/`, token: TOKEN }).listDashboards();
    assert.is(server.requests[0]!.url, '/hyperdx/api/v2/dashboards');
  } finally {
    await server.close();
  }
});

test('tolerant reader: unknown fields, config tiles, null optional fields pass and are kept', async () => {
  const newer = {
    id: 'd1',
    name: 'Infrastructure',
    filters: [{ id: 'f1', type: 'QUERY_EXPRESSION', name: 'Environment', expression: 'environment' }],
    containers: [],
    savedQuery: null,
    tiles: [
      {
        id: 't1',
        name: 'Server CPU',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        containerId: 'c1',
        config: { displayType: 'line', sourceId: 's1', select: [{ aggFn: 'avg', valueExpression: 'cpu.usage' }] },
      },
      { id: 't2', name: 'Old style', series: [{ type: 'time', sourceId: 's1', aggFn: 'count', level: 0.95, field: null }] },
    ],
  };
  const server = await startServer((_req, res) => json(res, 200, { data: [newer], meta: { total: 1 } }));
  try {
    const [d] = await client(server).listDashboards();
    assert.equal(d, newer);
    assert.equal((d as Record<string, unknown>)['filters'], newer.filters);
    assert.equal(d!.tiles![0]!.config, newer.tiles[0]!.config);
  } finally {
    await server.close();
  }
});

test('tolerant reader: an alert from a newer server (channels, silenced object, new enum values) passes', async () => {
  const newer = {
    id: 'a1',
    name: null,
    message: null,
    threshold: 10,
    thresholdMax: 20,
    interval: '1d',
    thresholdType: 'between',
    source: 'saved_search',
    state: 'INSUFFICIENT_DATA',
    channel: { type: 'webhook', webhookId: 'w1' },
    channels: [{ type: 'webhook', webhookId: 'w1' }],
    teamId: 'team1',
    dashboardId: null,
    savedSearchId: 's1',
    silenced: { by: null, at: '2026-03-19T08:00:00.000Z', until: '2026-03-20T08:00:00.000Z' },
    executionErrors: null,
    createdAt: null,
  };
  const server = await startServer((_req, res) => json(res, 200, { data: newer }));
  try {
    assert.equal(await client(server).updateAlert('a1', { threshold: 10 }), newer);
  } finally {
    await server.close();
  }
});

test('wrong types: ApiResponseError naming the field path', async () => {
  const bad = [DASHBOARD, DASHBOARD, DASHBOARD, { ...DASHBOARD, tiles: [{ ...DASHBOARD.tiles![0]!, x: '0' }] }];
  const server = await startServer((_req, res) => json(res, 200, { data: bad }));
  try {
    const e = await rejects(() => client(server).listDashboards());
    assert.instance(e, ApiResponseError);
    const err = e as ApiResponseError;
    assert.is(err.message, 'GET /api/v2/dashboards: data[3].tiles[0].x: must be number');
    assert.is(err.field, 'data[3].tiles[0].x');
    assert.is(err.status, 200);
    assert.is(err.code, 'api-response');
    assert.is(err.outcomeUnknown, false);
  } finally {
    await server.close();
  }
});

test('wrong shape: a missing envelope, a missing id and several problems are all reported', async () => {
  const server = await startServer((req, res) => {
    if (req.url === '/api/v2/dashboards/x') json(res, 200, { id: 'x', name: 'bare, no envelope' });
    else json(res, 200, { data: [{ name: 'no id' }, { id: 5, name: ['a'], tags: 'prod' }] });
  });
  try {
    const c = client(server);
    const e1 = (await rejects(() => c.getDashboard('x'))) as ApiResponseError;
    assert.is(e1.message, 'GET /api/v2/dashboards/x: data: is required but missing');
    const e2 = (await rejects(() => c.listDashboards())) as ApiResponseError;
    assert.instance(e2, ApiResponseError);
    assert.match(e2.message, /^GET \/api\/v2\/dashboards: data\[0\]\.id: is required but missing \(and 3 more problems\)$/);
    assert.equal(
      e2.problems.map((p) => p.field),
      ['data[0].id', 'data[1].id', 'data[1].name', 'data[1].tags'],
    );
  } finally {
    await server.close();
  }
});

test('a paged dashboard list (meta.total above the items returned) is refused, not half-read', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [DASHBOARD], meta: { total: 3, limit: 1, offset: 0 } }));
  try {
    const e = (await rejects(() => client(server).listDashboards())) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.is(
      e.message,
      'GET /api/v2/dashboards: the service listed 1 of 3 dashboards; refusing to plan on a partial list (steward needs the whole list in one response)',
    );
    assert.is(e.field, 'meta.total');
  } finally {
    await server.close();
  }
});

test('a 404 on the dashboard list names the profiles that read under another base path; other 404s get no hint', async () => {
  const server = await startServer((_req, res) => json(res, 404, { message: 'Not found' }));
  try {
    const cs = { keyId: 'key-id', keySecret: 'key-secret', organizationId: 'org', serviceId: 'svc' };
    const cases = [
      ['seed', {}, ['`observability.api: clickstack-cloud` for ClickStack on ClickHouse Cloud']],
      ['hyperdx', {}, ['`observability.api: clickstack-cloud`']],
      ['clickstack-cloud', cs, ['`observability.api: seed` for the seed observability API', 'or `observability.api: hyperdx` for HyperDX external API v2']],
    ] as const;
    for (const [api, extra, suggested] of cases) {
      const c = client(server, { profile: OBSERVABILITY_PROFILES[api], apiSetting: 'steward.yaml:5:3', ...extra });
      const e = await rejects(() => c.listDashboards());
      assert.instance(e, NotFoundError);
      assert.match(e.message, `; the server does not speak ${OBSERVABILITY_PROFILES[api].title} at this path (observability.api: ${api}); set `);
      for (const s of suggested) assert.match(e.message, s);
      assert.ok(e.message.endsWith(' in steward.yaml:5:3, or check the URL and ids'), e.message);
      const other = await rejects(() => c.getDashboard('65f5e4a3b9e77c001a000001'));
      assert.instance(other, NotFoundError);
      assert.not.match(other.message, /does not speak/);
    }
  } finally {
    await server.close();
  }
});

test('clickstack-cloud: every list short of its meta.total is refused as dashboards are (a missing alert would be planned as a duplicate create)', async () => {
  // A real ClickStack server answered one page with `meta.total` above it; steward reads these lists in one request.
  const items: Record<string, unknown[]> = {
    dashboards: [DASHBOARD],
    alerts: [{ id: '65f5e4a3b9e77c001a000001', name: 'a' }],
    sources: [{ id: '65f5e4a3b9e77c001a000002', name: 'Logs' }],
    webhooks: [{ id: '65f5e4a3b9e77c001a000003', name: 'ops' }],
  };
  const server = await startServer((req, res) => {
    const what = (req.url ?? '').split('?')[0]!.split('/').pop()!;
    json(res, 200, { status: 200, requestId: 'r', result: items[what], meta: { total: 3, limit: 1, offset: 0 } });
  });
  try {
    const c = client(server, {
      profile: OBSERVABILITY_PROFILES['clickstack-cloud'],
      keyId: 'key-id',
      keySecret: 'key-secret',
      organizationId: 'org',
      serviceId: 'svc',
    });
    const reads = { dashboards: () => c.listDashboards(), alerts: () => c.listAlerts(), sources: () => c.listSources(), webhooks: () => c.listWebhooks() };
    for (const [what, read] of Object.entries(reads)) {
      const e = (await rejects(read)) as ApiResponseError;
      assert.instance(e, ApiResponseError, what);
      assert.is(
        e.message,
        `GET /v1/organizations/org/services/svc/clickstack/${what}: the service listed 1 of 3 ${what}; refusing to plan on a partial list (steward needs the whole list in one response)`,
      );
      assert.is(e.field, 'meta.total');
    }
    // One request per list: nothing is paged on ClickStack.
    assert.is(server.requests.length, 4);
  } finally {
    await server.close();
  }
});

test('clickstack-cloud: a whole list (meta.total equal, or absent) is read', async () => {
  const alert = { id: '65f5e4a3b9e77c001a000001', name: 'a' };
  for (const meta of [{ total: 1 }, undefined]) {
    const server = await startServer((_req, res) => json(res, 200, { status: 200, requestId: 'r', result: [alert], ...(meta ? { meta } : {}) }));
    try {
      const c = client(server, {
        profile: OBSERVABILITY_PROFILES['clickstack-cloud'],
        keyId: 'key-id',
        keySecret: 'key-secret',
        organizationId: 'org',
        serviceId: 'svc',
      });
      assert.equal(await c.listAlerts(), [alert]);
    } finally {
      await server.close();
    }
  }
});

test('hyperdx: a sources list short of its meta.total is refused too (sources are not paged)', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: [{ id: 's1', name: 'Logs' }], meta: { total: 2 } }));
  try {
    const e = (await rejects(() => client(server, { profile: OBSERVABILITY_PROFILES.hyperdx }).listSources())) as ApiResponseError;
    assert.match(e.message, /^GET \/api\/v2\/sources: the service listed 1 of 2 sources; refusing to plan on a partial list/);
  } finally {
    await server.close();
  }
});

test('a paged list whose server ignores offset (every page the same) is read once, not total/limit times', async () => {
  // The 2026-08 spec's own example: one webhook, meta {total: 142, limit: 50, offset: 100}, whatever was asked.
  const hook = { id: '507f1f77bcf86cd799439011', name: 'Production Alerts', service: 'generic' };
  const server = await startServer((_req, res) => json(res, 200, { data: [hook], meta: { total: 142, limit: 50, offset: 100 } }));
  try {
    const hooks = await client(server, { profile: OBSERVABILITY_PROFILES.hyperdx }).listWebhooks();
    assert.equal(hooks, [hook]);
    assert.equal(
      server.requests.map((r) => r.url),
      ['/api/v2/webhooks?limit=1000&offset=0', '/api/v2/webhooks?limit=1000&offset=1'],
    );
  } finally {
    await server.close();
  }
});

test('a paged list that honours offset is read to its total, 1,000 a page (the most the 2026-08 spec allows)', async () => {
  const all = Array.from({ length: 2500 }, (_, i) => ({ id: `w${i}`, name: `hook ${i}` }));
  const server = await startServer((req, res) => {
    const { offset, limit } = pageOf(req);
    json(res, 200, { data: all.slice(offset, offset + limit), meta: { total: all.length, limit, offset } });
  });
  try {
    const hooks = await client(server, { profile: OBSERVABILITY_PROFILES.hyperdx }).listWebhooks();
    assert.equal(
      hooks.map((h) => h.id),
      all.map((h) => h.id),
    );
    // Three pages, then page one again to see that nothing slid past the reader.
    assert.equal(
      server.requests.map((r) => pageOf(r)),
      [0, 1000, 2000, 0].map((offset) => ({ offset, limit: 1000 })),
    );
  } finally {
    await server.close();
  }
});

test('full pages without a total are read to an end, but not for ever: refused past 10,000 items (red team, round 9)', async () => {
  const server = await startServer((req, res) => {
    const offset = pageOf(req).offset;
    json(res, 200, { data: Array.from({ length: 1000 }, (_, i) => ({ id: `a${offset + i}`, name: `alert ${offset + i}` })) });
  });
  try {
    const e = (await rejects(() => client(server, { profile: OBSERVABILITY_PROFILES.hyperdx }).listAlerts())) as ApiResponseError;
    assert.match(e.message, /more than 10 full pages and no total; steward will not plan on a list it cannot see the end of/);
    assert.is(server.requests.length, 10);
  } finally {
    await server.close();
  }
});

test('a delete and a create between two pages keep the total but slide an item past the reader: page one read again tells (red team, round 9)', async () => {
  let all = Array.from({ length: 1005 }, (_, i) => ({ id: `a${i}`, name: `alert ${i}` }));
  let shifted = false;
  const server = await startServer((req, res) => {
    const { offset, limit } = pageOf(req);
    if (offset === 1000 && !shifted) {
      // Someone deletes the first alert and creates another: the total stays 1005.
      shifted = true;
      all = [...all.slice(1), { id: 'new', name: 'concurrent' }];
    }
    json(res, 200, { data: all.slice(offset, offset + limit), meta: { total: all.length, limit, offset } });
  });
  try {
    const got = await client(server, { profile: OBSERVABILITY_PROFILES.hyperdx }).listAlerts();
    // Read again after the first page changed: the whole list as it now is, a1000 included.
    assert.equal(
      got.map((a) => a.id),
      all.map((a) => a.id),
    );
  } finally {
    await server.close();
  }
});

test('alerts: a full page repeated (limit honoured, offset not) is refused; without a total a full page reads on (red team, round 8)', async () => {
  const all = Array.from({ length: 1620 }, (_, i) => ({ id: `a${i}`, name: `alert ${i}` }));
  for (const withTotal of [true, false]) {
    const server = await startServer((req, res) => {
      const limit = pageOf(req).limit;
      json(res, 200, { data: all.slice(0, limit), ...(withTotal ? { meta: { total: all.length, limit, offset: 0 } } : {}) });
    });
    try {
      const c = client(server, { profile: OBSERVABILITY_PROFILES.hyperdx });
      if (withTotal) {
        const e = (await rejects(() => c.listAlerts())) as ApiResponseError;
        assert.match(e.message, /the server said 1620 but its pages gave 1000 before repeating themselves; steward will not plan on an incomplete list/);
      } else {
        // A full page with no total: read on; page two repeats page one, a server that ignores offset and
        // whose list may go on: refused too (red team, round 9).
        const e = (await rejects(() => c.listAlerts())) as ApiResponseError;
        assert.match(e.message, /the server said no total but its pages gave 1000 before repeating themselves; steward will not plan/);
        assert.is(server.requests.length, 2);
      }
    } finally {
      await server.close();
    }
  }
  // Without a total, pages are read until a short one.
  const server = await startServer((req, res) => {
    const { offset, limit } = pageOf(req);
    json(res, 200, { data: all.slice(offset, offset + limit) });
  });
  try {
    assert.is((await client(server, { profile: OBSERVABILITY_PROFILES.hyperdx }).listAlerts()).length, 1620);
  } finally {
    await server.close();
  }
});

test('a list that changes while it is paged (pages disagree on the total) is read again, and refused if it never holds still', async () => {
  for (const settles of [true, false]) {
    let all = Array.from({ length: 1500 }, (_, i) => ({ id: `a${i}`, name: `alert ${i}` }));
    let served = 0;
    const server = await startServer((req, res) => {
      const { offset, limit } = pageOf(req);
      const body = { data: all.slice(offset, offset + limit), meta: { total: all.length, limit, offset } };
      served++;
      // Someone deletes an alert before the page boundary after each first page (only once when it settles).
      if (offset === 0 && (!settles || served === 1)) all = all.slice(1);
      json(res, 200, body);
    });
    try {
      const c = client(server, { profile: OBSERVABILITY_PROFILES.hyperdx });
      if (settles) {
        const got = await c.listAlerts();
        assert.equal(
          got.map((a) => a.id),
          all.map((a) => a.id),
        );
      } else {
        const e = (await rejects(() => c.listAlerts())) as ApiResponseError;
        assert.match(e.message, /the list changed while it was read, 3 times \(its total went from \d+ to \d+\)/);
      }
    } finally {
      await server.close();
    }
  }
});

test('a paged list that pages forward, then stops short of its total, is refused (it would hide alerts and create duplicates)', async () => {
  const all = Array.from({ length: 4 }, (_, i) => ({ id: `a${i}`, name: `alert ${i}` }));
  for (const tail of ['repeat', 'empty'] as const) {
    // Two per page whatever the limit, total 7: page 3 repeats page 2, or is empty.
    const server = await startServer((req, res) => {
      const offset = pageOf(req).offset;
      const page = offset >= all.length ? (tail === 'repeat' ? all.slice(2, 4) : []) : all.slice(offset, offset + 2);
      json(res, 200, { data: page, meta: { total: 7, limit: 2, offset } });
    });
    try {
      const e = (await rejects(() => client(server, { profile: OBSERVABILITY_PROFILES.hyperdx }).listAlerts())) as ApiResponseError;
      assert.instance(e, ApiResponseError, tail);
      assert.match(
        e.message,
        /the server said 7 but its pages gave 4 before (an empty page|repeating themselves); steward will not plan on an incomplete list/,
      );
    } finally {
      await server.close();
    }
  }
});

test('ids "", "." and ".." are never put in a path (the URL parser would resolve them to another resource)', async () => {
  const server = await startServer((_req, res) => json(res, 200, { data: {} }));
  try {
    const c = client(server, { profile: OBSERVABILITY_PROFILES.hyperdx });
    for (const id of ['', '.', '..']) {
      const e = await rejects(() => c.deleteAlert(id));
      assert.match(String((e as Error).message), /refusing to address the id/);
      const d = await rejects(() => c.deleteDashboard(id));
      assert.match(String((d as Error).message), /refusing to address the id/);
    }
    assert.is(server.requests.length, 0, 'no request was sent');
  } finally {
    await server.close();
  }
});

test('a POST answered 2xx with a body of the wrong shape: outcome unknown (it was created)', async () => {
  const server = await startServer((_req, res) => json(res, 201, { data: { name: 'x' } }));
  try {
    const e = (await rejects(() => client(server).createDashboard({ name: 'x' }))) as ApiResponseError;
    assert.instance(e, ApiResponseError);
    assert.ok(e.outcomeUnknown);
    assert.match(e.message, /outcome unknown/);
    assert.is(server.requests.length, 1);
  } finally {
    await server.close();
  }
});

test('404 → NotFoundError with method, path, status and the server message', async () => {
  const server = await startServer((_req, res) => json(res, 404, { message: 'Dashboard not found' }));
  try {
    const e = await rejects(() => client(server).getDashboard('nope'));
    assert.instance(e, NotFoundError);
    assert.is(e.message, 'GET /api/v2/dashboards/nope → 404 Not Found: Dashboard not found');
    assert.is((e as NotFoundError).status, 404);
    assert.is((e as NotFoundError).code, 'api-not-found');
  } finally {
    await server.close();
  }
});

test('401 and 403 → UnauthorizedError whose message names where the credential comes from', async () => {
  const server = await startServer((req, res) =>
    req.method === 'GET' ? json(res, 401, { message: 'Unauthorized access. API key is missing or invalid.' }) : raw(res, 403, 'Forbidden', 'text/plain'),
  );
  try {
    const e = (await rejects(() => client(server).listDashboards())) as UnauthorizedError;
    assert.instance(e, UnauthorizedError);
    assert.is(
      e.message,
      'GET /api/v2/dashboards → 401 Unauthorized: Unauthorized access. API key is missing or invalid.; the credential was refused: check the token in STEWARD_OBS_TOKEN',
    );
    assert.is(e.hint, 'the token in STEWARD_OBS_TOKEN');
    assert.is(e.exitCode, 1);
    const e2 = (await rejects(() => client(server).updateAlert('a', {}))) as UnauthorizedError;
    assert.instance(e2, UnauthorizedError);
    assert.match(e2.message, /→ 403 Forbidden: Forbidden; the credential is not allowed to do this: check the token in STEWARD_OBS_TOKEN/);
    assert.not.match(e2.message, new RegExp(TOKEN));
  } finally {
    await server.close();
  }
});

test('an empty token is refused before any request, naming where it should come from', () => {
  try {
    createObservabilityClient({ url: 'http://127.0.0.1:9', token: '', credentialHint: 'STEWARD_OBS_TOKEN' });
    assert.unreachable();
  } catch (e) {
    assert.instance(e, CliError);
    assert.match((e as Error).message, /STEWARD_OBS_TOKEN/);
  }
});

test('an invalid URL is a config error', () => {
  try {
    createObservabilityClient({ url: 'obs.example.com', token: TOKEN });
    assert.unreachable();
  } catch (e) {
    assert.instance(e, CliError);
    assert.is((e as CliError).code, 'config');
  }
});

test.run();
