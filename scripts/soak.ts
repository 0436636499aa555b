/**
 * The soak run of the fuzz suite: every test/fuzz/*.test.ts with FUZZ_RUNS cases each (default 20,000),
 * one child process per file, then a line per file with its wall time. Exit 1 when any file fails.
 *
 *   npm run soak                      20,000 cases per fuzz file
 *   FUZZ_RUNS=100000 npm run soak     more
 *   FUZZ_SEED=<seed> npm run soak     replay the seed a failure printed
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../test/fuzz/', import.meta.url));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts') && f !== 'regressions.test.ts')
  .sort();
const runs = process.env['FUZZ_RUNS'] ?? '20000';
let failed = 0;
const lines: string[] = [];
for (const f of files) {
  const t0 = performance.now();
  process.stderr.write(`soak: ${f} with FUZZ_RUNS=${runs}\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', dir + f], { stdio: 'inherit', env: { ...process.env, FUZZ_RUNS: runs } });
  const s = ((performance.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) failed++;
  lines.push(`${r.status === 0 ? 'ok  ' : 'FAIL'} ${f}: ${runs} cases in ${s} s`);
}
process.stdout.write(lines.join('\n') + '\n');
process.exitCode = failed === 0 ? 0 : 1;
