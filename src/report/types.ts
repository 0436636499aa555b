/**
 * The cloud reads the report needs, and the shapes it reads. The types are structural and tolerant on purpose:
 * real servers send more fields than the contract names, leave optional ones out and add enum values (pipe
 * states, endpoint statuses, source kinds) the contract does not list. Only what the report keys on is
 * required: a pipe's `name`, an endpoint's `description`, a backup's `id`. Anything else may be absent.
 */

import type { ObservedBackup, ObservedEndpoint, ObservedPipe } from '../model/cloud.ts';
import type { MalformedItem } from '../clients/cloud-items.ts';

/** One read's items, and the items the server got wrong (src/clients/cloud-items.ts). */
export interface ReadList<T> {
  items: T[];
  malformed: MalformedItem[];
}

/** An object read on its own (undefined when it had to be left out), and its problems. */
export interface ReadItem<T> {
  item: T | undefined;
  malformed: MalformedItem | undefined;
}

/**
 * The four reads of the cloud management API, each resolving to the envelope's `result`, item by item. The
 * cloud client (`src/clients/cloud.ts`) implements it; tests pass in-memory fakes. Methods reject with an
 * Error (the client's `ApiError`) whose message the report shows.
 */
export interface CloudReader {
  listIngestPipes(organizationId: string, serviceId: string): Promise<ReadList<ObservedPipe>>;
  listReversePrivateEndpoints(organizationId: string, serviceId: string): Promise<ReadList<ObservedEndpoint>>;
  listBackups(organizationId: string, serviceId: string): Promise<ReadList<ObservedBackup>>;
  getBackup(organizationId: string, serviceId: string, backupId: string): Promise<ReadItem<ObservedBackup>>;
  /**
   * The service itself, when the API can read it (profile `clickhouse-cloud`; the seed document has no such
   * read): the report tells a stopped or idle service's old backups from a failing backup schedule.
   */
  getService?(organizationId: string, serviceId: string): Promise<ObservedServiceInfo>;
}

/** What was read of the service itself: its `state` as sent (absent when the answer has none as text). */
export interface ObservedServiceInfo {
  state?: string;
  /** What the answer held at `state` when it was not text. */
  stateSent?: unknown;
}

/** Which read failed. */
export type ReadPart = 'service' | 'pipes' | 'endpoints' | 'backups' | 'newest-backup';

export interface ReadFailure {
  part: ReadPart;
  message: string;
}

/**
 * An item a read returned that breaks the API's schema (a pipe with `replicaCpuMillicores: "500m"`): the
 * others of its list are checked as usual, and this one is reported (`read.malformed-item`). The review of
 * it is incomplete, so the report counts it like a failed read.
 */
export interface MalformedRead {
  part: ReadPart;
  /** 1-based position in the list the server sent; absent for the backup read by id. */
  position?: number;
  /** The pipe's name, the endpoint's description or the backup's id as sent, else an `(unnamed …)` label. */
  name: string;
  /** The server's id, when it sent one as text. */
  id?: string;
  /** One line per problem: `scaling.replicaCpuMillicores: must be number or null, got "500m"`. */
  problems: string[];
  /** Checked without the members at fault (true), or left out of the checks (false). */
  kept: boolean;
}

/**
 * What was read for one service. A list that could not be read is `undefined` (and named in `failures`), so
 * the checks that need it are skipped instead of, say, reporting every pipe missing.
 */
export interface ObservedService {
  /**
   * The service as read (its state); undefined when the API has no such read (seed profile) or the read failed
   * (then `failures` names part `service`).
   */
  service?: ObservedServiceInfo;
  pipes: ObservedPipe[] | undefined;
  endpoints: ObservedEndpoint[] | undefined;
  /** The list, with the newest backup replaced by what `getBackup` returned for it. */
  backups: ObservedBackup[] | undefined;
  /** The id of the backup fetched by id (the newest one), when there was one. */
  newestBackupId?: string;
  failures: ReadFailure[];
  /** Items the server got wrong, in read order (pipes, endpoints, backups, the newest backup) and position. */
  malformed: MalformedRead[];
}

export type Severity = 'error' | 'warning' | 'info';

/** Every finding id. Ids are stable: scripts and dashboards may key on them. */
export type FindingId =
  | 'read.failed'
  | 'read.malformed-item'
  | 'service.state'
  | 'backup.paused'
  | 'backup.stale'
  | 'backup.too-few'
  | 'backup.slow'
  | 'backup.size-jump'
  | 'backup.failed'
  | 'backup.in-progress'
  | 'backup.unknown-status'
  | 'pipe.missing'
  | 'pipe.state'
  | 'pipe.in-progress'
  | 'pipe.field-drift'
  | 'pipe.unlisted'
  | 'pipe.duplicate-name'
  | 'pipe.unknown-source-kind'
  | 'endpoint.missing'
  | 'endpoint.status'
  | 'endpoint.unlisted'
  | 'endpoint.duplicate-description';

/** What a finding is about. */
export interface FindingObject {
  kind: 'service' | 'backup' | 'pipe' | 'endpoint';
  /** Pipe name, endpoint description, backup id, or the service's metadata.name. */
  name: string;
  /** The server's id, when known. */
  id?: string;
}

/** One RFC 6902 operation (fast-json-patch's `Operation`, kept structural so the report stays plain data). */
export interface PatchOperation {
  op: string;
  path: string;
  value?: unknown;
  from?: string;
}

export interface Finding {
  id: FindingId;
  severity: Severity;
  object: FindingObject;
  /** What the files (or the defaults) expect; absent when nothing was declared. */
  expected?: unknown;
  /** What the server reports; `null` when it reports nothing. */
  actual?: unknown;
  /** For `pipe.field-drift`: the JSON Patch that turns the live subset into the declared one. */
  patch?: PatchOperation[];
  /** One line for people. */
  message: string;
}

/** One backup as the charts and tables need it. */
export interface BackupSummary {
  id: string;
  status: 'done' | 'error' | 'in_progress' | 'unknown';
  startedAt?: string;
  finishedAt?: string;
  sizeInBytes?: number;
  durationSeconds?: number;
  type?: string;
}

export interface BackupLimits {
  maxAgeHours?: number;
  minCount?: number;
  maxDurationMinutes?: number;
  maxSizeChangePercent?: number;
}

export interface PipeSummary {
  name: string;
  id?: string;
  state?: string;
  /** The source members present (kafka, objectStorage, …), sorted. */
  sourceKinds: string[];
  /** Whether a file lists this pipe. */
  listed: boolean;
}

export interface EndpointSummary {
  description: string;
  id?: string;
  type?: string;
  status?: string;
  listed: boolean;
}

export interface ServiceReport {
  /** The CloudService's metadata.name. */
  name: string;
  organizationId: string;
  serviceId: string;
  /** Sorted by severity (error first), then object kind, object name and finding id. */
  findings: Finding[];
  /** Oldest first (by startedAt). Empty when the list could not be read. */
  backups: BackupSummary[];
  /** The file's backup expectations (drawn as limits on the charts); `{}` when none are declared. */
  backupLimits: BackupLimits;
  /** Sorted by name. */
  pipes: PipeSummary[];
  /** Sorted by description. */
  endpoints: EndpointSummary[];
  /**
   * The service's state as read (`running`, `stopped`, `idle`…); absent when the API has no such read (seed
   * profile) or the read failed (a `read.failed` finding with name `service`).
   */
  state?: string;
  /** The reads that failed; the report on this service is incomplete when this is not empty. */
  readFailures: ReadFailure[];
  /** Items the server got wrong; the review of each is incomplete (a `read.malformed-item` finding each). */
  malformedItems: MalformedRead[];
}

export interface SeverityCounts {
  error: number;
  warning: number;
  info: number;
}

/**
 * The report as a value: versioned, deterministic (services sorted by name, findings sorted), JSON-safe.
 * Renderers only turn it into text.
 */
export interface Report {
  formatVersion: 1;
  generatedAt: string;
  services: ServiceReport[];
  summary: SeverityCounts & { services: number; readFailures: number; malformedItems: number };
}
