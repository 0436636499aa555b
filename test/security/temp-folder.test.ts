/**
 * `steward demo` with TMPDIR naming a folder that is gone: one line naming the folder and what to do, exit 1,
 * no trace. It said "internal error: ENOENT ... mkdtemp (this is a bug in steward; please report it)" (red
 * team, round 17).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../helpers/exec.ts';

test('demo with TMPDIR gone: one line, exit 1, not "a bug"', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steward-tmpdir-'));
  try {
    const gone = join(dir, 'gone');
    const r = spawnSync(process.execPath, [BIN, 'demo'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', NO_COLOR: '1', XDG_CACHE_HOME: dir, TMPDIR: gone },
      timeout: 60_000,
    });
    assert.is(r.status, 1, r.stderr);
    assert.is(r.stderr, `error: cannot make the demo's working copy in ${gone} (ENOENT): set TMPDIR to a folder you can write to\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
