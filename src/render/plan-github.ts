import type { Plan } from '../plan/types.ts';
import { escapeGithubMessage as esc, escapeGithubProperty as escProp, githubLines } from './escape.ts';
import { summaryLine } from './plan-text.ts';

/** GitHub workflow annotations: blocked items as errors, pending changes as notices, on their files. */
export function renderPlanGithub(plan: Plan): string {
  const lines: string[] = [];
  for (const it of plan.items) {
    if (it.action === 'noop') continue;
    const level = it.action === 'blocked' ? 'error' : 'notice';
    const props = [
      it.file ? `file=${escProp(it.file)}` : '',
      `title=${escProp(`steward ${it.action}${it.reason ? ` (${it.reason})` : ''}: ${it.kind} ${it.name}`)}`,
    ]
      .filter(Boolean)
      .join(',');
    // Each part escaped on its own (a line break inside one is shown as \n), then joined with the runner's
    // encoded line breaks: a name cannot end the annotation or start another.
    const parts = [esc(it.message), ...(it.wayOut?.length ? ['Way out:', ...it.wayOut.map((w) => `- ${esc(w)}`)] : [])];
    lines.push(`::${level} ${props}::${githubLines(parts)}`);
  }
  lines.push(`::notice title=steward plan::${esc(summaryLine(plan))}`);
  return lines.join('\n') + '\n';
}
