/**
 * report.html shows a line break the server put in a name, a state or a description as `\n`, as every other
 * output does: the finding values are `white-space: pre-wrap`, one `key: value` per line, so a pipe state
 * `Failed\nstate: Running` showed a second, forged `state: Running` line under the real one, and a pipe named
 * `a\nb` read as `a b` in the tables (red team, round 17). steward's own lines (a JSON Patch) keep theirs.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReportHtml } from '../../src/render/report-html.ts';
import { escapeHtml } from '../../src/render/escape.ts';
import { buildReport } from '../../src/report/report.ts';
import { NOW, PROD_SPEC } from '../report/seed.ts';

const FORGED = 'Failed\nstate: Running\r\n::error::forged\tx';

function hostileHtml(): string {
  const report = buildReport(
    [
      {
        name: 'svc',
        spec: {
          ...PROD_SPEC,
          pipes: { reportUnlisted: true, expected: [{ name: 'kept', state: 'Running', scaling: { replicas: 2, concurrency: 3 } }] },
          reversePrivateEndpoints: { expected: [] },
        },
        observed: {
          pipes: [
            { name: `unlisted\npipe`, state: FORGED },
            { name: 'kept', state: 'Running', scaling: { replicas: 1, concurrency: 1 } },
          ],
          endpoints: [{ description: `msk\nprod`, status: FORGED }],
          backups: [],
          failures: [],
          malformed: [],
        },
      },
    ],
    { now: NOW },
  );
  return renderReportHtml(report);
}

test('escapeHtml writes a line break or a tab of the text it is given as an escape', () => {
  assert.is(escapeHtml('a\nb\tc\r'), 'a\\nb\\tc\\r');
});

test('report.html: no line break the server sent reaches the page raw (no forged value line, no two names alike)', () => {
  const html = hostileHtml();
  assert.not.match(html, /Failed\nstate/);
  assert.not.match(html, /\n::error::/);
  assert.not.match(html, /unlisted\npipe/);
  assert.not.match(html, /msk\nprod/);
  assert.match(html, /state: Failed\\nstate: Running\\r\\n::error::forged\\tx/);
  assert.match(html, /unlisted\\npipe/);
  assert.match(html, /msk\\nprod/);
});

test("report.html: steward's own multi-line text keeps its lines (a JSON Patch, an object value's members)", () => {
  const html = hostileHtml();
  const pre = /<pre>([^<]*)<\/pre>/.exec(html);
  assert.ok(pre, 'a JSON Patch is shown');
  assert.match(pre![1]!, /\n/);
  assert.match(html, /<code>state: Failed\\nstate: Running\\r\\n::error::forged\\tx\nsourceKinds: /);
});

test.run();
