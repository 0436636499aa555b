/**
 * `npm run build`: `tsc -b tsconfig.build.json`, incremental (its build info is dist/.tsbuildinfo), so a build
 * with nothing changed takes a fraction of a second (npm test after npm ci, whose prepare built dist/).
 *
 * tsc's build info trusts dist/ to hold what it wrote: an output deleted by hand is not written again. So a
 * build whose dist/ lacks the output of any source file starts from scratch.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

const missing = sources(SRC).find((f) => !existsSync(join(DIST, relative(SRC, f)).replace(/\.ts$/, '.js')));
if (missing && existsSync(join(DIST, '.tsbuildinfo'))) {
  console.error(`dist/ lacks the output of ${relative(ROOT, missing)}: building from scratch`);
  rmSync(join(DIST, '.tsbuildinfo'));
}
const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
process.exit(tsc.status ?? 1);
