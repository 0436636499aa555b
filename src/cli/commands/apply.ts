import { setMaxListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { CliError, UsageError } from '../../errors.ts';
import type { Plan } from '../../plan/types.ts';
import { defineCommand, type CommandContext, type GlobalArgs } from '../context.ts';
import type { Project } from '../../config/project.ts';
import { makePlan, renderPlan } from './plan.ts';
import { LOCK_TIMEOUT_OPTION, takeStateLock } from '../lock.ts';
import { parseDuration } from '../../apply/lock.ts';

interface ApplyArgs {
  plan?: string;
  autoApprove: boolean;
  format: 'text' | 'json';
  concurrency?: number;
  reassertAlerts: boolean;
  target?: string[];
  prune?: boolean;
  lockTimeout?: string;
  settle?: string;
}

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

export const applyCommand = defineCommand<ApplyArgs>({
  command: 'apply [plan]',
  describe:
    'Make the service match the plan (create, update, and with --prune delete, where the service can): run a saved plan, or plan and apply after confirmation',
  builder: (y) =>
    y
      .positional('plan', { type: 'string', describe: 'A plan saved by `steward plan --out` (refused if live state changed since)' })
      .option('auto-approve', {
        type: 'boolean',
        default: false,
        alias: 'yes',
        describe: 'Apply without asking (required when not in a terminal and no plan file is given)',
      })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Summary format' })
      .option('concurrency', { type: 'number', describe: `Requests in flight at once (default ${DEFAULT_APPLY_CONCURRENCY}, or spec.concurrency)` })
      .option('reassert-alerts', { type: 'boolean', default: false, describe: 'Send every alert again, even in sync (without a plan file)' })
      .option('prune', { type: 'boolean', describe: 'Delete orphans (without a plan file; hyperdx, clickstack-cloud; default spec.prune)' })
      .option('target', { type: 'string', array: true, describe: 'Only this resource, as kind/name (without a plan file; repeatable)' })
      .option('lock-timeout', LOCK_TIMEOUT_OPTION)
      .option('settle', {
        type: 'string',
        describe:
          'After a create whose outcome is unknown, wait this long before each of the two lists that decide a re-send (default and least: the request timeout)',
      })
      .example('steward plan --out plan.json && steward apply plan.json', 'Review, then apply exactly what was reviewed')
      .example('steward apply --auto-approve', 'CI on merge: plan afresh and apply'),
  run: async (args, ctx) => {
    if (args.concurrency !== undefined && (!Number.isInteger(args.concurrency) || args.concurrency < 1 || args.concurrency > 64)) {
      throw new UsageError('--concurrency must be a whole number from 1 to 64');
    }
    // Checked before anything is read or planned, so a typo costs nothing.
    if (args.settle !== undefined) parseSettle(args.settle);
    if (args.plan && (args.reassertAlerts || args.target))
      throw new UsageError('--reassert-alerts and --target shape a new plan; with a saved plan, pass them to `steward plan`');
    const saved = args.plan ? await readPlanFile(resolve(ctx.cwd, args.plan), args.plan) : undefined;
    const [{ nodeFileSystem }, { findProjectFile, loadProject }] = await Promise.all([import('../../config/fs.ts'), import('../../config/project.ts')]);
    const file = findProjectFile(nodeFileSystem, ctx.cwd, args.config);
    if (!file)
      throw new CliError(
        `no steward.yaml in ${ctx.cwd} or any folder above it: ${saved ? 'run apply in the project that made the plan, or pass --config' : 'run steward in your project, or pass --config path/to/steward.yaml'}`,
        { code: 'config' },
      );
    const project = loadProject(nodeFileSystem, file, ctx.env, args.env ?? saved?.env);
    if (saved && (saved.env ?? undefined) !== (project.envName ?? undefined)) {
      throw new UsageError(`the plan was made for ${saved.env ? `--env ${saved.env}` : 'no --env'}, not ${args.env ? `--env ${args.env}` : 'no --env'}`);
    }
    if (saved) {
      // Bound to what produced it: its own digest, the project, the environment and the server.
      const [{ checkBinding, bindingFile, projectName }, { resolveObservability }] = await Promise.all([
        import('../../apply/plan-file.ts'),
        import('../../config/connection.ts'),
      ]);
      checkBinding(saved, {
        project: await projectName(project.file),
        file: bindingFile(project.file),
        ...(project.envName ? { env: project.envName } : {}),
        server: resolveObservability(project, ctx.env).url,
      });
    }
    // One apply at a time per state file: taken before planning, so a second apply plans after the first.
    const lock = await takeStateLock(ctx, project.statePath, commandLine(args), args.lockTimeout);
    try {
      return await applyLocked(args, ctx, project, saved);
    } finally {
      lock.release();
    }
  },
});

async function applyLocked(args: ApplyArgs & GlobalArgs, outer: CommandContext, loadedProject: Project, saved: Plan | undefined): Promise<number> {
  const [
    { applyPlan, applyExitCode, emptyResult },
    { openJournal },
    { readState, writeState, checkStateWritable },
    { renderApplyEventLine, renderApplySummary, renderApplyJson, renderProgress },
    { resolveObservability },
  ] = await Promise.all([
    import('../../apply/apply.ts'),
    import('../../apply/journal.ts'),
    import('../../apply/state.ts'),
    import('../../render/apply.ts'),
    import('../../config/connection.ts'),
  ]);
  // Ctrl-C while planning stops at once; while applying it stops new requests, and those in flight get
  // REQUEST_GRACE_MS to finish (then they are abandoned, their outcome unknown) so the summary can say
  // what happened to each.
  const requests = new AbortController();
  // Every queued request waits on this signal (the client's rate limiter): not a leak.
  setMaxListeners(0, requests.signal);
  let applying = false;
  const onStop = () => {
    if (!applying) requests.abort(outer.signal.reason);
    else setTimeout(() => requests.abort(outer.signal.reason), REQUEST_GRACE_MS).unref?.();
  };
  outer.signal.addEventListener('abort', onStop, { once: true });
  const ctx: CommandContext = { ...outer, signal: requests.signal };

  let plan: Plan;
  let project = loadedProject;
  let deps;
  let freshLive;
  let freshAlerts;
  if (saved) {
    // Refused before any write: a plan applied already, a plan the files and live state no longer give.
    const { firstDifference, PlanMismatchError } = await import('../../apply/plan-file.ts');
    const { StalePlanError } = await import('../../apply/apply.ts');
    const before = readState(project.statePath).appliedPlans?.find((p) => p.digest === saved.digest);
    if (before) throw new PlanMismatchError(`this plan was applied already (${before.at}); make a new one with \`steward plan --out\``);
    const o = saved.binding!.options;
    const made = await makePlan(
      {
        ...args,
        env: saved.env,
        target: o.targets,
        paths: o.paths.map((p) => resolve(project.dir, p)),
        prune: o.prune,
        reassertAlerts: o.reassertAlerts,
        idSeed: saved.binding!.idSeed,
      },
      ctx,
    );
    if (made.plan.fingerprint !== saved.fingerprint)
      throw new StalePlanError(`live dashboards or alert records changed since it was made (${saved.createdAt})`);
    const diff = firstDifference(saved.items, made.plan.items);
    if (diff !== undefined) throw new PlanMismatchError(`plan does not match the files: ${diff}; make it again with \`steward plan --out\``);
    plan = saved;
    ({ project, deps } = made);
    freshLive = made.live;
    freshAlerts = made.liveAlerts;
  } else {
    const made = await makePlan({ ...args, paths: [] }, ctx);
    ({ plan, project, deps } = made);
    freshLive = made.live;
    freshAlerts = made.liveAlerts;
    if (args.format === 'text') ctx.io.stdout(await renderPlan(plan, 'text', ctx, { applying: true }));
    if (plan.summary.create + plan.summary.update + (plan.summary.delete ?? 0) === 0) {
      const nothing = emptyResult(plan, made.state);
      if (args.format === 'json') ctx.io.stdout(renderApplyJson(nothing));
      return applyExitCode(nothing);
    }
    await confirm(args, ctx);
  }

  const connection = resolveObservability(project, ctx.env);
  const settleMs = Math.max(connection.timeoutMs, args.settle === undefined ? 0 : parseSettle(args.settle));
  const state = readState(project.statePath);
  checkStateWritable(project.statePath);
  const journal = openJournal(project.journalPath);
  const concurrency = args.concurrency ?? project.concurrency ?? DEFAULT_APPLY_CONCURRENCY;
  let progressShown = false;
  try {
    const client = deps.observability();
    applying = true;
    if (outer.signal.aborted) onStop();
    const result = await applyPlan(
      {
        client,
        journal,
        saveState: (s) => writeState(project.statePath, s),
        now: () => deps.clock.now(),
        signal: outer.signal,
        emit: (e) => {
          if (args.format === 'json') return;
          if (ctx.io.isTTY && e.type === 'item-start') {
            ctx.io.stdout(
              `\r\u001b[K${renderProgress(e.done, e.total, `${e.item.action === 'create' ? 'creating' : e.item.action === 'delete' ? 'deleting' : 'updating'} ${e.item.kind.toLowerCase()} ${e.item.name}`, ctx.columns)}`,
            );
            progressShown = true;
            return;
          }
          const line = renderApplyEventLine(e);
          if (line) ctx.io.stdout((progressShown ? '\r\u001b[K' : '') + line + '\n');
        },
      },
      plan,
      state,
      {
        concurrency,
        runId: randomUUID(),
        settleMs,
        removeOwnDuplicates: client.profile.capabilities.deleteDashboard,
        ...(freshLive ? { freshLive } : {}),
        ...(freshAlerts ? { freshAlerts } : {}),
      },
    );
    if (saved && result.created.length + result.updated.length + result.deleted.length + result.notRecorded.length > 0) {
      // A saved plan that changed something is never applied again: its digest goes into the state (the
      // lock keeps a second apply of it waiting until then; a plan that changed nothing may be retried).
      try {
        writeState(project.statePath, {
          ...result.state,
          appliedPlans: [...(result.state.appliedPlans ?? []), { digest: saved.digest!, at: deps.clock.now().toISOString() }],
        });
      } catch (e) {
        ctx.io.stderr(`steward: ${e instanceof Error ? e.message : String(e)}; this plan is not recorded as applied\n`);
      }
    }
    if (progressShown) ctx.io.stdout('\r\u001b[K');
    ctx.io.stdout(args.format === 'json' ? renderApplyJson(result) : renderApplySummary(result, { color: ctx.color }));
    return applyExitCode(result);
  } catch (e) {
    // The error line starts on a line of its own, never glued to the progress line.
    if (progressShown) ctx.io.stdout('\r\u001b[K');
    throw e;
  } finally {
    applying = false;
    outer.signal.removeEventListener('abort', onStop);
    journal.close();
  }
}

/** How long requests in flight may take to finish after Ctrl-C before they are abandoned. */
const REQUEST_GRACE_MS = 10_000;

const MAX_SETTLE_MS = 3_600_000;

function parseSettle(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new UsageError(`--settle ${text}: write a duration like 30s, 2m or 500ms`);
  if (ms > MAX_SETTLE_MS) throw new UsageError(`--settle ${text}: at most 1h (each unknown outcome waits this long, twice)`);
  return ms;
}

/** The command as people would type it, for the lock file. */
function commandLine(args: ApplyArgs & GlobalArgs): string {
  return ['steward apply', args.plan, args.autoApprove ? '--auto-approve' : undefined, args.env ? `--env ${args.env}` : undefined].filter(Boolean).join(' ');
}

async function confirm(args: ApplyArgs, ctx: CommandContext): Promise<void> {
  if (args.autoApprove) return;
  if (!ctx.io.isTTY || !ctx.io.prompt) {
    throw new UsageError('apply needs --auto-approve when not run in a terminal (or give it a plan file saved by `steward plan --out`)');
  }
  let answer: string;
  try {
    answer = await ctx.io.prompt('Apply these changes? Only "yes" is accepted: ');
  } catch {
    // Ctrl-C or end of input (Ctrl-D) at the prompt.
    throw new CliError('apply cancelled, nothing was changed', { exitCode: 130 });
  }
  if (answer.trim() !== 'yes') throw new CliError('apply cancelled, nothing was changed', { exitCode: 1 });
}

async function readPlanFile(path: string, shown: string): Promise<Plan> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read plan ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, {
      code: 'config',
      cause: e,
    });
  }
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path} is not a steward plan: not valid JSON (${(e as Error).message}); make one with \`steward plan --out ${shown}\``, {
      code: 'config',
      cause: e,
    });
  }
  const { planShapeProblem } = await import('../../apply/plan-file.ts');
  const problem = await planShapeProblem(plan);
  if (problem !== undefined) {
    throw new CliError(`${path} is not a steward plan (${problem}); make one with \`steward plan --out ${shown}\``, { code: 'config' });
  }
  return plan as Plan;
}
