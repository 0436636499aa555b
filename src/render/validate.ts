import type { Issue } from '../errors.ts';
import { renderIssuesGithub, renderIssuesText, sortIssues } from './issues.ts';
import { plural } from '../shared/text.ts';
import { painter } from '../shared/colour.ts';
import { jsonText } from './escape.ts';

export interface ValidateResult {
  files: number;
  counts: Record<string, number>;
  issues: Issue[];
}

export type ValidateFormat = 'text' | 'json' | 'github';

function summary(r: ValidateResult): string {
  const total = Object.values(r.counts).reduce((a, b) => a + b, 0);
  const parts = Object.entries(r.counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => plural(n, k));
  return `${plural(r.files, 'file')}, ${plural(total, 'resource')}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

/** What `steward validate` prints on stdout, per format. */
export function renderValidate(r: ValidateResult, format: ValidateFormat, opts: { color: boolean }): string {
  const errors = r.issues.filter((i) => i.severity === 'error');
  const warnings = r.issues.length - errors.length;
  const files = new Set(errors.map((i) => i.file)).size;
  if (format === 'json') {
    return jsonText({ formatVersion: 1, valid: errors.length === 0, files: r.files, resources: r.counts, issues: sortIssues(r.issues) }) + '\n';
  }
  const verdict =
    errors.length === 0
      ? `valid: ${summary(r)}${warnings ? `, ${plural(warnings, 'warning')}` : ''}`
      : `invalid: ${plural(errors.length, 'problem')} in ${plural(files, 'file')}${warnings ? ` and ${plural(warnings, 'warning')}` : ''}; checked ${summary(r)}`;
  if (format === 'github') {
    const body = renderIssuesGithub(r.issues);
    return (body ? body + '\n' : '') + `${errors.length === 0 ? '' : '::error::'}steward validate: ${verdict}\n`;
  }
  const body = renderIssuesText(r.issues, opts);
  const paint = painter(opts.color);
  const mark = errors.length === 0 ? `${paint('green', '✓')} ` : `${paint('red', '✗')} `;
  return (body ? body + '\n\n' : '') + mark + verdict + '\n';
}
