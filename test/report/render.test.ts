import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReportHtml } from '../../src/render/report-html.ts';
import { renderReportJson } from '../../src/render/report-json.ts';
import { renderReportMarkdown } from '../../src/render/report-markdown.ts';
import { renderReportText } from '../../src/render/report-text.ts';
import { renderReportGithub } from '../../src/render/report-github.ts';
import { axisLabels, chartOfFinding, durationSeries, sparkline } from '../../src/render/report-chart.ts';
import { buildReport } from '../../src/report/report.ts';
import type { Report } from '../../src/report/types.ts';
import { assertGolden } from '../helpers/golden.ts';
import { seedReport } from './fixture-report.ts';
import { NOW, PROD_SPEC } from './seed.ts';

let report: Report;
test.before(async () => {
  report = await seedReport();
});

// GIVEN the default seed at a fixed clock, WHEN rendered, THEN each output matches its reviewed golden file.
test('text golden', () => assertGolden(renderReportText(report, { color: false }), 'report/report.txt'));
test('markdown golden', () => assertGolden(renderReportMarkdown(report), 'report/report.md'));
test('json golden', () => assertGolden(renderReportJson(report), 'report/report.json'));
test('html golden', () => assertGolden(renderReportHtml(report), 'report/report.html'));
test('github golden', () => assertGolden(renderReportGithub(report), 'report/report.github.txt'));

test('github: one annotation per finding at its severity, then the totals; names the server sends cannot start a workflow command', () => {
  const hostile = structuredClone(report);
  const f = hostile.services[0]!.findings[0]!;
  f.object.name = 'pipe\n::set-env name=NODE_OPTIONS::--require /tmp/x.js';
  f.message = 'gone\r\n::add-mask::x';
  const out = renderReportGithub(hostile);
  const lines = out.trimEnd().split('\n');
  const findings = hostile.services.reduce((n, s) => n + s.findings.length, 0);
  assert.is(lines.length, findings + 1);
  for (const l of lines) assert.match(l, /^::(error|warning|notice) title=/);
  assert.not.match(out, /\n::(set-env|add-mask)/);
  assert.match(lines.at(-1)!, /^::notice title=steward report::\d+ services?, \d+ errors?, \d+ warnings?, \d+ info$/);
  const levels = new Set(lines.slice(0, -1).map((l) => /^::(\w+)/.exec(l)![1]));
  for (const sev of new Set(hostile.services.flatMap((s) => s.findings.map((x) => x.severity)))) assert.ok(levels.has(sev === 'info' ? 'notice' : sev), sev);
});

test('the Report value: versioned, counted, services sorted, the expected findings for the seed', () => {
  assert.is(report.formatVersion, 1);
  assert.is(report.generatedAt, NOW.toISOString());
  assert.equal(report.summary, { services: 2, error: 3, warning: 6, info: 2, readFailures: 0, malformedItems: 0 });
  assert.equal(
    report.services.map((s) => s.name),
    ['prod-warehouse', 'staging-warehouse'],
  );
  const prod = report.services[0]!;
  const ids = prod.findings.map((f) => `${f.id}:${f.severity}:${f.object.kind === 'backup' ? 'backup' : f.object.name}`);
  assert.equal(ids, [
    'pipe.state:error:logs-from-s3',
    'pipe.missing:error:sessions-from-kafka',
    'backup.failed:warning:backup',
    'backup.slow:warning:backup',
    'backup.size-jump:warning:backup',
    'pipe.field-drift:warning:clicks-from-kinesis',
    'pipe.unlisted:warning:audit-from-gcs',
    'endpoint.status:warning:msk-analytics',
    'backup.in-progress:info:backup',
    'pipe.in-progress:info:orders-cdc',
  ]);
  assert.equal(
    report.services[1]!.findings.map((f) => f.id),
    ['backup.stale'],
  );
  assert.is(prod.backups.length, 30);
  assert.is(prod.backups.at(-1)!.status, 'in_progress');
  assert.equal(prod.backupLimits, PROD_SPEC.backups);
  assert.equal(JSON.parse(renderReportJson(report)), report);
});

test('the same input renders the same bytes (deterministic)', async () => {
  const again = await seedReport();
  assert.is(renderReportHtml(again), renderReportHtml(report));
  assert.is(renderReportMarkdown(again), renderReportMarkdown(report));
});

test('markdown: summary table before the first service section; charts as text and mermaid', () => {
  const md = renderReportMarkdown(report);
  const table = md.indexOf('| service | errors |');
  assert.ok(table > 0 && table < md.indexOf('### prod-warehouse'));
  assert.match(md, /size {6}[▁▂▃▄▅▆▇█·]{30}/);
  assert.match(md, /```mermaid\nxychart-beta\n {2}title "Backup size \(GiB; failed backups have no size\)"/);
  assert.match(md, /"op":"replace","path":"\/scaling\/replicas","value":2/);
});

test('markdown: kept under maxLength by listing fewer findings, the rest pointed to report.json', () => {
  const big: Report = structuredClone(report);
  const f = big.services[0]!.findings[0]!;
  big.services[0]!.findings = Array.from({ length: 400 }, (_, i) => ({ ...f, message: `${f.message} #${i}` }));
  const md = renderReportMarkdown(big, { maxLength: 20_000 });
  assert.ok(md.length <= 20_000, `length ${md.length}`);
  assert.match(md, /…and \d+ more findings in report\.json/);
  assert.ok(renderReportMarkdown(big, { maxFindings: Infinity }).length > 20_000);
});

test('markdown and html escape what the server sends (names with pipes, tags, backticks)', () => {
  const hostile = buildReport(
    [
      {
        name: 'svc',
        spec: { ...PROD_SPEC, pipes: { expected: [] } },
        observed: { pipes: [{ name: 'a|b <script>alert(1)</script> `x`', state: 'Running' }], endpoints: [], backups: [], failures: [], malformed: [] },
      },
    ],
    { now: NOW },
  );
  const md = renderReportMarkdown(hostile);
  // Inside a code span GitHub shows text literally; everywhere else the tag must be escaped.
  assert.not.match(md.replace(/`[^`\n]*`/g, ''), /<script>/);
  assert.match(md, /a\\\|b &lt;script&gt;/);
  const html = renderReportHtml(hostile);
  assert.not.match(html, /<script/);
  assert.match(html, /a\|b &lt;script&gt;alert\(1\)&lt;\/script&gt; `x`/);
});

test('html is self-contained: no script, no external resource, a CSP that forbids them', () => {
  const html = renderReportHtml(report);
  assert.not.match(html, /<script|<link|<img|<iframe|@import|url\(/i);
  assert.not.match(html, /(src|href)="(https?:)?\/\//i);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  for (const id of ['summary', 'service', 'findings-table', 'finding', 'chart-backup-size', 'chart-backup-duration', 'pipes-table', 'endpoints-table']) {
    assert.match(html, new RegExp(`data-testid="${id}"`), id);
  }
});

test('empty report (no CloudService): every renderer says there is nothing to review', () => {
  const empty = buildReport([], { now: NOW });
  assert.equal(empty.summary, { services: 0, error: 0, warning: 0, info: 0, readFailures: 0, malformedItems: 0 });
  assert.match(renderReportMarkdown(empty), /nothing to review/);
  assert.match(renderReportHtml(empty), /nothing to review/);
  assert.match(renderReportText(empty, { color: false }), /0 services, 0 errors, 0 warnings, 0 info/);
});

test('a service with no backups or a failed read renders without charts and says why', () => {
  const r = buildReport(
    [
      {
        name: 'svc',
        spec: PROD_SPEC,
        observed: { pipes: undefined, endpoints: [], backups: [], failures: [{ part: 'pipes', message: 'HTTP 503' }], malformed: [] },
      },
    ],
    { now: NOW },
  );
  const html = renderReportHtml(r);
  assert.match(html, /No backups to chart/);
  assert.match(html, /the list could not be read/);
  assert.match(renderReportText(r, { color: false }), /1 read failed, the review is incomplete/);
  assert.match(renderReportMarkdown(r), /Backups: none listed/);
});

test('text with colour paints severities; without, no escape codes', () => {
  assert.match(renderReportText(report, { color: true }), /\u001b\[31merror/);
  assert.not.match(renderReportText(report, { color: false }), /\u001b/);
});

test('sparkline: scaled between min and max, dots for missing values', () => {
  assert.is(sparkline([1, 2, 3, undefined, 8]), '▁▂▃·█');
  assert.is(sparkline([5, 5]), '▄▄');
  assert.is(sparkline([undefined]), '·');
});

// Issue 14, point 8: what the report's charts got wrong, one case each.
test('charts: a finding colours its backup only on the chart it is about, and each chart has a legend', () => {
  const html = renderReportHtml(report);
  const figure = (id: string) => html.slice(html.indexOf(`data-testid="${id}"`), html.indexOf('</figure>', html.indexOf(`data-testid="${id}"`)));
  const size = figure('chart-backup-size');
  const duration = figure('chart-backup-duration');
  const prod = report.services[0]!;
  const slow = prod.findings.find((f) => f.id === 'backup.slow')!;
  const jump = prod.findings.find((f) => f.id === 'backup.size-jump')!;
  const at = (b: string) => formatTitle(prod.backups.find((x) => x.id === b)!.startedAt!);
  assert.ok(slow && jump, 'the seed has a slow backup and a size jump');
  assert.match(duration, new RegExp(`class="pt done flagged"[^>]*><title>${at(slow.object.id!)}`));
  assert.not.match(size, new RegExp(`class="pt done flagged"[^>]*><title>${at(slow.object.id!)}`));
  assert.match(size, new RegExp(`class="pt done flagged"[^>]*><title>${at(jump.object.id!)}`));
  assert.match(size, 'data-testid="chart-backup-size-legend"');
  assert.match(duration, /class="legend"[^]*backup[^]*slow \(a finding\)[^]*failed[^]*limit/);
  assert.equal([chartOfFinding('backup.size-jump'), chartOfFinding('backup.slow'), chartOfFinding('backup.failed')], ['size', 'duration', undefined]);
});

test('charts: a failed backup is drawn at the time it ran, never at 0 s or 0 B', () => {
  const prod = report.services[0]!;
  const failed = prod.backups.find((b) => b.status === 'error')!;
  assert.ok(failed && failed.durationSeconds! > 0, 'the seed has a failed backup that ran');
  assert.is(durationSeries(prod.backups).find((p) => p.id === failed.id)!.value, failed.durationSeconds);
  const html = renderReportHtml(report);
  assert.match(html, new RegExp(`<title>${formatTitle(failed.startedAt!)}: failed after `));
  assert.match(html, new RegExp(`<title>${formatTitle(failed.startedAt!)}: failed \\(no value\\)`));
  const md = renderReportMarkdown(report);
  const bars = /title "Backup size[^"]*"\n {2}x-axis \[([^\]]*)\]\n {2}y-axis "GiB"\n {2}bar \[([^\]]*)\]/.exec(md)!;
  assert.not.ok(bars[2]!.split(', ').includes('0'), 'no 0 GiB bar for the failed backup');
  assert.is(bars[1]!.split(', ').length, bars[2]!.split(', ').length);
});

test('charts: axis labels are distinct (a day with two backups gets times), sizes are readable', () => {
  const b = (startedAt: string | undefined) => ({ id: startedAt ?? 'x', status: 'done', startedAt }) as never;
  assert.equal(axisLabels([b('2026-11-22T05:00:00Z'), b('2026-11-23T05:00:00Z'), b('2026-11-23T17:30:00Z'), b(undefined)]), [
    '11-22',
    '11-23 05:00',
    '11-23 17:30',
    '?4',
  ]);
  const md = renderReportMarkdown(report);
  const labels = /x-axis \[([^\]]*)\]/.exec(md)![1]!.split(', ');
  assert.is(new Set(labels).size, labels.length);
  const html = renderReportHtml(report);
  assert.match(html, /sizeInBytes: \d+(\.\d+)? GiB/);
  assert.not.match(html, /sizeInBytes: \d{6,}/);
});

function formatTitle(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

test('markdown: a service with thousands of backups draws the newest 120, and the report stays within its budget', () => {
  const many = structuredClone(report);
  const one = many.services[0]!.backups[0]!;
  many.services[0]!.backups = Array.from({ length: 40_000 }, (_, i) => ({
    ...one,
    id: `b${i}`,
    startedAt: new Date(Date.UTC(2020, 0, 1) + i * 3_600_000).toISOString(),
  }));
  const md = renderReportMarkdown(many);
  assert.match(md, '**Backups**: 40000, ');
  assert.match(md, '(the newest 120 drawn)');
  assert.ok(md.length < 60_000, `${md.length} characters`);
  // The HTML charts draw the same 120; its table lists the newest 500 and counts the others.
  const html = renderReportHtml(many);
  assert.match(html, '(charts: the newest 120)');
  const rows = html.match(/<tr><td><code>b\d+<\/code>/g) ?? [];
  assert.is(rows.length, 500);
  assert.is(rows[0], '<tr><td><code>b39999</code>');
  assert.match(html, '40000 backups, newest first (the newest 500 listed)');
  assert.match(html, '…and 39500 older backups in report.json');
  // Bounded lines: 120 sparkline characters, 120 chart labels.
  for (const line of md.split('\n')) assert.ok(line.length < 2_500, `a line of ${line.length} characters`);
});

test.run();
