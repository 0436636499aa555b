/**
 * `steward show FILE` renders a saved plan, which is an artifact anyone with the workspace can edit (checked
 * only for its shape: docs/security.md). A blocked item's `reason` and the keys of `summary.blockedByReason`
 * are free strings there, and the renderers printed them as they were: terminal escapes reached the screen, a
 * line break started a `::error::` workflow command in a CI log, and the Markdown (`show --format markdown >>
 * "$GITHUB_STEP_SUMMARY"`) carried raw HTML and live mentions (red team, round 17). Now they are escaped as
 * every other text of the file is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const ESC = '\u001b';
const EVIL = `x${ESC}[2J${ESC}]0;owned\u0007\u009b31m\n::error::forged <img src=x onerror=alert(1)> @octocat`;

test('show: a tampered reason reaches no output raw (text, markdown, github)', async () => {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stderr);
    const file = join(x.dir, 'plan.json');
    // GIVEN a saved plan whose first item was edited into a blocked one with a hostile reason
    const plan = JSON.parse(readFileSync(file, 'utf8')) as {
      items: Array<Record<string, unknown>>;
      summary: Record<string, unknown> & { blockedByReason: Record<string, number> };
    };
    const item = plan.items[0]!;
    const was = item['action'] as string;
    item['action'] = 'blocked';
    item['reason'] = EVIL;
    plan.summary[was] = (plan.summary[was] as number) - 1;
    plan.summary['blocked'] = (plan.summary['blocked'] as number) + 1;
    plan.summary.blockedByReason = { [EVIL]: 1 };
    writeFileSync(file, JSON.stringify(plan));
    for (const format of ['text', 'markdown', 'github']) {
      // WHEN it is shown
      const r = await steward(['show', 'plan.json', '--format', format], { cwd: x.dir, env: x.env });
      assert.is(r.code, 0, r.stderr);
      // THEN the reason is there, escaped: no escape sequence, no line of its own; in Markdown no markup and no mention
      assert.not.match(r.stdout, /[\u001b\u0007\u009b]/, format);
      assert.not.match(r.stdout, /^\s*::error::forged/m, format);
      if (format === 'markdown') assert.not.match(r.stdout, /<img/, format);
      if (format === 'markdown') assert.not.match(r.stdout, /@octocat/, format);
      if (format !== 'markdown') assert.match(r.stdout, /x\\e\[2J/, format);
    }
  } finally {
    await x.cleanup();
  }
});

test.run();
