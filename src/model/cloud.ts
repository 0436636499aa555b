/**
 * The cloud objects the drift report reads (ingest pipes, reverse private endpoints, backups), derived from
 * the generated API types (src/clients/api-types.ts, from schemas/api/cloud/). What the report's checks see
 * is the API's object without any `null` (a real server sends null where the contract says absent; the
 * cloud client reads it as absent, src/clients/cloud-items.ts) and with the member the report keys on (a
 * label when the server left it out, src/report/read.ts).
 */
import type { Backup, IngestPipe, ReversePrivateEndpoint } from '../clients/api-types.ts';

export type { Backup, IngestPipe, ReversePrivateEndpoint } from '../clients/api-types.ts';

/** T with every `null`, at any depth, read as absent. */
export type WithoutNulls<T> = T extends readonly (infer U)[]
  ? WithoutNulls<Exclude<U, null>>[]
  : T extends object
    ? { [K in keyof T]: WithoutNulls<Exclude<T[K], null>> }
    : T;

/** An API object as the report reads it: nulls dropped, every member optional but the one it keys on. */
type Observed<T extends object, Key extends keyof T> = { [K in keyof T]?: WithoutNulls<Exclude<T[K], null>> } & {
  [K in Key]-?: WithoutNulls<Exclude<T[K], null | undefined>>;
};

/** An ingest pipe (ClickPipe), keyed by name. `source` holds one member per kind: kafka, objectStorage, kinesis, postgres… */
export type ObservedPipe = Observed<IngestPipe, 'name'>;
/** A reverse private endpoint, keyed by description. */
export type ObservedEndpoint = Observed<ReversePrivateEndpoint, 'description'>;
/**
 * A backup, keyed by id. The real API adds `status` (`done`, `error`, `in_progress`) and leaves `finishedAt` out
 * until the backup finishes; while it runs, `durationInSeconds` is the time since it started.
 */
export type ObservedBackup = Observed<Backup, 'id'>;

/**
 * Every ClickPipe state ClickHouse Cloud names (ClickPipe.state, 2026-07-31 OpenAPI; 2026-04-14 lacks Degraded),
 * plus Starting and Resuming, which a server may send. The report reads any other state as one steward does not
 * know; validate warns at a declared state outside this list (a typo would differ from every pipe).
 */
export const PIPE_STATES: readonly string[] = [
  'Unknown',
  'Provisioning',
  'Running',
  'Degraded',
  'Stopping',
  'Stopped',
  'Failed',
  'Completed',
  'InternalError',
  'Setup',
  'Snapshot',
  'Paused',
  'Pausing',
  'Modifying',
  'Resync',
  'Starting',
  'Resuming',
];

/** Every reverse private endpoint status ClickHouse Cloud names (ReversePrivateEndpoint.status, both spec versions). */
export const ENDPOINT_STATUSES: readonly string[] = ['Unknown', 'Provisioning', 'Deleting', 'Ready', 'Failed', 'PendingAcceptance', 'Rejected', 'Expired'];
