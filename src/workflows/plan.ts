/**
 * The plan workflow: load and validate the files, resolve names, read the live lists once and compute the
 * plan. Shared by `steward plan` and `steward apply`; it renders nothing and touches no process: the command
 * passes what it needs (folder, environment, abort signal, how to connect) and renders the value returned.
 */
import { createHash } from 'node:crypto';
import { relative, resolve, sep } from 'node:path';
import type { AnyResource } from '../model/resource.ts';
import { UsageError, ValidationError } from '../errors.ts';
import type { PlanBinding, PlanItem } from '../plan/types.ts';
import { MEMO_FILE, openLiveMemo } from '../config/live-memo.ts';
import { CACHE_DIR } from '../config/cache.ts';
import { nodeFileSystem } from '../config/fs.ts';
import { bindLiveMemo, type LiveSide } from './live-side.ts';
import { createRedactor } from '../clients/redact.ts';
import { markerTagIssue } from '../config/project.ts';
import type { Loaded } from '../config/load.ts';
import type { Project } from '../config/project.ts';
import type { ObservabilityClient } from '../clients/observability.ts';
import { OBSERVABILITY_PROFILES, missingCapability, type ObservabilityProfile } from '../clients/profiles.ts';
import type { Services, WorkflowDeps } from './deps.ts';

/** What shapes a plan: the command's flags, as values. */
export interface PlanOptions {
  paths?: string[];
  config?: string;
  /** The environment overlay (--env). */
  env?: string;
  target?: string[];
  reassertAlerts: boolean;
  concurrency?: number;
  cache?: boolean;
  prune?: boolean;
  /** With prune: delete even when no file declares any of the kind (src/plan/prune-guard.ts). */
  allowEmpty?: boolean;
  serverValidate?: boolean;
  /** Set by apply when it recomputes a saved plan: the plan's own seed for new filter ids. */
  idSeed?: string;
}

/** Loads the project, reads live state once and computes the plan. Shared by plan and apply. */
export async function makePlan(deps: WorkflowDeps, args: PlanOptions) {
  if (args.concurrency !== undefined && (!Number.isInteger(args.concurrency) || args.concurrency < 1 || args.concurrency > 64)) {
    throw new UsageError('--concurrency must be a whole number from 1 to 64');
  }
  const [{ loadWorkspace }, { cacheWanted }] = await Promise.all([import('../config/load.ts'), import('../config/cache.ts')]);
  const useCache = cacheWanted(args.cache, deps.env);
  // One meaning for paths, as in validate: a folder that holds a project file is that project
  // (`steward plan examples`); other paths narrow the plan to the resources in them.
  const { projectPath, paths } = splitProjectPath(args.paths ?? [], args.config, deps.cwd, nodeFileSystem);
  let early: EarlyReads | undefined;
  try {
    const loaded = await loadWorkspace(
      { fs: nodeFileSystem, env: deps.env, cwd: deps.cwd, signal: deps.signal },
      {
        config: projectPath ?? args.config,
        envName: args.env,
        requireProject: true,
        cache: useCache,
        // A project that cannot connect (a variable not set) stops the plan once its files are checked: then
        // nothing is written, the parse cache included.
        onProject: (p) => {
          const reads = startReads(deps, p, args, useCache);
          if (reads === 'cannot-connect') return false;
          early = reads;
          return true;
        },
      },
    );
    // Whether the lone path named the project (apply takes it as --config) rather than narrowing the plan.
    return { ...(await planLoaded(deps, args, { loaded, paths, early, useCache })), projectFromPath: projectPath !== undefined };
  } catch (e) {
    // A plan stopped by a file's problem (or anything else) makes no use of the lists: stop reading them.
    const started = early as EarlyReads | undefined;
    started?.stop.abort();
    started?.side.stop();
    throw e;
  }
}

/** The live reads started while the files are parsed, and the services they go through. */
interface EarlyReads {
  services: Services;
  dashboards: ReturnType<ObservabilityClient['listDashboards']>;
  alerts: ReturnType<ObservabilityClient['listAlerts']> | undefined;
  /** Prepares the live side while the files are parsed. */
  side: LiveSide;
  stop: AbortController;
}

/**
 * Starts reading the live lists as soon as the project file is known (issue 15): the files of a large
 * project are parsed on worker threads while this thread waited, and the list (28 MB at 10,000 dashboards)
 * was only asked for afterwards. Not started when the project file or the flags alone stop the plan (the
 * marker tag, a flag the profile cannot serve, a --target not written kind/name); what only the files can
 * tell (a file's problem, a target or path naming nothing) stops it after the requests went out, and aborts
 * them. Errors wait for the plan to ask for the list, so a file's problem is still what is reported first.
 */
function startReads(deps: WorkflowDeps, project: Project, args: PlanOptions, useCache: boolean): EarlyReads | undefined | 'cannot-connect' {
  if (markerTagIssue(project)) return undefined;
  const profile = OBSERVABILITY_PROFILES[project.spec.observability?.api ?? 'seed'];
  if (flagProblem(profile, args)) return undefined;
  if ((args.target ?? []).some((t) => !TARGET.test(t))) return undefined;
  let services: Services;
  let client: ObservabilityClient;
  try {
    services = deps.connect(project);
    client = services.observability();
  } catch {
    return 'cannot-connect';
  }
  const stop = new AbortController();
  const signal = AbortSignal.any([deps.signal, stop.signal]);
  // The memo is read after the request is sent (it is asked only once the body is in).
  const later: { side?: LiveSide } = {};
  const dashboards = client.listDashboards({ signal, known: (digest) => later.side?.known(digest) });
  const alerts = profile.capabilities.readAlerts ? client.listAlerts({ signal }) : undefined;
  // Handled where the plan awaits them; until then a rejection is not unhandled.
  for (const p of [dashboards, alerts]) p?.catch(() => {});
  const memo = useCache ? openLiveMemo(nodeFileSystem, project.dir, deps.env) : undefined;
  const side = (later.side = bindLiveMemo(memo, project.markerTag));
  const pause = () => new Promise<void>((r) => setImmediate(r));
  dashboards.then((live) => side.prepare(live, pause)).catch(() => {});
  return { services, dashboards, alerts, side, stop };
}

/** A flag the profile cannot serve: said before any request. */
function flagProblem(profile: ObservabilityProfile, args: PlanOptions): UsageError | undefined {
  if (args.prune) {
    const missing = missingCapability(profile, 'deleteDashboard', '--prune deletes orphans');
    if (missing) return new UsageError(missing.replace(/^--prune deletes orphans: (.*) cannot do that/, `--prune: $1 cannot delete dashboards`));
  }
  if (args.serverValidate) {
    const missing = missingCapability(profile, 'validateDashboard', '--server-validate');
    if (missing) return new UsageError(missing);
  }
  return undefined;
}

async function planLoaded(
  deps: WorkflowDeps,
  args: PlanOptions,
  { loaded, paths, early, useCache }: { loaded: Loaded; paths: string[]; early: EarlyReads | undefined; useCache: boolean },
) {
  const [{ computePlan }, { readState }] = await Promise.all([import('../plan/plan.ts'), import('../apply/state.ts')]);
  const project = loaded.project!;
  const marker = markerTagIssue(project);
  const issues = marker ? [...loaded.issues, { ...marker, file: relative(deps.cwd, marker.file) || marker.file }] : loaded.issues;
  if (issues.some((i) => i.severity === 'error')) throw new ValidationError(issues);
  const include = narrow(
    loaded.resources,
    args.target ?? [],
    paths.map((p) => resolve(deps.cwd, p)),
    deps.cwd,
  );
  const profile = OBSERVABILITY_PROFILES[project.spec.observability?.api ?? 'seed'];
  const prune = args.prune ?? project.spec.prune ?? false;
  if (args.allowEmpty && !prune) throw new UsageError('--allow-empty says what --prune may delete: give --prune too (or set spec.prune: true)');
  const problem = flagProblem(profile, args);
  if (problem) throw problem;
  const services = early?.services ?? deps.connect(project);
  const state = readState(project.statePath);
  const client = services.observability();
  let resources = loaded.resources;
  // Names instead of ids (source: Logs, webhook: ops-pager): one list request per kind, only when a file uses one.
  const names = await import('../plan/names.ts');
  const kinds = [
    {
      key: 'source',
      list: 'sources',
      cap: 'listSources',
      uses: names.usesSourceNames,
      resolve: names.resolveSourceNames,
      read: () => client.listSources({ signal: deps.signal }),
    },
    {
      key: 'webhook',
      list: 'webhooks',
      cap: 'listWebhooks',
      uses: names.usesWebhookNames,
      resolve: names.resolveWebhookNames,
      read: () => client.listWebhooks({ signal: deps.signal }),
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
  const side = early?.side ?? bindLiveMemo(useCache ? openLiveMemo(nodeFileSystem, project.dir, deps.env) : undefined, project.markerTag);
  const live = await (early?.dashboards ?? client.listDashboards({ signal: deps.signal, known: (digest) => side.known(digest) }));
  const liveAlerts = profile.capabilities.readAlerts ? await (early?.alerts ?? client.listAlerts({ signal: deps.signal })) : undefined;
  const { bindingFile, bindingServer, planDigest, projectName, seededIds } = await import('../apply/plan-file.ts');
  // New filter ids come from a seed kept in the plan, so that apply recomputes exactly these items.
  // What the files were not parsed long enough to prepare, computePlan does.
  side.stop();
  const { liveMemo } = side;
  const fingerprint = side.fingerprint(live, state, liveAlerts);
  // Derived from what the plan is made from, so that the same inputs give the same plan, byte for byte.
  const idSeed =
    args.idSeed ??
    createHash('sha256')
      .update(`${project.file}\u0000${fingerprint}\u0000${JSON.stringify(args.target ?? [])}`)
      .digest('hex')
      .slice(0, 24);
  const redact = createRedactor(services.secrets(), { patterns: false });
  const plan = computePlan({
    fingerprint,
    newId: seededIds(idSeed),
    ...(liveAlerts ? { liveAlerts } : {}),
    capabilities: profile.capabilities,
    api: profile.api,
    prune,
    allowEmpty: args.allowEmpty ?? false,
    resources,
    live,
    state,
    markerTag: project.markerTag,
    now: services.clock.now(),
    projectDir: project.dir,
    ...(project.envName ? { env: project.envName } : {}),
    ...(include ? { include } : {}),
    reassertAlerts: args.reassertAlerts,
    ...(liveMemo ? { liveMemo } : {}),
    redact,
  });
  const saved = side.save({ whole: dashboardsReadWhole(plan.items, resources), safe: (text) => redact(text) === text });
  const memoState = saved !== 'off' ? saved : useCache ? 'none (no machine key, code identity or cache folder inside the project)' : 'off (--no-cache)';
  services.debug?.(`live memo ${CACHE_DIR}/${MEMO_FILE}: ${memoState}`);
  const { resolveObservability } = await import('../config/connection.ts');
  const binding: PlanBinding = {
    project: await projectName(project.file),
    file: bindingFile(project.file),
    ...(project.envName ? { env: project.envName } : {}),
    server: bindingServer(resolveObservability(project, deps.env).url),
    idSeed,
    options: {
      targets: [...(args.target ?? [])].sort(),
      // A folder that holds the project (`plan ..` from its folder) narrows nothing: saved as the project's own.
      paths: (args.paths ?? [])
        .map((p) => relative(project.dir, resolve(deps.cwd, p)).split(sep).join('/'))
        .map((p) => (/^\.\.(\/\.\.)*$/.test(p) ? '' : p) || '.')
        .sort(),
      prune,
      ...(prune && args.allowEmpty ? { allowEmpty: true as const } : {}),
      reassertAlerts: args.reassertAlerts,
    },
  };
  if (plan.targeted) plan.targetedOf = resources.filter((r) => r.kind === 'Dashboard' || r.kind === 'Alert').length;
  plan.binding = binding;
  plan.digest = planDigest(plan.items, binding);
  // Alerts steward applied whose files are gone (the seed API cannot read or delete them): said by the caller.
  const alertsLeft = !liveAlerts && !include ? alertsLeftFiles(state, resources) : [];
  if (args.serverValidate) {
    // Reads only: the validate endpoint saves nothing. One request per dashboard the plan would write.
    for (const item of plan.items) {
      if (item.kind !== 'Dashboard' || (item.action !== 'create' && item.action !== 'update') || !item.body) continue;
      const v = await client.validateDashboard(item.body, { signal: deps.signal });
      item.serverValidation = { valid: v.valid, errors: (v.errors ?? []).map((e) => `${e.path ? `${e.path}: ` : ''}${e.message ?? 'invalid'}`) };
    }
  }
  return { plan, project, deps: services, loaded: { ...loaded, resources }, state, live, liveAlerts, liveDigest: side.liveDigest, alertsLeft };
}

/**
 * The live dashboards a plan reads beyond their id, name and tags: those the project's alerts are on (their
 * tiles give the tile's id), and those that differ from their file (diffed).
 */
function dashboardsReadWhole(items: readonly PlanItem[], resources: readonly AnyResource[]): Set<string> {
  const names = new Set<unknown>();
  for (const r of resources) if (r.kind === 'Alert') names.add((r.doc.spec as { tile?: { dashboard?: unknown } }).tile?.dashboard);
  const ids = new Set<string>();
  for (const it of items) if (it.kind === 'Dashboard' && it.id !== undefined && (it.action !== 'noop' || names.has(it.name))) ids.add(it.id);
  return ids;
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

/** How a --target is written: kind/name. */
const TARGET = /^(dashboard|alert)\/(.+)$/i;

/** --target kind/name and path arguments, as one filter; undefined when nothing narrows the plan. */
function narrow(resources: readonly AnyResource[], targets: string[], paths: string[], cwd: string): ((r: AnyResource) => boolean) | undefined {
  if (targets.length === 0 && paths.length === 0) return undefined;
  const wanted = new Set<string>();
  for (const t of targets) {
    const m = TARGET.exec(t);
    const kind = m ? ({ dashboard: 'Dashboard', alert: 'Alert' } as Record<string, string>)[m[1]!.toLowerCase()] : undefined;
    if (!m || !kind) throw new UsageError(`--target ${t}: write kind/name, like dashboard/checkout-overview or alert/checkout-errors`);
    if (!resources.some((r) => r.kind === kind && r.name === m[2])) {
      const names = resources.filter((r) => r.kind === kind).map((r) => r.name);
      throw new UsageError(`--target ${t}: no ${kind} named "${m[2]}" (there are: ${names.join(', ') || 'none'})`);
    }
    wanted.add(`${kind}/${m[2]}`);
  }
  const inPaths = (f: string) => paths.some((p) => f === p || f.startsWith(p.endsWith(sep) ? p : p + sep));
  // As validate says it: a mistyped path is not "no resources under" it.
  const missing = paths.find((p) => !nodeFileSystem.stat(p));
  if (missing !== undefined) throw new UsageError(`${relative(cwd, missing) || missing}: no such file or folder`);
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
