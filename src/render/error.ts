import { CliError, ConfigError, ValidationError } from '../errors.ts';
import { escapeTerminal } from './escape.ts';
import { renderIssuesText } from './issues.ts';

/**
 * Turns an error into what the user reads on stderr: one clear message, the file position when there is one,
 * and the stack (with causes) only under --debug.
 */
export function renderError(err: CliError, opts: { debug: boolean; color: boolean; cwd?: string }): string {
  let out: string;
  if (err instanceof ValidationError) {
    out = renderIssuesText(err.issues, { color: opts.color }) + `\n${err.message}\n`;
  } else if (err instanceof ConfigError && err.pos) {
    const ptr = err.pointer ? `  ${err.pointer}` : '';
    const file = opts.cwd && err.pos.file.startsWith(opts.cwd + '/') ? err.pos.file.slice(opts.cwd.length + 1) : err.pos.file;
    out = `${escapeTerminal(file)}:${err.pos.line}:${err.pos.col}${escapeTerminal(ptr)}  ${escapeTerminal(err.message)}\n`;
  } else {
    // Messages may quote the server (an API error's message) or the user: one line, no terminal escapes.
    out = `error: ${escapeTerminal(err.message)}\n`;
  }
  if (opts.debug) {
    let cur: unknown = err;
    while (cur instanceof Error) {
      out += `\n${(cur.stack ?? String(cur)).split('\n').map(escapeTerminal).join('\n')}\n`;
      cur = cur.cause;
    }
  }
  return out;
}
