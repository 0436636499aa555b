/**
 * The report workflow: load the project, read every CloudService (concurrently, within the client's rate
 * limit) and check it. Returns the Report value; writing its files and printing it are the command's.
 */
import type { Project } from '../config/project.ts';
import { UsageError, ValidationError, type Issue } from '../errors.ts';
import { readCloud, DEFAULT_REPORT_CONCURRENCY, type CloudServiceTarget, type ServiceRead } from '../report/read.ts';
import { buildReport } from '../report/report.ts';
import type { CloudReader, Report } from '../report/types.ts';
import type { WorkflowDeps } from './deps.ts';

export interface ReportOptions {
  config?: string;
  /** The environment overlay (--env). */
  env?: string;
  concurrency?: number;
}

export interface ReportDeps extends Pick<WorkflowDeps, 'cwd' | 'env' | 'signal'> {
  /** The reader for a project's cloud (built only when the project has a CloudService). */
  reader(project: Project): CloudReader;
  /** Told the project as soon as it is loaded (the CLI redacts its credentials from then on). */
  onProject?(project: Project): void;
  now(): Date;
}

export interface ReportResult {
  report: Report;
  project: Project;
  /** Problems that did not stop the report (warnings). */
  warnings: Issue[];
  /** How many CloudService resources were reviewed. */
  services: number;
}

export async function makeReport(deps: ReportDeps, options: ReportOptions): Promise<ReportResult> {
  if (options.concurrency !== undefined && !(Number.isInteger(options.concurrency) && options.concurrency >= 1)) {
    throw new UsageError(`--concurrency must be a whole number of 1 or more, not ${String(options.concurrency)}`);
  }
  const [{ nodeFileSystem }, { loadWorkspace }] = await Promise.all([import('../config/fs.ts'), import('../config/load.ts')]);
  const loaded = await loadWorkspace(
    { fs: nodeFileSystem, env: deps.env, cwd: deps.cwd, signal: deps.signal },
    { config: options.config, envName: options.env, requireProject: true },
  );
  if (loaded.issues.some((i) => i.severity === 'error')) throw new ValidationError(loaded.issues);
  const project = loaded.project!;
  deps.onProject?.(project);

  const targets: CloudServiceTarget[] = [];
  for (const r of loaded.resources) if (r.kind === 'CloudService') targets.push({ name: r.name, spec: r.doc.spec });

  let reads: ServiceRead[] = [];
  if (targets.length > 0) {
    const concurrency = options.concurrency ?? project.concurrency ?? DEFAULT_REPORT_CONCURRENCY;
    reads = await readCloud({ reader: deps.reader(project), concurrency, signal: deps.signal }, targets);
  }
  const report = buildReport(reads, { now: deps.now(), secrets: configuredSecrets(project, deps.env) });
  return { report, project, warnings: loaded.issues, services: targets.length };
}

/**
 * The credential values the project names (cloud key secret, observability token): redacted wherever they
 * would appear, whole or inside text.
 */
export function configuredSecrets(project: Project, env: Readonly<Record<string, string | undefined>>): string[] {
  const names = [project.spec.cloud?.keyId?.env, project.spec.cloud?.keySecret?.env, project.spec.observability?.token?.env];
  const out: string[] = [];
  for (const n of names) {
    const v = n === undefined ? undefined : env[n];
    if (v !== undefined && v !== '') out.push(v);
  }
  return out;
}
