import type { Report, Severity } from '../report/types.ts';
import { escapeGithubMessage as esc, escapeGithubProperty as escProp } from './escape.ts';
import { countsText } from './report-text.ts';

const LEVEL: Record<Severity, 'error' | 'warning' | 'notice'> = { error: 'error', warning: 'warning', info: 'notice' };

/**
 * GitHub workflow annotations, as validate and plan write them: one per finding at its severity (info as a
 * notice), titled with the finding id and the service, then the totals. Names, ids and messages come from the
 * project and the cloud API: escaped so that none can end an annotation or start a workflow command.
 */
export function renderReportGithub(report: Report): string {
  const lines: string[] = [];
  for (const svc of report.services) {
    for (const f of svc.findings) {
      lines.push(`::${LEVEL[f.severity]} title=${escProp(`steward report ${f.id}: ${svc.name}`)}::${esc(`${f.object.kind} ${f.object.name}: ${f.message}`)}`);
    }
  }
  const s = report.summary;
  lines.push(`::notice title=steward report::${esc(`${s.services} service${s.services === 1 ? '' : 's'}, ${countsText(s)}`)}`);
  return lines.join('\n') + '\n';
}
