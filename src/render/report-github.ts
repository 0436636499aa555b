import type { Report, Severity } from '../report/types.ts';
import { escapeGithubMessage as esc, escapeGithubProperty as escProp } from './escape.ts';
import { countsText } from './report-text.ts';
import { FINDINGS_SHOWN, firstFindings, MESSAGE_LIMIT, moreFindings, NAME_LIMIT } from './report-bounds.ts';
import { cut } from '../shared/text.ts';

const LEVEL: Record<Severity, 'error' | 'warning' | 'notice'> = { error: 'error', warning: 'warning', info: 'notice' };

/**
 * GitHub workflow annotations, as validate and plan write them: one per finding at its severity (info as a
 * notice), titled with the finding id and the service, then the totals. Names, ids and messages come from the
 * project and the cloud API: escaped so that none can end an annotation or start a workflow command. The first
 * `maxFindings` of each service (errors first), then a notice of how many more report.json has; names and
 * messages cut (src/render/report-bounds.ts).
 */
export function renderReportGithub(report: Report, opts: { maxFindings?: number } = {}): string {
  const lines: string[] = [];
  for (const svc of report.services) {
    const { shown, rest } = firstFindings(svc.findings, opts.maxFindings ?? FINDINGS_SHOWN);
    for (const f of shown) {
      lines.push(
        `::${LEVEL[f.severity]} title=${escProp(`steward report ${f.id}: ${svc.name}`)}::${esc(`${f.object.kind} ${cut(f.object.name, NAME_LIMIT)}: ${cut(f.message, MESSAGE_LIMIT)}`)}`,
      );
    }
    if (rest.length > 0) lines.push(`::notice title=${escProp(`steward report: ${svc.name}`)}::${esc(`and ${moreFindings(rest)}`)}`);
  }
  const s = report.summary;
  lines.push(`::notice title=steward report::${esc(`${s.services} service${s.services === 1 ? '' : 's'}, ${countsText(s)}`)}`);
  return lines.join('\n') + '\n';
}
