/**
 * How much of a report the formats people read show. A cloud decides how many backups, pipes and endpoints
 * a service has and what they are called: 100,000 backups made a text report of 64,000 lines and a
 * report.html of 65 MB, and one pipe named with 5 MB of text was 5 MB in each of them. The formats people
 * read (text, Markdown, GitHub annotations, report.html) show the first findings of each service (they are
 * sorted errors first), the first rows of each table, and cut long text with an ellipsis, saying how many
 * more there are; report.json keeps everything. The Report value is redacted before it is rendered (every
 * secret is `[redacted]` already), so a cut never leaves part of a secret to show.
 */
import type { Finding, Severity } from '../report/types.ts';
import { cut, plural } from '../shared/text.ts';

/** Findings listed per service in the text report, report.md and the GitHub annotations. */
export const FINDINGS_SHOWN = 50;

/** Findings, and rows of each table (pipes, endpoints, backups), listed per service in report.html. */
export const HTML_ROWS_SHOWN = 500;

/** A finding's message, and a JSON Patch operation, are cut at this many characters. */
export const MESSAGE_LIMIT = 500;

/**
 * Operations of a finding's JSON Patch shown in report.md and report.html: a declared list of one reverse private endpoint id
 * against a live one of 100,000 made a patch of 100,000 operations, 9.3 MB of report.html for one pipe, and
 * report.md, kept under its length, then listed one finding a service (red team).
 */
export const PATCH_OPS_SHOWN = 20;

/** A finding's JSON Patch as lines for people: the first PATCH_OPS_SHOWN operations, each cut, then how many more. */
export function patchLines(patch: readonly unknown[]): string[] {
  const lines = patch.slice(0, PATCH_OPS_SHOWN).map((op) => cut(JSON.stringify(op), MESSAGE_LIMIT));
  if (patch.length > PATCH_OPS_SHOWN) lines.push(`…and ${plural(patch.length - PATCH_OPS_SHOWN, 'more operation')} in report.json`);
  return lines;
}

/** A name, id, state or type the server chose is cut at this many characters. */
export const NAME_LIMIT = 200;

/** A finding's expected or actual value in report.html, each member's line, is cut at this many characters. */
export const VALUE_LIMIT = 1000;

/** The first `limit` of a service's findings, and those left out. */
export function firstFindings(findings: readonly Finding[], limit: number): { shown: readonly Finding[]; rest: readonly Finding[] } {
  if (findings.length <= limit) return { shown: findings, rest: [] };
  return { shown: findings.slice(0, limit), rest: findings.slice(limit) };
}

const ORDER: readonly Severity[] = ['error', 'warning', 'info'];

/** `3 more findings in report.json (1 error, 2 warnings)`: what was left out, by severity. */
export function moreFindings(rest: readonly Finding[]): string {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of rest) counts[f.severity]++;
  const by = ORDER.filter((s) => counts[s] > 0).map((s) => (s === 'info' ? `${counts[s]} info` : plural(counts[s], s)));
  return `${plural(rest.length, 'more finding')} in report.json (${by.join(', ')})`;
}
