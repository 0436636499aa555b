import { createInterface } from 'node:readline/promises';
import { readFileSync } from 'node:fs';
import yargs from 'yargs';
import { CliError, InternalError } from '../errors.ts';
import { renderError } from '../render/error.ts';
import { commands } from './commands/index.ts';
import type { CommandContext, GlobalArgs } from './context.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * Runs steward with the given arguments and returns the exit code. The only function that reads the
 * process: argv, env, cwd, TTY and signals; everything below receives what it needs.
 */
export async function main(argv: string[]): Promise<number> {
  const env = process.env;
  const debug = argv.includes('--debug');
  const noColorFlag = argv.includes('--no-color') || argv.includes('--color=false');
  const isTTY = Boolean(process.stdout.isTTY);
  const abort = new AbortController();
  const onSignal = () => abort.abort(new CliError('interrupted', { exitCode: 130 }));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const ctx: CommandContext = {
    io: {
      stdout: (t) => void process.stdout.write(t),
      stderr: (t) => void process.stderr.write(t),
      isTTY,
      prompt: process.stdin.isTTY
        ? async (q) => {
            const rl = createInterface({ input: process.stdin, output: process.stderr });
            try {
              return await rl.question(q);
            } finally {
              rl.close();
            }
          }
        : undefined,
    },
    env,
    cwd: process.cwd(),
    color: isTTY && !noColorFlag && env['NO_COLOR'] === undefined && env['TERM'] !== 'dumb',
    columns: process.stdout.columns || 100,
    signal: abort.signal,
  };

  let exitCode = 0;
  const parser = yargs(argv)
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
    .epilogue('Exit codes: 0 ok, 1 error; plan --detailed-exitcode: 2 changes pending, 3 blocked drift.\nDocs: README.md')
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
    await parser.parseAsync();
    return exitCode;
  } catch (err) {
    const e = err instanceof CliError ? err : new InternalError(err instanceof Error ? err.message : String(err), err);
    ctx.io.stderr(renderError(e, { debug, color: ctx.color, cwd: ctx.cwd }));
    return e.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export type { GlobalArgs };
