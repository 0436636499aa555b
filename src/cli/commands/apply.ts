import { CliError, UsageError } from '../../errors.ts';
import { DEFAULT_APPLY_CONCURRENCY } from '../../apply/types.ts';
import { escapeTerminal } from '../../render/escape.ts';
import { defineCommand, redactForOutput, type CommandContext, type GlobalArgs } from '../context.ts';
import { renderAlertsLeft, renderPlan } from './plan.ts';
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
  allowEmpty: boolean;
  cache: boolean;
  lockTimeout?: string;
  settle?: string;
}

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
      .option('allow-empty', {
        type: 'boolean',
        default: false,
        describe: 'With --prune: delete even when no file declares any dashboard (or alert); without it those deletes are blocked (without a plan file)',
      })
      .option('target', { type: 'string', array: true, describe: 'Only this resource, as kind/name (without a plan file; repeatable)' })
      .option('cache', {
        type: 'boolean',
        default: true,
        describe:
          'Reuse unchanged files, and what the last plan learned of the live list, from .steward/cache (--no-cache, or STEWARD_NO_CACHE=1, parses every file and reads the list whole)',
      })
      .option('lock-timeout', LOCK_TIMEOUT_OPTION)
      .option('settle', {
        type: 'string',
        describe:
          'After a create whose outcome is unknown, wait this long before each of the two lists that decide a re-send (default and least: the request timeout)',
      })
      .example('steward plan --out plan.json && steward apply plan.json', 'Review, then apply exactly what was reviewed')
      .example('steward apply --auto-approve', 'CI on merge: plan afresh and apply'),
  run: async (args, ctx) => {
    // `apply "$PLAN"` with the variable unset: an empty name read as no plan file, so apply planned afresh and,
    // with --auto-approve, applied what nobody reviewed. Refused before anything is read.
    if (args.plan === '') throw new UsageError('the plan file name is empty (an unset variable?): name the file `steward plan --out` saved, or give none');
    // Checked before anything is read or planned, so a typo costs nothing.
    const settleMs = args.settle === undefined ? undefined : parseSettle(args.settle);
    const [{ makeApply }, { createDeps }, { renderApplyEventLine, renderApplySummary, renderApplyJson, renderProgress }, { applyExitCode }] = await Promise.all(
      [import('../../workflows/apply.ts'), import('../deps.ts'), import('../../render/apply.ts'), import('../../apply/types.ts')],
    );
    let progressShown = false;
    try {
      const { result } = await makeApply(
        {
          cwd: ctx.cwd,
          env: ctx.env,
          signal: ctx.signal,
          connect: (project, signal) => createDeps(signal ? { ...ctx, signal } : ctx, project, { debug: args.debug, concurrency: args.concurrency }),
          lock: (statePath) => takeStateLock(ctx, statePath, commandLine(args), args.lockTimeout),
          alertsLeft: (gone) => ctx.io.stderr(renderAlertsLeft(gone)),
          planned: async (plan) => {
            if (args.format === 'text') ctx.io.stdout(await renderPlan(plan, 'text', ctx, { applying: true }));
          },
          confirm: () => confirm(args, ctx),
          // Escaped: the text is an error's message, which may quote a path a link made (red team, round 14).
          warn: (text) => ctx.io.stderr(`steward: ${escapeTerminal(text)}\n`),
          emit: (e) => {
            if (args.format === 'json') return;
            if (ctx.io.isTTY && e.type === 'item-start') {
              // Redacted before it is cut to the width: a live name holding a credential, cut, kept its start.
              const doing = `${e.item.action === 'create' ? 'creating' : e.item.action === 'delete' ? 'deleting' : 'updating'} ${e.item.kind.toLowerCase()} ${e.item.name}`;
              ctx.io.stdout(`\r\u001b[K${renderProgress(e.done, e.total, redactForOutput(ctx, doing), ctx.columns)}`);
              progressShown = true;
              return;
            }
            const line = renderApplyEventLine(e);
            if (line) ctx.io.stdout((progressShown ? '\r\u001b[K' : '') + line + '\n');
          },
        },
        {
          planFile: args.plan,
          config: args.config,
          env: args.env,
          concurrency: args.concurrency,
          reassertAlerts: args.reassertAlerts,
          target: args.target,
          prune: args.prune,
          allowEmpty: args.allowEmpty,
          cache: args.cache,
          settleMs,
        },
      );
      if (progressShown) ctx.io.stdout('\r\u001b[K');
      ctx.io.stdout(args.format === 'json' ? renderApplyJson(result) : renderApplySummary(result, { color: ctx.color }));
      return applyExitCode(result);
    } catch (e) {
      // The error line starts on a line of its own, never glued to the progress line.
      if (progressShown) ctx.io.stdout('\r\u001b[K');
      throw e;
    }
  },
});

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

/** 'asked' once a person answered yes (the live state is then read again); nothing with --auto-approve. */
async function confirm(args: ApplyArgs, ctx: CommandContext): Promise<'asked' | void> {
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
  return 'asked';
}
