import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { CliError, UsageError } from '../../errors.ts';
import type { Plan } from '../../plan/types.ts';
import { defineCommand, type CommandContext } from '../context.ts';
import { makePlan, renderPlan } from './plan.ts';

interface ApplyArgs {
  plan?: string;
  autoApprove: boolean;
  format: 'text' | 'json';
  concurrency?: number;
  reassertAlerts: boolean;
  target?: string[];
  prune?: boolean;
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
  describe: 'Create dashboards and update alerts: run a saved plan, or plan and apply after confirmation',
  builder: (y) =>
    y
      .positional('plan', { type: 'string', describe: 'A plan saved by `steward plan --out` (refused if live state changed since)' })
      .option('auto-approve', { type: 'boolean', default: false, describe: 'Apply without asking (required when not in a terminal and no plan file is given)' })
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Summary format' })
      .option('concurrency', { type: 'number', describe: `Requests in flight at once (default ${DEFAULT_APPLY_CONCURRENCY}, or spec.concurrency)` })
      .option('reassert-alerts', { type: 'boolean', default: false, describe: 'Send every alert again, even in sync (without a plan file)' })
      .option('prune', { type: 'boolean', describe: 'Delete orphans (without a plan file; hyperdx, clickstack-cloud; default spec.prune)' })
      .option('target', { type: 'string', array: true, describe: 'Only this resource, as kind/name (without a plan file; repeatable)' })
      .example('steward plan --out plan.json && steward apply plan.json', 'Review, then apply exactly what was reviewed')
      .example('steward apply --auto-approve', 'CI on merge: plan afresh and apply'),
  run: async (args, ctx) => {
    if (args.concurrency !== undefined && (!Number.isInteger(args.concurrency) || args.concurrency < 1 || args.concurrency > 64)) {
      throw new UsageError('--concurrency must be a whole number from 1 to 64');
    }
    const [{ applyPlan }, { openJournal }, { readState, writeState }, { renderApplyEventLine, renderApplySummary, renderApplyJson, renderProgress }] = await Promise.all([
      import('../../apply/apply.ts'),
      import('../../apply/journal.ts'),
      import('../../apply/state.ts'),
      import('../../render/apply.ts'),
    ]);

    let plan: Plan;
    let project;
    let deps;
    let freshLive;
    let freshAlerts;
    if (args.plan) {
      if (args.reassertAlerts || args.target) throw new UsageError('--reassert-alerts and --target shape a new plan; with a saved plan, pass them to `steward plan`');
      plan = readPlanFile(resolve(ctx.cwd, args.plan));
      const [{ nodeFileSystem }, { findProjectFile, loadProject }, { createDeps }] = await Promise.all([import('../../config/fs.ts'), import('../../config/project.ts'), import('../deps.ts')]);
      const file = findProjectFile(nodeFileSystem, ctx.cwd, args.config);
      if (!file) throw new CliError(`no steward.yaml in ${ctx.cwd} or above: run apply in the project that made the plan, or pass --config`, { code: 'config' });
      project = loadProject(nodeFileSystem, file, ctx.env, args.env ?? plan.env);
      if ((plan.env ?? undefined) !== (project.envName ?? undefined)) {
        throw new UsageError(`the plan was made for ${plan.env ? `--env ${plan.env}` : 'no --env'}, not ${args.env ? `--env ${args.env}` : 'no --env'}`);
      }
      deps = createDeps(ctx, project, { debug: args.debug, concurrency: args.concurrency });
    } else {
      const made = await makePlan({ ...args, paths: [] }, ctx);
      ({ plan, project, deps } = made);
      freshLive = made.live;
      freshAlerts = made.liveAlerts;
      if (args.format === 'text') ctx.io.stdout(await renderPlan(plan, 'text', ctx, { applying: true }));
      if (plan.summary.create + plan.summary.update + (plan.summary.delete ?? 0) === 0) {
        if (args.format === 'json') ctx.io.stdout(renderApplyJson({ created: [], updated: [], deleted: [], failed: [], skipped: [], unchanged: plan.summary.noop, blocked: plan.summary.blocked, state: made.state }));
        return 0;
      }
      await confirm(args, ctx);
    }

    const state = readState(project.statePath);
    const journal = openJournal(project.journalPath);
    const concurrency = args.concurrency ?? project.concurrency ?? DEFAULT_APPLY_CONCURRENCY;
    let progressShown = false;
    try {
      const result = await applyPlan(
        {
          client: deps.observability(),
          journal,
          saveState: (s) => writeState(project.statePath, s),
          now: () => deps.clock.now(),
          signal: ctx.signal,
          emit: (e) => {
            if (args.format === 'json') return;
            if (ctx.io.isTTY && e.type === 'item-start') {
              ctx.io.stdout(`\r\u001b[K${renderProgress(e.done, e.total, `${e.item.action === 'create' ? 'creating' : e.item.action === 'delete' ? 'deleting' : 'updating'} ${e.item.kind.toLowerCase()} ${e.item.name}`, ctx.columns)}`);
              progressShown = true;
              return;
            }
            const line = renderApplyEventLine(e);
            if (line) ctx.io.stdout((progressShown ? '\r\u001b[K' : '') + line + '\n');
          },
        },
        plan,
        state,
        { concurrency, runId: randomUUID(), ...(freshLive ? { freshLive } : {}), ...(freshAlerts ? { freshAlerts } : {}) },
      );
      if (progressShown) ctx.io.stdout('\r\u001b[K');
      ctx.io.stdout(args.format === 'json' ? renderApplyJson(result) : renderApplySummary(result, { color: ctx.color }));
      return result.failed.length === 0 && result.skipped.length === 0 ? 0 : 1;
    } finally {
      journal.close();
    }
  },
});

async function confirm(args: ApplyArgs, ctx: CommandContext): Promise<void> {
  if (args.autoApprove) return;
  if (!ctx.io.isTTY || !ctx.io.prompt) {
    throw new UsageError('apply needs --auto-approve when not run in a terminal (or give it a plan file saved by `steward plan --out`)');
  }
  const answer = await ctx.io.prompt('Apply these changes? Only "yes" is accepted: ');
  if (answer.trim() !== 'yes') throw new CliError('apply cancelled; nothing was changed', { exitCode: 1 });
}

function readPlanFile(path: string): Plan {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read plan ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`, { code: 'config', cause: e });
  }
  let plan: Partial<Plan>;
  try {
    plan = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${path} is not a plan: not valid JSON (${(e as Error).message})`, { code: 'config', cause: e });
  }
  if (!plan || plan.formatVersion !== 1 || !Array.isArray(plan.items) || typeof plan.fingerprint !== 'string') {
    throw new CliError(`${path} is not a steward plan (formatVersion 1 expected); make one with \`steward plan --out ${path}\``, { code: 'config' });
  }
  return plan as Plan;
}
