/**
 * report.md is a pull-request comment: whatever a server sends, it stays under its limit. The findings' text
 * quotes what the server chose (a pipe's name and state, a backup's status), and one finding of 30,000
 * characters is as long as 30,000 findings of one.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReportMarkdown } from '../../src/render/report-markdown.ts';
import { buildReport } from '../../src/report/report.ts';
import type { ObservedService } from '../../src/report/types.ts';
import type { CloudServiceSpec } from '../../src/schema/kinds.ts';
import { NOW, ORG, PROD } from './seed.ts';

const LONG = 30_000;
const long = (c: string) => c.repeat(LONG);
const spec: CloudServiceSpec = { organizationId: ORG, serviceId: PROD, pipes: { reportUnlisted: true, expected: [{ name: 'kept', state: 'Running' }] } };
const none: ObservedService = { pipes: [], endpoints: [], backups: [], failures: [], malformed: [] };

const cases: Array<{ what: string; observed: ObservedService; spec?: CloudServiceSpec; maxLength?: number }> = [
  { what: 'unlisted pipes with long names', observed: { ...none, pipes: Array.from({ length: 8 }, (_, i) => ({ name: long(String(i)), state: 'Running' })) } },
  {
    what: 'pipe names of characters escaped long (&, <, controls)',
    observed: { ...none, pipes: Array.from({ length: 8 }, (_, i) => ({ name: `${i}${'&<\u0001'.repeat(LONG / 3)}` })) },
  },
  {
    what: 'backups with long statuses',
    spec: { organizationId: ORG, serviceId: PROD, backups: { maxAgeHours: 26 } },
    observed: { ...none, backups: Array.from({ length: 8 }, (_, i) => ({ id: `b${i}`, status: long('x'), startedAt: NOW.toISOString() })) },
  },
  { what: 'a smaller limit', maxLength: 10_000, observed: { ...none, pipes: Array.from({ length: 8 }, (_, i) => ({ name: long(String(i)) })) } },
];

for (const c of cases) {
  test(`report.md stays under its limit: ${c.what}`, () => {
    const report = buildReport([{ name: 'svc', spec: c.spec ?? spec, observed: c.observed }], { now: NOW });
    assert.ok(
      report.services[0]!.findings.some((f) => f.message.length >= LONG),
      'a finding quotes the long text (report.json keeps it whole)',
    );
    const md = renderReportMarkdown(report, c.maxLength ? { maxLength: c.maxLength } : {});
    assert.ok(md.length <= (c.maxLength ?? 60_000), `${md.length} characters`);
    assert.match(md, /\| svc \|/);
  });
}

test.run();
