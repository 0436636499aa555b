import { createInterface } from 'node:readline/promises';
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { CliError, InternalError } from '../errors.ts';
import { renderError } from '../render/error.ts';
import { commands } from './commands/index.ts';
import { releaseLocks } from './lock.ts';
import type { CommandContext, GlobalArgs } from './context.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

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
export async function main(argv: string[], host: Host = processHost()): Promise<number> {
  const env = host.env;
  const debug = argv.includes('--debug');
  const noColorFlag = argv.includes('--no-color') || argv.includes('--color=false');
  const isTTY = Boolean(host.stdout.isTTY);
  const abort = new AbortController();
  const onSignal = () => abort.abort(new CliError('interrupted', { exitCode: 130 }));
  const offSignal = host.onSignal?.(onSignal) ?? (() => {});
  const stdin = host.stdin;

  const ctx: CommandContext = {
    io: {
      stdout: (t) => void host.stdout.write(t),
      stderr: (t) => void host.stderr.write(t),
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
    color: isTTY && !noColorFlag && env['NO_COLOR'] === undefined && env['TERM'] !== 'dumb',
    columns: host.stdout.columns || 100,
    signal: abort.signal,
  };

  let exitCode = 0;
  const parser = yargs()
    .scriptName('steward')
    .version(pkg.version)
    .usage('steward <command> [options]\n\nDashboards and alerts as code: validate YAML, plan against the live service, apply, and review cloud drift.')
    .option('config', { type: 'string', describe: 'Project file (default: steward.yaml in this folder or above)', global: true })
    .option('env', { type: 'string', describe: 'Environment overlay from spec.environments', global: true })
    .option('color', { type: 'boolean', default: true, describe: 'Colour output (off with --no-color, NO_COLOR, or when not a terminal)', global: true })
    .option('debug', { type: 'boolean', default: false, describe: 'HTTP trace (secrets redacted) and stack traces', global: true })
    .strict()
    .recommendCommands()
    .help()
    .alias('h', 'help')
    .epilogue('Exit codes: 0 ok, 1 error; plan --detailed-exitcode: 2 changes pending, 3 blocked drift; apply: 3 blocked items left, 130 interrupted.\nDocs: README.md')
    .wrap(Math.min(120, ctx.columns))
    .exitProcess(false)
    .fail((msg, err) => {
      throw err ?? new CliError(msg, { code: 'usage' });
    });

  for (const spec of commands) {
    parser.command(spec.command, spec.describe, spec.builder as never, async (args) => {
      exitCode = await spec.run(args as never, ctx);
    });
  }

  // yargs runs the default command for anything it does not know; name it instead of exiting 0.
  parser.command('$0', false as never, () => {}, (args) => {
    const first = (args._ as unknown[])[0];
    const known = commands.map((c) => c.command.split(' ')[0]).join(', ');
    throw new CliError(
      first === undefined
        ? `name a command (${known}); see steward --help`
        : `unknown command "${String(first)}"; the commands are: ${known}. See steward --help`,
      { code: 'usage' },
    );
  });

  try {
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

export type { GlobalArgs };
