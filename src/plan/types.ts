import type { Operation } from 'fast-json-patch';
import type { AlertBody } from '../model/alert.ts';
import type { DashboardCreate, LiveDashboard } from '../model/dashboard.ts';

/**
 * What the plan reads of a live dashboard: the client's response type (validated, tolerant: unknown members
 * allowed and reported as ignored, never compared).
 */
export type LiveDashboardInput = LiveDashboard;

/** Per alert id: what steward last sent and what the service answered. Written by apply. */
export interface AlertRecord {
  sent: AlertBody;
  appliedAt: string;
}

export interface StateFile {
  formatVersion: 1;
  alerts: Record<string, AlertRecord>;
  /** Digests of the saved plans applied here (the latest ones), so that none is applied twice. */
  appliedPlans?: Array<{ digest: string; at: string }>;
}

export type Action = 'create' | 'update' | 'delete' | 'noop' | 'blocked';
export type BlockedReason = 'no-update-api' | 'ambiguous' | 'orphan' | 'unresolved-reference' | 'other-project' | 'prune-to-empty';

/** Placeholder in a planned alert body for an id the service assigns during this apply. */
export const KNOWN_AFTER_APPLY = '(known after apply)';

export interface TileReference {
  dashboard: string;
  tile: string;
  /** Resolved live ids, or known after apply when the dashboard is created by this plan. */
  dashboardId: string;
  tileId: string;
}

/** What every item may say, whatever its action. */
interface ItemFields {
  /** metadata.name; for orphans, the live dashboard's name. */
  name: string;
  /** Source file relative to the project folder (absent for orphans). */
  file?: string;
  /** One sentence on why, for people. */
  message: string;
  /** Live id: the dashboard matched or the alert updated. */
  id?: string;
  /** Ambiguous matches. */
  candidates?: string[];
  /** Normalized live dashboard, or the alert body last applied. */
  before?: unknown;
  /** Normalized desired dashboard, or the alert body to send. */
  after?: unknown;
  /** RFC 6902 from before to after. */
  patch: Operation[];
  reference?: TileReference;
  /** Alerts in sync: when the body was last applied. */
  inSyncAsOf?: string;
  /**
   * Unchanged (noop) items: the digest of the normalized form both sides share (sha256 of its canonical
   * JSON), in place of before, after and body, which a noop does not need (issue 15: plans without dead
   * weight). Absent where JSON cannot say the form exactly.
   */
  digest?: string;
  /** Live fields normalization left out of the comparison. */
  ignoredFields?: string[];
  /** plan --server-validate: what the service said of the body. */
  serverValidation?: { valid: boolean; errors: string[] };
  /** Manual steps out of a blocked state. */
  wayOut?: string[];
}

/**
 * What each action needs, told apart by `action`: a create sends a body, an update sends a body to an id, a
 * delete names an id and sends nothing, a noop sends nothing, a blocked item says why and the way out.
 * Adding an action is a compile-checked change: every switch over actions must handle it.
 */
type ByAction<Body> =
  | { action: 'create'; body: Body; reason?: undefined }
  | { action: 'update'; id: string; body: Body; reason?: undefined }
  | { action: 'delete'; id: string; body?: undefined; reason?: undefined }
  | { action: 'noop'; body?: undefined; reason?: undefined }
  | { action: 'blocked'; reason: BlockedReason; body?: undefined };

/** A dashboard's item: `body` is what POST (create) or PUT (update) sends. */
export type DashboardItem = ItemFields & { kind: 'Dashboard' } & ByAction<DashboardCreate>;

/** An alert's item: `body` is what POST (create) or PUT (update) sends; tile ids may be KNOWN_AFTER_APPLY. */
export type AlertItem = ItemFields & { kind: 'Alert' } & ByAction<AlertBody>;

/** One line of a plan, told apart by kind and by action, so apply and the renderers read bodies with their real types. */
export type PlanItem = DashboardItem | AlertItem;

/** The items of one kind and action(s): `ItemOf<'Dashboard', 'create'>` has a body, `ItemOf<PlanItem['kind'], 'delete'>` an id. */
export type ItemOf<K extends PlanItem['kind'], A extends PlanItem['action']> = Extract<PlanItem, { kind: K; action: A }>;

/** A live dashboard (marker tag) or alert (marker note) that no file declares, kept (without --prune). */
export interface Orphan {
  kind: 'Dashboard' | 'Alert';
  name: string;
  id: string;
}

export interface Plan {
  formatVersion: 1;
  createdAt: string;
  /** The environment overlay the plan was made for. */
  env?: string;
  /** sha256 of the live dashboards and alert records the plan was computed from. */
  fingerprint: string;
  markerTag: string;
  /** `delete` appears only when the plan deletes something (seed plans keep their old shape). */
  summary: Record<Exclude<Action, 'delete'>, number> & { delete?: number; blockedByReason: Partial<Record<BlockedReason, number>> };
  live: { dashboards: number; managed: number; unmanaged: number };
  /** Whether the plan was narrowed by --target or paths (orphans are then not looked for). */
  targeted: boolean;
  items: PlanItem[];
  /** Every live field left out of the comparison, across dashboards. */
  ignoredFields: string[];
  /** The service's alerts were read and are part of the fingerprint (profiles that read alerts). */
  alertsRead?: true;
  /** The API profile the plan was made for (absent: seed). */
  api?: string;
  /** Orphans the service could delete, kept because prune is off (listed, not blocking). */
  orphans?: Orphan[];
  /** Saved plans: sha256 of the items and the binding; apply refuses a plan whose digest does not match. */
  digest?: string;
  /** Saved plans: what produced the plan (src/apply/plan-file.ts). */
  binding?: PlanBinding;
  /** With --target or paths: how many items the whole project plans (the plan shows "targeted: N of M"). */
  targetedOf?: number;
}

/** What a saved plan is bound to: apply refuses it for another project, environment or server. */
export interface PlanBinding {
  /** metadata.name of the project. */
  project: string;
  /** The project file, relative to the repository root (absolute outside one). */
  file: string;
  env?: string;
  /** The observability API's URL. */
  server: string;
  /** Seed of the ids given to new dashboard filters, so that apply recomputes the same items. */
  idSeed: string;
  /** The options that shaped the plan, so that apply recomputes it the same way. */
  options: { targets: string[]; paths: string[]; prune: boolean; allowEmpty?: true; reassertAlerts: boolean };
}
