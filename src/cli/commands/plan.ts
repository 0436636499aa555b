import { relative, resolve, sep } from 'node:path';
import { CliError, UsageError, ValidationError, type Issue } from '../../errors.ts';
import type { AnyResource } from '../../config/resources.ts';
import type { Plan, PlanBinding } from '../../plan/types.ts';
import { createHash } from 'node:crypto';
import { fingerprintLive } from '../../plan/fingerprint.ts';
import { defineCommand, redactForOutput, redactValue, type CommandContext, type GlobalArgs } from '../context.ts';

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
  /** Ask the service to validate every dashboard the plan creates or updates (reads only). */
  serverValidate?: boolean;
}

/** Terraform's -detailed-exitcode: 0 nothing to do, 2 changes pending, 3 blocked (3 wins over 2). */
export function detailedExitCode(plan: Plan): number {
  if (plan.summary.blocked > 0) return 3;
  if (plan.summary.create + plan.summary.update + (plan.summary.delete ?? 0) > 0) return 2;
  return 0;
}

/** Loads the project, reads live state once and computes the plan. Shared by plan and apply. */
export async function makePlan(
  args: Omit<PlanArgs, 'format' | 'out' | 'detailedExitcode' | 'showUnchanged'> & GlobalArgs & { idSeed?: string },
  ctx: CommandContext,
) {
  if (args.concurrency !== undefined && (!Number.isInteger(args.concurrency) || args.concurrency < 1 || args.concurrency > 64)) {
    throw new UsageError('--concurrency must be a whole number from 1 to 64');
  }
  const [{ nodeFileSystem }, { loadWorkspace }, { computePlan }, { readState }, { createDeps }, { cacheWanted }] = await Promise.all([
    import('../../config/fs.ts'),
    import('../../config/load.ts'),
    import('../../plan/plan.ts'),
    import('../../apply/state.ts'),
    import('../deps.ts'),
    import('../../config/cache.ts'),
  ]);
  // One meaning for paths, as in validate: a folder that holds a project file is that project
  // (`steward plan examples`); other paths narrow the plan to the resources in them.
  const { projectPath, paths } = splitProjectPath(args.paths ?? [], args.config, ctx.cwd, nodeFileSystem);
  const loaded = await loadWorkspace(
    { fs: nodeFileSystem, env: ctx.env, cwd: ctx.cwd },
    {
      config: projectPath ?? args.config,
      envName: args.env,
      requireProject: true,
      cache: cacheWanted(args.cache, ctx.env),
    },
  );
  if (loaded.issues.some((i) => i.severity === 'error')) throw new ValidationError(loaded.issues);
  const project = loaded.project!;
  const include = narrow(
    loaded.resources,
    args.target ?? [],
    paths.map((p) => resolve(ctx.cwd, p)),
    ctx.cwd,
  );
  const { OBSERVABILITY_PROFILES, missingCapability } = await import('../../clients/profiles.ts');
  const profile = OBSERVABILITY_PROFILES[project.spec.observability?.api ?? 'seed'];
  const prune = args.prune ?? project.spec.prune ?? false;
  if (args.prune) {
    const missing = missingCapability(profile, 'deleteDashboard', '--prune deletes orphans');
    if (missing) throw new UsageError(missing.replace(/^--prune deletes orphans: (.*) cannot do that/, `--prune: $1 cannot delete dashboards`));
  }
  if (args.serverValidate) {
    const missing = missingCapability(profile, 'validateDashboard', '--server-validate');
    if (missing) throw new UsageError(missing);
  }
  const deps = createDeps(ctx, project, { debug: args.debug, concurrency: args.concurrency });
  const state = readState(project.statePath);
  const client = deps.observability();
  let resources = loaded.resources;
  // Names instead of ids (source: Logs, webhook: ops-pager): one list request per kind, only when a file uses one.
  const names = await import('../../plan/names.ts');
  const kinds = [
    {
      key: 'source',
      list: 'sources',
      cap: 'listSources',
      uses: names.usesSourceNames,
      resolve: names.resolveSourceNames,
      read: () => client.listSources({ signal: ctx.signal }),
    },
    {
      key: 'webhook',
      list: 'webhooks',
      cap: 'listWebhooks',
      uses: names.usesWebhookNames,
      resolve: names.resolveWebhookNames,
      read: () => client.listWebhooks({ signal: ctx.signal }),
    },
  ] as const;
  for (const k of kinds) {
    if (!k.uses(resources)) continue;
    if (!profile.capabilities[k.cap]) {
      throw new UsageError(
        `files name ${k.list} (${k.key}: <name>), which needs a profile that lists ${k.list} (observability.api: hyperdx or clickstack-cloud); this project uses ${profile.api}`,
      );
    }
    const resolved = k.resolve(resources, await k.read());
    if (resolved.problems.length > 0) throw new ValidationError(resolved.problems.map((p) => loaded.issueAt(p.file, p.index, p.pointer, p.message)));
    resources = resolved.resources;
  }
  const live = await client.listDashboards({ signal: ctx.signal });
  const liveAlerts = profile.capabilities.readAlerts ? await client.listAlerts({ signal: ctx.signal }) : undefined;
  const { bindingFile, planDigest, projectName, seededIds } = await import('../../apply/plan-file.ts');
  // New filter ids come from a seed kept in the plan, so that apply recomputes exactly these items.
  // Derived from what the plan is made from, so that the same inputs give the same plan, byte for byte.
  const idSeed =
    args.idSeed ??
    createHash('sha256')
      .update(`${project.file}\u0000${fingerprintLive(live, state, liveAlerts)}\u0000${JSON.stringify(args.target ?? [])}`)
      .digest('hex')
      .slice(0, 24);
  const plan = computePlan({
    newId: seededIds(idSeed),
    ...(liveAlerts ? { liveAlerts } : {}),
    capabilities: profile.capabilities,
    api: profile.api,
    prune,
    resources,
    live,
    state,
    markerTag: project.markerTag,
    now: deps.clock.now(),
    projectDir: project.dir,
    ...(project.envName ? { env: project.envName } : {}),
    ...(include ? { include } : {}),
    reassertAlerts: args.reassertAlerts,
  });
  const { resolveObservability } = await import('../../config/connection.ts');
  const binding: PlanBinding = {
    project: await projectName(project.file),
    file: bindingFile(project.file),
    ...(project.envName ? { env: project.envName } : {}),
    server: resolveObservability(project, ctx.env).url,
    idSeed,
    options: {
      targets: [...(args.target ?? [])].sort(),
      paths: (args.paths ?? []).map((p) => relative(project.dir, resolve(ctx.cwd, p)).split(sep).join('/') || '.').sort(),
      prune,
      reassertAlerts: args.reassertAlerts,
    },
  };
  if (plan.targeted) plan.targetedOf = resources.filter((r) => r.kind === 'Dashboard' || r.kind === 'Alert').length;
  plan.binding = binding;
  plan.digest = planDigest(plan.items, binding);
  if (!liveAlerts && !include) {
    const gone = alertsLeftFiles(state, resources);
    if (gone.length > 0) ctx.io.stderr(renderAlertsLeft(gone));
  }
  if (args.serverValidate) {
    // Reads only: the validate endpoint saves nothing. One request per dashboard the plan would write.
    for (const item of plan.items) {
      if (item.kind !== 'Dashboard' || (item.action !== 'create' && item.action !== 'update') || !item.body) continue;
      const v = await client.validateDashboard(item.body, { signal: ctx.signal });
      item.serverValidation = { valid: v.valid, errors: (v.errors ?? []).map((e) => `${e.path ? `${e.path}: ` : ''}${e.message ?? 'invalid'}`) };
    }
  }
  return { plan, project, deps, loaded: { ...loaded, resources }, state, live, liveAlerts };
}

/**
 * Alerts steward applied (they have a record in the state file) that no file declares any more. The API
 * cannot delete or read them: they stay live as last sent, and steward no longer manages them.
 */
export function alertsLeftFiles(
  state: { alerts: Record<string, { sent: { name?: unknown }; appliedAt: string }> },
  resources: readonly AnyResource[],
): Array<{ id: string; name: string; appliedAt: string }> {
  const declared = new Set(resources.filter((r) => r.kind === 'Alert').map((r) => (r.doc.metadata as { id?: string }).id));
  return Object.entries(state.alerts)
    .filter(([id]) => !declared.has(id))
    .map(([id, r]) => ({ id, name: typeof r.sent.name === 'string' ? r.sent.name : id, appliedAt: r.appliedAt }));
}

export function renderAlertsLeft(gone: ReadonlyArray<{ id: string; name: string; appliedAt: string }>): string {
  const n = gone.length;
  const head = `notice: ${n} alert${n === 1 ? '' : 's'} steward applied ${n === 1 ? 'is' : 'are'} in no file any more; ${n === 1 ? 'it stays' : 'they stay'} live as last sent and steward no longer manages ${n === 1 ? 'it' : 'them'} (the API cannot delete alerts):`;
  const lines = gone.map((g) => `  - ${g.name} (${g.id}), last applied ${g.appliedAt}`);
  return [head, ...lines, '  restore the file to manage it again, or turn the alert off in the UI.', ''].join('\n');
}

/**
 * A lone path that is a folder holding steward.yaml (and not the project already found from the current
 * folder or --config) names the project to plan, as `steward validate examples` does.
 */
function splitProjectPath(
  paths: string[],
  config: string | undefined,
  cwd: string,
  fs: { stat(p: string): { isFile: boolean; isDirectory: boolean } | undefined },
): { projectPath: string | undefined; paths: string[] } {
  if (paths.length !== 1 || config !== undefined) return { projectPath: undefined, paths };
  const dir = resolve(cwd, paths[0]!);
  if (!fs.stat(dir)?.isDirectory) return { projectPath: undefined, paths };
  if (!['steward.yaml', 'steward.yml'].some((n) => fs.stat(resolve(dir, n))?.isFile)) return { projectPath: undefined, paths };
  return { projectPath: dir, paths: [] };
}

/** --target kind/name and path arguments, as one filter; undefined when nothing narrows the plan. */
function narrow(resources: readonly AnyResource[], targets: string[], paths: string[], cwd: string): ((r: AnyResource) => boolean) | undefined {
  if (targets.length === 0 && paths.length === 0) return undefined;
  const wanted = new Set<string>();
  for (const t of targets) {
    const m = /^([A-Za-z]+)\/(.+)$/.exec(t);
    const kind = m ? ({ dashboard: 'Dashboard', alert: 'Alert' } as Record<string, string>)[m[1]!.toLowerCase()] : undefined;
    if (!m || !kind) throw new UsageError(`--target ${t}: write kind/name, like dashboard/checkout-overview or alert/checkout-errors`);
    if (!resources.some((r) => r.kind === kind && r.name === m[2])) {
      const names = resources.filter((r) => r.kind === kind).map((r) => r.name);
      throw new UsageError(`--target ${t}: no ${kind} named "${m[2]}" (there are: ${names.join(', ') || 'none'})`);
    }
    wanted.add(`${kind}/${m[2]}`);
  }
  const inPaths = (f: string) => paths.some((p) => f === p || f.startsWith(p.endsWith(sep) ? p : p + sep));
  if (paths.length > 0 && !resources.some((r) => inPaths(r.file))) {
    throw new UsageError(`no resources under ${paths.map((p) => relative(cwd, p) || '.').join(', ')}`);
  }
  const base = (r: AnyResource) => wanted.has(`${r.kind}/${r.name}`) || (paths.length > 0 && inPaths(r.file));
  // Targets bring what they need: an alert on a tile brings its dashboard (and so that dashboard's
  // creation), or apply would skip the alert.
  const needed = new Set<string>();
  for (const r of resources) {
    if (r.kind !== 'Alert' || !base(r)) continue;
    const dashboard = (r.doc.spec as { tile?: { dashboard?: unknown } }).tile?.dashboard;
    if (typeof dashboard === 'string') needed.add(`Dashboard/${dashboard}`);
  }
  return (r) => base(r) || needed.has(`${r.kind}/${r.name}`);
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
      .option('server-validate', {
        type: 'boolean',
        default: false,
        describe: 'Ask the service to validate every dashboard the plan would create or update (reads only; hyperdx, clickstack-cloud)',
      })
      .option('cache', {
        type: 'boolean',
        default: true,
        describe: 'Reuse unchanged files from .steward/cache (--no-cache, or STEWARD_NO_CACHE=1, parses every file)',
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
      const { writeFileAtomic } = await import('../../atomic-write.ts');
      const text = JSON.stringify(plan, null, 2) + '\n';
      // A saved plan is applied as written: a credential replaced by [redacted] would be sent as such (and
      // would break the plan's digest), and one kept would be written into an artifact. Neither: refuse.
      if (redactForOutput(ctx, text) !== text) {
        const item = plan.items.find((i) => redactForOutput(ctx, JSON.stringify(i)) !== JSON.stringify(i));
        throw new CliError(
          `the plan holds the value of a credential variable${item ? ` (in ${item.kind.toLowerCase()} ${item.name})` : ''}, so it is not saved: steward never writes credentials into files. Remove the value (or the \${VAR} that brings it) from the files, or find why the service returns it`,
          { code: 'config' },
        );
      }
      writeFileAtomic(resolve(ctx.cwd, args.out), text);
    }
    ctx.io.stdout(await renderPlan(plan, args.format, ctx, { showUnchanged: args.showUnchanged, out: args.out }));
    if (args.out && args.format === 'text') ctx.io.stdout(`Saved the plan to ${args.out}.\n`);
    return args.detailedExitcode ? detailedExitCode(plan) : 0;
  },
});

/** The problems that stopped a plan, in the plan's output format (stdout); the text form goes to stderr as usual. */
export async function renderInvalid(issues: readonly Issue[], format: 'json' | 'github' | 'markdown', ctx: CommandContext): Promise<string> {
  const rel = issues.map((i) => ({ ...i, file: i.file.startsWith(ctx.cwd + sep) ? i.file.slice(ctx.cwd.length + 1) : i.file }));
  if (format === 'markdown') {
    const errors = rel.filter((i) => i.severity === 'error');
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    return [
      `## steward plan`,
      '',
      `**invalid: ${errors.length} problem${errors.length === 1 ? '' : 's'}; nothing was planned**`,
      '',
      ...rel.map((i) => `- \`${i.file}:${i.line}:${i.col}\` ${i.severity === 'warning' ? '(warning) ' : ''}${esc(i.message)}`),
      '',
    ].join('\n');
  }
  const { renderValidate } = await import('../../render/validate.ts');
  const files = new Set(rel.map((i) => i.file)).size;
  return renderValidate({ files, counts: {}, issues: rel }, format, { color: false }).replace('steward validate:', 'steward plan:');
}

/**
 * A plan in one of the formats. `out` is the saved plan's file (named as the way to apply it); `applying`
 * when apply prints the plan it is about to run (no "Run `steward apply`").
 */
export async function renderPlan(
  plan: Plan,
  format: PlanArgs['format'],
  ctx: CommandContext,
  opts: { showUnchanged?: boolean; out?: string; applying?: boolean } = {},
): Promise<string> {
  // Every string redacted as a value, before any renderer escapes, wraps or cuts it: a credential escaped
  // for Markdown (\_) or wrapped over two lines would no longer be found in the finished text.
  plan = redactValue(ctx, plan);
  switch (format) {
    case 'json':
      return JSON.stringify(plan, null, 2) + '\n';
    case 'markdown': {
      const { renderPlanMarkdown } = await import('../../render/plan-markdown.ts');
      return renderPlanMarkdown(plan, opts.out ? { artifactHint: `\`${opts.out}\`` } : {});
    }
    case 'github': {
      const { renderPlanGithub } = await import('../../render/plan-github.ts');
      return renderPlanGithub(plan);
    }
    default: {
      const { renderPlanText } = await import('../../render/plan-text.ts');
      const next = opts.applying ? 'applying' : opts.out ? `steward apply ${opts.out}` : undefined;
      return renderPlanText(plan, { color: ctx.color, columns: ctx.columns, showUnchanged: opts.showUnchanged ?? false, ...(next ? { next } : {}) });
    }
  }
}
