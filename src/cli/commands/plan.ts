import { dirname, resolve, sep } from 'node:path';
import { CliError, ValidationError, type Issue } from '../../errors.ts';
import type { Plan } from '../../plan/types.ts';
import { listSome, shellWords } from '../../shared/text.ts';
import { escapeMarkdownCode, escapeTerminal } from '../../render/escape.ts';
import { defineCommand, redactForOutput, redactForRender, type CommandContext, type GlobalArgs } from '../context.ts';

export interface PlanArgs {
  paths?: string[];
  out?: string;
  format: 'text' | 'json' | 'markdown' | 'github';
  detailedExitcode: boolean;
  target?: string[];
  reassertAlerts: boolean;
  showUnchanged: boolean;
  concurrency?: number;
  /** Read unchanged files from the parse cache (`--no-cache` or STEWARD_NO_CACHE=1 turn it off). */
  cache?: boolean;
  /** Delete orphans (profiles that can delete); spec.prune sets the default. */
  prune?: boolean;
  /** With prune: delete even when no file declares any of the kind. */
  allowEmpty: boolean;
  /** Ask the service to validate every dashboard the plan creates or updates (reads only). */
  serverValidate?: boolean;
}

/**
 * The plan workflow with this command's context: the CLI's way to connect (debug trace, wait notices,
 * redaction), and on stderr the files' warnings (a resources pattern that matches no file, as validate says)
 * and the notice for alerts whose files are gone.
 */
export async function makePlan(
  args: Omit<PlanArgs, 'format' | 'out' | 'detailedExitcode' | 'showUnchanged'> & GlobalArgs & { idSeed?: string },
  ctx: CommandContext,
) {
  const [{ makePlan: plan }, { createDeps }] = await Promise.all([import('../../workflows/plan.ts'), import('../deps.ts')]);
  const made = await plan(
    { cwd: ctx.cwd, env: ctx.env, signal: ctx.signal, connect: (project) => createDeps(ctx, project, { debug: args.debug, concurrency: args.concurrency }) },
    args,
  );
  const warnings = made.loaded.issues.filter((i) => i.severity === 'warning');
  if (warnings.length > 0) ctx.io.stderr(await renderWarnings(warnings, ctx));
  if (made.alertsLeft.length > 0) ctx.io.stderr(renderAlertsLeft(made.alertsLeft));
  return made;
}

/** Shown before a plan as validate shows them, the first few: a tile warning repeated over 10,000 files would bury the plan. */
const WARNINGS_SHOWN = 10;

async function renderWarnings(warnings: readonly Issue[], ctx: CommandContext): Promise<string> {
  const { renderIssuesText, sortIssues } = await import('../../render/issues.ts');
  const shown = sortIssues(warnings.map((i) => ({ ...i, file: i.file.startsWith(ctx.cwd + sep) ? i.file.slice(ctx.cwd.length + 1) : i.file }))).slice(
    0,
    WARNINGS_SHOWN,
  );
  const more = warnings.length - shown.length;
  return `${renderIssuesText(shown, { color: ctx.color })}\n${more > 0 ? `… and ${more} more warning${more === 1 ? '' : 's'} (\`steward validate\` lists them all)\n` : ''}`;
}

/** Terraform's -detailed-exitcode: 0 nothing to do, 2 changes pending, 3 blocked (3 wins over 2). */
export function detailedExitCode(plan: Plan): number {
  if (plan.summary.blocked > 0) return 3;
  if (plan.summary.create + plan.summary.update + (plan.summary.delete ?? 0) > 0) return 2;
  return 0;
}

export function renderAlertsLeft(gone: ReadonlyArray<{ id: string; name: string; appliedAt: string }>): string {
  const n = gone.length;
  const head = `notice: ${n} alert${n === 1 ? '' : 's'} steward applied ${n === 1 ? 'is' : 'are'} in no file any more; ${n === 1 ? 'it stays' : 'they stay'} live as last sent and steward no longer manages ${n === 1 ? 'it' : 'them'} (the API cannot delete alerts):`;
  // Name, id and time come from the state file, which a pull request can edit (and the name from an alert's file
  // before it): escaped, or a line break in one started a `::error` workflow command of its own in the CI log.
  const lines = gone.map((g) => `  - ${escapeTerminal(`${g.name} (${g.id}), last applied ${g.appliedAt}`)}`);
  return [head, ...lines, '  restore the file to manage it again, or turn the alert off in the UI.', ''].join('\n');
}

export const planCommand = defineCommand<PlanArgs>({
  command: 'plan [paths..]',
  describe: 'Read live state once, diff it with the files, and show what apply would do (never writes remotely)',
  builder: (y) =>
    y
      .positional('paths', { type: 'string', array: true, describe: 'Only plan resources in these files or folders' })
      .option('out', { type: 'string', describe: 'Save the plan as JSON for `steward apply <file>`' })
      .option('format', {
        choices: ['text', 'json', 'markdown', 'github'] as const,
        default: 'text' as const,
        describe: 'Output: text, json, markdown (PR comment), github (annotations)',
      })
      .option('detailed-exitcode', { type: 'boolean', default: false, describe: 'Exit 2 when changes are pending, 3 when something is blocked (3 wins)' })
      .option('target', { type: 'string', array: true, describe: 'Only this resource, as kind/name (repeatable)' })
      .option('reassert-alerts', { type: 'boolean', default: false, describe: 'Plan every alert for update, even in sync (heals edits made in the UI)' })
      .option('show-unchanged', { type: 'boolean', default: false, describe: 'List unchanged items too (text)' })
      .option('concurrency', { type: 'number', describe: 'Requests in flight at once' })
      .option('prune', {
        type: 'boolean',
        describe: 'Delete orphans: dashboards with the marker tag that no file declares (hyperdx, clickstack-cloud; default spec.prune)',
      })
      .option('allow-empty', {
        type: 'boolean',
        default: false,
        describe: 'With --prune: delete even when no file declares any dashboard (or alert); without it those deletes are blocked',
      })
      .option('server-validate', {
        type: 'boolean',
        default: false,
        describe:
          'Ask the service to validate every dashboard the plan would create or update (reads only; hyperdx, clickstack-cloud); exit 1 when it calls one invalid',
      })
      .option('cache', {
        type: 'boolean',
        default: true,
        describe:
          'Reuse unchanged files, and what the last plan learned of the live list, from .steward/cache (--no-cache, or STEWARD_NO_CACHE=1, parses every file and the list)',
      })
      .example('steward plan', 'Plan the whole project')
      .example('steward plan --out plan.json --format markdown > plan.md', 'Save the plan for apply and a PR comment')
      .example('steward plan --target dashboard/checkout-overview', 'Plan one dashboard')
      .example('steward plan --detailed-exitcode', 'Nightly drift check: exit 2 on pending changes, 3 on blocked drift'),
  run: async (args, ctx) => {
    let made;
    try {
      made = await makePlan(args, ctx);
    } catch (e) {
      // Invalid files: a machine reading stdout (json, github, markdown) gets the problems in its format too.
      if (e instanceof ValidationError && args.format !== 'text') ctx.io.stdout(await renderInvalid(e.issues, args.format, ctx));
      throw e;
    }
    const { plan } = made;
    if (args.out) {
      const [{ writeFileAtomic }, { jsonText }, { makeFolderInside, refuseGitOutput }] = await Promise.all([
        import('../../atomic-write.ts'),
        import('../../render/escape.ts'),
        import('../../shared/paths.ts'),
      ]);
      const text = jsonText(plan) + '\n';
      // A saved plan is applied as written: a credential replaced by [redacted] would be sent as such (and
      // would break the plan's digest), and one kept would be written into an artifact. Neither: refuse.
      if (redactForOutput(ctx, text) !== text) {
        const item = plan.items.find((i) => redactForOutput(ctx, JSON.stringify(i)) !== JSON.stringify(i));
        throw new CliError(
          `the plan holds the value of a credential variable${item ? ` (in ${item.kind.toLowerCase()} ${item.name})` : ''}, so it is not saved: steward never writes credentials into files. Remove the value (or the \${VAR} that brings it) from the files, or find why the service returns it`,
          { code: 'config' },
        );
      }
      // As report's folder: a folder that a link in the work tree takes outside (a pull request can commit
      // one) is refused; one named outside on the command line is the user's choice.
      // resolve() drops a trailing separator, and `--out plans/` wrote a file named plans: a name ending in
      // one means a folder, and a saved plan needs a file's name (apply reads it back), so say which.
      if (args.out.endsWith('/') || args.out.endsWith(sep))
        throw new CliError(
          `--out ${args.out} ends in ${args.out.endsWith('/') ? '/' : sep}, so it names a folder; name the plan's file (${args.out}plan.json)`,
          { code: 'usage' },
        );
      const out = resolve(ctx.cwd, args.out);
      refuseGitOutput(ctx.cwd, out, 'the plan');
      const { projectFileRole } = await import('../../config/project.ts');
      const taken = projectFileRole(made.project, out);
      if (taken)
        throw new CliError(`--out ${args.out} names ${taken}, which the plan would replace; save the plan under a name of its own (plan.json)`, {
          code: 'usage',
        });
      makeFolderInside(ctx.cwd, dirname(out), 'the plan');
      writeFileAtomic(out, text);
    }
    ctx.io.stdout(
      await renderPlan(plan, args.format, ctx, { showUnchanged: args.showUnchanged, out: args.out, next: applyCommand(args, made.projectFromPath) }),
    );
    if (args.out && args.format === 'text') ctx.io.stdout(`Saved the plan to ${escapeTerminal(args.out)}.\n`);
    // --server-validate is a check: a body the service calls invalid fails it (apply would be refused), as
    // a file that fails validate does, whatever --detailed-exitcode says.
    const invalid = plan.items.filter((i) => i.serverValidation && !i.serverValidation.valid).map((i) => `${i.kind.toLowerCase()} ${i.name}`);
    if (invalid.length > 0)
      throw new CliError(
        `the service says ${invalid.length === 1 ? 'this dashboard is' : `${invalid.length} dashboards are`} invalid (${listSome(invalid)}): apply would be refused; see "service validation: INVALID" in the plan`,
        { code: 'api-response' },
      );
    return args.detailedExitcode ? detailedExitCode(plan) : 0;
  },
});

/** The problems that stopped a plan, in the plan's output format (stdout); the text form goes to stderr as usual. */
export async function renderInvalid(issues: readonly Issue[], format: 'json' | 'github' | 'markdown', ctx: CommandContext): Promise<string> {
  // Messages redacted before they are escaped: Markdown writes a quoted secret's `_` as `\_` (and defuses
  // `@`, `www.` with a zero-width space), which the output sink no longer finds (red team).
  const rel = issues.map((i) => ({
    ...i,
    file: redactForOutput(ctx, i.file.startsWith(ctx.cwd + sep) ? i.file.slice(ctx.cwd.length + 1) : i.file),
    message: redactForOutput(ctx, i.message),
  }));
  if (format === 'markdown') {
    const errors = rel.filter((i) => i.severity === 'error');
    // Paths and messages quote the files under review (a pull request's): escaped as every other Markdown
    // steward writes, so they cannot forge lines, workflow commands, links or mentions.
    const { escapeMarkdownKeepingCode } = await import('../../render/escape.ts');
    return [
      `## steward plan`,
      '',
      `**invalid: ${errors.length} problem${errors.length === 1 ? '' : 's'}; nothing was planned**`,
      '',
      ...rel.map(
        (i) =>
          `- \`${escapeMarkdownCode(`${i.file}:${i.line}:${i.col}`)}\` ${i.severity === 'warning' ? '(warning) ' : ''}${escapeMarkdownKeepingCode(i.message)}`,
      ),
      '',
    ].join('\n');
  }
  const { renderValidate } = await import('../../render/validate.ts');
  const files = new Set(rel.map((i) => i.file)).size;
  return renderValidate({ files, counts: {}, issues: rel }, format, { color: false }).replace('steward validate:', 'steward plan:');
}

/**
 * The command that applies what this plan shows. A saved plan is applied by its file; otherwise apply plans
 * afresh, so it is given the flags that shaped this plan (a plan made with --prune, applied without it, deletes
 * nothing). apply takes no paths: a plan narrowed by them is saved, then applied by its file.
 */
export function applyCommand(
  args: Pick<PlanArgs, 'out' | 'paths' | 'target' | 'prune' | 'allowEmpty' | 'reassertAlerts'> & Pick<GlobalArgs, 'config' | 'env'>,
  projectFromPath: boolean,
): string {
  const project = args.config ?? (projectFromPath ? args.paths?.[0] : undefined);
  const config = project !== undefined ? ['--config', project] : [];
  if (args.out !== undefined) return shellWords(['steward', 'apply', args.out, ...config]);
  const shaping = [
    ...config,
    ...(args.env !== undefined ? ['--env', args.env] : []),
    ...(args.target ?? []).flatMap((t) => ['--target', t]),
    ...(args.prune === undefined ? [] : [args.prune ? '--prune' : '--no-prune']),
    ...(args.allowEmpty ? ['--allow-empty'] : []),
    ...(args.reassertAlerts ? ['--reassert-alerts'] : []),
  ];
  const paths = projectFromPath ? [] : (args.paths ?? []);
  if (paths.length === 0) return shellWords(['steward', 'apply', ...shaping]);
  return `${shellWords(['steward', 'plan', ...paths, ...shaping, '--out', 'plan.json'])} && ${shellWords(['steward', 'apply', 'plan.json', ...config])}`;
}

/**
 * A plan in one of the formats. `out` is the saved plan's file; `next` the command that applies the plan
 * (default: `steward apply`, or `steward apply <out>`); `applying` when apply prints the plan it is about to
 * run (no "Run `steward apply`").
 */
export async function renderPlan(
  plan: Plan,
  format: PlanArgs['format'],
  ctx: CommandContext,
  opts: { showUnchanged?: boolean; out?: string; next?: string; applying?: boolean } = {},
): Promise<string> {
  // Every string redacted as a value, before any renderer escapes, wraps or cuts it: a credential escaped
  // for Markdown (\_) or wrapped over two lines would no longer be found in the finished text. Not copied
  // when no string holds one (most plans).
  plan = redactForRender(ctx, plan);
  switch (format) {
    case 'json': {
      const { jsonText } = await import('../../render/escape.ts');
      return jsonText(plan) + '\n';
    }
    case 'markdown': {
      const { renderPlanMarkdown } = await import('../../render/plan-markdown.ts');
      return renderPlanMarkdown(plan, opts.out ? { artifactHint: `\`${escapeMarkdownCode(opts.out)}\`` } : {});
    }
    case 'github': {
      const { renderPlanGithub } = await import('../../render/plan-github.ts');
      return renderPlanGithub(plan);
    }
    default: {
      const { renderPlanText } = await import('../../render/plan-text.ts');
      const next = opts.applying ? 'applying' : (opts.next ?? (opts.out ? shellWords(['steward', 'apply', opts.out]) : undefined));
      return renderPlanText(plan, { color: ctx.color, columns: ctx.columns, showUnchanged: opts.showUnchanged ?? false, ...(next ? { next } : {}) });
    }
  }
}
