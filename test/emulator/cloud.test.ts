import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_ORGANIZATION_ID, DEFAULT_SERVICE_IDS, type Emulator, startEmulator } from '../../src/emulator/index.ts';
import { basic, BEARER, cloud, request, UUID_V4 } from './http.ts';

const ORG = DEFAULT_ORGANIZATION_ID;
const PROD = DEFAULT_SERVICE_IDS['prod-warehouse'];
const STAGING = DEFAULT_SERVICE_IDS['staging-warehouse'];
const base = (service: string = PROD, org: string = ORG) => `/v1/organizations/${org}/services/${service}`;

async function withEmulator(f: (emu: Emulator<unknown>) => Promise<void>, opts: Parameters<typeof startEmulator>[0] = {}): Promise<void> {
  const emu = await startEmulator(opts);
  try {
    await f(emu);
  } finally {
    await emu.close();
  }
}

test('the four cloud endpoints answer {status, requestId, result} with a fresh UUID v4 each time', () =>
  withEmulator(async (emu) => {
    const ids = new Set<string>();
    for (const [suffix, isArray] of [
      ['/ingestpipesReversePrivateEndpoints', true],
      ['/ingestpipes', true],
      ['/backups', true],
      ['/backups/7b1c0000-0000-4000-8000-000000001029', false],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const r = await cloud(emu, base() + suffix);
        assert.is(r.status, 200, suffix);
        assert.equal(Object.keys(r.body), ['status', 'requestId', 'result']);
        assert.is(r.body.status, 200);
        assert.match(r.body.requestId, UUID_V4);
        ids.add(r.body.requestId);
        assert.is(Array.isArray(r.body.result), isArray, suffix);
      }
    }
    assert.is(ids.size, 8, 'every request has its own requestId');
  }));

test('results carry the service id and the seed objects', () =>
  withEmulator(async (emu) => {
    const pipes = (await cloud(emu, base() + '/ingestpipes')).body.result;
    assert.equal(
      pipes.map((p: { name: string }) => p.name),
      ['events-from-kafka', 'logs-from-s3', 'clicks-from-kinesis', 'orders-cdc', 'audit-from-gcs'],
    );
    for (const p of pipes) assert.is(p.serviceId, PROD);
    const staging = (await cloud(emu, base(STAGING) + '/ingestpipes')).body.result;
    assert.equal(
      staging.map((p: { name: string; state: string }) => [p.name, p.state]),
      [
        ['events-from-kafka', 'Running'],
        ['clicks-from-kinesis', 'Paused'],
      ],
    );
    const endpoints = (await cloud(emu, base() + '/ingestpipesReversePrivateEndpoints')).body.result;
    assert.equal(
      endpoints.map((e: { description: string; status: string }) => [e.description, e.status]),
      [
        ['msk-prod', 'Ready'],
        ['msk-analytics', 'PendingAcceptance'],
      ],
    );
    const backups = (await cloud(emu, base() + '/backups')).body.result;
    assert.is(backups.length, 31);
    const one = await cloud(emu, `${base()}/backups/${backups[5].id}`);
    assert.equal(one.body.result, backups[5]);
  }));

test('an in-progress backup reports the seconds since it started, by the emulator clock', async () => {
  let t = Date.parse('2030-03-01T12:00:00.000Z');
  const emu = await startEmulator({ now: () => new Date(t) });
  try {
    const running = (await cloud(emu, base() + '/backups')).body.result.find((b: { status: string }) => b.status === 'in_progress');
    assert.ok(running, 'the default seed has an in-progress backup');
    assert.is(running.finishedAt, undefined);
    assert.is(running.durationInSeconds, 25 * 60);
    assert.is(running.startedAt, '2030-03-01T11:35:00.000Z');
    t += 90_000;
    const later = await cloud(emu, `${base()}/backups/${running.id}`);
    assert.is(later.body.result.durationInSeconds, 25 * 60 + 90);
  } finally {
    await emu.close();
  }
});

const BAD_CREDENTIALS: [string, string | null, RegExp][] = [
  ['no Authorization header', null, /missing Authorization/],
  ['the Bearer scheme with the observability token', BEARER, /Basic/],
  ['a wrong key id', basic('other-key', 'dev-secret'), /invalid API key/],
  ['a wrong key secret', basic('dev-key', 'wrong'), /invalid API key/],
  ['credentials without a colon', 'Basic ' + Buffer.from('dev-keydev-secret').toString('base64'), /keyId:keySecret/],
  ['credentials that are not base64 of anything useful', 'Basic %%%', /keyId:keySecret|invalid API key/],
  ['unencoded credentials', 'Basic dev-key:dev-secret', /keyId:keySecret|invalid API key/],
];

for (const [what, auth, message] of BAD_CREDENTIALS) {
  test(`401 envelope on every cloud endpoint with ${what}`, () =>
    withEmulator(async (emu) => {
      for (const suffix of ['/ingestpipesReversePrivateEndpoints', '/ingestpipes', '/backups', '/backups/7b1c0000-0000-4000-8000-000000001029']) {
        const r = await cloud(emu, base() + suffix, auth);
        assert.is(r.status, 401, suffix);
        assert.equal(Object.keys(r.body), ['status', 'error', 'requestId']);
        assert.is(r.body.status, 401);
        assert.match(r.body.error, message);
        assert.match(r.body.requestId, UUID_V4);
        assert.match(r.headers.get('www-authenticate') ?? '', /^Basic/);
      }
    }));
}

test('custom key id and secret replace the defaults', () =>
  withEmulator(
    async (emu) => {
      assert.is((await cloud(emu, base() + '/backups')).status, 401);
      assert.is((await cloud(emu, base() + '/backups', basic('k1', 'p:ss'))).status, 200, 'a secret may contain a colon');
    },
    { keyId: 'k1', keySecret: 'p:ss' },
  ));

test('path parameters that are not UUIDs are 400 naming the parameter', () =>
  withEmulator(async (emu) => {
    for (const [path, name] of [
      [`/v1/organizations/acme/services/${PROD}/backups`, 'organizationId'],
      [`/v1/organizations/${ORG}/services/prod-warehouse/ingestpipes`, 'serviceId'],
      [`/v1/organizations/${ORG}/services/${PROD}/backups/latest`, 'backupId'],
      [`/v1/organizations/${ORG}/services/${PROD.slice(0, -1)}/backups`, 'serviceId'],
    ] as const) {
      const r = await cloud(emu, path);
      assert.is(r.status, 400, path);
      assert.is(r.body.status, 400);
      assert.match(r.body.error, new RegExp(`^${name}: must be a UUID`));
      assert.match(r.body.requestId, UUID_V4);
    }
  }));

test('404 envelope for an unknown organization, service, backup or path', () =>
  withEmulator(async (emu) => {
    const other = '00000000-0000-4000-8000-000000000000';
    for (const [path, message] of [
      [base(PROD, other) + '/backups', /^organization .* not found/],
      [base(other) + '/ingestpipes', /^service .* not found in organization/],
      [`${base()}/backups/${other}`, /^backup .* not found/],
      [`${base(STAGING)}/backups/7b1c0000-0000-4000-8000-000000001029`, /^backup .* not found/],
      // The real API's names are served too (issue 12): only an unknown pipe of them is 404.
      [base() + '/clickpipes/' + other, /^ClickPipe .* not found/],
      [base() + '/clickstack/dashboards', /^not found.*--api clickstack-cloud/],
      [base() + '/ingestpipes/' + other, /^not found/],
      [base(other), /^service .* not found in organization/],
      [`/v1/organizations/${ORG}/services`, /^not found/],
      ['/v1/organizations', /^not found/],
      [`/v1/organizations/${ORG}/services/${PROD}/backups/${other}/extra`, /^not found/],
    ] as const) {
      const r = await cloud(emu, path);
      assert.is(r.status, 404, path);
      assert.is(r.body.status, 404);
      assert.match(r.body.error, message, path);
      assert.match(r.body.requestId, UUID_V4);
    }
  }));

test('uppercase UUIDs find the same service', () =>
  withEmulator(async (emu) => {
    const r = await cloud(emu, base(PROD.toUpperCase(), ORG.toUpperCase()) + '/ingestpipes');
    assert.is(r.status, 200);
    assert.is(r.body.result.length, 5);
  }));

test('anything but GET is 405 with Allow: GET', () =>
  withEmulator(async (emu) => {
    const r = await request(emu, 'POST', base() + '/backups', { auth: basic(), body: {} });
    assert.is(r.status, 405);
    assert.is(r.headers.get('allow'), 'GET');
    assert.is(r.body.status, 405);
  }));

for (const api of ['seed', 'hyperdx', 'clickstack-cloud'] as const) {
  test(`${api}: the real clickpipes paths serve the ingest-pipe data under ClickHouse Cloud's names`, () =>
    withEmulator(
      async (emu) => {
        for (const service of [PROD, STAGING]) {
          const seedPipes = (await cloud(emu, base(service) + '/ingestpipes')).body.result;
          const pipes = (await cloud(emu, base(service) + '/clickpipes')).body.result;
          assert.equal(
            pipes.map((p: { id: string; name: string; state: string }) => `${p.id} ${p.name} ${p.state}`),
            seedPipes.map((p: { id: string; name: string; state: string }) => `${p.id} ${p.name} ${p.state}`),
          );
          for (const [i, p] of pipes.entries()) {
            const { settings: real, ...rest } = p;
            const { settings: seeded, ...seedRest } = seedPipes[i];
            assert.equal(rest, seedRest, 'everything but the setting names is the same');
            if (seeded) {
              assert.equal(
                Object.keys(real),
                Object.keys(seeded).map((k) => k.replace(/^engine_/, 'clickhouse_')),
              );
              assert.equal(Object.values(real), Object.values(seeded));
            }
            const one = await cloud(emu, `${base(service)}/clickpipes/${p.id.toUpperCase()}`);
            assert.is(one.status, 200);
            assert.equal(one.body.result, p);
          }
          const endpoints = (await cloud(emu, base(service) + '/clickpipesReversePrivateEndpoints')).body.result;
          assert.equal(endpoints, (await cloud(emu, base(service) + '/ingestpipesReversePrivateEndpoints')).body.result);
          for (const e of endpoints) assert.equal((await cloud(emu, `${base(service)}/clickpipesReversePrivateEndpoints/${e.id}`)).body.result, e);
        }
        const kafka = (await cloud(emu, base() + '/clickpipes')).body.result.find((p: { name: string }) => p.name === 'events-from-kafka');
        assert.is(kafka.settings.clickhouse_max_threads, 8);
        assert.not.ok('engine_max_threads' in kafka.settings);
        const other = '00000000-0000-4000-8000-000000000000';
        const checks: [string, number, RegExp][] = [
          [`${base()}/clickpipes/${other}`, 404, /^ClickPipe .* not found for service/],
          [`${base()}/clickpipes/nope`, 400, /^clickPipeId: must be a UUID, got "nope"/],
          [`${base()}/clickpipesReversePrivateEndpoints/${other}`, 404, /^reverse private endpoint .* not found/],
          [`${base()}/clickpipesReversePrivateEndpoints/x`, 400, /^reversePrivateEndpointId: must be a UUID/],
          [`${base(STAGING)}/clickpipes/c0ffee00-1a2b-4c3d-8e4f-5a6b7c8d9e01`, 404, /not found for service/],
          [`${base()}/clickpipes/${other}/settings`, 404, /^not found/],
        ];
        for (const [path, status, message] of checks) {
          const r = await cloud(emu, path);
          assert.is(r.status, status, path);
          assert.match(r.body.error, message, path);
        }
        const post = await request(emu, 'POST', base() + '/clickpipes', { auth: basic(), body: {} });
        assert.is(post.status, 405);
        assert.is(post.headers.get('allow'), 'GET');
        assert.is((await cloud(emu, base() + '/clickpipes', basic('dev-key', 'nope'))).status, 401);
      },
      { api },
    ));
}

test('request ids are reproducible with a seed', async () => {
  const ids = async () => {
    const emu = await startEmulator({ seed: 5 });
    try {
      return [(await cloud(emu, base() + '/backups')).body.requestId, (await cloud(emu, base() + '/ingestpipes')).body.requestId];
    } finally {
      await emu.close();
    }
  };
  const a = await ids();
  assert.equal(await ids(), a);
  assert.is.not(a[0], a[1]);
  for (const id of a) assert.match(id, UUID_V4);
});

test.run();
