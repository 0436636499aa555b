import type { Issue } from '../errors.ts';
import { escapeGithubMessage, escapeGithubProperty, escapePathAtLineStart, escapeTerminal as oneLine } from './escape.ts';
import { compareText } from '../shared/text.ts';
import { painter } from '../shared/colour.ts';

/** `file:line:col  /pointer  message`, one line per issue, sorted by file and position. */
export function renderIssuesText(issues: Issue[], opts: { color: boolean }): string {
  const paint = painter(opts.color);
  return sortIssues(issues)
    .map((i) => {
      const where = `${escapePathAtLineStart(i.file)}:${i.line}:${i.col}`;
      const sev = i.severity === 'warning' ? paint('yellow', 'warning') : paint('red', 'error');
      return `${where}  ${oneLine(i.pointer || '/')}  ${sev}: ${oneLine(i.message)}`;
    })
    .join('\n');
}

/** GitHub workflow command annotations; values escaped as the runner expects. */
export function renderIssuesGithub(issues: Issue[]): string {
  const esc = escapeGithubMessage;
  const escProp = escapeGithubProperty;
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
  return [...issues].sort((a, b) => compareText(a.file, b.file) || a.line - b.line || a.col - b.col || compareText(a.message, b.message));
}
