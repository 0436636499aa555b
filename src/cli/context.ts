import type { Argv } from 'yargs';

/** What the process gives a command: the only place `process` is read is `main.ts`, which builds this. */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Whether stdout is a terminal (progress, prompts, colour). */
  isTTY: boolean;
  /** Read one line from the terminal (apply's confirmation). Undefined when stdin is not a TTY. */
  prompt?: (question: string) => Promise<string>;
}

export interface CommandContext {
  io: Io;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Colour allowed: a TTY, no NO_COLOR, no --no-color. */
  color: boolean;
  /** Terminal width for renderers that wrap (renderers never read it themselves). */
  columns: number;
  /** A signal aborted on SIGINT/SIGTERM, so long operations stop between items. */
  signal: AbortSignal;
}

/** Options every command accepts (DESIGN.md, "Common flags"). */
export interface GlobalArgs {
  config?: string;
  env?: string;
  format?: string;
  color: boolean;
  concurrency?: number;
  debug: boolean;
}

/**
 * One subcommand. `run` returns the exit code; it throws a CliError for anything the user must fix, and
 * `main.ts` renders it.
 */
export interface CommandSpec<A = Record<string, unknown>> {
  command: string;
  describe: string;
  builder: (y: Argv<GlobalArgs>) => Argv<unknown>;
  run: (args: A & GlobalArgs, ctx: CommandContext) => Promise<number>;
}

/** Identity helper that keeps the generic parameter of a command checked. */
export function defineCommand<A>(spec: CommandSpec<A>): CommandSpec<A> {
  return spec;
}
