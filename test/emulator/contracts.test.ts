/**
 * The emulator's answers against the published schemas: HyperDX's OpenAPI of 2025-11-21 for alerts and
 * dashboards, ClickHouse Cloud's of 2026-07-31 for pipes, endpoints and backups (see contracts.ts for where
 * the schemas are read from).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ALERT_IDS, DEFAULT_ORGANIZATION_ID, DEFAULT_SERVICE_IDS, type Emulator, startEmulator } from '../../src/emulator/index.ts';
import {
  assertValid,
  CLOUD_FIXTURE,
  contractValidators,
  extractContracts,
  HYPERDX_FIXTURE,
  readFixture,
  sharedContractsPresent,
  writeFixtures,
} from './contracts.ts';
import { basic, cloud, dashboardBody, obs, request } from './http.ts';

const v = contractValidators();
let emu: Emulator;

test.before(async () => {
  emu = await startEmulator({ seed: 1 });
});
test.after(async () => {
  await emu.close();
});

test('the fixture copies of the schemas match the shared OpenAPI files (when ../shared is present)', () => {
  if (!sharedContractsPresent()) return; // CI clones the repository alone: the fixtures are all there is.
  const extracted = extractContracts();
  if (process.env['UPDATE_CONTRACTS'] === '1') writeFixtures(extracted);
  assert.equal(readFixture(HYPERDX_FIXTURE), extracted.hyperdx, `test/fixtures/contracts/${HYPERDX_FIXTURE} is stale: UPDATE_CONTRACTS=1 npm test`);
  assert.equal(readFixture(CLOUD_FIXTURE), extracted.cloud, `test/fixtures/contracts/${CLOUD_FIXTURE} is stale: UPDATE_CONTRACTS=1 npm test`);
});

test('the schemas catch a wrong type (the validators are live)', () => {
  assert.not.ok(v.hyperdx('DashboardResponse')({ data: { id: 1 } }));
  assert.not.ok(v.hyperdx('AlertResponse')({ data: { thresholdType: 'sideways' } }));
  assert.not.ok(v.cloud('Backup')({ status: 'failed' }));
  assert.not.ok(v.cloud('backups 200')({ status: 200, requestId: 'not-a-uuid', result: [] }));
  assert.not.ok(v.cloud('ReversePrivateEndpoint')({ status: 'Pending' }), 'the cloud enum has no plain Pending');
});

test('our test request bodies are valid CreateDashboardRequest / UpdateAlertRequest bodies', () => {
  assertValid(v.hyperdx('CreateDashboardRequest'), dashboardBody('A', 4), 'create body');
  assertValid(
    v.hyperdx('UpdateAlertRequest'),
    { threshold: 1, interval: '5m', thresholdType: 'above', source: 'tile', channel: { type: 'webhook', webhookId: 'x' } },
    'update body',
  );
});

test('dashboard answers match DashboardResponse / DashboardsListResponse', async () => {
  const created = await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('Contract check', 12));
  assertValid(v.hyperdx('DashboardResponse'), created.body, 'POST answer');
  const bare = await obs(emu, 'POST', '/api/v2/dashboards', { name: 'Bare' });
  assertValid(v.hyperdx('DashboardResponse'), bare.body, 'POST answer (bare)');
  assertValid(v.hyperdx('DashboardResponse'), (await obs(emu, 'GET', `/api/v2/dashboards/${created.body.data.id}`)).body, 'GET answer');
  assertValid(v.hyperdx('DashboardsListResponse'), (await obs(emu, 'GET', '/api/v2/dashboards')).body, 'list answer');
});

test('alert answers match AlertResponse, for every seeded alert', async () => {
  const d = (await obs(emu, 'POST', '/api/v2/dashboards', dashboardBody('For alerts'))).body.data;
  for (const id of Object.values(DEFAULT_ALERT_IDS)) {
    const r = await obs(emu, 'PUT', `/api/v2/alerts/${id}`, id.endsWith('5') ? { threshold: 2 } : { dashboardId: d.id, tileId: d.tiles[0].id });
    assert.is(r.status, 200);
    assertValid(v.hyperdx('AlertResponse'), r.body, `PUT ${id}`);
  }
});

test('observability error bodies match Error', async () => {
  const answers = [
    await obs(emu, 'GET', '/api/v2/dashboards', undefined, null),
    await obs(emu, 'GET', '/api/v2/dashboards/65f5e4a3b9e77c001a999999'),
    await obs(emu, 'POST', '/api/v2/dashboards', { tiles: [] }),
    await obs(emu, 'PUT', `/api/v2/alerts/${DEFAULT_ALERT_IDS['GC pause long']}`, { threshold: 'x' }),
    await obs(emu, 'DELETE', '/api/v2/dashboards'),
  ];
  assert.equal(
    answers.map((a) => a.status),
    [401, 404, 400, 400, 405],
  );
  for (const a of answers) assertValid(v.hyperdx('Error'), a.body, `error ${a.status}`);
});

test('every cloud answer of the default seed matches the ClickHouse Cloud schemas', async () => {
  for (const service of Object.values(DEFAULT_SERVICE_IDS)) {
    const base = `/v1/organizations/${DEFAULT_ORGANIZATION_ID}/services/${service}`;
    // The service itself (instanceGet): the report reads its state.
    const svc = await cloud(emu, base);
    assertValid(v.cloud('service 200'), svc.body, 'service');
    assertValid(v.cloud('Service'), svc.body.result, 'service');
    assert.is(svc.body.result.id, service);
    assert.is(svc.body.result.state, 'running');
    const endpoints = await cloud(emu, `${base}/ingestpipesReversePrivateEndpoints`);
    assertValid(v.cloud('endpoints 200'), endpoints.body, 'endpoints');
    for (const e of endpoints.body.result) assertValid(v.cloud('ReversePrivateEndpoint'), e, `endpoint ${e.description}`);
    const pipes = await cloud(emu, `${base}/ingestpipes`);
    assertValid(v.cloud('pipes 200'), pipes.body, 'pipes');
    for (const p of pipes.body.result) assertValid(v.cloud('ClickPipe'), p, `pipe ${p.name}`);
    const backups = await cloud(emu, `${base}/backups`);
    assertValid(v.cloud('backups 200'), backups.body, 'backups');
    for (const b of backups.body.result) {
      assertValid(v.cloud('Backup'), b, `backup ${b.id}`);
      // Backup.type is optional in the spec, but the real service sends it: the report compares sizes per type.
      assert.ok(b.type === 'full' || b.type === 'incremental', `backup ${b.id} type ${String(b.type)}`);
      const one = await cloud(emu, `${base}/backups/${b.id}`);
      assertValid(v.cloud('backup 200'), one.body, `backup ${b.id}`);
    }
  }
});

test('cloud error envelopes match the published error schema', async () => {
  const base = `/v1/organizations/${DEFAULT_ORGANIZATION_ID}/services/${DEFAULT_SERVICE_IDS['prod-warehouse']}`;
  const answers = [
    await cloud(emu, `${base}/backups`, null),
    await cloud(emu, `/v1/organizations/x/services/y/backups`),
    await cloud(emu, `${base}/backups/00000000-0000-4000-8000-000000000000`),
    await request(emu, 'POST', `${base}/backups`, { auth: basic() }),
  ];
  assert.equal(
    answers.map((a) => a.status),
    [401, 400, 404, 405],
  );
  for (const a of answers) assertValid(v.cloud('backups 400'), a.body, `error ${a.status}`);
});

test.run();
