/** apply's interfaces: the client it writes with, its events, dependencies, options and result. */
import type { AlertUpdate, LiveAlert } from '../model/alert.ts';
import type { DashboardCreate, LiveDashboard } from '../model/dashboard.ts';
import { CliError } from '../errors.ts';
import type { Plan, PlanItem, StateFile } from '../plan/types.ts';
import type { Journal } from './journal.ts';

/**
 * Default requests in flight during apply, chosen from bench/apply.ts (bench/README.md, Apply). At the
 * service's 100 requests a minute the rate sets the time whatever the concurrency (200 creates: 0.99 of the
 * rate bound at 1 and at 4), and 4 keeps up with it until a create takes 2.4 s. Without a rate limit 4 still
 * runs at about 0.8 of the latency bound (median of 7 runs); 8 and above fall off (0.13-0.84: the journal's
 * synchronous fdatasync serializes) and, when the server's window fills, more of what is under way is
 * refused (429s at twice the server's rate: 0 at 1, 3-6 at 4, 15-30 at 16). The client's own default
 * (DEFAULT_CONCURRENCY in src/clients/http.ts) is 4 too, and caps this one unless --concurrency or
 * spec.concurrency is set.
 */
export const DEFAULT_APPLY_CONCURRENCY = 4;

/** 0 when every item of the plan was done; 130 interrupted; 1 anything failed or unknown; 3 blocked items left. */
export function applyExitCode(r: ApplyResult): number {
  if (r.interrupted) return 130;
  if (applyProblems(r) > 0) return 1;
  if (r.blocked > 0) return 3;
  return 0;
}

/** Items that did not end as planned (failed, skipped, unknown, duplicated, not recorded, not done, renamed): each makes the run exit 1. */
export function applyProblems(r: ApplyResult): number {
  return r.failed.length + r.skipped.length + r.unknown.length + r.duplicates.length + r.notRecorded.length + r.notDone.length + r.renamed.length;
}

/** The writes apply makes; the observability client implements it. */
export interface ApplyClient {
  listDashboards(opts?: { signal?: AbortSignal }): Promise<LiveDashboard[]>;
  createDashboard(body: DashboardCreate, opts?: { signal?: AbortSignal }): Promise<LiveDashboard>;
  updateAlert(id: string, body: AlertUpdate, opts?: { signal?: AbortSignal }): Promise<LiveAlert>;
  /** Profiles that can (plans for the seed API never hold dashboard updates or deletes). */
  updateDashboard?(id: string, body: DashboardCreate, opts?: { signal?: AbortSignal }): Promise<LiveDashboard>;
  deleteDashboard?(id: string, opts?: { signal?: AbortSignal }): Promise<void>;
  listAlerts?(opts?: { signal?: AbortSignal }): Promise<LiveAlert[]>;
  createAlert?(body: AlertUpdate, opts?: { signal?: AbortSignal }): Promise<LiveAlert>;
  deleteAlert?(id: string, opts?: { signal?: AbortSignal }): Promise<void>;
}

/** What happened, item by item, for progress and the summary (Grizzly's events recorder, in spirit). */
export type ApplyEvent =
  | { type: 'start'; total: number }
  | { type: 'item-start'; item: PlanItem; done: number; total: number }
  | { type: 'created'; item: PlanItem; id: string; recovered: boolean }
  | { type: 'updated'; item: PlanItem }
  | { type: 'deleted'; item: PlanItem }
  | { type: 'failed'; item: PlanItem; error: string }
  | { type: 'skipped'; item: PlanItem; reason: string }
  | { type: 'retry-create'; item: PlanItem; why: string }
  /** A create whose outcome is unknown: steward waits `waitMs` before listing, so a late commit shows. */
  | { type: 'settle'; item: PlanItem; why: string; waitMs: number }
  /** A create answered 2xx whose body did not say the new id: found by listing. */
  | { type: 'id-by-listing'; item: PlanItem; id: string; after?: 'rate-limited' }
  /** Outcome unknown and not sent again (the create may exist): the run ends with exit 1. */
  | { type: 'unknown'; item: PlanItem; why: string }
  /**
   * After the creates a name has more than one dashboard: another runner created it too, or someone made one
   * without this project's marker since the plan (`unmanaged`: never removed nor bound to).
   */
  | { type: 'duplicate'; kind?: 'Alert'; name: string; ids: string[]; removed?: string; unmanaged?: string[] }
  /** Applied on the service, but the state file could not be written. */
  | { type: 'not-recorded'; item: PlanItem; error: string }
  /** A create refused with 429 and a wait: nothing was created; it is sent again once the wait is over. */
  | { type: 'create-rate-limited'; item: PlanItem; why: string; waitMs: number };

export interface ApplyDeps {
  client: ApplyClient;
  journal: Journal;
  /** Loads nothing, writes the state file (atomically); called as records change and at the end. */
  saveState(state: StateFile): void;
  now(): Date;
  emit(event: ApplyEvent): void;
  /**
   * Aborted to stop (Ctrl-C): no new request starts, settle waits end; requests in flight finish (the
   * client's own signal decides whether they are abandoned).
   */
  signal?: AbortSignal;
  /** Waits (settle windows); ends early when `signal` aborts. Default: a timer. */
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface ApplyOptions {
  concurrency: number;
  /** Identifies this run in the journal. */
  runId: string;
  /** The live list the plan was just computed from (plan-then-apply); skips the staleness re-read. */
  freshLive?: LiveDashboard[];
  /** The live digest of `freshLive` (src/plan/fingerprint.ts), when the caller has it: spares hashing the list again. */
  freshLiveDigest?: string;
  /** The live alerts the plan was just computed from (plan-then-apply, profiles that read alerts). */
  freshAlerts?: LiveAlert[];
  /** How many times a create is sent in all (default 2: once, and once more after a settled, empty list). */
  maxCreateAttempts?: number;
  /**
   * After a create whose outcome is unknown, how long to wait before each of the two lists that decide
   * whether to send it again: at least the request timeout, so a commit the server was still making shows.
   */
  settleMs?: number;
  /** Remove the copy this run created when a name has more than one dashboard (profiles that can delete). */
  removeOwnDuplicates?: boolean;
}

export interface ApplyResult {
  created: Array<{ name: string; id: string }>;
  updated: Array<{ name: string; id: string }>;
  /** Dashboards deleted (prune). */
  deleted: Array<{ name: string; id: string }>;
  failed: Array<{ kind: string; name: string; error: string }>;
  skipped: Array<{ kind: string; name: string; reason: string }>;
  /** Writes whose outcome stayed unknown (not sent again): they may or may not have been applied. */
  unknown: Array<{ kind: string; name: string; error: string }>;
  /**
   * Names with more than one dashboard after the creates; `removed` is this run's copy where deleted;
   * `unmanaged` the ones without this project's marker (made by someone else since the plan, left alone).
   */
  duplicates: Array<{ kind?: 'Alert'; name: string; ids: string[]; removed?: string; kept?: string; cleared?: string[]; unmanaged?: string[] }>;
  /** Applied on the service, not recorded in the state file (it could not be written). */
  notRecorded: Array<{ kind: string; name: string; id: string; error: string }>;
  /**
   * Made or updated by this run under another name than the one sent (a server or gateway that trims or
   * rewrites names): a create listed so afterwards, which the next plan would not find by name and would make
   * again; an update (of a dashboard pinned by metadata.id) answered so, which the next plan would send again.
   */
  renamed: Array<{ kind: 'Dashboard' | 'Alert'; action: 'create' | 'update'; name: string; id: string; sent: string; stored: string }>;
  /** Items not started because the run was interrupted, or the service asked to wait (heldOff). */
  notDone: Array<{ kind: string; name: string }>;
  interrupted: boolean;
  /** The service answered 429 asking for a wait steward does not follow: no write started after it. */
  heldOff?: { waitMs: number };
  unchanged: number;
  blocked: number;
  state: StateFile;
}

/** The result of an apply that had nothing to do. */
export function emptyResult(plan: Plan, state: StateFile): ApplyResult {
  return {
    created: [],
    updated: [],
    deleted: [],
    failed: [],
    skipped: [],
    unknown: [],
    duplicates: [],
    notRecorded: [],
    renamed: [],
    notDone: [],
    interrupted: false,
    unchanged: plan.summary.noop,
    blocked: plan.summary.blocked,
    state,
  };
}

export class StalePlanError extends CliError {
  constructor(detail: string) {
    super(`plan is stale: ${detail}; run \`steward plan\` again`, { code: 'stale-plan' });
  }
}
