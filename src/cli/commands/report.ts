import { DEFAULT_REPORT_CONCURRENCY } from '../../report/read.ts';
import { FINDINGS_SHOWN, HTML_ROWS_SHOWN } from '../../render/report-bounds.ts';
import { defineCommand } from '../context.ts';

export type ReportFormat = 'text' | 'json' | 'markdown' | 'github';

export interface ReportArgs {
  out: string;
  failOn?: 'error' | 'warning';
  format: ReportFormat;
  concurrency?: number;
}

export const reportCommand = defineCommand<ReportArgs>({
  command: 'report',
  describe: 'Drift review of cloud backups, ingest pipes and private endpoints; writes report.md, report.json, report.html',
  builder: (y) =>
    y
      .option('out', { type: 'string', default: 'reports', describe: 'Folder for report.md, report.json and report.html (relative to the current folder)' })
      .option('fail-on', { choices: ['error', 'warning'] as const, describe: 'Exit 2 when a finding reaches this severity' })
      .option('format', {
        choices: ['text', 'json', 'markdown', 'github'] as const,
        default: 'text' as const,
        describe: 'What to print on stdout: text, json (report.json), markdown (report.md), github (annotations)',
      })
      .option('concurrency', { type: 'number', describe: `Services read at once (default: the project's concurrency, else ${DEFAULT_REPORT_CONCURRENCY})` })
      .example('steward report', 'Review every CloudService; write reports/report.{md,json,html}')
      .example('steward report --fail-on error', 'Nightly job: exit 2 when a finding is an error')
      .example('steward report --out out/review --format markdown >> "$GITHUB_STEP_SUMMARY"', 'Job summary in GitHub Actions')
      .epilogue(
        'Exit codes: 0 reviewed (findings below --fail-on), 1 error (bad input, or a read failed: the review is incomplete), 2 findings reach --fail-on.\n' +
          `Text, markdown and github list the first ${FINDINGS_SHOWN} findings of each service (report.html ${HTML_ROWS_SHOWN}), errors first, and cut long text; report.json has everything.\n` +
          'Checks, ids and severities: docs/report.md',
      ),
  run: async (args, ctx) => (await import('./report-run.ts')).runReport(args, ctx),
});
