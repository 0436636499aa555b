import { formatBytes, formatDuration, formatTime } from '../report/format.ts';
import { cut, plural } from '../shared/text.ts';
import type { Finding, Report, ServiceReport } from '../report/types.ts';
import { axisLabels, backupLabeller, durationSeries, MAX_DRAWN_BACKUPS, sizeSeries, sparkline } from './report-chart.ts';
import { FINDINGS_SHOWN, firstFindings, MESSAGE_LIMIT, moreFindings, NAME_LIMIT, patchLines } from './report-bounds.ts';
import { escapeCodeBlockLine, escapeMarkdown, escapeMarkdownCode } from './escape.ts';
import { countBySeverity, incompleteWhy } from './report-text.ts';
import { maxOf, minOf, pushAll } from '../shared/arrays.ts';

export interface ReportMarkdownOptions {
  /** Longest output; findings beyond it are left to report.json (default 60,000, under GitHub's comment limit). */
  maxLength?: number;
  /** Most findings listed per service, whatever the length (default FINDINGS_SHOWN, src/render/report-bounds.ts). */
  maxFindings?: number;
}

const DEFAULT_MARKDOWN_MAX_LENGTH = 60_000;

/**
 * `report.md`, for a pull-request comment or a job summary: the summary table first, then a section per
 * service with its findings, field-drift patches, a text sparkline of backup sizes and durations, and
 * Mermaid `xychart-beta` charts in a collapsed block. When the whole would exceed `maxLength`, each service
 * lists fewer findings (errors first) and says how many more are in report.json.
 */
export function renderReportMarkdown(report: Report, opts: ReportMarkdownOptions = {}): string {
  const max = opts.maxLength ?? DEFAULT_MARKDOWN_MAX_LENGTH;
  // At most maxFindings a service in any case (a page of 50 findings is read; one of 100,000 is not).
  let limit = Math.min(Math.max(maxOf(report.services.map((s) => s.findings.length)), 0), opts.maxFindings ?? FINDINGS_SHOWN);
  let charts = true;
  let out = render(report, limit, charts);
  // Fewer findings down to 5 a service, then no charts, then fewer still: never past the limit for a server's text.
  while (out.length > max && (limit > 0 || charts)) {
    if (limit > 5) limit = Math.max(5, Math.floor(limit / 2));
    else if (charts) charts = false;
    else limit = Math.floor(limit / 2);
    out = render(report, limit, charts);
  }
  return out;
}

// A cell quotes at most MESSAGE_LIMIT characters of a message and NAME_LIMIT of a name, before escaping:
// findings quote what the server chose (a pipe's name, a backup's status), and 5 findings of 30,000
// characters each made a "60,000 at most" report.md of 240,000, which GitHub refuses as a comment.

function render(report: Report, findingLimit: number, charts: boolean): string {
  const s = report.summary;
  const out: string[] = [];
  out.push('## steward drift review', '');
  out.push(
    `As of ${formatTime(report.generatedAt)} · ${plural(s.services, 'service')} · ${s.error ? `**${plural(s.error, 'error')}**` : '0 errors'}, ${plural(s.warning, 'warning')}, ${s.info} info` +
      (s.readFailures || s.malformedItems ? ` · **${incompleteWhy(s.readFailures, s.malformedItems)}: the review is incomplete**` : ''),
    '',
  );
  if (report.services.length === 0) {
    out.push('No CloudService in the project: nothing to review.', '');
    return out.join('\n');
  }
  out.push('| service | errors | warnings | info | backups | pipes | endpoints |', '|---|---:|---:|---:|---:|---:|---:|');
  for (const svc of report.services) {
    const c = countBySeverity(svc.findings);
    out.push(`| ${cell(svc.name)} | ${c.error} | ${c.warning} | ${c.info} | ${svc.backups.length} | ${svc.pipes.length} | ${svc.endpoints.length} |`);
  }
  out.push(`| **total** | **${s.error}** | **${s.warning}** | **${s.info}** | | | |`, '');

  for (const svc of report.services) pushAll(out, serviceSection(svc, findingLimit, charts));
  out.push('<sub>Full details in report.json and report.html. Credentials are redacted.</sub>', '');
  return out.join('\n');
}

function serviceSection(svc: ServiceReport, findingLimit: number, charts: boolean): string[] {
  const out: string[] = [];
  out.push(`### ${cell(svc.name)}`, '');
  const state = svc.state === undefined ? '' : ` · state \`${code(cut(svc.state, NAME_LIMIT))}\``;
  out.push(`Organization \`${code(svc.organizationId)}\` · service \`${code(svc.serviceId)}\`${state}`, '');
  if (svc.findings.length === 0) out.push('No findings.', '');
  else {
    out.push('| severity | check | object | message |', '|---|---|---|---|');
    const { shown, rest } = firstFindings(svc.findings, findingLimit);
    const label = backupLabeller(svc.backups);
    for (const f of shown) {
      out.push(`| ${f.severity} | \`${f.id}\` | ${objectLabel(f, label)} | ${cell(cut(f.message, MESSAGE_LIMIT))} |`);
    }
    if (rest.length > 0) out.push(`| | | | …and ${moreFindings(rest)} |`);
    out.push('');
    for (const f of shown) {
      if (!f.patch?.length) continue;
      out.push(`<details><summary>Field drift of ${cell(cut(f.object.name, NAME_LIMIT))} (JSON Patch from the live pipe to its file)</summary>`, '');
      out.push('```json');
      pushAll(out, patchLines(f.patch).map(escapeCodeBlockLine));
      out.push('```', '', '</details>', '');
    }
  }
  pushAll(out, backupsBlock(svc, charts));
  return out;
}

function backupsBlock(svc: ServiceReport, charts: boolean): string[] {
  const all = svc.backups;
  if (all.length === 0) return ['Backups: none listed.', ''];
  const b = all.length > MAX_DRAWN_BACKUPS ? all.slice(-MAX_DRAWN_BACKUPS) : all;
  const sizes = sizeSeries(b);
  const durations = durationSeries(b);
  const sizeValues = sizes.map((p) => p.value).filter((v): v is number => v !== undefined);
  const durValues = durations.map((p) => p.value).filter((v): v is number => v !== undefined);
  const out: string[] = [];
  out.push(
    `**Backups**: ${all.length}, ${formatTime(all[0]!.startedAt)} to ${formatTime(all[all.length - 1]!.startedAt)}${b.length < all.length ? ` (the newest ${b.length} drawn)` : ''}`,
    '',
  );
  out.push('```text');
  out.push(
    `size      ${sparkline(sizes.map((p) => p.value))}  ${sizeValues.length ? `${formatBytes(minOf(sizeValues))} – ${formatBytes(maxOf(sizeValues))}` : 'no sizes'}`,
  );
  out.push(
    `duration  ${sparkline(durations.map((p) => p.value))}  ${durValues.length ? `${formatDuration(minOf(durValues))} – ${formatDuration(maxOf(durValues))}` : 'no durations'}`,
  );
  out.push('```', '');
  if (charts) {
    // Only what has a value is charted (a failed backup has no size: it is not a 0 GiB bar); labels stay distinct.
    const labels = axisLabels(b);
    const chart = (points: typeof sizes, scale: (v: number) => number) => {
      const kept = points.map((p, i) => ({ p, label: labels[i]! })).filter(({ p }) => p.value !== undefined);
      return { labels: kept.map((k) => JSON.stringify(k.label)), values: kept.map(({ p }) => scale(p.value!)) };
    };
    const gib = chart(sizes, (v) => Math.round((v / 1024 ** 3) * 100) / 100);
    const minutes = chart(durations, (v) => Math.round((v / 60) * 10) / 10);
    out.push('<details><summary>Backup charts</summary>', '');
    out.push(
      '```mermaid',
      'xychart-beta',
      '  title "Backup size (GiB; failed backups have no size)"',
      `  x-axis [${gib.labels.join(', ')}]`,
      '  y-axis "GiB"',
      `  bar [${gib.values.join(', ')}]`,
      '```',
      '',
    );
    out.push(
      '```mermaid',
      'xychart-beta',
      '  title "Backup duration (minutes; failed backups at the time they ran)"',
      `  x-axis [${minutes.labels.join(', ')}]`,
      '  y-axis "minutes"',
      `  line [${minutes.values.join(', ')}]`,
      '```',
      '',
    );
    out.push('</details>', '');
  }
  return out;
}

function objectLabel(f: Finding, backupLabel: (id: string | undefined, fallback: string) => string): string {
  const o = f.object;
  if (o.kind === 'service') return `service (${cell(cut(o.name, NAME_LIMIT))})`;
  if (o.kind === 'backup') return `backup \`${code(cut(backupLabel(o.id, o.name), NAME_LIMIT))}\``;
  return `${o.kind} \`${code(cut(o.name, NAME_LIMIT))}\``;
}

/** Text inside a table cell or a heading: the one Markdown escaping (no line breaks, pipes, HTML, syntax, mentions). */
function cell(s: string): string {
  return escapeMarkdown(s);
}

/** Text inside a code span: backticks and pipes cannot be escaped there, so they are replaced. */
function code(s: string): string {
  return escapeMarkdownCode(s);
}
