import { formatTime } from '../report/format.ts';
import { cut, plural } from '../shared/text.ts';
import type { Finding, Report, ServiceReport, Severity } from '../report/types.ts';
import { escapeTerminal as t } from './escape.ts';
import { painter, type Style } from '../shared/colour.ts';
import { maxOf } from '../shared/arrays.ts';
import { FINDINGS_SHOWN, firstFindings, MESSAGE_LIMIT, moreFindings } from './report-bounds.ts';

export interface ReportTextOptions {
  color: boolean;
  /** Findings listed per service (default FINDINGS_SHOWN); the rest are counted and left to report.json. */
  maxFindings?: number;
}

/**
 * What `steward report` prints on stdout: the totals, then one block per service with its findings, one line
 * each: severity, check id, object, message. Long lines are not wrapped (the terminal does it). A CI log is
 * read by people: each service lists its first findings (errors first) and says how many more report.json
 * has, and a message is cut at MESSAGE_LIMIT characters (src/render/report-bounds.ts).
 */
export function renderReportText(report: Report, opts: ReportTextOptions): string {
  const style = painter(opts.color);
  const paint = (sev: Severity, s: string) => style(COLORS[sev], s);
  const dim = (s: string) => style('dim', s);
  const lines: string[] = [];
  const s = report.summary;
  lines.push(`steward report as of ${formatTime(report.generatedAt)}: ${plural(s.services, 'service')}, ${countsText(s)}`);
  for (const svc of report.services) {
    lines.push('');
    // Names, ids and messages come from the project and the cloud API: escaped for the terminal.
    lines.push(`${t(svc.name)}  ${dim(`organization ${t(svc.organizationId)}, service ${t(svc.serviceId)}`)}`);
    lines.push(`  ${serviceLine(svc)}`);
    if (svc.findings.length === 0) {
      lines.push(`  ${dim('no findings')}`);
      continue;
    }
    const { shown, rest } = firstFindings(svc.findings, opts.maxFindings ?? FINDINGS_SHOWN);
    const idWidth = maxOf(shown.map((f) => f.id.length));
    for (const f of shown) {
      lines.push(`  ${paint(f.severity, f.severity.padEnd(7))} ${t(f.id).padEnd(idWidth)}  ${t(cut(f.message, MESSAGE_LIMIT))}`);
    }
    if (rest.length > 0) lines.push(`  ${dim(`… and ${moreFindings(rest)}`)}`);
  }
  return lines.join('\n') + '\n';
}

const COLORS: Record<Severity, Style> = { error: 'red', warning: 'yellow', info: 'cyan' };

/** "3 errors, 2 warnings, 1 info". */
export function countsText(c: { error: number; warning: number; info: number }): string {
  return `${plural(c.error, 'error')}, ${plural(c.warning, 'warning')}, ${c.info} info`;
}

function serviceLine(svc: ServiceReport): string {
  const c = countBySeverity(svc.findings);
  const failed =
    svc.readFailures.length || svc.malformedItems.length
      ? `; ${incompleteWhy(svc.readFailures.length, svc.malformedItems.length)}, the review is incomplete`
      : '';
  return `${countsText(c)} (${plural(svc.backups.length, 'backup')}, ${plural(svc.pipes.length, 'pipe')}, ${plural(svc.endpoints.length, 'endpoint')})${failed}`;
}

/** Findings per severity. */
export function countBySeverity(findings: readonly Finding[]): { error: number; warning: number; info: number } {
  const c = { error: 0, warning: 0, info: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

/** "1 read failed", "2 items malformed", "1 read failed and 1 item malformed". */
export function incompleteWhy(readFailures: number, malformedItems: number): string {
  const parts: string[] = [];
  if (readFailures) parts.push(`${plural(readFailures, 'read')} failed`);
  if (malformedItems) parts.push(`${plural(malformedItems, 'item')} malformed`);
  return parts.join(' and ');
}
