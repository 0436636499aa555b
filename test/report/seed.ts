/**
 * Cloud data shaped like the emulator's default seed (see the brief of issue 6), built against a fixed clock so
 * that findings and renderings are deterministic. Used by the unit, render, CLI and bench tests, served by the
 * loopback fake in `fake-cloud.ts`.
 */
import type { CloudServiceSpec } from '../../src/schema/kinds.ts';
import type { ObservedBackup, ObservedEndpoint, ObservedPipe } from '../../src/model/cloud.ts';

export const NOW = new Date('2026-03-01T06:00:00.000Z');
export const ORG = '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31';
export const PROD = '9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d';
export const STAGING = '2c3d4e5f-6a7b-4c8d-9e0f-a1b2c3d4e5f6';

/** What a canary credential looks like: if this string shows up in any output, redaction failed. */
export const CANARY = 'CANARY-8f3e1d2c-do-not-leak';

export interface ServiceData {
  pipes: ObservedPipe[];
  endpoints: ObservedEndpoint[];
  backups: ObservedBackup[];
}

/** organizationId -> serviceId -> data */
export type CloudData = Record<string, Record<string, ServiceData>>;

const HOUR = 3_600_000;
const GiB = 1024 ** 3;

/** A uuid-shaped id, stable for a (prefix, n) pair. */
export function uuid(prefix: string, n: number): string {
  const hex = (prefix + n.toString(16))
    .replace(/[^0-9a-f]/g, '')
    .padStart(12, '0')
    .slice(-12);
  return `00000000-0000-4000-8000-${hex}`;
}

/**
 * `count` daily backups ending `newestFinishedHoursAgo` before `now`, 20 to 40 minutes each, growing 1 % a
 * day from 10 GiB. `quirks` bends single ones (0 = oldest).
 */
export function dailyBackups(
  serviceId: string,
  opts: {
    now?: Date;
    count: number;
    newestFinishedHoursAgo: number;
    prefix: string;
    quirks?: Record<number, Partial<ObservedBackup> | 'error' | 'slow' | 'large'>;
  },
): ObservedBackup[] {
  const now = (opts.now ?? NOW).getTime();
  const out: ObservedBackup[] = [];
  for (let i = 0; i < opts.count; i++) {
    const daysBack = opts.count - 1 - i;
    let duration = (20 + ((i * 7) % 21)) * 60;
    const finished = now - opts.newestFinishedHoursAgo * HOUR - daysBack * 24 * HOUR;
    let size = Math.round(10 * GiB * 1.01 ** i);
    let status = 'done';
    const q = opts.quirks?.[i];
    if (q === 'slow') duration = 3 * 3600 + 5 * 60;
    if (q === 'large') size = Math.round(size * 1.9);
    if (q === 'error') status = 'error';
    const b: ObservedBackup = {
      id: uuid(opts.prefix, i + 1),
      serviceId,
      status,
      startedAt: new Date(finished - duration * 1000).toISOString(),
      finishedAt: new Date(finished).toISOString(),
      sizeInBytes: status === 'error' ? 0 : size,
      durationInSeconds: duration,
      type: 'full',
      backupName: `backup-${serviceId.slice(0, 8)}-${i + 1}`,
      bucket: { bucketPath: 's3://acme-backups/warehouse', iamRoleArn: 'arn:aws:iam::123456789012:role/backup', iamRoleSessionName: 'steward' },
    };
    out.push(typeof q === 'object' ? { ...b, ...q } : b);
  }
  return out;
}

/** The default seed: prod with every kind of finding, staging with a stale backup and a paused pipe. */
export function defaultSeed(opts: { now?: Date; canary?: string } = {}): CloudData {
  const now = opts.now ?? NOW;
  const canary = opts.canary ?? CANARY;
  const prodBackups = dailyBackups(PROD, { now, count: 29, newestFinishedHoursAgo: 6, prefix: 'b0', quirks: { 12: 'error', 18: 'slow', 22: 'large' } });
  // The newest backup is still running: no finishedAt, duration so far.
  prodBackups.push({
    id: uuid('b0', 30),
    serviceId: PROD,
    status: 'in_progress',
    startedAt: new Date(now.getTime() - 20 * 60_000).toISOString(),
    durationInSeconds: 1200,
    sizeInBytes: 0,
    type: 'full',
  });
  return {
    [ORG]: {
      [PROD]: {
        pipes: [
          {
            id: uuid('a1', 1),
            serviceId: PROD,
            name: 'events-from-kafka',
            state: 'Running',
            scaling: { replicas: 2, concurrency: 1 },
            source: {
              kafka: {
                type: 'msk',
                format: 'JSONEachRow',
                brokers: 'b-1.msk.example:9096',
                topics: 'events',
                authentication: 'SCRAM-SHA-512',
                caCertificate: `-----BEGIN CERTIFICATE-----\nMIIB${canary}\n-----END CERTIFICATE-----`,
                schemaRegistry: { url: 'https://registry.example/schemas', authentication: 'PLAIN', caCertificate: `REGISTRY-CA-${canary}` },
                reversePrivateEndpointIds: [uuid('e0', 1)],
              },
            },
            destination: { database: 'default', table: 'events', managedTable: true },
            settings: { streaming_max_insert_wait_ms: 5000 },
            createdAt: '2025-11-02T10:00:00Z',
            updatedAt: '2026-02-20T10:00:00Z',
          },
          {
            id: uuid('a1', 2),
            serviceId: PROD,
            name: 'logs-from-s3',
            state: 'Failed',
            scaling: { replicas: 1 },
            source: {
              objectStorage: {
                type: 'azureblobstorage',
                format: 'JSONEachRow',
                url: 'https://acme.blob.core.windows.net/logs/**.json',
                authentication: 'CONNECTION_STRING',
                connectionString: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${canary};EndpointSuffix=core.windows.net`,
                azureContainerName: 'logs',
              },
            },
            destination: { database: 'default', table: 'logs', managedTable: true },
          },
          {
            id: uuid('a1', 3),
            serviceId: PROD,
            name: 'clicks-from-kinesis',
            state: 'Running',
            scaling: { replicas: 1 },
            source: { kinesis: { streamName: 'clicks', region: 'us-east-1', useEnhancedFanOut: false, iamRole: 'arn:aws:iam::123456789012:role/kinesis' } },
            destination: { database: 'default', table: 'clicks', managedTable: true },
          },
          {
            id: uuid('a1', 4),
            serviceId: PROD,
            name: 'orders-cdc',
            state: 'Snapshot',
            scaling: { replicaCpuMillicores: 2000, replicaMemoryGb: 8 },
            source: { postgres: { host: 'orders.db.example', port: 5432, database: 'orders', settings: { publicationName: 'steward' } } },
            destination: { database: 'orders' },
          },
          {
            id: uuid('a1', 5),
            serviceId: PROD,
            name: 'audit-from-gcs',
            state: 'Stopped',
            source: { objectStorage: { type: 'gcs', url: 'https://storage.googleapis.com/acme-audit/*.parquet', format: 'Parquet' } },
            destination: { database: 'default', table: 'audit' },
          },
        ],
        endpoints: [
          {
            id: uuid('e0', 1),
            serviceId: PROD,
            description: 'msk-prod',
            type: 'MSK_MULTI_VPC',
            mskAuthentication: 'SASL_IAM',
            status: 'Ready',
            dnsNames: ['msk-prod.internal'],
          },
          {
            id: uuid('e0', 2),
            serviceId: PROD,
            description: 'msk-analytics',
            type: 'MSK_MULTI_VPC',
            mskAuthentication: 'SASL_IAM',
            status: 'Pending',
            dnsNames: [],
          },
        ],
        backups: prodBackups,
      },
      [STAGING]: {
        pipes: [
          {
            id: uuid('a2', 1),
            serviceId: STAGING,
            name: 'events-from-kafka',
            state: 'Running',
            scaling: { replicas: 1 },
            source: { kafka: { brokers: 'kafka.staging:9092', topics: 'events' } },
          },
          {
            id: uuid('a2', 2),
            serviceId: STAGING,
            name: 'clicks-from-kinesis',
            state: 'Paused',
            source: { kinesis: { streamName: 'clicks-staging', region: 'us-east-1' } },
          },
        ],
        endpoints: [{ id: uuid('e2', 1), serviceId: STAGING, description: 'msk-staging', type: 'VPC_ENDPOINT_SERVICE', status: 'Ready' }],
        backups: dailyBackups(STAGING, { now, count: 7, newestFinishedHoursAgo: 40, prefix: 'b2' }),
      },
    },
  };
}

/** The expectations of examples/cloud/prod-warehouse.yaml. */
export const PROD_SPEC: CloudServiceSpec = {
  organizationId: ORG,
  serviceId: PROD,
  backups: { maxAgeHours: 26, minCount: 7, maxDurationMinutes: 90, maxSizeChangePercent: 50 },
  pipes: {
    reportUnlisted: true,
    expected: [
      { name: 'events-from-kafka', state: 'Running', scaling: { replicas: 2 }, destination: { database: 'default', table: 'events' } },
      { name: 'logs-from-s3', state: 'Running' },
      { name: 'clicks-from-kinesis', state: 'Running', scaling: { replicas: 2 } },
      { name: 'orders-cdc', state: 'Running' },
      { name: 'sessions-from-kafka', state: 'Running' },
    ],
  },
  reversePrivateEndpoints: {
    expected: [
      { description: 'msk-prod', status: 'Ready' },
      { description: 'msk-analytics', status: 'Ready' },
    ],
  },
};

export const STAGING_SPEC: CloudServiceSpec = {
  organizationId: ORG,
  serviceId: STAGING,
  backups: { maxAgeHours: 26, minCount: 7 },
  pipes: {
    expected: [
      { name: 'events-from-kafka', state: 'Running' },
      { name: 'clicks-from-kinesis', state: 'Paused' },
    ],
  },
  reversePrivateEndpoints: { expected: [{ description: 'msk-staging' }] },
};

/** The YAML of the two CloudService files, for projects written to temp folders. */
export const PROD_YAML = `apiVersion: steward/v1
kind: CloudService
metadata: { name: prod-warehouse }
spec:
  organizationId: ${ORG}
  serviceId: ${PROD}
  backups: { maxAgeHours: 26, minCount: 7, maxDurationMinutes: 90, maxSizeChangePercent: 50 }
  pipes:
    reportUnlisted: true
    expected:
      - { name: events-from-kafka, state: Running, scaling: { replicas: 2 }, destination: { database: default, table: events } }
      - { name: logs-from-s3, state: Running }
      - { name: clicks-from-kinesis, state: Running, scaling: { replicas: 2 } }
      - { name: orders-cdc, state: Running }
      - { name: sessions-from-kafka, state: Running }
  reversePrivateEndpoints:
    expected:
      - { description: msk-prod, status: Ready }
      - { description: msk-analytics, status: Ready }
`;

export const STAGING_YAML = `apiVersion: steward/v1
kind: CloudService
metadata: { name: staging-warehouse }
spec:
  organizationId: ${ORG}
  serviceId: ${STAGING}
  backups: { maxAgeHours: 26, minCount: 7 }
  pipes:
    expected:
      - { name: events-from-kafka, state: Running }
      - { name: clicks-from-kinesis, state: Paused }
  reversePrivateEndpoints:
    expected: [{ description: msk-staging }]
`;

export const PROJECT_YAML = `apiVersion: steward/v1
kind: Project
metadata: { name: report-test }
spec:
  resources: ["cloud/**/*.yaml"]
  cloud:
    url: \${STEWARD_CLOUD_URL}
    keyId: { env: STEWARD_CLOUD_KEY_ID }
    keySecret: { env: STEWARD_CLOUD_KEY_SECRET }
    requestsPerMinute: 6000
`;
