/**
 * makeDirs (src/shared/files.ts): what `mkdirSync(dir, { recursive: true })` does, but it ends. Node 20's
 * recursive mkdir loops forever where a parent exists and refuses the child with ENOENT (/proc/nope/x), so
 * `steward init /proc/nope/x` spun at 100% CPU (red team, round 11). Table-driven on a temp folder, then
 * through the CLI.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeDirs } from '../../src/shared/files.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const CASES: Array<{ name: string; before?: (root: string) => void; dir: string; error?: string }> = [
  { name: 'a new folder', dir: 'a' },
  { name: 'new parents and the folder', dir: 'a/b/c/d' },
  { name: 'a folder that exists', before: (r) => mkdirSync(join(r, 'a/b'), { recursive: true }), dir: 'a/b' },
  { name: 'a file where the folder should be', before: (r) => writeFileSync(join(r, 'f'), ''), dir: 'f', error: 'EEXIST' },
  { name: 'a file where a parent should be', before: (r) => writeFileSync(join(r, 'f'), ''), dir: 'f/x/y', error: 'ENOTDIR' },
];

for (const c of CASES) {
  test(`makeDirs: ${c.name}`, () => {
    const p = tmpProject({});
    try {
      c.before?.(p.dir);
      const dir = join(p.dir, c.dir);
      if (c.error) {
        assert.throws(
          () => makeDirs(dir),
          (e: NodeJS.ErrnoException) => e.code === c.error,
        );
      } else {
        makeDirs(dir);
        assert.ok(statSync(dir).isDirectory());
      }
    } finally {
      p.cleanup();
    }
  });
}

// Through the CLI in a child process only: a loop there is killed; in this process it would hang the run.
const PROC = existsSync('/proc/self');

test('steward init into /proc/nope/x is one error line, exit 1, not a loop', async () => {
  if (!PROC) return;
  // A child process, killed after 20 s: a loop in this process would hang the whole test run.
  const r = await steward(['init', '/proc/steward-nope/x'], { spawn: true, timeoutMs: 20_000 });
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stderr, '/proc/steward-nope/x');
  assert.not.match(r.stderr, /\n\s+at /);
});

test.run();
