/**
 * Errors that reach the user. Deeper code throws these; only `src/cli/` turns them into output and an exit
 * code. Anything else that escapes is an InternalError ("this is a bug").
 */

export type ErrorCode =
  'config' | 'validation' | 'api' | 'api-not-found' | 'api-unauthorized' | 'api-conflict' | 'api-response' | 'stale-plan' | 'usage' | 'failed' | 'internal';

export class CliError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: number;
  constructor(message: string, opts: { code?: ErrorCode; exitCode?: number; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    // 'internal' is kept for InternalError (a bug); anything else thrown on purpose is a failure the user sees.
    this.code = opts.code ?? 'failed';
    this.exitCode = opts.exitCode ?? 1;
  }
}

/** A position in a source file, 1-based line and column. */
export interface SourcePos {
  file: string;
  line: number;
  col: number;
}

/** One problem found in the user's files: where, which JSON pointer, what. */
export interface Issue {
  file: string;
  line: number;
  col: number;
  /** JSON pointer inside the document ('' for the document itself). */
  pointer: string;
  message: string;
  severity: 'error' | 'warning';
}

/** A single problem with a file that stops loading (unreadable, unset variable, bad project file). */
export class ConfigError extends CliError {
  readonly pos: SourcePos | undefined;
  readonly pointer: string;
  constructor(message: string, pos?: SourcePos, pointer = '', cause?: unknown) {
    super(message, { code: 'config', cause });
    this.pos = pos;
    this.pointer = pointer;
  }
}

/** Every problem found, collected before failing once. */
export class ValidationError extends CliError {
  readonly issues: Issue[];
  constructor(issues: Issue[]) {
    const n = issues.filter((i) => i.severity === 'error').length;
    super(`${n} problem${n === 1 ? '' : 's'} found`, { code: 'validation' });
    this.issues = issues;
  }
}

/** Invalid flags or arguments. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, { code: 'usage' });
  }
}

/** Something steward did not expect: a bug, reported with a request to file it. */
export class InternalError extends CliError {
  constructor(message: string, cause?: unknown) {
    super(`internal error: ${message} (this is a bug in steward; please report it, with --debug output)`, {
      code: 'internal',
      cause,
    });
  }
}
