/**
 * import on a config-form server (HyperDX 2026-08, ClickStack): tiles are written with their `config` and the
 * dashboard with its `filters` (filter ids dropped, nulls left out), so the imported file validates and plans
 * as unchanged. Found by the hyperdx conformance run: import used to drop the config and write tiles with
 * neither config nor series, which `steward validate` then refused.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { processFile } from '../../src/config/resources.ts';
import { renderDashboardYaml } from '../../src/render/dashboard-yaml.ts';
import type { LiveDashboard } from '../../src/clients/api-types.ts';

// The 2026-08-21 spec's own list example (GET /api/v2/dashboards), with a null the spec allows.
const LIVE = {
  id: '65f5e4a3b9e77c001a567891',
  name: 'API Monitoring',
  tiles: [
    {
      id: '65f5e4a3b9e77c001a901235',
      name: 'API Errors',
      x: 0,
      y: 0,
      w: 6,
      h: 3,
      config: {
        displayType: 'table',
        sourceId: '65f5e4a3b9e77c001a111112',
        select: [{ aggFn: 'count', where: 'level:error' }],
        groupBy: 'service',
        orderBy: 'count DESC',
        numberFormat: null,
      },
    },
  ],
  tags: ['api', 'monitoring', 'managed-by:steward'],
  filters: [{ id: '65f5e4a3b9e77c001a301002', type: 'QUERY_EXPRESSION', name: 'Service', expression: 'service_name', sourceId: '65f5e4a3b9e77c001a111112' }],
} as unknown as LiveDashboard;

test('config tiles and filters are written, ids of filters and nulls left out, no warning', () => {
  const { text, warnings } = renderDashboardYaml(LIVE, {
    metadataName: 'api-monitoring',
    markerTag: 'managed-by:steward',
    schemaPath: 'x.json',
    pinId: false,
    configForm: true,
  });
  assert.equal(warnings, []);
  const doc = parse(text);
  assert.equal(doc.spec.tiles[0].config, {
    displayType: 'table',
    sourceId: '65f5e4a3b9e77c001a111112',
    select: [{ aggFn: 'count', where: 'level:error' }],
    groupBy: 'service',
    orderBy: 'count DESC',
  });
  assert.equal(doc.spec.filters, [{ type: 'QUERY_EXPRESSION', name: 'Service', expression: 'service_name', sourceId: '65f5e4a3b9e77c001a111112' }]);
  assert.equal(doc.spec.tags, ['api', 'monitoring']);
});

test('the written file passes the dashboard schema', () => {
  const { text } = renderDashboardYaml(LIVE, {
    metadataName: 'api-monitoring',
    markerTag: 'managed-by:steward',
    schemaPath: 'x.json',
    pinId: false,
    configForm: true,
  });
  const r = processFile('imported/api-monitoring.yaml', Buffer.from(text), {}, { isProjectFile: false });
  assert.equal(
    r.issues.filter((i) => i.severity === 'error'),
    [],
  );
  assert.is(r.resources.length, 1);
});

test('members the spec leaves open but steward cannot say are left out with a warning; a oneOf variant that knows a member keeps it', () => {
  const live = structuredClone(LIVE) as unknown as { tiles: Array<{ config: Record<string, unknown> }> };
  live.tiles[0]!.config['onClick'] = { type: 'dashboard', target: { mode: 'template', template: 'Service {{ServiceName}}', extra_1: 'x' }, extra_2: 1 };
  const { text, warnings } = renderDashboardYaml(live as unknown as LiveDashboard, {
    metadataName: 'api-monitoring',
    markerTag: 'managed-by:steward',
    schemaPath: 'x.json',
    pinId: false,
    configForm: true,
  });
  const doc = parse(text);
  assert.equal(doc.spec.tiles[0].config.onClick, { type: 'dashboard', target: { mode: 'template', template: 'Service {{ServiceName}}' } });
  assert.equal(warnings.sort(), [
    'tile "API Errors": left out config.onClick.extra_2, a member steward does not know',
    'tile "API Errors": left out config.onClick.target.extra_1, a member steward does not know',
  ]);
  const r = processFile('imported/api-monitoring.yaml', Buffer.from(text), {}, { isProjectFile: false });
  assert.equal(
    r.issues.filter((i) => i.severity === 'error'),
    [],
  );
});
test('a metric series the UI left without a value expression is written with Value (the API refuses it empty), with a warning', () => {
  const live = structuredClone(LIVE) as unknown as { tiles: Array<{ name: string; config: Record<string, unknown> }> };
  live.tiles[0]!.config = {
    displayType: 'line',
    sourceId: '65f5e4a3b9e77c001a111112',
    select: [
      { aggFn: 'avg', valueExpression: '', metricName: 'jvm.memory.used', metricType: 'gauge' },
      { aggFn: 'count', valueExpression: '' },
    ],
  };
  const r = renderDashboardYaml(live as unknown as LiveDashboard, {
    metadataName: 'api',
    markerTag: 'managed-by:steward',
    schemaPath: 's.json',
    pinId: false,
    configForm: true,
  });
  const select = parse(r.text).spec.tiles[0].config.select;
  assert.equal(select, [
    { aggFn: 'avg', valueExpression: 'Value', metricName: 'jvm.memory.used', metricType: 'gauge' },
    { aggFn: 'count', valueExpression: '' },
  ]);
  assert.match(r.warnings.join('\n'), 'tile "API Errors": a metric series without a value expression is written with valueExpression: Value');
});

test.run();
