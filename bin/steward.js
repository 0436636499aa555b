#!/usr/bin/env node
// Thin launcher: the compiled CLI, bundled, lives in dist/bundle/ (built by `npm ci` through the prepare script).
// `--version`, `--help` and `<command> --help` answer before the CLI and its dependencies load (scripts call
// them to check an install; people read them): the help texts are the CLI's own, saved by the build
// (scripts/build.ts) at the widths it uses most; any other width, or a missing file, runs the CLI.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const asksHelp = (a) => a === '--help' || a === '-h';
const helpFor = argv.length === 1 && asksHelp(argv[0]) ? '' : argv.length === 2 && asksHelp(argv[1]) && /^[a-z][a-z-]*$/.test(argv[0]) ? argv[0] : undefined;

function savedHelp(name) {
  try {
    const help = JSON.parse(readFileSync(new URL('../dist/help.json', import.meta.url), 'utf8'));
    return help[String(Math.min(120, process.stdout.columns || 100))]?.[name];
  } catch {
    return undefined;
  }
}

const help = helpFor === undefined ? undefined : savedHelp(helpFor);
if (argv.length === 1 && argv[0] === '--version') {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else if (typeof help === 'string') {
  process.stdout.write(help);
} else {
  // A working folder that is gone (removed under the shell) or cannot be read: one line, not the stack trace
  // of uv_cwd that loading the CLI threw (yargs asks for it as it loads).
  try {
    process.cwd();
  } catch (e) {
    const why = e?.code === 'ENOENT' ? 'no longer exists' : `cannot be read (${e?.code ?? e})`;
    process.stderr.write(`error: the working folder ${why}: cd to the project's folder (or one below it) and run steward again\n`);
    process.exit(1);
  }
  const bundle = new URL('../dist/bundle/main.js', import.meta.url);
  let main;
  try {
    ({ main } = await import(bundle.href));
  } catch (e) {
    // A checkout built by tsc alone (or not at all) has no bundle: say what to run instead of a stack trace.
    if (e?.code !== 'ERR_MODULE_NOT_FOUND' || !String(e.message).includes('/dist/bundle/')) throw e;
    process.stderr.write('error: steward is not built (dist/bundle/ is missing or incomplete): run `npm run build` in its folder\n');
    process.exit(1);
  }
  process.exitCode = await main(argv);
}
