/**
 * The state file lives in the work tree and is committed after apply, so a pull request can edit it; and the
 * names it records came from alert files before. What steward prints of it is terminal text like any other
 * (docs/security.md, "Text from files and servers is inert"): the notice about alerts in no file any more
 * printed a record's name, id and time raw, so a line break started a `::error` workflow command of its own
 * in the CI log and ESC sequences drove the terminal (red team, round 14).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const ESC = '\u001b';
const NAME = `old alert${ESC}[2J${ESC}]0;owned\u0007\r\n::error title=Deploy failed::pwned\u2028\u202eevil\u009b31m`;

/** Every line as GitHub's runner reads it (it skips leading white space): none may start a workflow command. */
function assertInert(text: string, what: string): void {
  assert.not.ok(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/.test(text), `${what}: a raw control character\n${JSON.stringify(text)}`);
  for (const line of text.split('\n')) assert.not.ok(/^\s*::/.test(line), `${what}: a workflow command line: ${JSON.stringify(line)}`);
}

test('a state record of an alert in no file any more: its name, id and time are printed escaped by plan and apply', async () => {
  const x = await examplesWithEmulator();
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    const file = join(x.dir, '.steward/state.json');
    const state = JSON.parse(readFileSync(file, 'utf8')) as { alerts: Record<string, unknown> };
    state.alerts[`65f5e4a3b9e77c001a0009ff\u2028::warning::id`] = { sent: { name: NAME }, appliedAt: `2026-01-01T00:00:00Z\n::warning::at` };
    writeFileSync(file, JSON.stringify(state));
    for (const args of [['plan'], ['plan', '--format', 'json'], ['apply', '--auto-approve']]) {
      const r = await steward(args, { cwd: x.dir, env: x.env });
      assert.is(r.code, 0, `${args.join(' ')}\n${r.stderr}`);
      assert.match(r.stderr, 'notice: 1 alert steward applied is in no file any more', args.join(' '));
      assert.match(r.stderr, String.raw`old alert\e[2J\e]0;owned\u0007\r\n::error title=Deploy failed::pwned\u2028\u202eevil\u009b31m`, args.join(' '));
      assertInert(r.stderr, `${args.join(' ')} stderr`);
      assertInert(r.stdout, `${args.join(' ')} stdout`);
    }
  } finally {
    await x.cleanup();
  }
});

test.run();
