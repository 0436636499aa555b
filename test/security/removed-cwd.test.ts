/**
 * steward started in a folder that is gone (removed by a concurrent job's cleanup, or a checkout replaced under
 * a shell) says so in one line and exits 1. It printed Node's stack trace of `uv_cwd` (yargs asks for the
 * working folder as it loads, before steward's own error handling runs; red team, round 17).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BIN } from '../helpers/exec.ts';

test('a removed working folder: one line, exit 1, no stack trace (validate, plan, --version still answers)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steward-gone-'));
  try {
    for (const args of [['validate'], ['plan'], ['apply', 'plan.json']]) {
      // GIVEN a shell in a folder that is then removed, WHEN steward runs there
      const r = spawnSync('sh', ['-c', 'mkdir gone && cd gone && rmdir ../gone && exec "$0" "$@"', process.execPath, BIN, ...args], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', NO_COLOR: '1', XDG_CACHE_HOME: dir },
        timeout: 20_000,
      });
      // THEN one line saying what is wrong, and no trace
      assert.is(r.status, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.is(r.stdout, '');
      assert.match(r.stderr, /^error: the working folder .*\n$/);
      assert.not.match(r.stderr, /\n\s+at /);
    }
    const v = spawnSync('sh', ['-c', 'mkdir gone && cd gone && rmdir ../gone && exec "$0" "$@"', process.execPath, BIN, '--version'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.is(v.status, 0, v.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
