/**
 * The apply workflow: a saved plan (checked against its binding, the files and live state, then run as
 * reviewed) or a fresh plan (shown, confirmed, run), under the state file's lock. It renders nothing: the
 * command passes how to lock, how to confirm and where events go, and prints the result.
 */
import { setMaxListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { DEFAULT_APPLY_CONCURRENCY, type ApplyEvent, type ApplyResult } from '../apply/types.ts';
import type { Project } from '../config/project.ts';
import { CliError, UsageError } from '../errors.ts';
import type { Plan } from '../plan/types.ts';
import type { WorkflowDeps } from './deps.ts';
import { createRedactor } from '../clients/redact.ts';
import { maxOf } from '../shared/arrays.ts';
import { makePlan, type PlanOptions } from './plan.ts';

/** How long requests in flight may take to finish after Ctrl-C before they are abandoned. */
const REQUEST_GRACE_MS = 10_000;

export interface ApplyOptions {
  /** A plan saved by `steward plan --out`: its path (relative to cwd) as the user typed it. */
  planFile?: string | undefined;
  config?: string | undefined;
  /** The environment overlay (--env). */
  env?: string | undefined;
  concurrency?: number | undefined;
  reassertAlerts: boolean;
  target?: string[] | undefined;
  prune?: boolean | undefined;
  /** --allow-empty: prune deletes even when no file declares any of the kind. */
  allowEmpty?: boolean | undefined;
  /** --no-cache: parse every file and read the live list whole, as plan --no-cache does. */
  cache?: boolean | undefined;
  /** --settle, in ms: the least wait before the lists that decide whether an unknown create is sent again. */
  settleMs?: number | undefined;
}

export interface ApplyDeps extends WorkflowDeps {
  /** Takes the lock beside the state file (one apply at a time); released here, whatever happens. */
  lock(statePath: string): Promise<{ release(): void; tookOverFrom?: { since: string } | undefined }>;
  /** A fresh plan, once made (before anything is written): the command shows it. */
  planned?(plan: Plan): Promise<void> | void;
  /**
   * Asked before a fresh plan with changes is run; throws to cancel. Never asked for a saved plan. Resolves
   * 'asked' when a person was asked (and time passed): the live state is then read again before any write.
   */
  confirm(plan: Plan): Promise<'asked' | void>;
  /** Each step of the run, as it happens. */
  emit(event: ApplyEvent): void;
  /** What went wrong after the writes and did not change their outcome (a plan not recorded as applied). */
  warn(text: string): void;
  /** Alerts steward applied whose files are gone (found while planning). */
  alertsLeft?(gone: ReadonlyArray<{ id: string; name: string; appliedAt: string }>): void;
}

export interface ApplyOutcome {
  result: ApplyResult;
  /** False when a fresh plan had nothing to do (nothing was asked, nothing written). */
  ran: boolean;
}

export async function makeApply(deps: ApplyDeps, options: ApplyOptions): Promise<ApplyOutcome> {
  if (options.concurrency !== undefined && (!Number.isInteger(options.concurrency) || options.concurrency < 1 || options.concurrency > 64)) {
    throw new UsageError('--concurrency must be a whole number from 1 to 64');
  }
  // A saved plan runs as it was made: these would change it, and were ignored (--prune, --allow-empty) or
  // named together whichever was given.
  const shaping = [
    options.reassertAlerts && '--reassert-alerts',
    options.target !== undefined && options.target.length > 0 && '--target',
    options.prune !== undefined && (options.prune ? '--prune' : '--no-prune'),
    options.allowEmpty && '--allow-empty',
  ].filter((f): f is string => typeof f === 'string');
  if (options.planFile && shaping.length > 0) {
    const these = shaping.length === 1 ? `${shaping[0]} shapes` : `${shaping.join(', ')} shape`;
    throw new UsageError(`${these} a new plan; with a saved plan, pass ${shaping.length === 1 ? 'it' : 'them'} to \`steward plan\``);
  }
  const saved = options.planFile
    ? await (await import('../apply/plan-file.ts')).readPlanFile(resolve(deps.cwd, options.planFile), options.planFile)
    : undefined;
  const [{ nodeFileSystem }, { findProjectFile, loadProject }] = await Promise.all([import('../config/fs.ts'), import('../config/project.ts')]);
  const file = findProjectFile(nodeFileSystem, deps.cwd, options.config);
  if (!file)
    throw new CliError(
      `no steward.yaml in ${deps.cwd} or any folder above it: ${saved ? 'run apply in the project that made the plan, or pass --config' : 'run steward in your project, or pass --config path/to/steward.yaml'}`,
      { code: 'config' },
    );
  const project = loadProject(nodeFileSystem, file, deps.env, options.env ?? saved?.env);
  if (saved && (saved.env ?? undefined) !== (project.envName ?? undefined)) {
    throw new UsageError(`the plan was made for ${saved.env ? `--env ${saved.env}` : 'no --env'}, not ${options.env ? `--env ${options.env}` : 'no --env'}`);
  }
  // A connection that cannot be made (a variable not set): nothing can be applied, so no lock is taken (nor
  // waited for behind another run). Without a saved plan, the plan says what is wrong, as `steward plan` does
  // (the files' problems first), and writes nothing.
  const { resolveObservability } = await import('../config/connection.ts');
  let url: string;
  try {
    url = resolveObservability(project, deps.env).url;
  } catch (error) {
    if (!saved) await makePlan(deps, freshPlanOptions(options));
    throw error;
  }
  if (saved) {
    // Bound to what produced it: its own digest, the project, the environment and the server.
    const { checkBinding, bindingFile, bindingServer, projectName } = await import('../apply/plan-file.ts');
    checkBinding(saved, {
      project: await projectName(project.file),
      file: bindingFile(project.file),
      ...(project.envName ? { env: project.envName } : {}),
      server: bindingServer(url),
    });
  }
  // One apply at a time per state file: taken before planning, so a second apply plans after the first.
  const lock = await deps.lock(project.statePath);
  try {
    return await applyLocked(deps, options, project, saved, lock.tookOverFrom?.since);
  } finally {
    lock.release();
  }
}

/** What every plan of this apply is made with (a saved plan adds its own binding's options). */
function sharedPlanOptions(options: ApplyOptions) {
  return { config: options.config, concurrency: options.concurrency, reassertAlerts: options.reassertAlerts, cache: options.cache };
}

/** The plan an apply without a saved plan makes: the command's own narrowing and pruning. */
function freshPlanOptions(options: ApplyOptions): PlanOptions {
  return { ...sharedPlanOptions(options), env: options.env, target: options.target, prune: options.prune, allowEmpty: options.allowEmpty, paths: [] };
}

async function applyLocked(
  deps: ApplyDeps,
  options: ApplyOptions,
  loadedProject: Project,
  saved: Plan | undefined,
  killedSince?: string,
): Promise<ApplyOutcome> {
  const [
    { applyPlan, emptyResult },
    { openJournal },
    { readState, writeState, checkStateWritable },
    { resolveObservability },
    { nodeFileSystem },
    { refuseLinkedStateFolders },
  ] = await Promise.all([
    import('../apply/apply.ts'),
    import('../apply/journal.ts'),
    import('../apply/state.ts'),
    import('../config/connection.ts'),
    import('../config/fs.ts'),
    import('../config/project.ts'),
  ]);
  // Ctrl-C while planning stops at once; while applying it stops new requests, and those in flight get
  // REQUEST_GRACE_MS to finish (then they are abandoned, their outcome unknown) so the summary can say
  // what happened to each.
  const outer = deps.signal;
  const requests = new AbortController();
  // Every queued request waits on this signal (the client's rate limiter): not a leak.
  setMaxListeners(0, requests.signal);
  let applying = false;
  const onStop = () => {
    if (!applying) requests.abort(outer.reason);
    else setTimeout(() => requests.abort(outer.reason), REQUEST_GRACE_MS).unref?.();
  };
  outer.addEventListener('abort', onStop, { once: true });
  const inner: WorkflowDeps = { ...deps, signal: requests.signal, connect: (p) => deps.connect(p, requests.signal) };
  const plan = async (o: PlanOptions) => {
    const made = await makePlan(inner, o);
    if (made.alertsLeft.length > 0) deps.alertsLeft?.(made.alertsLeft);
    return made;
  };
  const planOptions = sharedPlanOptions(options);

  const runId = randomUUID();
  try {
    if (killedSince !== undefined) await settleKilledCreates(deps, loadedProject, killedSince, options.settleMs);
    let planned: Plan;
    let made;
    /** A person was asked: what was live when the plan was made is not taken as live now. */
    let asked = false;
    if (saved) {
      // Refused before any write: a plan applied already, a plan the files and live state no longer give.
      const { firstDifference, PlanMismatchError } = await import('../apply/plan-file.ts');
      const { StalePlanError } = await import('../apply/apply.ts');
      const before = readState(loadedProject.statePath).appliedPlans?.find((p) => p.digest === saved.digest);
      if (before) throw new PlanMismatchError(`this plan was applied already (${before.at}); make a new one with \`steward plan --out\``);
      const o = saved.binding!.options;
      made = await plan({
        ...planOptions,
        env: saved.env,
        target: o.targets,
        paths: o.paths.map((p) => resolve(loadedProject.dir, p)),
        prune: o.prune,
        allowEmpty: o.allowEmpty ?? false,
        reassertAlerts: o.reassertAlerts,
        idSeed: saved.binding!.idSeed,
      });
      const { fingerprintHolds } = await import('../plan/fingerprint.ts');
      if (!fingerprintHolds(saved.fingerprint, made.plan.fingerprint, made.live, made.state, made.liveAlerts))
        throw new StalePlanError(`live dashboards or alert records changed since it was made (${saved.createdAt})`);
      const diff = firstDifference(saved.items, made.plan.items);
      if (diff !== undefined) throw new PlanMismatchError(`plan does not match the files: ${diff}; make it again with \`steward plan --out\``);
      // A plan saved by an earlier version holds under its own formula; the apply checks the current one.
      planned = { ...saved, fingerprint: made.plan.fingerprint };
    } else {
      const fresh = () => plan(freshPlanOptions(options));
      made = await fresh();
      // The run whose lock this one took over was killed: it may have left a copy its check would have removed.
      if (killedSince !== undefined && (await finishKilledRun(made, killedSince, runId, deps.warn)) > 0) made = await fresh();
      planned = made.plan;
      await deps.planned?.(planned);
      if (planned.summary.create + planned.summary.update + (planned.summary.delete ?? 0) === 0)
        return { result: emptyResult(planned, made.state), ran: false };
      asked = (await deps.confirm(planned)) === 'asked';
    }
    const { project, deps: services } = made;
    const connection = resolveObservability(project, deps.env);
    const settleMs = Math.max(connection.timeoutMs, options.settleMs ?? 0);
    // What loadProject refused, again: the folders may have become links since (refuseLinkedStateFolders).
    refuseLinkedStateFolders(nodeFileSystem, project);
    const state = readState(project.statePath);
    checkStateWritable(project.statePath);
    // Secret values are never written into the state file (writeState), which is committed after apply, nor
    // into the journal, which CI keeps as an artifact.
    const redact = createRedactor(services.secrets(), { patterns: false });
    const journal = openJournal(project.journalPath, { redact });
    const concurrency = options.concurrency ?? project.concurrency ?? DEFAULT_APPLY_CONCURRENCY;
    try {
      const client = services.observability();
      applying = true;
      if (outer.aborted) onStop();
      const result = await runChecked(asked, planned, () =>
        applyPlan(
          {
            client,
            journal,
            saveState: (s) => {
              refuseLinkedStateFolders(nodeFileSystem, project);
              writeState(project.statePath, s, redact);
            },
            now: () => services.clock.now(),
            signal: outer,
            emit: deps.emit,
          },
          planned,
          state,
          {
            concurrency,
            runId,
            settleMs,
            removeOwnDuplicates: client.profile.capabilities.deleteDashboard,
            // After a prompt, applyPlan lists again and refuses the plan if what it was made from changed (a
            // dashboard of a name it creates made meanwhile would otherwise end as two of the name).
            ...(made.live && !asked ? { freshLive: made.live, ...(made.liveDigest ? { freshLiveDigest: made.liveDigest } : {}) } : {}),
            ...(made.liveAlerts && !asked ? { freshAlerts: made.liveAlerts } : {}),
          },
        ),
      );
      if (saved && result.created.length + result.updated.length + result.deleted.length + result.notRecorded.length > 0) {
        // A saved plan that changed something is never applied again: its digest goes into the state (the
        // lock keeps a second apply of it waiting until then; a plan that changed nothing may be retried).
        try {
          refuseLinkedStateFolders(nodeFileSystem, project);
          writeState(
            project.statePath,
            {
              ...result.state,
              appliedPlans: [...(result.state.appliedPlans ?? []), { digest: saved.digest!, at: services.clock.now().toISOString() }],
            },
            redact,
          );
        } catch (e) {
          deps.warn(`${e instanceof Error ? e.message : String(e)}; this plan is not recorded as applied`);
        }
      }
      return { result, ran: true };
    } finally {
      journal.close();
    }
  } finally {
    applying = false;
    outer.removeEventListener('abort', onStop);
  }
}

/** Runs `apply`; after a prompt, a stale plan is refused in the words of what happened (nothing was written). */
async function runChecked<T>(asked: boolean, plan: Plan, apply: () => Promise<T>): Promise<T> {
  try {
    return await apply();
  } catch (e) {
    const { StalePlanError } = await import('../apply/apply.ts');
    if (!asked || !(e instanceof StalePlanError)) throw e;
    throw new StalePlanError(
      `live dashboards or alert records changed while apply waited for "yes" (the plan was made ${plan.createdAt}); nothing was changed`,
    );
  }
}

/**
 * Waits, before anything is listed, for the creates a killed apply sent and never learned the outcome of
 * (journal `send` lines since its lock with no confirmed create of the name): the service may still commit
 * one after its client is gone, and a plan made before that commit creates the name again, two of it (for
 * good where the API has no delete). The killed run would have waited a settle window after losing each
 * answer before listing (createOnce); this waits the same from when it can have lost it at the latest: the
 * send's request timeout, or now. The window is the request timeout, or --settle when longer.
 */
async function settleKilledCreates(deps: ApplyDeps, project: Project, since: string, settleFlagMs: number | undefined): Promise<void> {
  const [{ readJournalText }, { parseJournal, confirmedEntries }, { resolveObservability }, { timerSleep }] = await Promise.all([
    import('../apply/leftover.ts'),
    import('../apply/journal.ts'),
    import('../config/connection.ts'),
    import('../apply/create.ts'),
  ]);
  const from = Date.parse(since);
  if (Number.isNaN(from)) return;
  const after = parseJournal(readJournalText(project.journalPath)).filter((e) => Date.parse(e.at) >= from);
  const settled = new Set(confirmedEntries(after).flatMap((e) => (e.op.endsWith('.create') ? [`${e.op.slice(0, -7)}/${e.name}`] : [])));
  const unsettled = after.filter((e) => e.op.endsWith('.send') && !settled.has(`${e.op.slice(0, -5)}/${e.name}`));
  if (unsettled.length === 0) return;
  const { timeoutMs } = resolveObservability(project, deps.env);
  const settleMs = Math.max(timeoutMs, settleFlagMs ?? 0);
  const now = deps.connect(project).clock.now().getTime();
  // A line's time is the killed run's clock, written in a committed file: never more than one window ahead.
  const until = maxOf(unsettled.map((e) => Math.min(Date.parse(e.at) + timeoutMs, now) + settleMs).filter(Number.isFinite));
  const waitMs = Math.min(until - now, timeoutMs + settleMs);
  if (!(waitMs > 0)) return;
  const n = unsettled.length;
  deps.warn(
    `waiting ${Math.ceil(waitMs / 1000)} s before planning: the killed run sent ${n} create${n === 1 ? '' : 's'} whose outcome it never learned (${unsettled
      .slice(0, 3)
      .map((e) => `${e.op.slice(0, -5)} ${e.name}`)
      .join(', ')}${n > 3 ? ', …' : ''}), which the service may still make; a plan made sooner would create ${n === 1 ? 'it' : 'them'} again`,
  );
  await timerSleep(waitMs, deps.signal);
  if (deps.signal.aborted) throw deps.signal.reason;
}

/**
 * Removes the copies a killed apply made and did not remove (src/apply/leftover.ts), from its journal entries
 * since its lock; only where the service deletes dashboards. How many were removed.
 */
async function finishKilledRun(made: Awaited<ReturnType<typeof makePlan>>, since: string, runId: string, say: (text: string) => void): Promise<number> {
  const client = made.deps.observability();
  const caps = client.profile.capabilities;
  if (!caps.deleteDashboard) return 0;
  const { readJournalText, removeLeftovers } = await import('../apply/leftover.ts');
  const { openJournal, parseJournal } = await import('../apply/journal.ts');
  const [{ nodeFileSystem }, { refuseLinkedStateFolders }] = await Promise.all([import('../config/fs.ts'), import('../config/project.ts')]);
  // As before the run's own journal is opened: .steward may have become a link since the project was loaded.
  refuseLinkedStateFolders(nodeFileSystem, made.project);
  const entries = parseJournal(readJournalText(made.project.journalPath));
  const pinned = new Set(made.plan.items.flatMap((i) => (typeof i.id === 'string' ? [i.id] : [])));
  // The killed run made nothing nor sent a create: nothing to list.
  if (!entries.some((e) => (e.op.endsWith('.create') || e.op.endsWith('.send')) && Date.parse(e.at) >= Date.parse(since))) return 0;
  const journal = openJournal(made.project.journalPath, { redact: createRedactor(made.deps.secrets(), { patterns: false }) });
  try {
    return await removeLeftovers(client, {
      alerts: caps.readAlerts && caps.deleteAlert,
      entries,
      since,
      marker: made.project.markerTag,
      pinned,
      journal,
      runId,
      now: () => made.deps.clock.now(),
      say,
    });
  } finally {
    journal.close();
  }
}
