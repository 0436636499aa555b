import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReportHtml } from '../../src/render/report-html.ts';
import { renderReportMarkdown } from '../../src/render/report-markdown.ts';
import type { Report } from '../../src/report/types.ts';
import { seedReport } from '../report/fixture-report.ts';

// Issue 14, point 8: a finding coloured its backup on both charts, no legend, a failed backup drawn at 0 B
// and 0 s although it ran, the Markdown axis repeated a day, sizes as raw bytes.

let report: Report;
test.before(async () => {
  report = await seedReport();
});

const figure = (html: string, testid: string, n = 0) => [...html.matchAll(new RegExp(`<figure data-testid="${testid}">[\\s\\S]*?</figure>`, 'g'))][n]![0];

test('html: a size jump is flagged on the size chart only; each chart has a legend; failed backups are not drawn at 0', () => {
  const html = renderReportHtml(report);
  const prod = report.services[0]!;
  const jump = prod.findings.find((f) => f.id === 'backup.size-jump');
  assert.ok(jump, 'the seed has a size jump');
  const size = figure(html, 'chart-backup-size');
  const duration = figure(html, 'chart-backup-duration');
  const ids = (check: string) => new Set(prod.findings.filter((f) => f.id === check && f.object.id).map((f) => f.object.id!));
  const flaggedIn = (fig: string) => (fig.match(/class="pt [a-z_]+ flagged"/g) ?? []).length;
  assert.ok(ids('backup.slow').size > 0, 'the seed has a slow backup');
  assert.is(flaggedIn(size), ids('backup.size-jump').size, 'the size chart colours the size jumps');
  assert.is(flaggedIn(duration), ids('backup.slow').size, 'the duration chart colours the slow backups, not the size jump');
  for (const f of [size, duration]) assert.match(f, 'data-testid="chart-legend"');
  // a failed backup with a known run time is drawn at it, not on the baseline
  const failed = prod.backups.find((b) => b.status === 'error' && b.durationSeconds);
  if (failed) assert.match(duration, /failed after \d/);
  assert.not.match(size, /y="169\.0" width="6" height="6"><title>[^<]*failed/, 'no failed mark on the 0 B line');
  assert.match(html, /sizeInBytes: \d+(\.\d+)? GiB \(\d+\)/);
});

test('markdown: no 0 bar for a failed backup, and days that repeat carry the time', () => {
  const r = structuredClone(report);
  const b = r.services[0]!.backups;
  // two backups on one day
  b[1]!.startedAt = `${b[0]!.startedAt!.slice(0, 10)}T18:30:00.000Z`;
  const md = renderReportMarkdown(r);
  const axis = /x-axis \[([^\]]*)\]/.exec(md)![1]!.split(', ');
  assert.is(new Set(axis).size, axis.length, axis.join(' '));
  assert.match(axis.join(' '), /\d\d-\d\d 18:30/);
  const bars = /bar \[([^\]]*)\]/.exec(md)![1]!.split(', ');
  assert.not.ok(bars.includes('0'), bars.join(' '));
});

test.run();
