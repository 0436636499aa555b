/* eslint-disable */
/**
 * GENERATED from the JSON Schemas in schemas/api/ by scripts/gen-api-types.ts: do not edit by hand.
 * Regenerate with `npm run generate`; test/clients/api-types.test.ts checks
 * that this file matches the schemas.
 */

// observability/live-dashboard.schema.json

/**
 * A dashboard as the observability API returns it (GET /api/v2/dashboards, GET /api/v2/dashboards/{id}, POST /api/v2/dashboards). Tolerant reader: unknown members are accepted and kept, only what steward cannot work without is required, and newer server shapes (tiles with `config` instead of `series`, `filters`, `containers`...) pass.
 */
export interface LiveDashboard {
  /**
   * Assigned by the service.
   */
  id: string;
  /**
   * The dashboard's identity for steward (matched against spec.name).
   */
  name: string;
  tiles?: LiveTile[];
  tags?: string[];
  [k: string]: unknown;
}
/**
 * A tile of a live dashboard. Servers since 2026-08 describe the chart in `config` (kept as is) and may omit `series`.
 *
 * This interface was referenced by `LiveDashboard`'s JSON-Schema
 * via the `definition` "LiveTile".
 */
export interface LiveTile {
  /**
   * Assigned by the service; alerts refer to it.
   */
  id: string;
  name?: string;
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  asRatio?: boolean | null;
  series?: LiveSeries[];
  /**
   * Chart configuration of newer servers (displayType, sourceId, select...), replacing series.
   */
  config?: {
    [k: string]: unknown;
  };
  [k: string]: unknown;
}
/**
 * One data series of a tile. Every member is optional: which are present depends on the series type and the server version (alias, level, numberFormat, sortOrder, displayType, fields and content: HyperDX 2026-01-30, which answers series).
 *
 * This interface was referenced by `LiveDashboard`'s JSON-Schema
 * via the `definition` "LiveSeries".
 */
export interface LiveSeries {
  type?: string;
  dataSource?: string;
  sourceId?: string;
  aggFn?: string;
  field?: string | null;
  where?: string;
  whereLanguage?: string;
  groupBy?: string[];
  metricName?: string | null;
  metricDataType?: string | null;
  alias?: string | null;
  level?: number | null;
  numberFormat?: {
    [k: string]: unknown;
  } | null;
  sortOrder?: string | null;
  displayType?: string | null;
  fields?: string[];
  content?: string | null;
  [k: string]: unknown;
}

// observability/live-alert.schema.json

/**
 * An alert as the observability API returns it (PUT /api/v2/alerts/{id}). Tolerant reader: enumerations are read as plain strings (newer servers add threshold types, states and sources), members the real servers send as null accept null, and unknown members (channels, thresholdMax, note, executionErrors...) are kept.
 */
export interface LiveAlert {
  id: string;
  name?: string | null;
  message?: string | null;
  threshold?: number;
  interval?: string;
  /**
   * above and below in the contract; newer servers add more.
   */
  thresholdType?: string;
  /**
   * tile or search in the contract; newer servers say saved_search.
   */
  source?: string;
  state?: string;
  channel?: LiveAlertChannel | null;
  channels?: LiveAlertChannel[];
  team?: string | null;
  teamId?: string | null;
  tileId?: string | null;
  /**
   * The dashboard id (named dashboardId in the update request).
   */
  dashboard?: string | null;
  /**
   * Newer servers name the dashboard id like the request does.
   */
  dashboardId?: string | null;
  savedSearch?: string | null;
  savedSearchId?: string | null;
  groupBy?: string | null;
  /**
   * A boolean in the contract; newer servers send {by, at, until} or null.
   */
  silenced?:
    | boolean
    | {
        [k: string]: unknown;
      }
    | null;
  createdAt?: string | null;
  updatedAt?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `LiveAlert`'s JSON-Schema
 * via the `definition` "LiveAlertChannel".
 */
export interface LiveAlertChannel {
  type?: string;
  webhookId?: string | null;
  /**
   * ClickStack: the webhook's service (slack_api...).
   */
  webhookService?: string | null;
  /**
   * ClickStack: the channel a Slack API webhook posts to.
   */
  slackChannelId?: string | null;
  /**
   * ClickStack: a PagerDuty API webhook's severity (critical, error, warning, info; read as any string).
   */
  severity?: string | null;
  /**
   * ClickStack: an email channel's recipients.
   */
  emailRecipients?: string[] | null;
  [k: string]: unknown;
}

// observability/dashboard-create.schema.json

/**
 * The body steward sends to POST /api/v2/dashboards, exactly as the contract describes it. Steward owns this shape, so it is closed (no unknown members).
 */
export interface DashboardCreate {
  name: string;
  tiles?: TileCreate[];
  tags?: string[];
}
/**
 * A tile in a create request: no id (the service assigns one).
 *
 * This interface was referenced by `DashboardCreate`'s JSON-Schema
 * via the `definition` "TileCreate".
 */
export interface TileCreate {
  name: string;
  x: number;
  y: number;
  w: number;
  h: number;
  asRatio?: boolean;
  series?: SeriesCreate[];
}
/**
 * This interface was referenced by `DashboardCreate`'s JSON-Schema
 * via the `definition` "SeriesCreate".
 */
export interface SeriesCreate {
  type?: string;
  dataSource?: string;
  sourceId?: string;
  aggFn?: string;
  field?: string;
  where?: string;
  whereLanguage?: string;
  groupBy?: string[];
  metricName?: string;
  metricDataType?: string;
}

// observability/alert-update.schema.json

/**
 * The body steward sends to PUT /api/v2/alerts/{id} (and POST /alerts where the service creates alerts). The seed contract lists above/below, tile/search and one channel; HyperDX 2026-08 adds threshold types, saved_search, savedSearchId, thresholdMax and the complete channels list. Closed: steward owns it.
 */
export interface AlertUpdate {
  name?: string;
  message?: string;
  threshold?: number;
  thresholdMax?: number;
  interval?: string;
  thresholdType?:
    'above' | 'below' | 'above_exclusive' | 'below_or_equal' | 'equal' | 'not_equal' | 'between' | 'not_between';
  source?: 'tile' | 'search' | 'saved_search';
  dashboardId?: string;
  tileId?: string;
  savedSearchId?: string;
  channel?: AlertChannel;
  channels?: AlertChannel[];
  /**
   * Free text on the server; steward writes its marker here (hyperdx, clickstack-cloud) to know which alerts it owns.
   */
  note?: string;
  groupBy?: string;
  numConsecutiveWindows?: number;
  scheduleOffsetMinutes?: number;
  /**
   * null clears the anchor: HyperDX keeps one an update leaves out.
   */
  scheduleStartAt?: string | null;
}
/**
 * A webhook channel (webhookId; ClickStack adds webhookService, slackChannelId and severity) or a ClickStack email channel (emailRecipients), as ClickHouse Cloud's ClickStackAlertChannel (2026-07-31) has them.
 *
 * This interface was referenced by `AlertUpdate`'s JSON-Schema
 * via the `definition` "AlertChannel".
 */
export interface AlertChannel {
  type: string;
  webhookId?: string;
  webhookService?: string;
  slackChannelId?: string;
  severity?: 'critical' | 'error' | 'warning' | 'info';
  emailRecipients?: string[];
}

// cloud/ingest-pipe.schema.json

export type PostgresSettings = {
  syncIntervalSeconds?: number | null;
  pullBatchSize?: number | null;
  publicationName?: string | null;
  replicationSlotName?: string | null;
  allowNullableColumns?: boolean | null;
  initialLoadParallelism?: number | null;
  snapshotNumRowsPerPartition?: number | null;
  snapshotNumberOfParallelTables?: number | null;
  enableFailoverSlots?: boolean | null;
  [k: string]: unknown;
} | null;

/**
 * An ingest pipe as the cloud API returns it (GET .../ingestpipes, the envelope's result items). Tolerant reader: state is a plain string (servers add states such as Degraded), source may hold kinds the contract does not name (pubsub, mysql, bigquery, mongodb: kept as they are), optional members may be null, unknown members are kept. Credential members (connectionString, caCertificate, schemaRegistry) are read like any other; redacting them is the report's job.
 */
export interface IngestPipe {
  id: string;
  serviceId?: string;
  name: string;
  state?: string;
  scaling?: IngestPipeScaling | null;
  source?: IngestPipeSource;
  destination?: IngestPipeDestination;
  fieldMappings?: IngestPipeFieldMapping[] | null;
  settings?: IngestPipeSettings | null;
  createdAt?: string | null;
  updatedAt?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "IngestPipeScaling".
 */
export interface IngestPipeScaling {
  replicas?: number | null;
  concurrency?: number | null;
  replicaCpuMillicores?: number | null;
  replicaMemoryGb?: number | null;
  [k: string]: unknown;
}
/**
 * One or more of the source kinds; kinds not listed here are accepted and kept.
 *
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "IngestPipeSource".
 */
export interface IngestPipeSource {
  kafka?: KafkaSource | null;
  objectStorage?: ObjectStorageSource | null;
  kinesis?: KinesisSource | null;
  postgres?: PostgresSource | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "KafkaSource".
 */
export interface KafkaSource {
  type?: string;
  format?: string;
  brokers?: string;
  topics?: string;
  consumerGroup?: string | null;
  authentication?: string | null;
  iamRole?: string | null;
  offset?: KafkaOffset | null;
  schemaRegistry?: KafkaSchemaRegistry | null;
  caCertificate?: string | null;
  reversePrivateEndpointIds?: string[] | null;
  [k: string]: unknown;
}
export interface KafkaOffset {
  strategy?: string;
  timestamp?: string | null;
  [k: string]: unknown;
}
export interface KafkaSchemaRegistry {
  url?: string;
  authentication?: string | null;
  caCertificate?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "ObjectStorageSource".
 */
export interface ObjectStorageSource {
  type?: string;
  format?: string;
  url?: string | null;
  delimiter?: string | null;
  compression?: string | null;
  isContinuous?: boolean | null;
  queueUrl?: string | null;
  iamRole?: string | null;
  connectionString?: string | null;
  path?: string | null;
  azureContainerName?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "KinesisSource".
 */
export interface KinesisSource {
  streamName?: string;
  region?: string;
  useEnhancedFanOut?: boolean | null;
  timestamp?: number | null;
  iamRole?: string | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "PostgresSource".
 */
export interface PostgresSource {
  host?: string;
  port?: number;
  database?: string;
  settings?: PostgresSettings;
  tableMappings?: PostgresTableMapping[] | null;
  [k: string]: unknown;
}
export interface PostgresTableMapping {
  sourceSchemaName?: string;
  sourceTable?: string;
  targetTable?: string;
  excludedColumns?: string[] | null;
  useCustomSortingKey?: boolean | null;
  sortingKeys?: string[] | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "IngestPipeDestination".
 */
export interface IngestPipeDestination {
  database?: string;
  table?: string | null;
  managedTable?: boolean | null;
  tableDefinition?: IngestPipeTableDefinition | null;
  columns?: IngestPipeColumn[] | null;
  [k: string]: unknown;
}
export interface IngestPipeTableDefinition {
  engine?: IngestPipeTableEngine;
  sortingKey?: string[] | null;
  partitionBy?: string | null;
  primaryKey?: string | null;
  [k: string]: unknown;
}
export interface IngestPipeTableEngine {
  type?: string;
  versionColumnId?: string | null;
  columnIds?: string[] | null;
  [k: string]: unknown;
}
export interface IngestPipeColumn {
  name?: string;
  type?: string;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "IngestPipeFieldMapping".
 */
export interface IngestPipeFieldMapping {
  sourceField?: string;
  destinationField?: string;
  [k: string]: unknown;
}
/**
 * Pipe settings; all numbers unless stated. The real server names several of them clickhouse_* instead of engine_*: those are kept as unknown members.
 *
 * This interface was referenced by `IngestPipe`'s JSON-Schema
 * via the `definition` "IngestPipeSettings".
 */
export interface IngestPipeSettings {
  streaming_max_insert_wait_ms?: number | null;
  object_storage_concurrency?: number | null;
  object_storage_polling_interval_ms?: number | null;
  object_storage_max_insert_bytes?: number | null;
  object_storage_max_file_count?: number | null;
  engine_max_threads?: number | null;
  engine_max_insert_threads?: number | null;
  engine_min_insert_block_size_bytes?: number | null;
  engine_max_download_threads?: number | null;
  engine_parallel_distributed_insert_select?: number | null;
  object_storage_use_cluster_function?: boolean | null;
  engine_parallel_view_processing?: boolean | null;
  [k: string]: unknown;
}

// cloud/reverse-private-endpoint.schema.json

/**
 * A reverse private endpoint as the cloud API returns it (GET .../ingestpipesReversePrivateEndpoints, the envelope's result items). Tolerant reader: type, status and mskAuthentication are plain strings (the real server has more values than the contract names), optional identifiers may be null, unknown members are kept.
 */
export interface ReversePrivateEndpoint {
  id: string;
  serviceId?: string;
  description?: string | null;
  type?: string;
  vpcEndpointServiceName?: string | null;
  vpcResourceConfigurationId?: string | null;
  vpcResourceShareArn?: string | null;
  mskClusterArn?: string | null;
  mskAuthentication?: string | null;
  endpointId?: string | null;
  dnsNames?: string[];
  privateDnsNames?: string[];
  status?: string;
  [k: string]: unknown;
}

// cloud/backup.schema.json

/**
 * A backup as the cloud API returns it (GET .../backups and .../backups/{backupId}, the envelope's result). Tolerant reader: a backup still running has no finishedAt; status and type are kept when the server sends them; unknown members are kept. Timestamps must be RFC 3339 date-times because the report computes ages and durations from them.
 */
export interface Backup {
  id: string;
  serviceId?: string;
  /**
   * done, error or in_progress on the real server; not in the contract.
   */
  status?: string;
  /**
   * full or incremental on the real server; not in the contract.
   */
  type?: string;
  startedAt?: string;
  /**
   * Absent (or null) while the backup runs.
   */
  finishedAt?: string | null;
  sizeInBytes?: number | null;
  durationInSeconds?: number | null;
  backupName?: string | null;
  bucket?: BackupBucket | null;
  [k: string]: unknown;
}
/**
 * This interface was referenced by `Backup`'s JSON-Schema
 * via the `definition` "BackupBucket".
 */
export interface BackupBucket {
  bucketProvider?: string;
  bucketPath?: string;
  iamRoleArn?: string;
  iamRoleSessionName?: string;
  [k: string]: unknown;
}
