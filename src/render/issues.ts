import type { Issue } from '../errors.ts';

/**
 * Control characters and line separators shown as escapes: user text (a key, a tile name) quoted in a
 * message or pointer must not break the one line per issue, nor send terminal escapes.
 */
function oneLine(s: string): string {
  const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** `file:line:col  /pointer  message`, one line per issue, sorted by file and position. */
export function renderIssuesText(issues: Issue[], opts: { color: boolean }): string {
  const red = (s: string) => (opts.color ? `\u001b[31m${s}\u001b[39m` : s);
  const yellow = (s: string) => (opts.color ? `\u001b[33m${s}\u001b[39m` : s);
  return sortIssues(issues)
    .map((i) => {
      const where = `${oneLine(i.file)}:${i.line}:${i.col}`;
      const sev = i.severity === 'warning' ? yellow('warning') : red('error');
      return `${where}  ${oneLine(i.pointer || '/')}  ${sev}: ${oneLine(i.message)}`;
    })
    .join('\n');
}

/** GitHub workflow command annotations; values escaped as the runner expects. */
export function renderIssuesGithub(issues: Issue[]): string {
  const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  const escProp = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
  return sortIssues(issues)
    .map(
      (i) =>
        `::${i.severity === 'warning' ? 'warning' : 'error'} file=${escProp(i.file)},line=${i.line},col=${i.col}::${esc(
          (i.pointer ? `${i.pointer}: ` : '') + i.message,
        )}`,
    )
    .join('\n');
}

export function sortIssues(issues: Issue[]): Issue[] {
  return [...issues].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.col - b.col || (a.message < b.message ? -1 : 1),
  );
}
