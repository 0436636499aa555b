import { mkdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { writeFileAtomic } from '../../atomic-write.ts';
import { nodeFileSystem } from '../../config/fs.ts';
import type { Env } from '../../config/interpolate.ts';
import { loadWorkspace } from '../../config/load.ts';
import type { Project } from '../../config/project.ts';
import { CliError, UsageError, ValidationError } from '../../errors.ts';
import { renderIssuesText } from '../../render/issues.ts';
import { renderReportHtml } from '../../render/report-html.ts';
import { renderReportJson } from '../../render/report-json.ts';
import { renderReportMarkdown } from '../../render/report-markdown.ts';
import { renderReportText } from '../../render/report-text.ts';
import { makeFolderInside } from '../../shared/paths.ts';
import { plural } from '../../shared/text.ts';
import { readCloud, DEFAULT_REPORT_CONCURRENCY, type CloudServiceTarget, type ServiceRead } from '../../report/read.ts';
import { buildReport, reachesSeverity } from '../../report/report.ts';
import type { CloudReader, Report } from '../../report/types.ts';
import { redactForOutput, type CommandContext, type GlobalArgs } from '../context.ts';
import { createCloudReader } from './report-deps.ts';
import type { ReportArgs } from './report.ts';

/** What the command needs from outside, so tests can run it in-process against a fake cloud. */
export interface ReportDeps {
  createReader: (project: Project, ctx: CommandContext, opts: { debug: boolean }) => CloudReader;
  now: () => Date;
}

export const defaultReportDeps: ReportDeps = { createReader: createCloudReader, now: () => new Date() };

export const REPORT_FILES = ['report.md', 'report.json', 'report.html'] as const;

/**
 * `steward report`: load the project, read every CloudService (concurrently, within the client's rate
 * limit), check, redact, write the three files atomically, print the summary. Returns the exit code.
 */
export async function runReport(args: ReportArgs & GlobalArgs, ctx: CommandContext, deps: ReportDeps = defaultReportDeps): Promise<number> {
  if (args.concurrency !== undefined && !(Number.isInteger(args.concurrency) && args.concurrency >= 1)) {
    throw new UsageError(`--concurrency must be a whole number of 1 or more, not ${String(args.concurrency)}`);
  }
  const loaded = await loadWorkspace({ fs: nodeFileSystem, env: ctx.env, cwd: ctx.cwd }, { config: args.config, envName: args.env, requireProject: true });
  if (loaded.issues.some((i) => i.severity === 'error')) throw new ValidationError(loaded.issues);
  if (loaded.issues.length) ctx.io.stderr(renderIssuesText(loaded.issues, { color: ctx.color }) + '\n');
  const project = loaded.project!;
  ctx.secrets?.addProject(project.spec);

  const targets: CloudServiceTarget[] = [];
  for (const r of loaded.resources) if (r.kind === 'CloudService') targets.push({ name: r.name, spec: r.doc.spec });

  let reads: ServiceRead[] = [];
  if (targets.length > 0) {
    const reader = deps.createReader(project, ctx, { debug: args.debug });
    reads = await readCloud({ reader, concurrency: args.concurrency ?? project.concurrency ?? DEFAULT_REPORT_CONCURRENCY, signal: ctx.signal }, targets);
  }
  const report = buildReport(reads, { now: deps.now(), secrets: configuredSecrets(project, ctx.env) });

  const outDir = resolve(ctx.cwd, args.out);
  makeFolderInside(ctx.cwd, outDir, 'the report');
  const written = writeReportFiles(outDir, report, (text) => redactForOutput(ctx, text));
  const where = written.map((f) => displayPath(ctx.cwd, f)).join(', ');

  if (args.format === 'json') {
    ctx.io.stdout(renderReportJson(report));
    ctx.io.stderr(`wrote ${where}\n`);
  } else if (args.format === 'markdown') {
    ctx.io.stdout(renderReportMarkdown(report));
    ctx.io.stderr(`wrote ${where}\n`);
  } else {
    ctx.io.stdout(renderReportText(report, { color: ctx.color }) + `\nwrote ${where}\n`);
  }

  if (report.summary.readFailures > 0) {
    ctx.io.stderr(`error: ${plural(report.summary.readFailures, 'read')} failed, so the review is incomplete (see the read.failed findings)\n`);
    return 1;
  }
  if (targets.length === 0) ctx.io.stderr('note: the project has no CloudService, so there was nothing to review\n');
  return args.failOn !== undefined && reachesSeverity(report, args.failOn) ? 2 : 0;
}

/**
 * The credential values the project names (cloud key secret, observability token): redacted wherever they
 * would appear, whole or inside text.
 */
export function configuredSecrets(project: Project, env: Env): string[] {
  const names = [project.spec.cloud?.keyId?.env, project.spec.cloud?.keySecret?.env, project.spec.observability?.token?.env];
  const out: string[] = [];
  for (const n of names) {
    const v = n === undefined ? undefined : env[n];
    if (v !== undefined && v !== '') out.push(v);
  }
  return out;
}

/** Writes report.md, report.json and report.html under `dir`, each through a temp file and a rename. */
export function writeReportFiles(dir: string, report: Report, redact: (text: string) => string = (t) => t): string[] {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (e) {
    throw new CliError(`cannot create ${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { cause: e });
  }
  const contents: Record<(typeof REPORT_FILES)[number], string> = {
    'report.md': renderReportMarkdown(report),
    'report.json': renderReportJson(report),
    'report.html': renderReportHtml(report),
  };
  return REPORT_FILES.map((name) => {
    const path = join(dir, name);
    writeFileAtomic(path, redact(contents[name]));
    return path;
  });
}

function displayPath(cwd: string, file: string): string {
  const r = relative(cwd, file);
  return r === '' || r.startsWith('..') ? file : r;
}
