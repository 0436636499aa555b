/** Seed data for the `hyperdx` and `clickstack-cloud` profiles: materialized, persisted, and the default. */
import { EmulatorError, resolveTime } from './seed.ts';
import type { JsonValue } from './types.ts';
import {
  type Flavor,
  type HxDashboard,
  type HxAlert,
  type HxSource,
  type HxWebhook,
  type HyperdxSeedData,
  OBJECT_ID,
  HX_TEAM_ID,
  HX_CONNECTION_ID,
  HX_SOURCE_IDS,
  HX_WEBHOOK_IDS,
  HX_ALERT_IDS,
  isObject,
  clone,
  orderAlert,
} from './hx-model.ts';
import { HxStore } from './hyperdx.ts';
function isoOrRelative(v: unknown, anchor: Date, where: string, fallback: string): string {
  return resolveTime(v ?? fallback, anchor, where);
}

function seedList(v: unknown, where: string): Record<string, unknown>[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EmulatorError(`${where}: must be an array`);
  return v.map((x, i) => {
    if (!isObject(x)) throw new EmulatorError(`${where}[${i}]: must be an object`);
    return x;
  });
}

function seedId(v: unknown, where: string, ids: Set<string>): string {
  if (typeof v !== 'string' || !OBJECT_ID.test(v)) throw new EmulatorError(`${where}: must be 24 lowercase hex characters, got ${JSON.stringify(v)}`);
  if (ids.has(v)) throw new EmulatorError(`${where}: id ${v} is used twice`);
  ids.add(v);
  return v;
}

/**
 * Turns `hyperdx` / `clickstack-cloud` seed data into state: sources and webhooks need an id (24 hex), a name
 * and their kind/service; alerts an id; dashboards are checked like a creation request (ids may be given for
 * the dashboard and its tiles, or are assigned). Times take the relative forms of the seed profile.
 * @throws EmulatorError naming the place (`seed.webhooks[1].name: ...`).
 */
export function materializeHxSeed(
  seed: Record<string, unknown>,
  anchor: Date,
  newId: () => string,
  flavor: Flavor,
): { dashboards: HxDashboard[]; alerts: HxAlert[]; sources: HxSource[]; webhooks: HxWebhook[] } {
  const ids = new Set<string>();
  const sources = seedList(seed['sources'], 'seed.sources').map((s, i) => {
    const w = `seed.sources[${i}]`;
    const id = seedId(s['id'], `${w}.id`, ids);
    if (typeof s['name'] !== 'string' || s['name'] === '') throw new EmulatorError(`${w}.name: a source needs a name`);
    if (typeof s['kind'] !== 'string') throw new EmulatorError(`${w}.kind: must be log, trace, metric, session or promql`);
    return { ...clone(s), id } as HxSource;
  });
  const webhooks = seedList(seed['webhooks'], 'seed.webhooks').map((h, i) => {
    const w = `seed.webhooks[${i}]`;
    const id = seedId(h['id'], `${w}.id`, ids);
    if (typeof h['name'] !== 'string' || h['name'] === '') throw new EmulatorError(`${w}.name: a webhook needs a name`);
    if (typeof h['service'] !== 'string')
      throw new EmulatorError(`${w}.service: must be slack, generic or incidentio (ClickStack also slack_api, pagerduty_api)`);
    const createdAt = isoOrRelative(h['createdAt'], anchor, `${w}.createdAt`, 'now');
    const updatedAt = isoOrRelative(h['updatedAt'] ?? h['createdAt'], anchor, `${w}.updatedAt`, 'now');
    return { ...clone(h), id, createdAt, updatedAt } as HxWebhook;
  });
  // Dashboards first (alerts may point at their tiles), through a store so the same rules apply.
  const store = new HxStore({ dashboards: [], alerts: [], sources, webhooks }, { flavor, newId, now: () => anchor });
  const rawDashboards = seedList(seed['dashboards'], 'seed.dashboards');
  const givenIds = rawDashboards.map((d, i) => ({
    id: d['id'] === undefined ? undefined : seedId(d['id'], `seed.dashboards[${i}].id`, ids),
    tiles: (Array.isArray(d['tiles']) ? d['tiles'] : []).map((t, j) =>
      isObject(t) && t['id'] !== undefined ? seedId(t['id'], `seed.dashboards[${i}].tiles[${j}].id`, ids) : undefined,
    ),
  }));
  const fresh = () => {
    let id = newId();
    while (ids.has(id)) id = newId();
    ids.add(id);
    return id;
  };
  const dashboards: HxDashboard[] = rawDashboards.map((d, i) => {
    const { id: _ignored, ...body } = d;
    const problems = store.dashboardProblems(body, false);
    if (problems.length > 0) throw new EmulatorError(`seed.dashboards[${i}]${problems[0]!.path ? `.${problems[0]!.path}` : ''}: ${problems[0]!.message}`);
    const created = store.createDashboard(body);
    const g = givenIds[i]!;
    const out = { ...created, id: g.id ?? fresh() } as HxDashboard;
    out.tiles = created.tiles.map((t, j) => ({ ...t, id: g.tiles[j] ?? fresh() }));
    return out;
  });
  const alerts = seedList(seed['alerts'], 'seed.alerts').map((a, i) => {
    const w = `seed.alerts[${i}]`;
    const id = seedId(a['id'], `${w}.id`, ids);
    const createdAt = isoOrRelative(a['createdAt'], anchor, `${w}.createdAt`, 'now');
    const updatedAt = isoOrRelative(a['updatedAt'] ?? a['createdAt'], anchor, `${w}.updatedAt`, 'now');
    const out: Record<string, unknown> = { state: 'OK', teamId: HX_TEAM_ID, ...clone(a), id, createdAt, updatedAt };
    if (flavor === 'hyperdx' && out['channels'] === undefined && isObject(out['channel'])) out['channels'] = [out['channel']];
    if (out['channel'] === undefined && Array.isArray(out['channels'])) out['channel'] = (out['channels'] as JsonValue[])[0];
    if (flavor === 'clickstack') delete out['channels'];
    return orderAlert(out);
  });
  return { dashboards, alerts, sources, webhooks };
}

/**
 * Dashboards and alerts from a `--persist` file this profile wrote: taken as they are (they were answers
 * already), after a check that each is an object with an id.
 * @throws EmulatorError
 */
export function persistedHxState(saved: Record<string, unknown>, file: string): { dashboards: HxDashboard[]; alerts: HxAlert[] } {
  const take = <T>(key: string): T[] => {
    const list = saved[key] ?? [];
    if (!Array.isArray(list) || !list.every((x) => isObject(x) && typeof x['id'] === 'string')) {
      throw new EmulatorError(`persisted state ${file}: ${key} must be an array of objects with an id`);
    }
    return list as T[];
  };
  const dashboards = take<HxDashboard>('dashboards');
  for (const d of dashboards) {
    if (!Array.isArray(d.tiles) || !Array.isArray(d.filters))
      throw new EmulatorError(`persisted state ${file}: dashboard ${d.id} has no tiles or filters list`);
  }
  return { dashboards, alerts: take<HxAlert>('alerts') };
}

/**
 * The built-in seed of the `hyperdx` and `clickstack-cloud` profiles (cloud data: the seed profile's). ClickStack
 * also lists a Slack API and a PagerDuty API webhook, services HyperDX's spec does not have: alerts name a Slack
 * channel and a PagerDuty severity on their channel for those.
 */
export function defaultHyperdxSeed(organizations: import('./types.ts').SeedOrganization[], flavor: Flavor = 'hyperdx'): HyperdxSeedData {
  const common = { connection: HX_CONNECTION_ID, querySettings: [] };
  return {
    sources: [
      {
        id: HX_SOURCE_IDS.Logs,
        name: 'Logs',
        kind: 'log',
        ...common,
        from: { databaseName: 'default', tableName: 'otel_logs' },
        defaultTableSelectExpression: 'Timestamp, ServiceName, SeverityText, Body',
        timestampValueExpression: 'TimestampTime',
        serviceNameExpression: 'ServiceName',
        severityTextExpression: 'SeverityText',
        bodyExpression: 'Body',
        eventAttributesExpression: 'LogAttributes',
        resourceAttributesExpression: 'ResourceAttributes',
        traceSourceId: HX_SOURCE_IDS.Traces,
        metricSourceId: HX_SOURCE_IDS.Metrics,
        traceIdExpression: 'TraceId',
        spanIdExpression: 'SpanId',
        implicitColumnExpression: 'Body',
      },
      {
        id: HX_SOURCE_IDS.Traces,
        name: 'Traces',
        kind: 'trace',
        ...common,
        from: { databaseName: 'default', tableName: 'otel_traces' },
        defaultTableSelectExpression: 'Timestamp, ServiceName, StatusCode, round(Duration / 1e6), SpanName',
        timestampValueExpression: 'Timestamp',
        durationExpression: 'Duration',
        durationPrecision: 9,
        traceIdExpression: 'TraceId',
        spanIdExpression: 'SpanId',
        parentSpanIdExpression: 'ParentSpanId',
        spanNameExpression: 'SpanName',
        spanKindExpression: 'SpanKind',
        statusCodeExpression: 'StatusCode',
        statusMessageExpression: 'StatusMessage',
        serviceNameExpression: 'ServiceName',
        resourceAttributesExpression: 'ResourceAttributes',
        eventAttributesExpression: 'SpanAttributes',
        logSourceId: HX_SOURCE_IDS.Logs,
        metricSourceId: HX_SOURCE_IDS.Metrics,
      },
      {
        id: HX_SOURCE_IDS.Metrics,
        name: 'Metrics',
        kind: 'metric',
        ...common,
        from: { databaseName: 'default', tableName: '' },
        metricTables: { gauge: 'otel_metrics_gauge', histogram: 'otel_metrics_histogram', sum: 'otel_metrics_sum' },
        timestampValueExpression: 'TimeUnix',
        resourceAttributesExpression: 'ResourceAttributes',
        logSourceId: HX_SOURCE_IDS.Logs,
      },
    ],
    webhooks: [
      {
        id: HX_WEBHOOK_IDS['ops-pager'],
        name: 'ops-pager',
        service: 'generic',
        url: 'https://pager.example.com/hooks/ops',
        body: '{"text": "{{title}}: {{body}}"}',
        createdAt: '-120d',
        updatedAt: '-60d',
      },
      {
        id: HX_WEBHOOK_IDS['slack-sre'],
        name: 'slack-sre',
        service: 'slack',
        url: 'https://hooks.slack.com/services/T000/B000/example',
        createdAt: '-120d',
        updatedAt: '-120d',
      },
      ...(flavor === 'clickstack'
        ? [
            {
              id: HX_WEBHOOK_IDS['slack-alerts'],
              name: 'slack-alerts',
              service: 'slack_api',
              url: 'https://slack.com/api/chat.postMessage',
              description: 'Posts to the channel each alert names',
              createdAt: '-100d',
              updatedAt: '-100d',
            },
            {
              id: HX_WEBHOOK_IDS.pagerduty,
              name: 'pagerduty',
              service: 'pagerduty_api',
              url: 'https://events.pagerduty.com/v2/enqueue',
              description: 'Pages on-call with the severity each alert names',
              createdAt: '-100d',
              updatedAt: '-100d',
            },
          ]
        : []),
    ],
    alerts: [
      {
        id: HX_ALERT_IDS['Error spike (saved search)'],
        name: 'Error spike (saved search)',
        message: 'More than 50 errors in 5m',
        source: 'saved_search',
        savedSearchId: '65f5e4a3b9e77c001a0004d1',
        threshold: 50,
        thresholdType: 'above',
        interval: '5m',
        channels: [
          { type: 'webhook', webhookId: HX_WEBHOOK_IDS['ops-pager'] },
          { type: 'webhook', webhookId: HX_WEBHOOK_IDS['slack-sre'] },
        ],
        state: 'OK',
        createdAt: '-90d',
        updatedAt: '-30d',
      },
      {
        id: HX_ALERT_IDS['Slow requests (saved search)'],
        name: 'Slow requests (saved search)',
        message: 'Between 10 and 100 slow requests in 1h',
        source: 'saved_search',
        savedSearchId: '65f5e4a3b9e77c001a0004d2',
        groupBy: 'ServiceName',
        threshold: 10,
        thresholdMax: 100,
        thresholdType: 'between',
        interval: '1h',
        channels: [{ type: 'webhook', webhookId: HX_WEBHOOK_IDS['slack-sre'] }],
        state: 'OK',
        createdAt: '-90d',
        updatedAt: '-30d',
      },
    ],
    dashboards: [],
    organizations,
  };
}
