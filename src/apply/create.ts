/** Creates that are never sent twice blindly: settle windows, listing after unknown outcomes, 429 re-sends. */
import { alikeName } from '../shared/alike-name.ts';
import { ApiError, ApiTransportError, NotFoundError, RateLimitedError } from '../clients/errors.ts';
import type { LiveAlert } from '../model/alert.ts';
import type { LiveDashboard } from '../model/dashboard.ts';
import { CliError } from '../errors.ts';
import type { AlertBody } from '../model/alert.ts';
import type { ItemOf, PlanItem } from '../plan/types.ts';
import type { ApplyDeps } from './types.ts';
import { oldestFirst } from './oldest.ts';

/** The service answered 2xx (the write was applied) but the body was not what was expected. */
export function answered2xx(e: unknown): boolean {
  return e instanceof ApiError && e.status !== undefined && e.status >= 200 && e.status < 300;
}

/**
 * A DELETE that failed only in name: the service answered 2xx with a body not as expected, or a retry was
 * answered 404 because an earlier try, whose answer was lost (a 502 from a gateway, a dropped connection),
 * deleted it. A 404 on the first try means someone else did: that is still reported.
 */
export function deletedAnyway(e: unknown): boolean {
  return answered2xx(e) || (e instanceof NotFoundError && e.attempts > 1);
}

export function isAbort(e: unknown): boolean {
  return (e instanceof ApiTransportError && e.failure === 'aborted') || (e instanceof CliError && e.exitCode === 130);
}

/** The request timeout the client uses by default (src/config/connection.ts): the least settle window. */
export const DEFAULT_SETTLE_MS = 30_000;

export type CreateOutcome =
  { kind: 'created'; dashboard: LiveDashboard; recovered: boolean } | { kind: 'unknown'; why: string; heldOffMs?: number } | { kind: 'failed'; error: string };

/**
 * POST is not idempotent. A 2xx is applied whatever its body: never sent again (when the body does not say
 * the new id, it is found by listing). After an unknown outcome (timeout, reset, 5xx after sending) the
 * server may still be committing, so steward waits a settle window (at least the request timeout) before
 * each of two lists, and sends again only when both lack the name; otherwise the outcome stays unknown.
 */
export async function createOnce(
  deps: ApplyDeps,
  item: ItemOf<'Dashboard', 'create'>,
  o: { maxAttempts: number; settleMs: number; marker: string; alike?: Alike | undefined },
): Promise<CreateOutcome> {
  const body = item.body;
  const sleep = deps.sleep ?? timerSleep;
  let refusals = 0;
  for (let attempt = 1; ; attempt++) {
    let e: unknown;
    let applied = false;
    try {
      const dashboard = await deps.client.createDashboard(body, {});
      if (dashboard && typeof dashboard.id === 'string') return { kind: 'created', dashboard, recovered: false };
      e = new CliError('the response did not say the new id');
      applied = true;
    } catch (err) {
      e = err;
      applied = answered2xx(err);
    }
    if (isRateLimitRefusal(e) && refusals < MAX_RATE_LIMIT_RESENDS && !deps.signal?.aborted) {
      // A 429 says the server refused it unprocessed, but a gateway that limits on the way back says 429
      // for a create that was made: after the wait, a list by name decides before anything is sent again.
      attempt--;
      const settled = await waitThenList(deps, item, e, refusals++, () => adoptNamed(deps, item, o, 'answered 429'));
      if (settled) return settled;
      if (deps.signal?.aborted) return { kind: 'unknown', why: `answered 429 (${errorLine(e)}); interrupted, not re-sent` };
      continue;
    }
    if (e instanceof RateLimitedError && e.status === 429 && !e.outcomeUnknown && !deps.signal?.aborted) {
      // A 429 steward does not follow (the sixth, or a wait over a minute) is not "failed": a gateway may
      // have refused it after the service made it (red team round 9, F8). Where a list may be sent, it says.
      const settled = waitable(e) ? await waitThenList(deps, item, e, refusals, () => adoptNamed(deps, item, o, 'answered 429')) : undefined;
      return settled ?? { kind: 'unknown', why: rateLimitGivenUp(e, refusals), ...askedWait(e) };
    }
    if (applied) {
      // Applied: the server said so. Find it by name (one list: a 2xx is a commit, nothing to wait for).
      try {
        const adopted = await adoptNamed(deps, item, o, 'answered 2xx without its id');
        if (adopted) return adopted;
        return {
          kind: 'unknown',
          why: `answered 2xx (applied) without its id (${errorLine(e)}), and no dashboard named "${body.name}" with this project's marker is listed; not re-sent`,
        };
      } catch (le) {
        return { kind: 'unknown', why: `answered 2xx (applied) without its id, and listing failed: ${errorLine(le)}; not re-sent` };
      }
    }
    if (!(e instanceof ApiError) || !e.outcomeUnknown) return { kind: 'failed', error: errorLine(e) };
    const why = errorLine(e);
    if (deps.signal?.aborted) return { kind: 'unknown', why: `${why}; interrupted before it could be checked, not re-sent` };
    // Outcome unknown: settle, then two reads without the name before any re-send.
    deps.emit({ type: 'settle', item, why, waitMs: o.settleMs });
    try {
      let absent = 0;
      for (let read = 0; read < 2; read++) {
        await sleep(o.settleMs, deps.signal);
        if (deps.signal?.aborted) return { kind: 'unknown', why: `${why}; interrupted while waiting for it to settle, not re-sent` };
        const found = await listNamed(deps, body.name, o.marker, o.alike);
        // More than one (another runner's, or a late commit of this run's): the oldest is the one that stays;
        // the check after the creates removes the later ones (this run may have made one of them).
        if (found.length >= 1) return { kind: 'created', dashboard: found[0]!, recovered: true };
        absent++;
      }
      if (absent < 2 || attempt >= o.maxAttempts) return { kind: 'unknown', why: `outcome unknown, not re-sent (${why})` };
      deps.emit({ type: 'retry-create', item, why });
    } catch (le) {
      return { kind: 'unknown', why: `outcome unknown, not re-sent (${why}; listing to check failed: ${errorLine(le)})` };
    }
  }
}

/** The dashboard named as the item is that may be this create, adopted (the oldest when more are); undefined when none is. */
async function adoptNamed(
  deps: ApplyDeps,
  item: ItemOf<'Dashboard', 'create'>,
  o: { marker: string; alike?: Alike | undefined },
  answered: string,
): Promise<CreateOutcome | undefined> {
  const found = await listNamed(deps, item.body.name, o.marker, o.alike);
  // More than one: the oldest stays (as after an unknown outcome); the check after the creates removes the rest.
  if (found.length >= 1) {
    deps.emit({ type: 'id-by-listing', item, id: found[0]!.id, ...(answered.includes('429') ? { after: 'rate-limited' as const } : {}) });
    return { kind: 'created', dashboard: found[0]!, recovered: true };
  }
  return undefined;
}

/**
 * Where a create may be listed under a name alike its own (a server or gateway that trims, collapses spaces,
 * normalizes or folds case): the ids listed before this apply's creates (`seen`), none of which is this
 * create. Left out for a create whose name is alike another create's of the same plan: which one a listed
 * name is could not be told.
 */
export interface Alike {
  seen: ReadonlySet<string>;
}

/**
 * The listed dashboards of `name` that may be this run's (or, made at the same time, another runner's of this
 * project): those that carry the marker, or whose tags are not listed. One whose tags lack it was made by
 * someone else (a person, another tool) since the plan: never taken for this create (it was adopted, and its
 * alerts bound to it). With `alike` and none of the very name: those listed under a name alike it that were
 * not listed before the creates, so that a create stored under another name is not sent again after an unknown
 * outcome (the check after the creates reports the name it was stored under).
 */
export async function listNamed(deps: ApplyDeps, name: string, marker: string, alike?: Alike): Promise<LiveDashboard[]> {
  const live = await deps.client.listDashboards({});
  const tagsListed = listsTags(live);
  const named = live.filter((d) => d.name === name && mayBeOurs(d, marker, tagsListed));
  if (named.length > 0 || !alike) return oldestFirst(named);
  const key = alikeName(name);
  return oldestFirst(live.filter((d) => !alike.seen.has(d.id) && typeof d.name === 'string' && alikeName(d.name) === key && mayBeOurs(d, marker, tagsListed)));
}

/**
 * Whether a listed dashboard may be this project's: its tags hold the marker, or its tags are not listed and
 * the list shows no tags at all (`tagsListed` false: a server whose list leaves them out). Where the list shows
 * tags for others, one without them has none (a server that leaves out an empty array): a dashboard made with
 * no tags in the UI was taken for this run's, and this run removed its own and bound its alerts to it (red team).
 */
export function mayBeOurs(d: LiveDashboard, marker: string, tagsListed: boolean): boolean {
  return Array.isArray(d.tags) ? d.tags.includes(marker) : !tagsListed;
}

/** Whether a dashboard list shows tags (any dashboard of it has a tags array). */
export function listsTags(live: readonly LiveDashboard[]): boolean {
  return live.some((d) => Array.isArray(d.tags));
}

export function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * An alert create, like a dashboard create, is never sent twice blindly: after an unknown outcome steward
 * waits the settle window, lists the alerts and adopts the one with the name; none found is "outcome
 * unknown, not re-sent". A 2xx is applied whatever its body: its id is found by listing. A 429 with a wait
 * created nothing: sent again after the wait, as a dashboard create is.
 */
export async function createAlertOnce(
  deps: ApplyDeps,
  item: PlanItem,
  body: AlertBody,
  settleMs: number,
): Promise<{ kind: 'created'; alert: LiveAlert; recovered: boolean } | { kind: 'unknown'; why: string; heldOffMs?: number }> {
  if (!deps.client.createAlert) throw new CliError('this service cannot create alerts');
  for (let refusals = 0; ; refusals++) {
    try {
      const alert = await deps.client.createAlert(body, {});
      if (alert && typeof alert.id === 'string') return { kind: 'created', alert, recovered: false };
      throw new CliError('the response did not say the new id');
    } catch (e) {
      // As for a dashboard: a 429 from a gateway may follow a create that was made; the list decides.
      const adopt = async () => {
        if (!deps.client.listAlerts) return undefined;
        const alert = await adoptAlertNamed(deps, body);
        return alert && { kind: 'created' as const, alert, recovered: true };
      };
      if (isRateLimitRefusal(e) && refusals < MAX_RATE_LIMIT_RESENDS && !deps.signal?.aborted) {
        const settled = await waitThenList(deps, item, e, refusals, adopt);
        if (settled) return settled;
        if (deps.signal?.aborted) return { kind: 'unknown', why: `answered 429 (${errorLine(e)}); interrupted, not re-sent` };
        continue;
      }
      if (e instanceof RateLimitedError && e.status === 429 && !e.outcomeUnknown && !deps.signal?.aborted) {
        // As for a dashboard: a 429 steward does not follow may still have been made.
        const settled = deps.client.listAlerts && waitable(e) ? await waitThenList(deps, item, e, refusals, adopt) : undefined;
        return settled ?? { kind: 'unknown', why: rateLimitGivenUp(e, refusals), ...askedWait(e) };
      }
      return await afterAlertCreateFailed(deps, body, settleMs, e);
    }
  }
}

async function afterAlertCreateFailed(
  deps: ApplyDeps,
  body: AlertBody,
  settleMs: number,
  e: unknown,
): Promise<{ kind: 'created'; alert: LiveAlert; recovered: boolean } | { kind: 'unknown'; why: string }> {
  const applied = answered2xx(e) || (e instanceof CliError && !(e instanceof ApiError));
  if (!applied && (!(e instanceof ApiError) || !e.outcomeUnknown)) throw e;
  if (!deps.client.listAlerts) return { kind: 'unknown', why: `outcome unknown, not re-sent (${errorLine(e)}; this service cannot list alerts)` };
  // Ctrl-C: no new request starts, not even the list that would check it (it was "not done", red team: drops).
  if (deps.signal?.aborted) return { kind: 'unknown', why: `${errorLine(e)}; interrupted before it could be checked, not re-sent` };
  if (!applied) await (deps.sleep ?? timerSleep)(settleMs, deps.signal);
  if (deps.signal?.aborted) return { kind: 'unknown', why: `${errorLine(e)}; interrupted while waiting for it to settle, not re-sent` };
  let adopted: LiveAlert | undefined;
  try {
    adopted = await adoptAlertNamed(deps, body);
  } catch (le) {
    // A failed list leaves the create unknown, as for a dashboard: it was "failed" with the list's error
    // though it may exist.
    if (le instanceof CliError && !(le instanceof ApiError)) throw le;
    return { kind: 'unknown', why: `outcome unknown, not re-sent (${errorLine(e)}; listing to check failed: ${errorLine(le)})` };
  }
  if (adopted) return { kind: 'created', alert: adopted, recovered: true };
  return {
    kind: 'unknown',
    why: `outcome unknown, not re-sent (${errorLine(e)}; no alert named "${body.name}"${body.note !== undefined ? " with this project's marker" : ''} is listed: run steward plan to check)`,
  };
}

/**
 * The alert of this name to adopt: the oldest (src/apply/oldest.ts) that may be this run's (mayBeOurAlert), which stays when
 * there are more (another runner's, or a late commit of this run's: the check after the creates removes the
 * later ones); undefined when none is.
 */
async function adoptAlertNamed(deps: ApplyDeps, body: AlertBody): Promise<LiveAlert | undefined> {
  return oldestFirst((await deps.client.listAlerts!({})).filter((a) => a.name === body.name && mayBeOurAlert(a, body.note)))[0];
}

/**
 * Whether a listed alert may be this run's (or another runner's of this project): its note is the marker sent
 * (`note`; where none is sent, any). One with another note, or none, was made by someone else since the plan
 * (in the UI, by another tool): never taken for this create. Alerts are read by their note as orphans are.
 */
export function mayBeOurAlert(a: LiveAlert, note: string | undefined): boolean {
  return note === undefined || (a as { note?: unknown }).note === note;
}

/** Creates refused with 429 that are sent again, per dashboard, before it counts as failed. */
export const MAX_RATE_LIMIT_RESENDS = 5;
/** The longest server wait a re-send follows: the client's own retry cap (DEFAULT_RETRY.maxDelayMs). */
export const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/** A 429 answered to a create, with a wait steward will follow (or none: then its own backoff). */
export function isRateLimitRefusal(e: unknown): e is RateLimitedError {
  return e instanceof RateLimitedError && e.status === 429 && !e.outcomeUnknown && (e.retryAfterMs === undefined || e.retryAfterMs <= MAX_RATE_LIMIT_WAIT_MS);
}

/** The first backoff after a 429 without a wait (ClickHouse Cloud's window is 10 s); doubled each time. */
const RATE_LIMIT_BACKOFF_MS = 1_000;

/**
 * Waits out a 429 before the list that decides on a re-send: the client already holds every request until
 * a server's own wait is over, so only a 429 without one is waited here, 1, 2, 4, 8, 16 s.
 */
async function rateLimitWait(deps: ApplyDeps, e: RateLimitedError, refusals: number, say: (waitMs: number) => void): Promise<void> {
  const ms = e.retryAfterMs ?? RATE_LIMIT_BACKOFF_MS * 2 ** refusals;
  say(ms);
  if (e.retryAfterMs === undefined) await (deps.sleep ?? timerSleep)(ms, deps.signal);
}

/** A 429 whose wait steward follows (none given, or a minute at most). */
const waitable = (e: RateLimitedError) => e.retryAfterMs === undefined || e.retryAfterMs <= MAX_RATE_LIMIT_WAIT_MS;

/**
 * After a 429: the wait (Ctrl-C ends it: then nothing more is sent), then `list` by name. What it found, or
 * the outcome that ends the create (interrupted, the list failed); undefined when nothing of the name is
 * listed. An error of steward's own (not the service's) from the list is thrown.
 */
async function waitThenList<T>(
  deps: ApplyDeps,
  item: PlanItem,
  e: RateLimitedError,
  refusals: number,
  list: () => Promise<T | undefined>,
): Promise<T | { kind: 'unknown'; why: string } | undefined> {
  await rateLimitWait(deps, e, refusals, (waitMs) => deps.emit({ type: 'create-rate-limited', item, why: errorLine(e), waitMs }));
  // Ctrl-C during the wait: no new request starts (docs/apply.md), neither the list nor the re-send.
  if (deps.signal?.aborted) return { kind: 'unknown', why: `answered 429 (${errorLine(e)}); interrupted while waiting, not re-sent` };
  try {
    return await list();
  } catch (le) {
    if (le instanceof CliError && !(le instanceof ApiError)) throw le;
    return { kind: 'unknown', why: `answered 429 (${errorLine(e)}), and listing to check failed: ${errorLine(le)}; not re-sent` };
  }
}

/**
 * A wait the service asked for (429 with Retry-After) that steward does not follow: apply then starts no
 * new write (red team round 10, F2: it sent every other create into an hour's ban).
 */
export function askedWait(e: unknown): { heldOffMs?: number } {
  return e instanceof RateLimitedError && e.status === 429 && e.retryAfterMs !== undefined && e.retryAfterMs > MAX_RATE_LIMIT_WAIT_MS
    ? { heldOffMs: e.retryAfterMs }
    : {};
}

/** Why a create answered 429 is left unknown rather than sent again. */
function rateLimitGivenUp(e: RateLimitedError, refusals: number): string {
  const asked = e.retryAfterMs !== undefined && e.retryAfterMs > MAX_RATE_LIMIT_WAIT_MS;
  const what = asked
    ? `answered 429 asking to wait ${Math.ceil(e.retryAfterMs! / 1000)} s (steward waits at most ${MAX_RATE_LIMIT_WAIT_MS / 1000} s)`
    : `answered 429 ${refusals + 1} times (${errorLine(e)}), and none of its name is listed`;
  return `${what}; not sent again. Most likely not made (a gateway can refuse after the service made it): run steward plan${asked ? ' after the wait' : ''} to see`;
}

export function errorLine(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
