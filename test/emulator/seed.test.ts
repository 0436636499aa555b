import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  DEFAULT_ALERT_IDS,
  DEFAULT_ORGANIZATION_ID,
  DEFAULT_SERVICE_IDS,
  DEFAULT_TEAM_ID,
  DEFAULT_WEBHOOK_ID,
  defaultSeed,
  EmulatorError,
  type EmulatorOptions,
  resolveTime,
  type SeedData,
  startEmulator,
} from '../../src/emulator/index.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { cloud, HEX24, obs } from './http.ts';

const START = new Date('2030-06-15T12:00:00.000Z');
const H = 3_600_000;

test('resolveTime: now, relative offsets and absolute dates', () => {
  for (const [input, expected] of [
    ['now', '2030-06-15T12:00:00.000Z'],
    ['-36h', '2030-06-14T00:00:00.000Z'],
    ['36h', '2030-06-14T00:00:00.000Z'],
    ['-1d6h30m', '2030-06-14T05:30:00.000Z'],
    ['+15m', '2030-06-15T12:15:00.000Z'],
    ['-90s', '2030-06-15T11:58:30.000Z'],
    ['-250ms', '2030-06-15T11:59:59.750Z'],
    ['-1.5h', '2030-06-15T10:30:00.000Z'],
    ['2024-02-03T04:05:06Z', '2024-02-03T04:05:06.000Z'],
    ['2024-02-03T04:05:06.7+01:00', '2024-02-03T03:05:06.700Z'],
  ] as const) {
    assert.is(resolveTime(input, START, 'x'), expected, input);
  }
  for (const bad of ['yesterday', '-3w', '12', '', 'h']) {
    assert.throws(
      () => resolveTime(bad, START, 'seed.x'),
      (e: Error) => e instanceof EmulatorError && e.message.startsWith('seed.x: '),
      bad,
    );
  }
});

async function defaultState() {
  const emu = await startEmulator({ now: () => START });
  try {
    return emu.state();
  } finally {
    await emu.close();
  }
}

test('default seed: the five alerts with the ids examples/ binds', async () => {
  const { alerts, dashboards } = await defaultState();
  assert.equal(dashboards, [], 'no dashboards: the first plan of examples/ is all creates');
  assert.equal(
    alerts.map((a) => [a.id, a.name, a.source]),
    [
      ['65f5e4a3b9e77c001a000001', 'Checkout errors', 'tile'],
      ['65f5e4a3b9e77c001a000002', 'JVM heap high', 'tile'],
      ['65f5e4a3b9e77c001a000003', 'GC pause long', 'tile'],
      ['65f5e4a3b9e77c001a000004', 'API latency high', 'tile'],
      ['65f5e4a3b9e77c001a000005', 'Slow queries (saved search)', 'search'],
    ],
  );
  assert.equal(
    Object.values(DEFAULT_ALERT_IDS),
    alerts.map((a) => a.id),
  );
  for (const a of alerts) {
    assert.is(a.state, 'inactive');
    assert.is(a.silenced, false);
    assert.equal(a.channel, { type: 'webhook', webhookId: DEFAULT_WEBHOOK_ID });
    assert.is(a.team, DEFAULT_TEAM_ID);
    assert.type(a.threshold, 'number');
    assert.ok(a.thresholdType === 'above' || a.thresholdType === 'below');
    assert.match(a.interval!, /^\d+[mh]$/);
    if (a.source === 'tile') {
      assert.match(a.dashboard!, HEX24);
      assert.match(a.tileId!, HEX24);
    } else {
      assert.match(a.savedSearch!, HEX24);
    }
    assert.ok(Date.parse(a.createdAt) < START.getTime());
  }
});

test('default seed: one organization, prod and staging services', async () => {
  const { organizations } = await defaultState();
  assert.is(organizations.length, 1);
  assert.is(organizations[0]!.id, DEFAULT_ORGANIZATION_ID);
  assert.equal(
    organizations[0]!.services.map((s) => [s.name, s.id]),
    [
      ['prod-warehouse', '9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d'],
      ['staging-warehouse', '2c3d4e5f-6a7b-4c8d-9e0f-a1b2c3d4e5f6'],
    ],
  );
  assert.equal(DEFAULT_SERVICE_IDS, { 'prod-warehouse': '9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d', 'staging-warehouse': '2c3d4e5f-6a7b-4c8d-9e0f-a1b2c3d4e5f6' });
});

const sourceKind = (p: Record<string, any>) => Object.keys(p['source'] ?? {}).join(',');

test('default seed: prod pipes of all four source kinds in several states', async () => {
  const prod = (await defaultState()).organizations[0]!.services[0]!;
  assert.equal(
    prod.pipes.map((p: Record<string, any>) => [p['name'], sourceKind(p), p['state'], p['scaling']?.['replicas']]),
    [
      ['events-from-kafka', 'kafka', 'Running', 2],
      ['logs-from-s3', 'objectStorage', 'Failed', 1],
      ['clicks-from-kinesis', 'kinesis', 'Running', 1],
      ['orders-cdc', 'postgres', 'Snapshot', undefined],
      ['audit-from-gcs', 'objectStorage', 'Stopped', 1],
    ],
  );
  const kafka: Record<string, any> = prod.pipes[0]!;
  assert.equal(kafka['destination'].database, 'default');
  assert.equal(kafka['destination'].table, 'events');
  const k = kafka['source'].kafka;
  for (const f of ['brokers', 'topics', 'consumerGroup', 'caCertificate']) assert.type(k[f], 'string', f);
  assert.type(k.schemaRegistry.url, 'string');
  assert.type(k.schemaRegistry.caCertificate, 'string');
  const s3: Record<string, any> = prod.pipes[1]!;
  assert.match(s3['source'].objectStorage.connectionString, /FAKE-SECRET/);
  const pg: Record<string, any> = prod.pipes[3]!;
  assert.type(pg['source'].postgres.settings.syncIntervalSeconds, 'number');
  assert.is(pg['source'].postgres.tableMappings.length, 2);
  assert.is(
    prod.pipes.some((p) => p['name'] === 'sessions-from-kafka'),
    false,
    'the pipe examples/ expects but is missing',
  );
});

test('default seed: every secret is an obvious FAKE-SECRET placeholder', async () => {
  const { organizations } = await defaultState();
  const secrets: string[] = [];
  const walk = (v: unknown, key = ''): void => {
    if (Array.isArray(v)) v.forEach((x) => walk(x));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
    else if (typeof v === 'string' && ['connectionString', 'caCertificate', 'password'].includes(key)) secrets.push(v);
  };
  walk(organizations);
  assert.ok(secrets.length >= 5);
  for (const s of secrets) assert.match(s, /FAKE-SECRET/);
});

test('default seed: endpoints (one prod endpoint not Ready) and staging', async () => {
  const [prod, staging] = (await defaultState()).organizations[0]!.services;
  assert.equal(
    prod!.reversePrivateEndpoints.map((e) => [e['description'], e['status']]),
    [
      ['msk-prod', 'Ready'],
      ['msk-analytics', 'PendingAcceptance'],
    ],
  );
  assert.equal(
    staging!.reversePrivateEndpoints.map((e) => [e['description'], e['status']]),
    [['kafka-staging', 'Ready']],
  );
  assert.equal(
    staging!.pipes.map((p: Record<string, any>) => [p['name'], sourceKind(p), p['state']]),
    [
      ['events-from-kafka', 'kafka', 'Running'],
      ['clicks-from-kinesis', 'kinesis', 'Paused'],
    ],
  );
});

type B = { id: string; status: string; startedAt: string; finishedAt?: string; sizeInBytes?: number; durationInSeconds?: number; type?: string };

test('default seed: thirty days of prod backups relative to the start clock, with a failed, a slow, a large and an in-progress one', async () => {
  const prod = (await defaultState()).organizations[0]!.services[0]!;
  const backups = prod.backups as unknown as B[];
  assert.is(backups.length, 31);
  const running = backups.filter((b) => b.status === 'in_progress');
  assert.is(running.length, 1);
  assert.is(running[0]!.finishedAt, undefined);
  const finished = backups.filter((b) => b.status !== 'in_progress');
  assert.is(finished.length, 30);
  for (let i = 1; i < finished.length; i++) {
    const gap = Date.parse(finished[i - 1]!.startedAt) - Date.parse(finished[i]!.startedAt);
    assert.is(gap, 24 * H, 'one a day, newest first');
  }
  const newestAge = (START.getTime() - Date.parse(finished[0]!.finishedAt!)) / H;
  assert.ok(newestAge > 5 && newestAge < 7, `newest finished ${newestAge} h before start`);
  const oldestAge = (START.getTime() - Date.parse(finished[29]!.startedAt)) / H / 24;
  assert.ok(oldestAge > 29 && oldestAge < 31, `oldest ${oldestAge} days old`);

  const failed = finished.filter((b) => b.status === 'error');
  assert.is(failed.length, 1);
  assert.is(failed[0]!.sizeInBytes, undefined);

  const done = finished.filter((b) => b.status === 'done');
  const slow = done.filter((b) => b.durationInSeconds! > 90 * 60);
  assert.is(slow.length, 1);
  assert.ok(slow[0]!.durationInSeconds! > 3 * 3600);
  for (const b of done) {
    assert.is(b.durationInSeconds, (Date.parse(b.finishedAt!) - Date.parse(b.startedAt)) / 1000);
    if (b !== slow[0]) assert.ok(b.durationInSeconds! >= 20 * 60 && b.durationInSeconds! <= 40 * 60, `${b.durationInSeconds} s`);
  }

  // Every backup has a type, as the real API's (a full one every seventh day, incrementals between).
  assert.equal(
    backups.map((b) => b.type),
    backups.map((_, i) => (i === 0 || i % 7 === 2 ? 'full' : 'incremental')),
  );
  // Consecutive sizes of one type (oldest to newest): fulls steady and growing; incrementals steady except one
  // jump above 50 % (the examples' maxSizeChangePercent) and the fall back after it, within 50 %.
  const sizes = (type: string) =>
    done
      .filter((b) => b.type === type)
      .map((b) => b.sizeInBytes!)
      .reverse();
  const changes = (xs: number[]) => xs.slice(1).map((s, i) => (s - xs[i]!) / xs[i]!);
  const full = sizes('full');
  assert.is(full.length, 5);
  assert.ok(
    changes(full).every((c) => c > 0 && c < 0.05),
    JSON.stringify(changes(full)),
  );
  const incremental = sizes('incremental');
  assert.ok(
    incremental.every((x) => x < full[0]! * 0.1),
    'an incremental is a small part of a full backup',
  );
  const big = changes(incremental)
    .map((c, i) => [c, i] as const)
    .filter(([c]) => Math.abs(c) > 0.2);
  assert.is(big.length, 2, `two large changes, got ${JSON.stringify(big)}`);
  assert.ok(big[0]![0] > 0.5, 'a jump above 50 %');
  assert.ok(big[1]![0] < -0.35 && big[1]![0] > -0.5, 'then back');
  assert.is(big[1]![1], big[0]![1] + 1);
});

test('default seed: a week of staging backups, the newest finished 40 h before start', async () => {
  const staging = (await defaultState()).organizations[0]!.services[1]!;
  const backups = staging.backups as unknown as B[];
  assert.is(backups.length, 7);
  assert.ok(backups.every((b) => b.status === 'done'));
  assert.is(START.getTime() - Date.parse(backups[0]!.finishedAt!), 40 * H);
});

test('default seed: every cloud id is a unique UUID and every object names its service', async () => {
  const { organizations } = await defaultState();
  const ids = new Set<string>();
  let n = 0;
  for (const s of organizations[0]!.services) {
    for (const o of [...s.pipes, ...s.reversePrivateEndpoints, ...s.backups]) {
      ids.add(String(o['id']));
      n++;
      assert.is(o['serviceId'], s.id);
    }
  }
  assert.is(ids.size, n);
});

test('defaultSeed() returns a fresh copy each time', () => {
  const a = defaultSeed();
  a.alerts![0]!.name = 'changed';
  assert.is(defaultSeed().alerts![0]!.name, 'Checkout errors');
});

test('a custom seed: dashboards with and without ids, alerts, cloud data with relative times, from an object or a file', async () => {
  const seed: SeedData = {
    dashboards: [
      { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', name: 'Pinned', tiles: [{ id: 'bbbbbbbbbbbbbbbbbbbbbbbb', name: 'T1' }, { name: 'T2' }] },
      { name: 'Unpinned' },
    ],
    alerts: [{ id: 'cccccccccccccccccccccccc', threshold: 1, createdAt: '2024-01-01T00:00:00Z' }],
    organizations: [
      {
        id: '11111111-1111-4111-8111-111111111111',
        services: [
          { id: '22222222-2222-4222-8222-222222222222', backups: [{ id: '33333333-3333-4333-8333-333333333333', startedAt: '-2h', finishedAt: '-1h30m' }] },
        ],
      },
    ],
  };
  const tmp = tmpProject({ 'seed.json': JSON.stringify(seed) });
  try {
    for (const data of [seed, `${tmp.dir}/seed.json`]) {
      const emu = await startEmulator({ data, now: () => START });
      try {
        const list = (await obs(emu, 'GET', '/api/v2/dashboards')).body.data;
        assert.equal(
          list.map((d: { name: string }) => d.name),
          ['Pinned', 'Unpinned'],
        );
        assert.is(list[0].id, 'aaaaaaaaaaaaaaaaaaaaaaaa');
        assert.is(list[0].tiles[0].id, 'bbbbbbbbbbbbbbbbbbbbbbbb');
        assert.match(list[0].tiles[1].id, HEX24);
        assert.match(list[1].id, HEX24);
        const alert = emu.state().alerts[0]!;
        assert.equal(alert, {
          id: 'cccccccccccccccccccccccc',
          threshold: 1,
          state: 'inactive',
          createdAt: '2024-01-01T00:00:00.000Z',
          updatedAt: '2024-01-01T00:00:00.000Z',
        });
        assert.is((await obs(emu, 'PUT', '/api/v2/alerts/65f5e4a3b9e77c001a000001', { threshold: 1 })).status, 404, 'only seeded alerts exist');
        const b = (await cloud(emu, '/v1/organizations/11111111-1111-4111-8111-111111111111/services/22222222-2222-4222-8222-222222222222/backups')).body
          .result[0];
        assert.equal(b, {
          id: '33333333-3333-4333-8333-333333333333',
          serviceId: '22222222-2222-4222-8222-222222222222',
          startedAt: '2030-06-15T10:00:00.000Z',
          finishedAt: '2030-06-15T10:30:00.000Z',
          status: 'done',
          durationInSeconds: 1800,
        });
      } finally {
        await emu.close();
      }
    }
  } finally {
    tmp.cleanup();
  }
});

const BAD_SEEDS: [string, unknown, RegExp][] = [
  ['not an object', [], /^seed: must be a JSON object/],
  ['an unknown member', { dashboard: [] }, /^seed\.dashboard: unknown member/],
  ['alerts that are not an array', { alerts: {} }, /^seed\.alerts: must be an array/],
  ['an alert id that is not 24 hex', { alerts: [{ id: 'ABC' }] }, /^seed\.alerts\[0\]\.id: must be 24 lowercase hex/],
  ['a duplicate alert id', { alerts: [{ id: 'a'.repeat(24) }, { id: 'a'.repeat(24) }] }, /^seed\.alerts\[1\]\.id: id a+ is used twice/],
  ['an alert threshold that is a string', { alerts: [{ id: 'a'.repeat(24), threshold: '5' }] }, /^seed\.alerts\[0\]\.threshold: must be a number/],
  ['an alert interval in days', { alerts: [{ id: 'a'.repeat(24), interval: '1d' }] }, /^seed\.alerts\[0\]\.interval: /],
  ['an alert with a bad time', { alerts: [{ id: 'a'.repeat(24), createdAt: 'last week' }] }, /^seed\.alerts\[0\]\.createdAt: /],
  ['a dashboard without a name', { dashboards: [{ tiles: [] }] }, /^seed\.dashboards\[0\]\.name: is required/],
  ['a dashboard tile with a bad x', { dashboards: [{ name: 'd', tiles: [{ x: 'left' }] }] }, /^seed\.dashboards\[0\]\.tiles\[0\]\.x: must be a number/],
  ['a dashboard id used by an alert', { alerts: [{ id: 'a'.repeat(24) }], dashboards: [{ id: 'a'.repeat(24), name: 'd' }] }, /used twice/],
  ['an organization id that is not a UUID', { organizations: [{ id: 'acme' }] }, /^seed\.organizations\[0\]\.id: must be a UUID/],
  [
    'a backup without an id',
    { organizations: [{ id: '11111111-1111-4111-8111-111111111111', services: [{ id: '22222222-2222-4222-8222-222222222222', backups: [{}] }] }] },
    /^seed\.organizations\[0\]\.services\[0\]\.backups\[0\]\.id: must be a UUID/,
  ],
  [
    'a backup with an unknown status',
    {
      organizations: [
        {
          id: '11111111-1111-4111-8111-111111111111',
          services: [{ id: '22222222-2222-4222-8222-222222222222', backups: [{ id: '33333333-3333-4333-8333-333333333333', status: 'failed' }] }],
        },
      ],
    },
    /backups\[0\]\.status: must be one of done, error, in_progress/,
  ],
  [
    'a pipe without a name',
    {
      organizations: [
        {
          id: '11111111-1111-4111-8111-111111111111',
          services: [{ id: '22222222-2222-4222-8222-222222222222', pipes: [{ id: '33333333-3333-4333-8333-333333333333' }] }],
        },
      ],
    },
    /pipes\[0\]\.name: a pipe needs a name/,
  ],
  [
    'a pipe with a bad relative time',
    {
      organizations: [
        {
          id: '11111111-1111-4111-8111-111111111111',
          services: [{ id: '22222222-2222-4222-8222-222222222222', pipes: [{ id: '33333333-3333-4333-8333-333333333333', name: 'p', createdAt: '-3x' }] }],
        },
      ],
    },
    /pipes\[0\]\.createdAt: /,
  ],
  [
    'a backup naming another service',
    {
      organizations: [
        {
          id: '11111111-1111-4111-8111-111111111111',
          services: [
            {
              id: '22222222-2222-4222-8222-222222222222',
              backups: [{ id: '33333333-3333-4333-8333-333333333333', serviceId: '55555555-2222-4222-8222-222222222222' }],
            },
          ],
        },
      ],
    },
    /backups\[0\]\.serviceId: .* is not the service it is listed under/,
  ],
  [
    'a service listed twice',
    {
      organizations: [
        { id: '11111111-1111-4111-8111-111111111111', services: [{ id: '22222222-2222-4222-8222-222222222222' }] },
        { id: '44444444-1111-4111-8111-111111111111', services: [{ id: '22222222-2222-4222-8222-222222222222' }] },
      ],
    },
    /appears twice/,
  ],
];

for (const [what, data, message] of BAD_SEEDS) {
  test(`seed data with ${what} is refused with the place named`, async () => {
    try {
      const emu = await startEmulator({ data: data as SeedData });
      await emu.close();
      assert.unreachable('should refuse');
    } catch (err) {
      assert.instance(err, EmulatorError);
      assert.match((err as Error).message, message);
    }
  });
}

test('a seed file that is missing or not JSON is refused', async () => {
  const tmp = tmpProject({ 'bad.json': '{' });
  try {
    for (const [path, message] of [
      [`${tmp.dir}/missing.json`, /cannot read seed data/],
      [`${tmp.dir}/bad.json`, /is not valid JSON/],
    ] as const) {
      try {
        await startEmulator({ data: path });
        assert.unreachable('should refuse');
      } catch (err) {
        assert.instance(err, EmulatorError);
        assert.match((err as Error).message, message);
      }
    }
  } finally {
    tmp.cleanup();
  }
});

const BAD_OPTIONS: [EmulatorOptions, RegExp][] = [
  [{ port: -1 }, /^port: /],
  [{ port: 1.5 }, /^port: /],
  [{ alertUpdate: 'patch' as never }, /^alertUpdate: /],
  [{ latencyMs: -5 }, /^latencyMs: /],
  [{ rateLimitPerMinute: 0 }, /^rateLimitPerMinute: /],
  [{ failRate: 1.5 }, /^failRate: /],
  [{ dropAfterCommit: -0.1 }, /^dropAfterCommit: /],
  [{ seed: 0.5 }, /^seed: /],
  [{ token: '' }, /^token: /],
  [{ keyId: 'a:b' }, /^keyId: /],
  [{ keySecret: 'two words' }, /^keySecret: /],
];

test('bad options are refused, naming the option', async () => {
  for (const [opts, message] of BAD_OPTIONS) {
    try {
      const emu = await startEmulator(opts);
      await emu.close();
      assert.unreachable(JSON.stringify(opts));
    } catch (err) {
      assert.instance(err, EmulatorError);
      assert.match((err as Error).message, message);
    }
  }
});

test('a port in use is refused with a clear message', async () => {
  const a = await startEmulator();
  try {
    await startEmulator({ port: a.port });
    assert.unreachable('should refuse');
  } catch (err) {
    assert.instance(err, EmulatorError);
    assert.match((err as Error).message, /already in use/);
  } finally {
    await a.close();
  }
});

test('startEmulator returns the URL, credentials and the env steward reads', async () => {
  const emu = await startEmulator({ token: 't', keyId: 'k', keySecret: 's' });
  try {
    assert.match(emu.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.is(emu.host, '127.0.0.1');
    assert.ok(emu.port > 0);
    assert.equal(emu.credentials, { token: 't', keyId: 'k', keySecret: 's' });
    assert.equal(emu.env, {
      STEWARD_OBS_URL: emu.url,
      STEWARD_CLOUD_URL: emu.url,
      STEWARD_OBS_TOKEN: 't',
      STEWARD_CLOUD_KEY_ID: 'k',
      STEWARD_CLOUD_KEY_SECRET: 's',
    });
    assert.is(emu.settings.alertUpdate, 'merge');
    assert.type(emu.settings.seed, 'number');
  } finally {
    await emu.close();
  }
  await emu.close(); // idempotent
});

test.run();
