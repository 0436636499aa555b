/**
 * A reader that leaves early (`steward validate | head -1`, a CI step piping into a tool that stops reading)
 * is no error of steward's: the rest of the output goes nowhere, the command finishes with its own exit code,
 * and stderr holds no trace. Node threw `write EPIPE` as an unhandled 'error' event with its stack trace
 * (red team, round 17).
 */
import { spawn } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

test('validate | head -1: the exit code of validate, nothing on stderr', async () => {
  // GIVEN a file with 4,000 problems: far more output than a pipe holds
  const docs = Array.from(
    { length: 4000 },
    (_, i) => `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d${i} }\nspec:\n  name: D ${i}\n  bogus: 1\n`,
  );
  const { dir, cleanup } = tmpProject({
    'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["d/*.yaml"]\n',
    'd/many.yaml': docs.join('---\n'),
  });
  try {
    // WHEN the reader closes after its first chunk
    const child = spawn(process.execPath, [BIN, 'validate'], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', NO_COLOR: '1', XDG_CACHE_HOME: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    // THEN validate's own exit code (1: invalid), and no trace
    assert.is(code, 1, stderr);
    assert.not.match(stderr, /EPIPE|\n\s+at /);
  } finally {
    cleanup();
  }
});

test.run();
