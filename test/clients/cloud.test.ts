import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ApiResponseError,
  createCloudClient,
  NotFoundError,
  UnauthorizedError,
  type Backup,
  type IngestPipe,
  type ReversePrivateEndpoint,
} from '../../src/clients/index.ts';
import { CliError } from '../../src/errors.ts';
import { withoutNulls } from '../../src/shared/object.ts';
import { json, rejects, startServer, KEY_ID, KEY_SECRET, type TestServer } from './helpers.ts';

const ORG = '6f1c2d3e-0000-4000-8000-000000000001';
const SVC = '9a2b3c4d-0000-4000-8000-000000000002';
const REQ = '1e2d3c4b-5a69-4788-9abc-def012345678';

const envelope = (result: unknown) => ({ status: 200, requestId: REQ, result });
/** A list read with nothing malformed; `null` members read as absent. */
const whole = <T>(items: T[]) => ({ items: withoutNulls(items), malformed: [] });

const PIPE: IngestPipe = {
  id: '11111111-0000-4000-8000-000000000001',
  serviceId: SVC,
  name: 'events-from-kafka',
  state: 'Running',
  scaling: { replicas: 2, concurrency: 1, replicaCpuMillicores: 500, replicaMemoryGb: 0.5 },
  source: {
    kafka: {
      brokers: 'b-1.msk:9098',
      topics: 'events',
      consumerGroup: 'steward',
      iamRole: 'arn:aws:iam::123456789012:role/pipes',
      offset: { timestamp: '2026-01-01T00:00' },
      schemaRegistry: { url: 'https://registry.example', caCertificate: '-----BEGIN CERTIFICATE-----' },
      caCertificate: '-----BEGIN CERTIFICATE-----',
      reversePrivateEndpointIds: ['22222222-0000-4000-8000-000000000002'],
    },
  },
  destination: {
    database: 'default',
    table: 'events',
    managedTable: true,
    tableDefinition: { engine: { versionColumnId: 'v', columnIds: ['a'] }, sortingKey: ['ts'], partitionBy: 'toYYYYMM(ts)', primaryKey: 'ts' },
    columns: [{ name: 'ts', type: 'DateTime' }],
  },
  fieldMappings: [{ sourceField: 'ts', destinationField: 'ts' }],
  settings: { streaming_max_insert_wait_ms: 5000, object_storage_use_cluster_function: true },
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-02T00:00:00Z',
};

const ENDPOINT: ReversePrivateEndpoint = {
  id: '22222222-0000-4000-8000-000000000002',
  serviceId: SVC,
  description: 'msk-prod',
  type: 'VPC_ENDPOINT_SERVICE',
  vpcEndpointServiceName: 'com.amazonaws.vpce.us-east-1.vpce-svc-1',
  vpcResourceConfigurationId: null,
  mskAuthentication: 'SASL_IAM',
  endpointId: 'vpce-1',
  dnsNames: ['a.example'],
  privateDnsNames: [],
  status: 'Ready',
};

const BACKUP: Backup = {
  id: '33333333-0000-4000-8000-000000000003',
  serviceId: SVC,
  startedAt: '2026-01-01T00:00:00Z',
  finishedAt: '2026-01-01T00:20:00Z',
  sizeInBytes: 123456789,
  durationInSeconds: 1200,
  backupName: 'b-2026-01-01',
  bucket: { bucketPath: 's3://backups/x', iamRoleArn: 'arn:aws:iam::1:role/b', iamRoleSessionName: 'steward' },
};

function client(server: TestServer) {
  return createCloudClient({
    url: server.url,
    keyId: KEY_ID,
    keySecret: KEY_SECRET,
    retry: { limit: 1 },
    credentialHint: 'STEWARD_CLOUD_KEY_ID and STEWARD_CLOUD_KEY_SECRET',
  });
}

test('each list call: GET the contract path with Basic auth, returns result', async () => {
  const server = await startServer((req, res) => {
    if (req.url!.endsWith('/ingestpipes')) return json(res, 200, envelope([PIPE]));
    if (req.url!.endsWith('/ingestpipesReversePrivateEndpoints')) return json(res, 200, envelope([ENDPOINT]));
    if (req.url!.endsWith('/backups')) return json(res, 200, envelope([BACKUP]));
    return json(res, 200, envelope(BACKUP));
  });
  try {
    const c = client(server);
    assert.equal(await c.listIngestPipes(ORG, SVC), whole([PIPE]));
    assert.equal(await c.listReversePrivateEndpoints(ORG, SVC), whole([ENDPOINT]));
    assert.equal(await c.listBackups(ORG, SVC), whole([BACKUP]));
    assert.equal(await c.getBackup(ORG, SVC, BACKUP.id), { item: BACKUP, malformed: undefined });
    const base = `/v1/organizations/${ORG}/services/${SVC}`;
    assert.equal(
      server.requests.map((r) => `${r.method} ${r.url}`),
      [`GET ${base}/ingestpipes`, `GET ${base}/ingestpipesReversePrivateEndpoints`, `GET ${base}/backups`, `GET ${base}/backups/${BACKUP.id}`],
    );
    const expected = `Basic ${Buffer.from(`${KEY_ID}:${KEY_SECRET}`).toString('base64')}`;
    for (const r of server.requests) {
      assert.is(r.headers['authorization'], expected);
      assert.is(r.body, '');
    }
  } finally {
    await server.close();
  }
});

test('path segments are URL-encoded', async () => {
  const server = await startServer((_req, res) => json(res, 200, envelope(BACKUP)));
  try {
    await client(server).getBackup('o/1', 's 2', '../x');
    assert.is(server.requests[0]!.url, '/v1/organizations/o%2F1/services/s%202/backups/..%2Fx');
  } finally {
    await server.close();
  }
});

test('tolerant reader: a running backup without finishedAt, unknown fields, null members', async () => {
  const running = {
    id: 'b2',
    status: 'in_progress',
    type: 'incremental',
    startedAt: '2026-01-02T00:00:00Z',
    sizeInBytes: null,
    durationInSeconds: 61,
    extra: { a: 1 },
  };
  const server = await startServer((_req, res) => json(res, 200, { ...envelope([running, BACKUP]), nextPage: null }));
  try {
    const list = await client(server).listBackups(ORG, SVC);
    assert.equal(list, whole([running, BACKUP]));
    assert.is(list.items[0]!.finishedAt, undefined);
    assert.not.ok('sizeInBytes' in list.items[0]!, 'null reads as absent');
  } finally {
    await server.close();
  }
});

test('tolerant reader: unknown pipe source kinds and states, the newer settings names', async () => {
  const pubsub = {
    id: 'p2',
    name: 'from-pubsub',
    state: 'Degraded',
    source: { pubsub: { subscription: 'projects/x/subscriptions/y' }, kafka: null, mysql: { host: 'db' } },
    destination: { database: 'default', table: null, managedTable: null, columns: null },
    settings: { clickhouse_max_threads: 8, streaming_max_insert_wait_ms: null },
    scaling: null,
    fieldMappings: null,
  };
  const server = await startServer((_req, res) => json(res, 200, envelope([PIPE, pubsub])));
  try {
    const pipes = await client(server).listIngestPipes(ORG, SVC);
    assert.equal(pipes.items[1], withoutNulls(pubsub));
    assert.equal(pipes.malformed, []);
  } finally {
    await server.close();
  }
});

test('tolerant reader: endpoints with types and statuses the contract does not list', async () => {
  const gcp = {
    id: 'e2',
    type: 'GCP_PSC_SERVICE_ATTACHMENT',
    status: 'PendingAcceptance',
    gcpServiceAttachment: 'projects/p/regions/r/serviceAttachments/s',
    mskAuthentication: null,
  };
  const server = await startServer((_req, res) => json(res, 200, envelope([gcp])));
  try {
    assert.equal(await client(server).listReversePrivateEndpoints(ORG, SVC), whole([gcp]));
  } finally {
    await server.close();
  }
});

test('wrong types: only the item at fault is malformed, kept without the member at fault; the others are read', async () => {
  const server = await startServer((req, res) => {
    if (req.url!.endsWith('/backups')) return json(res, 200, envelope([BACKUP, { ...BACKUP, id: 'b-2', sizeInBytes: '12 MB' }]));
    if (req.url!.endsWith('/ingestpipes'))
      return json(
        res,
        200,
        envelope([
          { ...PIPE, scaling: { replicas: 'two', concurrency: 1 } },
          { ...PIPE, name: 'other' },
        ]),
      );
    return json(res, 200, envelope({ ...BACKUP, startedAt: 'yesterday' }));
  });
  try {
    const c = client(server);
    const backups = await c.listBackups(ORG, SVC);
    assert.equal(
      backups.items.map((b) => [b.id, b.sizeInBytes]),
      [
        [BACKUP.id, BACKUP.sizeInBytes],
        ['b-2', undefined],
      ],
    );
    assert.equal(
      backups.malformed.map((m) => ({ index: m.index, kept: m.kept, problems: m.problems })),
      [
        {
          index: 1,
          kept: true,
          problems: [{ field: 'sizeInBytes', message: 'must be number or null', pointer: '/sizeInBytes', missing: false, value: '12 MB' }],
        },
      ],
    );
    const pipes = await c.listIngestPipes(ORG, SVC);
    assert.equal(
      pipes.items.map((p) => [p.name, p.scaling]),
      [
        [PIPE.name, { concurrency: 1 }],
        ['other', PIPE.scaling],
      ],
    );
    assert.equal(
      pipes.malformed.map((m) => m.problems.map((p) => `${p.field}: ${p.message}`)),
      [['scaling.replicas: must be number or null']],
    );
    const one = await c.getBackup(ORG, SVC, 'b');
    assert.is(one.item?.startedAt, undefined);
    assert.match(one.malformed!.problems[0]!.message, /must match format "date-time"/);
  } finally {
    await server.close();
  }
});

test('an item left out whole: not an object, or (seed) lacking the member it is keyed on; the others are read', async () => {
  const server = await startServer((_req, res) => json(res, 200, envelope(['junk', { ...PIPE, name: 7 }, PIPE])));
  try {
    const pipes = await client(server).listIngestPipes(ORG, SVC);
    assert.equal(
      pipes.items.map((p) => p.name),
      [PIPE.name],
    );
    assert.equal(
      pipes.malformed.map((m) => [m.index, m.kept, m.problems.map((p) => `${p.field}: ${p.message}`)]),
      [
        [0, false, [': must be object']],
        [1, false, ['name: must be string']],
      ],
    );
  } finally {
    await server.close();
  }
});

test('a result of the wrong kind: the envelope itself is checked', async () => {
  const server = await startServer((_req, res) => json(res, 200, { status: 200, requestId: REQ, result: { items: [] } }));
  try {
    const e = (await rejects(() => client(server).listBackups(ORG, SVC))) as ApiResponseError;
    assert.match(e.message, /: result: must be array$/);
  } finally {
    await server.close();
  }
});

test('404 and 401 in the cloud envelope', async () => {
  const server = await startServer((req, res) =>
    req.url!.includes('/backups/')
      ? json(res, 404, { status: 404, error: 'Backup not found', requestId: REQ })
      : json(res, 401, { status: 401, error: 'Invalid credentials', requestId: REQ }),
  );
  try {
    const c = client(server);
    const e1 = (await rejects(() => c.getBackup(ORG, SVC, 'missing'))) as NotFoundError;
    assert.instance(e1, NotFoundError);
    assert.is(e1.requestId, REQ);
    assert.match(e1.message, /→ 404 Not Found: Backup not found \(request id [-0-9a-f]+\)$/);
    const e2 = (await rejects(() => c.listBackups(ORG, SVC))) as UnauthorizedError;
    assert.instance(e2, UnauthorizedError);
    assert.match(
      e2.message,
      /401 Unauthorized: Invalid credentials \(request id [-0-9a-f]+\); the credential was refused: check STEWARD_CLOUD_KEY_ID and STEWARD_CLOUD_KEY_SECRET$/,
    );
  } finally {
    await server.close();
  }
});

test('a missing key id or secret is refused before any request', () => {
  for (const [keyId, keySecret] of [
    ['', 's'],
    ['k', ''],
  ]) {
    try {
      createCloudClient({ url: 'http://127.0.0.1:9', keyId: keyId!, keySecret: keySecret!, credentialHint: 'STEWARD_CLOUD_KEY_SECRET' });
      assert.unreachable();
    } catch (e) {
      assert.instance(e, CliError);
      assert.match((e as Error).message, /STEWARD_CLOUD_KEY_SECRET/);
    }
  }
});

test.run();
