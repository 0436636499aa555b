/**
 * A dashboard whose tiles use the series members HyperDX has since 2026-01-30 (alias, level, numberFormat,
 * sortOrder, displayType, fields, content; aggFn any/none; metricDataType summary), end to end through the
 * built CLI: import from a server answering series (a HyperDX 2026-01-30 in front of `emulator --api hyperdx`,
 * series-server.ts), validate, plan (no change), an edit of one unrelated member, plan and apply the update,
 * and the server still holds every member. Before, import skipped the dashboard (the schema refused the file
 * it wrote), and the members it could not write were not compared by plan.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { HX_SOURCE_IDS, startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { startSeriesServer } from './series-server.ts';

const LOGS = HX_SOURCE_IDS.Logs;
const METRICS = HX_SOURCE_IDS.Metrics;
const NAME = 'Checkout (series)';

const PROJECT = [
  'apiVersion: steward/v1',
  'kind: Project',
  'metadata: { name: series }',
  'spec:',
  '  resources: ["imported/checkout-series.yaml"]',
  '  observability: { api: hyperdx, url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN } }',
  '  state: .steward/state.json',
  '',
].join('\n');

/** The dashboard as made in the UI of that time (sent in the series form). */
const DASHBOARD = {
  name: NAME,
  tags: ['team:payments'],
  tiles: [
    {
      name: 'Latency',
      x: 0,
      y: 0,
      w: 12,
      h: 3,
      series: [
        {
          type: 'time',
          sourceId: LOGS,
          aggFn: 'quantile',
          level: 0.95,
          field: 'Duration',
          alias: 'p95',
          where: '',
          whereLanguage: 'lucene',
          groupBy: ['ServiceName'],
          displayType: 'stacked_bar',
          numberFormat: { output: 'time', factor: 0.001 },
        },
      ],
    },
    {
      name: 'By service',
      x: 12,
      y: 0,
      w: 12,
      h: 3,
      series: [
        {
          type: 'table',
          sourceId: LOGS,
          aggFn: 'count',
          alias: 'Requests',
          where: 'level:error',
          whereLanguage: 'lucene',
          groupBy: ['ServiceName'],
          sortOrder: 'asc',
        },
      ],
    },
    {
      name: 'RPC',
      x: 0,
      y: 3,
      w: 6,
      h: 3,
      series: [
        {
          type: 'number',
          sourceId: METRICS,
          aggFn: 'any',
          field: 'Value',
          alias: 'Any RPC',
          where: '',
          whereLanguage: 'lucene',
          metricName: 'rpc.server.duration',
          metricDataType: 'summary',
          numberFormat: { output: 'number', mantissa: 2 },
        },
      ],
    },
    {
      name: 'Errors',
      x: 6,
      y: 3,
      w: 12,
      h: 3,
      series: [{ type: 'search', sourceId: LOGS, fields: ['Timestamp', 'ServiceName', 'Body'], where: 'level:error', whereLanguage: 'lucene' }],
    },
    { name: 'Runbook', x: 18, y: 3, w: 6, h: 3, series: [{ type: 'markdown', content: '# Runbook\n\nPage the on-call.' }] },
  ],
};

test('import -> validate -> plan (no change) -> edit one tile -> apply: the server keeps every series member', async () => {
  const emu = await startEmulator({ api: 'hyperdx', seed: 11 });
  const server = await startSeriesServer(emu.url);
  const p = tmpProject({ 'steward.yaml': PROJECT });
  try {
    const api = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${emu.url}/api/v2${path}`, {
        method,
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const text = await r.text();
      assert.is(r.status, 200, text);
      return (JSON.parse(text) as { data: any }).data;
    };
    const made = await api('POST', '/dashboards', DASHBOARD);
    const env = { ...emu.env, STEWARD_OBS_URL: server.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const run = (...args: string[]) => steward(args, { cwd: p.dir, env, spawn: true, timeoutMs: 60_000 });

    // WHEN the dashboard is imported from the server that answers series
    const imp = await run('import', '--all', '--out', 'imported');
    assert.is(imp.code, 0, imp.stdout + imp.stderr);
    assert.not.match(imp.stdout + imp.stderr, 'skipped');
    // (the emulator's two saved-search alerts are imported beside it; the project declares the dashboard only)
    const files = readdirSync(join(p.dir, 'imported'));
    assert.ok(files.includes('checkout-series.yaml'), files.join(', '));
    const file = join(p.dir, 'imported', 'checkout-series.yaml');
    const text = readFileSync(file, 'utf8');
    // THEN the file holds every member the server answered
    for (const member of [
      'alias: p95',
      'level: 0.95',
      'displayType: stacked_bar',
      'output: time',
      'aggFn: any',
      'metricDataType: summary',
      'mantissa: 2',
      'fields: [ Timestamp, ServiceName, Body ]',
      'type: markdown',
    ])
      assert.match(text, member, `${member} in\n${text}`);

    // AND it validates, and plans as unchanged
    const validate = await run('validate');
    assert.is(validate.code, 0, validate.stdout + validate.stderr);
    const quiet = await run('plan', '--detailed-exitcode');
    assert.is(quiet.code, 0, quiet.stdout + quiet.stderr);

    // WHEN one unrelated member changes (the runbook tile gets taller)
    const doc = parseDocument(text);
    const tiles = doc.getIn(['spec', 'tiles']) as { items: Array<{ get: (k: string) => unknown }> };
    const runbook = tiles.items.findIndex((t) => t.get('name') === 'Runbook');
    assert.ok(runbook >= 0);
    doc.setIn(['spec', 'tiles', runbook, 'h'], 5);
    writeFileSync(file, doc.toString());

    // THEN plan shows an update of that member alone, and apply makes it
    const plan = await run('plan', '--detailed-exitcode', '--format', 'json');
    assert.is(plan.code, 2, plan.stdout + plan.stderr);
    const item = JSON.parse(plan.stdout).items.find((i: { kind: string }) => i.kind === 'Dashboard');
    assert.is(item.action, 'update');
    assert.equal(
      item.patch.map((op: { op: string; path: string }) => `${op.op} ${op.path}`),
      ['replace /tiles/Runbook/h'],
    );
    const apply = await run('apply', '--auto-approve');
    assert.is(apply.code, 0, apply.stdout + apply.stderr);

    // AND the server still has every member, each tile keeping its id
    const after = await api('GET', `/dashboards/${made.id}`);
    const tile = (name: string) => after.tiles.find((t: { name: string }) => t.name === name);
    assert.equal(
      after.tiles.map((t: { id: string }) => t.id),
      made.tiles.map((t: { id: string }) => t.id),
    );
    assert.is(tile('Runbook').h, 5);
    assert.equal(tile('Runbook').config, { displayType: 'markdown', markdown: '# Runbook\n\nPage the on-call.' });
    const latency = tile('Latency').config;
    assert.is(latency.displayType, 'stacked_bar');
    assert.equal(latency.numberFormat, { output: 'time', factor: 0.001 });
    assert.equal(latency.select, [{ aggFn: 'quantile', level: 0.95, valueExpression: 'Duration', alias: 'p95', where: '', whereLanguage: 'lucene' }]);
    assert.is(latency.groupBy, 'ServiceName');
    const rpc = tile('RPC').config;
    assert.equal(rpc.numberFormat, { output: 'number', mantissa: 2 });
    assert.equal(rpc.select, [
      {
        aggFn: 'any',
        valueExpression: 'Value',
        alias: 'Any RPC',
        where: '',
        whereLanguage: 'lucene',
        metricName: 'rpc.server.duration',
        metricType: 'summary',
      },
    ]);
    assert.equal(tile('By service').config.select, [{ aggFn: 'count', valueExpression: '', alias: 'Requests', where: 'level:error', whereLanguage: 'lucene' }]);
    assert.equal(tile('Errors').config, {
      displayType: 'search',
      sourceId: LOGS,
      select: 'Timestamp, ServiceName, Body',
      where: 'level:error',
      whereLanguage: 'lucene',
    });

    // AND the next plan has nothing to do
    const again = await run('plan', '--detailed-exitcode');
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await server.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
