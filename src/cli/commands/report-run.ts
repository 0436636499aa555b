import {} from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { assertReplaceable, writeFileAtomic } from '../../atomic-write.ts';
import { projectFileRole, type Project } from '../../config/project.ts';
import { CliError } from '../../errors.ts';
import { renderIssuesText } from '../../render/issues.ts';
import { escapeTerminal } from '../../render/escape.ts';
import { renderReportHtml } from '../../render/report-html.ts';
import { renderReportJson } from '../../render/report-json.ts';
import { renderReportMarkdown } from '../../render/report-markdown.ts';
import { incompleteWhy, renderReportText } from '../../render/report-text.ts';
import { makeFolderInside } from '../../shared/paths.ts';
import { reachesSeverity } from '../../report/report.ts';
import type { CloudReader, Report } from '../../report/types.ts';
import { redactForOutput, redactForRender, type CommandContext, type GlobalArgs } from '../context.ts';
import { createCloudReader } from './report-deps.ts';
import type { ReportArgs } from './report.ts';
import { makeReport } from '../../workflows/report.ts';
import { makeDirs } from '../../shared/files.ts';

/** What the command needs from outside, so tests can run it in-process against a fake cloud. */
export interface ReportDeps {
  createReader: (project: Project, ctx: CommandContext, opts: { debug: boolean }) => CloudReader;
  now: () => Date;
}

export const defaultReportDeps: ReportDeps = { createReader: createCloudReader, now: () => new Date() };

export const REPORT_FILES = ['report.md', 'report.json', 'report.html'] as const;

/**
 * `steward report`: the report workflow (src/workflows/report.ts) with this command's reader, then the three
 * files written atomically and the summary printed. Returns the exit code.
 */
export async function runReport(args: ReportArgs & GlobalArgs, ctx: CommandContext, deps: ReportDeps = defaultReportDeps): Promise<number> {
  const {
    report: read,
    project,
    warnings,
    services,
  } = await makeReport(
    {
      cwd: ctx.cwd,
      env: ctx.env,
      signal: ctx.signal,
      now: deps.now,
      reader: (project) => deps.createReader(project, ctx, { debug: args.debug }),
      onProject: (project) => ctx.secrets?.addProject(project.spec),
    },
    args,
  );
  // The value rendered has every credential the output knows replaced already (a GITHUB_TOKEN-like variable's
  // value too, which the report's own redaction is not told of): the formats people read cut long text, and a
  // secret cut in half is no longer found in the finished text, so its first part showed.
  const report = redactForRender(ctx, read);
  if (warnings.length) ctx.io.stderr(renderIssuesText(warnings, { color: ctx.color }) + '\n');

  const outDir = resolve(ctx.cwd, args.out);
  // As plan --out: no report file may replace a file of the project (a state file named reports/report.json),
  // also as macOS and Windows compare names (REPORTS/Report.json).
  for (const name of REPORT_FILES) {
    const taken = projectFileRole(project, join(outDir, name));
    if (taken)
      throw new CliError(`--out ${args.out}: ${name} there is ${taken}, which the report would replace; give the report a folder of its own (reports)`, {
        code: 'usage',
      });
  }
  makeFolderInside(ctx.cwd, outDir, 'the report');
  const written = writeReportFiles(outDir, report, (text) => redactForOutput(ctx, text));
  const where = written.map((f) => displayPath(ctx.cwd, f)).join(', ');

  if (args.format === 'json') {
    ctx.io.stdout(renderReportJson(report));
    ctx.io.stderr(`wrote ${where}\n`);
  } else if (args.format === 'markdown') {
    ctx.io.stdout(renderReportMarkdown(report));
    ctx.io.stderr(`wrote ${where}\n`);
  } else if (args.format === 'github') {
    const { renderReportGithub } = await import('../../render/report-github.ts');
    ctx.io.stdout(renderReportGithub(report));
    ctx.io.stderr(`wrote ${where}\n`);
  } else {
    ctx.io.stdout(renderReportText(report, { color: ctx.color }) + `\nwrote ${where}\n`);
  }

  const { readFailures, malformedItems } = report.summary;
  if (readFailures > 0 || malformedItems > 0) {
    const see = [readFailures > 0 ? 'read.failed' : '', malformedItems > 0 ? 'read.malformed-item' : ''].filter(Boolean).join(' and ');
    ctx.io.stderr(`error: ${incompleteWhy(readFailures, malformedItems)}, so the review is incomplete (see the ${see} findings)\n`);
    return 1;
  }
  if (services === 0) ctx.io.stderr('note: the project has no CloudService, so there was nothing to review\n');
  return args.failOn !== undefined && reachesSeverity(report, args.failOn) ? 2 : 0;
}

/** Writes report.md, report.json and report.html under `dir`, each through a temp file and a rename. */
export function writeReportFiles(dir: string, report: Report, redact: (text: string) => string = (t) => t): string[] {
  try {
    makeDirs(dir);
  } catch (e) {
    throw new CliError(`cannot create ${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { cause: e });
  }
  // The three files are one report: none is replaced when one of them cannot be (a folder or a fifo where
  // report.html goes left a new report.md beside an old report.json).
  for (const name of REPORT_FILES) assertReplaceable(join(dir, name));
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
  // The folder is --out as typed: an escape sequence in it would be run by the terminal, not shown.
  return escapeTerminal(r === '' || r.startsWith('..') ? file : r);
}
