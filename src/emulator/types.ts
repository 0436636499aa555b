/**
 * The emulator's data model: the objects of seed 000 (observability) and seed 001 (cloud), and the seed-data
 * format that fills them. Only fields the seed documents list are kept for dashboards and alerts; cloud
 * objects are served as the seed data gives them (after relative times are resolved).
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface Series {
  type?: string;
  dataSource?: string;
  aggFn?: string;
  field?: string;
  where?: string;
  whereLanguage?: string;
  groupBy?: string[];
  sourceId?: string;
  metricName?: string;
  metricDataType?: string;
}

export interface Tile {
  id: string;
  name?: string;
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  asRatio?: boolean;
  series?: Series[];
}

export interface Dashboard {
  id: string;
  name: string;
  tiles: Tile[];
  tags: string[];
}

export interface Channel {
  type: string;
  webhookId?: string;
}

export type ThresholdType = 'above' | 'below';
export type AlertSource = 'tile' | 'search';

/** An alert as the service answers it (the dashboard reference is `dashboard`, not `dashboardId`). */
export interface Alert {
  id: string;
  name?: string;
  message?: string;
  threshold?: number;
  interval?: string;
  thresholdType?: ThresholdType;
  source?: AlertSource;
  state: string;
  channel?: Channel;
  team?: string;
  tileId?: string;
  dashboard?: string;
  savedSearch?: string | null;
  groupBy?: string | null;
  silenced?: boolean | null;
  /** ISO 8601 UTC with milliseconds. */
  createdAt: string;
  updatedAt: string;
}

/** One cloud service: its reverse private endpoints, ingest pipes and backups (newest first by convention). */
export interface ServiceState {
  id: string;
  name?: string;
  /** ClickHouse Cloud's Service.state (`running`, `stopped`, `idle`…), served by `GET …/services/{serviceId}`. */
  state: string;
  /** When the service was created (ISO 8601), when the seed says. */
  createdAt?: string;
  reversePrivateEndpoints: JsonObject[];
  pipes: JsonObject[];
  backups: JsonObject[];
}

export interface OrganizationState {
  id: string;
  name?: string;
  services: ServiceState[];
}

/** Everything the emulator holds; `GET /__emulator/state` answers this. */
export interface EmulatorState {
  dashboards: Dashboard[];
  alerts: Alert[];
  organizations: OrganizationState[];
}

/**
 * Seed data (`--data seed.json`, or `startEmulator({ data })`). Every list is optional. Ids of dashboards and
 * tiles may be left out (assigned at start); alert, organization, service, endpoint, pipe and backup ids are
 * required. Time fields (`createdAt`, `updatedAt`, `startedAt`, `finishedAt`) take an ISO 8601 date or a time
 * relative to the emulator's clock at start: `now`, `-36h`, `-1d6h30m`, `+15m` (units d, h, m, s, ms).
 * See docs/emulator.md.
 */
export interface SeedData {
  alerts?: SeedAlert[];
  dashboards?: SeedDashboard[];
  organizations?: SeedOrganization[];
}

export type SeedAlert = Omit<Alert, 'state' | 'createdAt' | 'updatedAt'> & {
  state?: string;
  createdAt?: string;
  updatedAt?: string;
};

export interface SeedDashboard {
  id?: string;
  name: string;
  tiles?: (Omit<Tile, 'id'> & { id?: string })[];
  tags?: string[];
}

export interface SeedOrganization {
  id: string;
  name?: string;
  services?: SeedService[];
}

export interface SeedService {
  id: string;
  name?: string;
  /** Service.state as ClickHouse Cloud names it (default `running`): a stopped or idle service takes no backups. */
  state?: string;
  /** ISO 8601 or a relative time (`-30d`). */
  createdAt?: string;
  reversePrivateEndpoints?: JsonObject[];
  pipes?: JsonObject[];
  backups?: JsonObject[];
}

/** One line of the request log (`GET /__emulator/requests`). Admin requests are not logged. */
export interface RequestLogEntry {
  /** 1, 2, 3... since start or the last reset/clear. */
  seq: number;
  /** When the request arrived, by the emulator's clock (ISO 8601). */
  time: string;
  method: string;
  /** Path without the query string. */
  path: string;
  /** Status sent; 0 when the connection was cut without an answer (drop-after-commit). */
  status: number;
  /** Server time from arrival to the answer being handed to the socket, including injected latency. */
  ms: number;
  /** The scheme of the Authorization header that came with the request. */
  credential: 'bearer' | 'basic' | 'none' | 'other';
  /** Set when an injected fault decided the answer. */
  fault?: 'rate-limit' | 'fail' | 'drop-after-commit';
}
