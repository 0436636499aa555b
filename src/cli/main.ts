import { createInterface } from 'node:readline/promises';
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { CliError, InternalError } from '../errors.ts';
import { renderError } from '../render/error.ts';
import { checkArgv, usageMessage, type OptionInfo, type OptionTable } from './argv.ts';
import { commands } from './commands/index.ts';
import { releaseLocks } from './lock.ts';
import type { CommandContext, GlobalArgs } from './context.ts';
import { createSecretSink } from './secrets.ts';
import { packageFile } from '../shared/package-root.ts';

const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string };

/**
 * What steward takes from the process it runs in. `processHost()` is the real one; tests pass their own, so
 * the CLI runs in-process exactly as the binary does.
 */
export interface Host {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  stdout: { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown };
  /** Where the `yes` prompt reads from; only used when it is a terminal. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Calls `handler` on SIGINT/SIGTERM until the returned function is called. */
  onSignal?: (handler: () => void) => () => void;
}

/** The host of the running process: the only place steward reads `process`. */
export function processHost(): Host {
  // A reader that left (`steward validate | head -1`): what is still written goes nowhere and the command
  // finishes as it would (an apply is never cut short by it), where Node threw EPIPE with its stack trace.
  // Any other error of the streams stays one.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'ERR_STREAM_DESTROYED') throw e;
    });
  }
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    onSignal: (handler) => {
      process.once('SIGINT', handler);
      process.once('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
  };
}

/**
 * Runs steward with the given arguments and returns the exit code. Everything below receives what it
 * needs from `host` (argv, env, cwd, TTY and signals); nothing else reads the process.
 */
/** Commands that read no project file: --config and --env mean nothing to them. */
const NO_PROJECT = new Set(['init', 'show', 'emulator', 'demo']);

export async function main(rawArgv: string[], host: Host = processHost()): Promise<number> {
  const env = host.env;
  const checked = checkArgv(rawArgv, optionTable());
  const argv = checked.ok ? checked.argv : rawArgv;
  const debug = argv.includes('--debug');
  const isTTY = Boolean(host.stdout.isTTY);
  const abort = new AbortController();
  const onSignal = () => abort.abort(new CliError('interrupted', { exitCode: 130 }));
  const offSignal = host.onSignal?.(onSignal) ?? (() => {});
  const stdin = host.stdin;

  // The output sink: whatever any command prints passes the one redactor (docs/security.md).
  const secrets = createSecretSink(env);
  const ctx: CommandContext = {
    io: {
      stdout: (t) => void host.stdout.write(secrets.redact(t)),
      stderr: (t) => void host.stderr.write(secrets.redact(t)),
      isTTY,
      prompt: stdin?.isTTY
        ? (q) =>
            // Ctrl-C (read as a key while the terminal is in raw mode, or as a signal) and end of input
            // (Ctrl-D) close the question: it rejects, and the command says what that means.
            new Promise<string>((resolve, reject) => {
              const rl = createInterface({ input: stdin, output: host.stderr as NodeJS.WritableStream });
              let settled = false;
              const stop = () => rl.close();
              abort.signal.addEventListener('abort', stop, { once: true });
              rl.on('SIGINT', stop);
              rl.on('close', () => {
                abort.signal.removeEventListener('abort', stop);
                if (!settled) {
                  settled = true;
                  reject(new CliError('no answer: input closed or interrupted', { exitCode: 130 }));
                }
              });
              rl.question(q).then(
                (answer) => {
                  settled = true;
                  resolve(answer);
                  rl.close();
                },
                (e: unknown) => {
                  if (!settled) {
                    settled = true;
                    reject(e);
                  }
                  rl.close();
                },
              );
            })
        : undefined,
    },
    env,
    cwd: host.cwd,
    color: colorWanted(argv, env, isTTY),
    columns: host.stdout.columns || 100,
    signal: abort.signal,
    secrets,
  };

  let exitCode = 0;
  const parser = yargs()
    .scriptName('steward')
    .version(pkg.version)
    .usage('steward <command> [options]\n\nDashboards and alerts as code: validate YAML, plan against the live service, apply, and review cloud drift.')
    .option('config', { type: 'string', describe: 'Project file (default: steward.yaml in this folder or above)', global: true })
    .option('env', { type: 'string', describe: 'Environment overlay from spec.environments', global: true })
    .option('color', {
      type: 'boolean',
      default: true,
      describe: 'Colour output: --color forces it (as does FORCE_COLOR=1), --no-color or NO_COLOR turns it off; by default only on a terminal',
      global: true,
    })
    .option('debug', {
      type: 'boolean',
      default: false,
      describe: 'HTTP trace (secrets redacted), what plan did with its live memo, and stack traces',
      global: true,
    })
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .epilogue(
      "Exit codes: 0 ok, 1 error;\n  plan --detailed-exitcode: 2 changes pending, 3 blocked drift (3 wins);\n  apply: 3 blocked items left, 130 interrupted;\n  report --fail-on: 2 findings reach that severity.\nEnvironment: STEWARD_ALLOWED_HOSTS=api.hyperdx.io,... sends credentials only to the hosts listed\n  (set it in CI, where a pull request may change steward.yaml's urls: docs/security.md).\nDocs: README.md",
    )
    .wrap(Math.min(120, ctx.columns))
    .exitProcess(false)
    .fail((msg, err) => {
      if (err) throw err;
      const usage = commands.find((c) => argv.includes(c.command.split(' ')[0]!))?.command;
      throw new CliError(usageMessage(msg, usage), { code: 'usage' });
    });
  skipHelpCache(parser, argv);

  for (const spec of commands) {
    const name = spec.command.split(' ')[0]!;
    parser.command(spec.command, spec.describe, spec.builder as never, async (args) => {
      // Global options a command that reads no project would take and ignore: `show plan.json --env prod`
      // printed the plan as if nothing were asked.
      const ignored = NO_PROJECT.has(name) ? (['config', 'env'] as const).filter((o) => (args as Record<string, unknown>)[o] !== undefined) : [];
      if (ignored.length > 0)
        throw new CliError(
          `${ignored.map((o) => `--${o}`).join(' and ')}: steward ${name} reads no project file, so ${ignored.length === 1 ? 'it has' : 'they have'} no effect here; remove ${ignored.length === 1 ? 'it' : 'them'}`,
          {
            code: 'usage',
          },
        );
      exitCode = await spec.run(args as never, ctx);
    });
  }

  // yargs runs the default command for anything it does not know; name it instead of exiting 0.
  parser.command(
    '$0',
    false as never,
    () => {},
    (args) => {
      const first = (args._ as unknown[])[0];
      const known = commands.map((c) => c.command.split(' ')[0]).join(', ');
      throw new CliError(
        first === undefined
          ? `name a command (${known}); see steward --help`
          : `unknown command "${String(first)}"; the commands are: ${known}. See steward --help`,
        { code: 'usage' },
      );
    },
  );

  try {
    if (!checked.ok) throw new CliError(checked.message, { code: 'usage' });
    // With a callback yargs hands over what it would print (--help, --version) instead of writing to the
    // process's console, so it reaches the host like every other line.
    let printed = '';
    await parser.parseAsync(argv, {}, (_err, _args, output) => {
      if (output) printed = output;
    });
    if (printed) ctx.io.stdout(printed.endsWith('\n') ? printed : `${printed}\n`);
    return exitCode;
  } catch (err) {
    const e = err instanceof CliError ? err : new InternalError(err instanceof Error ? err.message : String(err), err);
    ctx.io.stderr(renderError(e, { debug, color: ctx.color, cwd: ctx.cwd }));
    return e.exitCode;
  } finally {
    releaseLocks(abort.signal);
    offSignal();
  }
}

/**
 * Colour: the last of --color/--no-color wins; then FORCE_COLOR (any value but 0/false forces it, as in
 * node and force-color.org); then NO_COLOR; then a terminal that is not TERM=dumb.
 */
export function colorWanted(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const end = argv.indexOf('--');
  let flag: boolean | undefined;
  for (const a of end < 0 ? argv : argv.slice(0, end)) {
    if (a === '--color' || a === '--color=true') flag = true;
    else if (a === '--no-color' || a === '--color=false') flag = false;
  }
  if (flag !== undefined) return flag;
  const force = env['FORCE_COLOR'];
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return isTTY && env['TERM'] !== 'dumb';
}

let table: OptionTable | undefined;

/** What each command accepts, read from the builders themselves so the table never drifts from --help. */
function optionTable(): OptionTable {
  if (table) return table;
  const info = (build: (y: never) => unknown): OptionInfo => {
    const y = yargs();
    build(y as never);
    const o = (y as unknown as { getOptions(): { key: Record<string, unknown>; boolean: string[]; array: string[]; number: string[] } }).getOptions();
    const names = Object.keys(o.key);
    return { names, booleans: o.boolean, takesValue: names.filter((n) => !o.boolean.includes(n)), repeatable: o.array, numbers: o.number };
  };
  table = {
    global: {
      names: ['config', 'env', 'color', 'debug', 'help', 'version'],
      takesValue: ['config', 'env'],
      booleans: ['color', 'debug', 'help', 'version'],
    },
    commands: lazyCommands(info),
  };
  return table;
}

/**
 * Each command's options, read from its builder the first time they are asked for: a run checks its own
 * command's alone (a yargs instance and a builder per command was ~10 ms of every start-up on the 2-core
 * VM); the names of all of them stay listed for "unknown command" and the did-you-mean.
 */
function lazyCommands(info: (build: (y: never) => unknown) => OptionInfo): Record<string, OptionInfo> {
  const out: Record<string, OptionInfo> = {};
  for (const c of commands) {
    let read: OptionInfo | undefined;
    Object.defineProperty(out, c.command.split(' ')[0]!, { enumerable: true, get: () => (read ??= info(c.builder as never)) });
  }
  return out;
}

export type { GlobalArgs };

/**
 * yargs renders the whole help of a command (cliui, wrap-ansi, string-width) every time it runs one, to keep
 * it for a later showHelp. steward never shows help after a command ran (failures throw through .fail), so
 * unless help is asked for that rendering is waste: 10-20 ms of every command, and about a sixth of the
 * test suite's CPU. Angular's CLI does the same (angular/angular-cli#34087). yargs 18's internal API: a test
 * (test/ux/help-cache.test.ts) fails if it moves.
 */
export function skipHelpCache(parser: ReturnType<typeof yargs>, argv: readonly string[]): void {
  const end = argv.indexOf('--');
  if ((end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h' || a === 'help')) return;
  const internal = (parser as unknown as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: unknown } } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}
