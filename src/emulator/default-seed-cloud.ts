/**
 * The default seed's cloud side: backups, ingest pipes and reverse private endpoints of the two services,
 * each written to trip (or pass) a report check on purpose (default-seed.ts assembles them).
 */
import type { JsonObject } from './types.ts';
import { DEFAULT_SERVICE_IDS, ENDPOINT_IDS, FAKE_CERT, FAKE_SECRET_MARKER } from './default-seed-ids.ts';

/** `-<d>d<h>h<m>m<s>s` for a number of seconds in the past (the seed's relative time form). */
function ago(seconds: number): string {
  let s = Math.round(seconds);
  const d = Math.floor(s / 86_400);
  s -= d * 86_400;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  const parts = `${d ? `${d}d` : ''}${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s ? `${s}s` : ''}`;
  return parts ? `-${parts}` : 'now';
}

const HOUR = 3600;
const DAY = 86_400;
const GIB = 1024 ** 3;

function bucket(service: string): JsonObject {
  return {
    bucketProvider: 'AWS',
    bucketPath: `s3://example-clickhouse-backups/${service}/`,
    iamRoleArn: 'arn:aws:iam::123456789012:role/example-clickhouse-backup-writer',
    iamRoleSessionName: 'clickhouse-cloud-backup',
  };
}

function backupId(serviceTag: number, n: number): string {
  return `7b1c0000-0000-4000-8000-${String(serviceTag * 1000 + n).padStart(12, '0')}`;
}

/**
 * Whether the backup `k` days back is a full one: ClickHouse Cloud's backups carry `type` `full` or
 * `incremental` (Backup.type, both spec snapshots). A full backup every seventh day, counted from the oldest
 * (29, 22, 15, 8 and 1 days back); incrementals hold a day's changes, about 4.5 % of a full backup, so a
 * size check that compared a full with the incremental before it would see a jump of some 2,000 % each week.
 */
function isFull(k: number): boolean {
  return (29 - k) % 7 === 0;
}

/** An incremental backup's share of a full one, varying ±9 % from day to day. */
function incrementalShare(k: number): number {
  return 0.045 * (1 + (((k * 5) % 7) - 3) * 0.03);
}

/**
 * prod-warehouse: thirty daily backups, newest first; the newest finished about 6 h before start. Day 4
 * failed (status error, no size), day 11 took over 3 h (the others 22-38 min), day 17 (an incremental) is
 * 1.9 times its trend (64 % above the incremental the day before it), then sizes return to normal. Full and incremental
 * backups alternate as `isFull` says; each size is compared with the previous of its type. A manual (full)
 * backup started 25 min ago is still in progress.
 */
export function prodBackups(): JsonObject[] {
  const out: JsonObject[] = [
    {
      id: backupId(1, 30),
      status: 'in_progress',
      type: 'full',
      serviceId: DEFAULT_SERVICE_IDS['prod-warehouse'],
      startedAt: ago(25 * 60),
      // Recomputed on every read: the seconds since the backup started, as the real API reports it.
      durationInSeconds: 25 * 60,
      backupName: 'prod-warehouse-manual-031',
      bucket: bucket('prod-warehouse'),
    },
  ];
  for (let k = 0; k < 30; k++) {
    const start = 6 * HOUR + 30 * 60 + k * DAY;
    let duration = (22 + ((k * 7) % 17)) * 60 + ((k * 37) % 60);
    let status = 'done';
    const growth = Math.pow(1.0035, 29 - k) * (1 + (((k * 13) % 7) - 3) * 0.0004);
    let size: number | undefined = Math.round(412 * GIB * growth * (isFull(k) ? 1 : incrementalShare(k)));
    if (k === 4) {
      status = 'error';
      duration = 7 * 60 + 12;
      size = undefined;
    }
    if (k === 11) duration = 3 * HOUR + 4 * 60 + 9;
    if (k === 17 && size !== undefined) size = Math.round(size * 1.9);
    const b: JsonObject = {
      id: backupId(1, 29 - k),
      status,
      type: isFull(k) ? 'full' : 'incremental',
      serviceId: DEFAULT_SERVICE_IDS['prod-warehouse'],
      startedAt: ago(start),
      finishedAt: ago(start - duration),
      ...(size === undefined ? {} : { sizeInBytes: size }),
      durationInSeconds: duration,
      backupName: `prod-warehouse-daily-${String(30 - k).padStart(3, '0')}`,
      bucket: bucket('prod-warehouse'),
    };
    out.push(b);
  }
  return out;
}

/** staging-warehouse: a week of daily backups (the oldest full, then incrementals), the newest finished 40 h before start (stale). */
export function stagingBackups(): JsonObject[] {
  const out: JsonObject[] = [];
  for (let k = 0; k < 7; k++) {
    const duration = (14 + ((k * 5) % 6)) * 60;
    const finished = 40 * HOUR + k * DAY;
    out.push({
      id: backupId(2, 6 - k),
      status: 'done',
      type: k === 6 ? 'full' : 'incremental',
      serviceId: DEFAULT_SERVICE_IDS['staging-warehouse'],
      startedAt: ago(finished + duration),
      finishedAt: ago(finished),
      sizeInBytes: Math.round(38 * GIB * Math.pow(1.002, 6 - k) * (k === 6 ? 1 : 0.03 + (k % 3) * 0.002)),
      durationInSeconds: duration,
      backupName: `staging-warehouse-daily-${String(7 - k).padStart(3, '0')}`,
      bucket: bucket('staging-warehouse'),
    });
  }
  return out;
}

const streamingSettings: JsonObject = {
  streaming_max_insert_wait_ms: 5000,
  engine_max_threads: 8,
  engine_max_insert_threads: 2,
  engine_min_insert_block_size_bytes: 1073741824,
  engine_parallel_view_processing: false,
};

function columns(...pairs: [string, string][]): JsonObject[] {
  return pairs.map(([name, type]) => ({ name, type }));
}

function fieldMappings(names: string[]): JsonObject[] {
  return names.map((n) => ({ sourceField: n, destinationField: n }));
}

function kafkaPipe(id: string, name: string, state: string, replicas: number, table: string, extra: JsonObject = {}): JsonObject {
  const cols = columns(['timestamp', 'DateTime64(3)'], ['service', 'LowCardinality(String)'], ['level', 'LowCardinality(String)'], ['body', 'String']);
  return {
    id,
    name,
    state,
    scaling: { replicas, concurrency: 1, replicaCpuMillicores: 500, replicaMemoryGb: 2 },
    source: {
      kafka: {
        type: 'msk',
        format: 'JSONEachRow',
        brokers: 'b-1.msk-prod.example.internal:9098,b-2.msk-prod.example.internal:9098',
        topics: table,
        consumerGroup: `clickpipes-${name}`,
        authentication: 'IAM_ROLE',
        iamRole: 'arn:aws:iam::123456789012:role/example-clickpipes-kafka-reader',
        offset: { strategy: 'from_timestamp', timestamp: '2025-01-06T00:00' },
        schemaRegistry: {
          url: 'https://schema-registry.example.internal:8081',
          authentication: 'PLAIN',
          caCertificate: FAKE_CERT,
        },
        caCertificate: FAKE_CERT,
        reversePrivateEndpointIds: [ENDPOINT_IDS['msk-prod']],
        ...extra,
      },
    },
    destination: {
      database: 'default',
      table,
      managedTable: true,
      tableDefinition: { engine: { type: 'MergeTree' }, sortingKey: ['service', 'timestamp'], partitionBy: 'toYYYYMM(timestamp)', primaryKey: 'service' },
      columns: cols,
    },
    fieldMappings: fieldMappings(cols.map((c) => String(c['name']))),
    settings: streamingSettings,
    createdAt: '-200d',
    updatedAt: '-12d',
  };
}

export function prodPipes(): JsonObject[] {
  const logCols = columns(['timestamp', 'DateTime64(3)'], ['host', 'String'], ['message', 'String']);
  const clickCols = columns(['timestamp', 'DateTime64(3)'], ['session_id', 'String'], ['url', 'String']);
  const auditCols = columns(['timestamp', 'DateTime64(3)'], ['actor', 'String'], ['action', 'String']);
  return [
    kafkaPipe('c0ffee00-1a2b-4c3d-8e4f-5a6b7c8d9e01', 'events-from-kafka', 'Running', 2, 'events'),
    {
      id: 'c0ffee00-1a2b-4c3d-8e4f-5a6b7c8d9e02',
      name: 'logs-from-s3',
      state: 'Failed',
      scaling: { replicas: 1, concurrency: 2 },
      source: {
        objectStorage: {
          type: 's3',
          format: 'JSONEachRow',
          url: 'https://example-app-logs.s3.eu-west-1.amazonaws.com/app/**/*.ndjson.gz',
          compression: 'auto',
          isContinuous: true,
          queueUrl: 'https://sqs.eu-west-1.amazonaws.com/123456789012/example-app-logs',
          authentication: 'CONNECTION_STRING',
          connectionString: `DefaultEndpointsProtocol=https;AccountName=example;AccountKey=${FAKE_SECRET_MARKER}-not-a-real-key;EndpointSuffix=example.invalid`,
        },
      },
      destination: { database: 'default', table: 'app_logs', managedTable: true, columns: logCols },
      fieldMappings: fieldMappings(['timestamp', 'host', 'message']),
      settings: {
        object_storage_concurrency: 2,
        object_storage_polling_interval_ms: 30000,
        object_storage_max_insert_bytes: 10737418240,
        object_storage_max_file_count: 100,
        object_storage_use_cluster_function: false,
      },
      createdAt: '-150d',
      updatedAt: '-2d',
    },
    {
      id: 'c0ffee00-1a2b-4c3d-8e4f-5a6b7c8d9e03',
      name: 'clicks-from-kinesis',
      state: 'Running',
      scaling: { replicas: 1, replicaCpuMillicores: 250, replicaMemoryGb: 1 },
      source: {
        kinesis: {
          format: 'JSONEachRow',
          streamName: 'clicks',
          region: 'eu-west-1',
          useEnhancedFanOut: false,
          iteratorType: 'AT_TIMESTAMP',
          timestamp: 1735689600,
          authentication: 'IAM_ROLE',
          iamRole: 'arn:aws:iam::123456789012:role/example-clickpipes-kinesis-reader',
        },
      },
      destination: { database: 'default', table: 'clicks', managedTable: true, columns: clickCols },
      fieldMappings: fieldMappings(['timestamp', 'session_id', 'url']),
      settings: streamingSettings,
      createdAt: '-120d',
      updatedAt: '-40d',
    },
    {
      id: 'c0ffee00-1a2b-4c3d-8e4f-5a6b7c8d9e04',
      name: 'orders-cdc',
      state: 'Snapshot',
      source: {
        postgres: {
          type: 'postgres',
          host: 'orders-db.example.internal',
          port: 5432,
          database: 'orders',
          authentication: 'basic',
          caCertificate: FAKE_CERT,
          settings: {
            syncIntervalSeconds: 60,
            pullBatchSize: 100000,
            publicationName: 'clickpipes_orders',
            replicationSlotName: 'clickpipes_orders_slot',
            allowNullableColumns: true,
            initialLoadParallelism: 4,
            snapshotNumRowsPerPartition: 100000,
            snapshotNumberOfParallelTables: 2,
            enableFailoverSlots: false,
          },
          tableMappings: [
            {
              sourceSchemaName: 'public',
              sourceTable: 'orders',
              targetTable: 'public_orders',
              excludedColumns: [],
              useCustomSortingKey: false,
              sortingKeys: [],
            },
            {
              sourceSchemaName: 'public',
              sourceTable: 'order_items',
              targetTable: 'public_order_items',
              excludedColumns: ['internal_note'],
              useCustomSortingKey: true,
              sortingKeys: ['order_id', 'item_id'],
            },
          ],
        },
      },
      destination: { database: 'orders' },
      createdAt: '-3d',
      updatedAt: '-1h',
    },
    {
      id: 'c0ffee00-1a2b-4c3d-8e4f-5a6b7c8d9e05',
      name: 'audit-from-gcs',
      state: 'Stopped',
      scaling: { replicas: 1, concurrency: 1 },
      source: {
        objectStorage: {
          type: 'gcs',
          format: 'JSONEachRow',
          url: 'https://storage.googleapis.com/example-audit-logs/**/*.json',
          compression: 'gzip',
          isContinuous: false,
        },
      },
      destination: { database: 'default', table: 'audit', managedTable: true, columns: auditCols },
      fieldMappings: fieldMappings(['timestamp', 'actor', 'action']),
      createdAt: '-300d',
      updatedAt: '-60d',
    },
  ];
}

export function stagingPipes(): JsonObject[] {
  const events = kafkaPipe('c0ffee00-1a2b-4c3d-8e4f-5a6b7c8d9e11', 'events-from-kafka', 'Running', 1, 'events', {
    brokers: 'b-1.kafka-staging.example.internal:9098',
    reversePrivateEndpointIds: [ENDPOINT_IDS['kafka-staging']],
  });
  return [
    events,
    {
      id: 'c0ffee00-1a2b-4c3d-8e4f-5a6b7c8d9e12',
      name: 'clicks-from-kinesis',
      state: 'Paused',
      scaling: { replicas: 1, replicaCpuMillicores: 125, replicaMemoryGb: 0.5 },
      source: {
        kinesis: {
          format: 'JSONEachRow',
          streamName: 'clicks-staging',
          region: 'eu-west-1',
          useEnhancedFanOut: false,
          iteratorType: 'LATEST',
          authentication: 'IAM_ROLE',
          iamRole: 'arn:aws:iam::123456789012:role/example-clickpipes-kinesis-reader',
        },
      },
      destination: { database: 'default', table: 'clicks', managedTable: true, columns: columns(['timestamp', 'DateTime64(3)'], ['session_id', 'String']) },
      fieldMappings: fieldMappings(['timestamp', 'session_id']),
      settings: streamingSettings,
      createdAt: '-60d',
      updatedAt: '-5d',
    },
  ];
}

export function mskEndpoint(description: 'msk-prod' | 'msk-analytics', status: string, cluster: string): JsonObject {
  const id = ENDPOINT_IDS[description];
  return {
    id,
    description,
    type: 'MSK_MULTI_VPC',
    mskClusterArn: `arn:aws:kafka:eu-west-1:123456789012:cluster/${cluster}/0a1b2c3d-4e5f-6a7b-8c9d-${id.slice(-12)}`,
    mskAuthentication: 'SASL_IAM',
    endpointId: `vpce-0${id.slice(-12)}abcd`,
    dnsNames: [`${description}.${id.slice(0, 8)}.rpe.example.internal`],
    privateDnsNames: [],
    status,
  };
}
