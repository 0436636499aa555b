import type { Argv } from 'yargs';
import type { SecretSink } from './secrets.ts';
import { redactStrings } from '../shared/redact-strings.ts';

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
  /**
   * The credentials redacted from `io` (main.ts wraps stdout and stderr with it): commands add the ones a
   * project names, and pass files they write through `redact`. Absent in contexts built by tests.
   */
  secrets?: SecretSink;
}

/** The text as it may be written to a file: every credential the context knows replaced. */
export function redactForOutput(ctx: CommandContext, text: string): string {
  return ctx.secrets ? ctx.secrets.redact(text) : text;
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

/**
 * A copy of a value (server data, already depth-checked by the client) with every string redacted, for
 * values that are turned into files or names (import): redacting the finished text could break its syntax.
 */
export function redactValue<T>(ctx: CommandContext, value: T): T {
  const sink = ctx.secrets;
  return sink ? redactStrings(value, (s) => sink.redact(s)) : value;
}

/**
 * redactValue for a value that is only rendered (a plan): the value itself when no string in it holds a
 * credential and it is plain JSON data, which the copy would only repeat (~0.15 s for a plan of 10,000
 * items); the redacted copy otherwise. Plain JSON data: strings, finite numbers other than -0, booleans,
 * null, arrays without holes or undefined, plain objects; an undefined member is allowed (the copy drops
 * it, and renderers read absent and undefined alike).
 */
export function redactForRender<T>(ctx: CommandContext, value: T): T {
  const sink = ctx.secrets;
  if (!sink || value === undefined) return value;
  const strings = plainStrings(value);
  return strings !== undefined && sink.keepsAll(strings) ? value : redactValue(ctx, value);
}

/** The strings in a plain JSON value (values and keys, as redactValue redacts both), or undefined when it is not one. */
function plainStrings(root: unknown): string[] | undefined {
  const out: string[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return undefined;
    } else if (v === null || typeof v === 'boolean') continue;
    else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (!(i in v) || v[i] === undefined) return undefined;
        stack.push(v[i]);
      }
    } else if (typeof v === 'object' && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
      for (const k of Object.keys(v)) {
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined) continue;
        out.push(k);
        stack.push(x);
      }
    } else return undefined;
  }
  return out;
}
