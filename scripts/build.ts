/**
 * `npm run build`: `tsc -b tsconfig.build.json`, incremental (its build info is dist/.tsbuildinfo), so a build
 * with nothing changed takes a fraction of a second (npm test after npm ci, whose prepare built dist/).
 *
 * tsc's build info trusts dist/ to hold what it wrote: an output deleted by hand is not written again. So a
 * build whose dist/ lacks the output of any source file starts from scratch.
 *
 * Then esbuild bundles that output into dist/bundle/ (what bin/steward.js runs, about a second each build),
 * and the help texts are saved from the bundle.
 */
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

// The declarations too: tsconfig.test.json type-checks the tests against them.
const missing = sources(SRC).find((f) => ['.js', '.d.ts'].some((ext) => !existsSync(join(DIST, relative(SRC, f)).replace(/\.ts$/, ext))));
if (missing && existsSync(join(DIST, '.tsbuildinfo'))) {
  console.error(`dist/ lacks the output of ${relative(ROOT, missing)}: building from scratch`);
  rmSync(join(DIST, '.tsbuildinfo'));
}
const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// What bin/steward.js loads: tsc's output and the dependencies bundled into dist/bundle/ by esbuild, split at
// the lazy imports so each command still loads only what it needs. Node resolves, reads and links ESM one
// file at a time, and a plan loaded ~400 of them (got, the HTTP library then, was 85 ms that way, 42 ms as
// one file). The parse workers' entry is bundled beside it, where parse-pool looks for it. Modules find the
// package's files through src/shared/package-root.ts, which holds in dist/bundle/ as in dist/.
const BUNDLE = join(DIST, 'bundle');
rmSync(BUNDLE, { recursive: true, force: true });
await build({
  entryPoints: { main: join(DIST, 'cli/main.js'), 'parse-worker': join(DIST, 'config/parse-worker.js') },
  outdir: BUNDLE,
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // The CommonJS dependencies (yaml, fast-json-patch, picomatch) call require(); ESM has none of its own.
  banner: { js: "import { createRequire as __stewardRequire } from 'node:module'; const require = __stewardRequire(import.meta.url);" },
  logLevel: 'warning',
});

// The generated validators are CommonJS files loaded on first use (src/shared/generated.ts), from a folder
// beside the module that loads them: under dist/ for tsc's output, in dist/bundle/ for the bundle.
for (const dir of ['schema/validators', 'clients/response-validators']) {
  for (const to of [join(DIST, dir), join(BUNDLE, dir.split('/').pop()!)]) {
    rmSync(to, { recursive: true, force: true });
    cpSync(join(SRC, dir), to, { recursive: true });
  }
}

// `steward --help` and `steward <command> --help`, as the built CLI prints them at the two widths it uses
// most (100: a pipe or an unknown terminal; 120: any terminal that wide or wider), so bin/steward.js answers
// them without loading yargs and the commands (0.3 s -> 0.12 s). Made by the CLI itself, so never different.
const { main } = (await import(pathToFileURL(join(BUNDLE, 'main.js')).href)) as typeof import('../src/cli/main.ts');
const { commands } = (await import(pathToFileURL(join(DIST, 'cli/commands/index.js')).href)) as typeof import('../src/cli/commands/index.ts');
const help: Record<string, Record<string, string>> = {};
for (const columns of [100, 120]) {
  const texts: Record<string, string> = {};
  for (const name of ['', ...commands.map((c) => c.command.split(' ')[0]!)]) {
    let out = '';
    const code = await main(name ? [name, '--help'] : ['--help'], {
      env: { PATH: process.env['PATH'] ?? '' },
      cwd: ROOT,
      stdout: { write: (t: string) => (out += t), isTTY: false, columns },
      stderr: { write: () => true },
      stdin: Readable.from([]),
    });
    if (code !== 0 || out === '') throw new Error(`steward ${name} --help printed nothing (exit ${code})`);
    texts[name] = out;
  }
  help[String(columns)] = texts;
}
writeFileSync(join(DIST, 'help.json'), JSON.stringify(help));
