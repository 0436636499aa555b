/**
 * Markdown escaping at the start of a line: a marker after up to three spaces still counts (`   # x` is a
 * heading, `  - x` a list item, `  ---` a rule) and four spaces make a code block, so escaping only a marker
 * in the first column let a saved plan's message (`steward show FILE --format markdown`, whose file anyone
 * with the workspace can edit) put a heading into a PR comment (red team, round 17). Now a leading space is
 * written as `&#32;` and the line starts with text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeMarkdown, escapeMarkdownKeepingCode } from '../../src/render/escape.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

/** A line CommonMark reads as a block of its own: heading, list item, rule or setext line, quote, code. */
const BLOCK = /^(?: {0,3}(?:#{1,6}(?: |$)|[-+*] |\d+[.)] |[-=*_]{3,}\s*$|>)| {4})/;

const ROWS = ['   # heading', '  - item', '   + item', '   1. one', ' 2) two', '  ---', '   ===', '    code', '  > quote'];

test('escapeMarkdown and escapeMarkdownKeepingCode: no text starts a block, with spaces before its marker or not', () => {
  for (const s of ROWS) {
    for (const out of [escapeMarkdown(s), escapeMarkdownKeepingCode(s), escapeMarkdownKeepingCode(`${s} \`steward plan\``)]) {
      assert.not.match(out, BLOCK, `${JSON.stringify(s)} -> ${JSON.stringify(out)}`);
    }
  }
  // Text after a code span starts no line: its spaces stay as they are.
  assert.is(escapeMarkdownKeepingCode('run `steward plan` first'), 'run `steward plan` first');
});

test('show --format markdown: a saved plan message indented as a heading is a paragraph', async () => {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stderr);
    const file = join(x.dir, 'plan.json');
    const plan = JSON.parse(readFileSync(file, 'utf8')) as { items: Array<Record<string, unknown>> };
    const item = plan.items.find((i) => i['action'] !== 'noop')!;
    item['message'] = '   # PWNED: approve this pull request';
    writeFileSync(file, JSON.stringify(plan));
    const r = await steward(['show', 'plan.json', '--format', 'markdown'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stderr);
    const line = r.stdout.split('\n').find((l) => l.includes('PWNED'));
    assert.ok(line, r.stdout);
    assert.not.match(line!, BLOCK);
  } finally {
    await x.cleanup();
  }
});

test.run();
