/**
 * The hyperdx and clickstack-cloud emulators take a tile in the series form with every member HyperDX's
 * series have since 2026-01-30 and answer the config HyperDX 2026-08 answers for it: its server turns the
 * series into its internal chart (translateExternalChartToTileConfig, packages/api/src/utils/externalApi.ts)
 * and answers that (convertToExternalTileChartConfig, routers/external-api/v2/utils/dashboards.ts), both at
 * hyperdxio/hyperdx b52a6fa8 (2026-08-21). ClickStack's paths serve HyperDX's resources (ClickHouse Cloud's
 * spec names the same series members; how its server turns them into a config it does not say): the same.
 * Table-driven, per member, over real HTTP on 127.0.0.1.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ORGANIZATION_ID, DEFAULT_SERVICE_IDS, type Emulator, HX_SOURCE_IDS, type HyperdxState, startEmulator } from '../../src/emulator/index.ts';
import { basic, obs, request } from './http.ts';

const LOGS = HX_SOURCE_IDS.Logs;
const CS = `/v1/organizations/${DEFAULT_ORGANIZATION_ID}/services/${DEFAULT_SERVICE_IDS['prod-warehouse']}/clickstack`;
const base = { sourceId: LOGS, where: '', whereLanguage: 'lucene' };

/** Per member: the series sent, and what the answered config holds for it. */
const CASES: Array<{ name: string; series: Array<Record<string, unknown>>; asRatio?: boolean; config: Record<string, unknown> }> = [
  {
    name: 'alias: kept on its select item (an empty one is not stored)',
    series: [
      { type: 'time', ...base, aggFn: 'count', alias: 'Requests', groupBy: [] },
      { type: 'time', ...base, aggFn: 'count', alias: '', groupBy: [] },
    ],
    config: {
      displayType: 'line',
      sourceId: LOGS,
      select: [
        { aggFn: 'count', alias: 'Requests', where: '', whereLanguage: 'lucene', valueExpression: '' },
        { aggFn: 'count', where: '', whereLanguage: 'lucene', valueExpression: '' },
      ],
    },
  },
  {
    name: 'level: answered on a quantile, as one of 0.5, 0.9, 0.95, 0.99',
    series: [
      { type: 'table', ...base, aggFn: 'quantile', level: 0.95, field: 'Duration', groupBy: ['ServiceName'] },
      { type: 'table', ...base, aggFn: 'quantile', level: 0.42, field: 'Duration', groupBy: ['ServiceName'] },
      { type: 'table', ...base, aggFn: 'avg', level: 0.5, field: 'Duration', groupBy: ['ServiceName'] },
    ],
    config: {
      displayType: 'table',
      sourceId: LOGS,
      groupBy: 'ServiceName',
      select: [
        { aggFn: 'quantile', level: 0.95, valueExpression: 'Duration', where: '', whereLanguage: 'lucene' },
        { aggFn: 'quantile', valueExpression: 'Duration', where: '', whereLanguage: 'lucene' },
        { aggFn: 'avg', valueExpression: 'Duration', where: '', whereLanguage: 'lucene' },
      ],
    },
  },
  {
    name: "numberFormat: the tile's, from the first series that has one",
    series: [
      { type: 'time', ...base, aggFn: 'count', groupBy: [] },
      { type: 'time', ...base, aggFn: 'count', groupBy: [], numberFormat: { output: 'time', factor: 0.001 } },
    ],
    config: {
      displayType: 'line',
      sourceId: LOGS,
      numberFormat: { output: 'time', factor: 0.001 },
      select: [
        { aggFn: 'count', where: '', whereLanguage: 'lucene', valueExpression: '' },
        { aggFn: 'count', where: '', whereLanguage: 'lucene', valueExpression: '' },
      ],
    },
  },
  {
    name: "numberFormat on a number tile: the first series' only",
    series: [{ type: 'number', ...base, aggFn: 'sum', field: 'Bytes', numberFormat: { output: 'byte', decimalBytes: true } }],
    config: {
      displayType: 'number',
      sourceId: LOGS,
      numberFormat: { output: 'byte', decimalBytes: true },
      select: [{ aggFn: 'sum', valueExpression: 'Bytes', where: '', whereLanguage: 'lucene' }],
    },
  },
  {
    name: 'sortOrder: stored as an orderBy list, which the 2026-08 answer leaves out',
    series: [{ type: 'table', ...base, aggFn: 'count', field: 'Duration', groupBy: ['ServiceName', 'Host'], sortOrder: 'desc' }],
    config: {
      displayType: 'table',
      sourceId: LOGS,
      groupBy: 'ServiceName,Host',
      select: [{ aggFn: 'count', valueExpression: '', where: '', whereLanguage: 'lucene' }],
    },
  },
  {
    name: 'displayType stacked_bar: a stacked_bar chart; asRatio true only with two series',
    series: [
      { type: 'time', ...base, aggFn: 'count', groupBy: [], displayType: 'stacked_bar' },
      { type: 'time', ...base, aggFn: 'count', where: 'level:error', groupBy: [] },
    ],
    asRatio: true,
    config: {
      displayType: 'stacked_bar',
      sourceId: LOGS,
      asRatio: true,
      select: [
        { aggFn: 'count', where: '', whereLanguage: 'lucene', valueExpression: '' },
        { aggFn: 'count', where: 'level:error', whereLanguage: 'lucene', valueExpression: '' },
      ],
    },
  },
  {
    name: 'fields: the search select',
    series: [{ type: 'search', ...base, fields: ['Timestamp', 'Body'], where: 'level:error' }],
    config: { displayType: 'search', sourceId: LOGS, select: 'Timestamp, Body', where: 'level:error', whereLanguage: 'lucene' },
  },
  {
    name: 'content: the markdown',
    series: [{ type: 'markdown', content: '# Runbook\n\nPage the on-call.' }],
    config: { displayType: 'markdown', markdown: '# Runbook\n\nPage the on-call.' },
  },
  {
    name: 'aggFn any and none, metricDataType summary and exponential histogram: kept (metricType)',
    series: [
      { type: 'time', ...base, aggFn: 'any', field: 'Value', groupBy: [], metricName: 'rpc', metricDataType: 'summary' },
      { type: 'time', ...base, aggFn: 'none', field: 'Value', groupBy: [], metricName: 'rpc', metricDataType: 'exponential histogram' },
    ],
    config: {
      displayType: 'line',
      sourceId: LOGS,
      select: [
        { aggFn: 'any', valueExpression: 'Value', where: '', whereLanguage: 'lucene', metricName: 'rpc', metricType: 'summary' },
        { aggFn: 'none', valueExpression: 'Value', where: '', whereLanguage: 'lucene', metricName: 'rpc', metricType: 'exponential histogram' },
      ],
    },
  },
];

const FLAVOURS: Array<{
  api: 'hyperdx' | 'clickstack-cloud';
  path: string;
  call: (emu: Emulator<HyperdxState>, method: string, path: string, body?: unknown) => Promise<any>;
}> = [
  { api: 'hyperdx', path: '/api/v2/dashboards', call: async (emu, m, p, b) => (await obs(emu, m, p, b)).body?.data },
  { api: 'clickstack-cloud', path: `${CS}/dashboards`, call: async (emu, m, p, b) => (await request(emu, m, p, { auth: basic(), body: b })).body?.result },
];

for (const f of FLAVOURS) {
  for (const c of CASES) {
    test(`${f.api}: a series tile, ${c.name}`, async () => {
      const emu = await startEmulator({ api: f.api, seed: 3 });
      try {
        const tile = { name: 'T', x: 0, y: 0, w: 6, h: 3, series: c.series, ...(c.asRatio === undefined ? {} : { asRatio: c.asRatio }) };
        const created = await f.call(emu, 'POST', f.path, { name: 'S', tiles: [tile] });
        assert.ok(created, 'created');
        assert.equal(created.tiles[0].config, c.config);
        assert.not.ok('series' in created.tiles[0]);
        // Listed the same, and an update with the same series keeps it so.
        const listed = (await f.call(emu, 'GET', f.path)).find((d: { id: string }) => d.id === created.id);
        assert.equal(listed.tiles[0].config, c.config);
        const updated = await f.call(emu, 'PUT', `${f.path}/${created.id}`, { name: 'S', tiles: [{ id: created.tiles[0].id, ...tile, h: 4 }] });
        assert.equal(updated.tiles[0].config, c.config);
        assert.is(updated.tiles[0].h, 4);
      } finally {
        await emu.close();
      }
    });
  }

  test(`${f.api}: a tile whose series differ in type is refused`, async () => {
    const emu = await startEmulator({ api: f.api, seed: 3 });
    try {
      const series = [
        { type: 'time', ...base, aggFn: 'count', groupBy: [] },
        { type: 'table', ...base, aggFn: 'count', groupBy: [] },
      ];
      const r = await request(emu, 'POST', f.path, {
        auth: f.api === 'hyperdx' ? 'Bearer dev-token' : basic(),
        body: { name: 'S', tiles: [{ name: 'T', x: 0, y: 0, w: 6, h: 3, series }] },
      });
      assert.is(r.status, 400, r.text);
      assert.match(r.text, 'All series must have the same type');
    } finally {
      await emu.close();
    }
  });
}

test.run();
