import type { Plan } from '../plan/types.ts';
import { summaryLine } from './plan-text.ts';

const esc = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escProp = (s: string) => esc(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** GitHub workflow annotations: blocked items as errors, pending changes as notices, on their files. */
export function renderPlanGithub(plan: Plan): string {
  const lines: string[] = [];
  for (const it of plan.items) {
    if (it.action === 'noop') continue;
    const level = it.action === 'blocked' ? 'error' : 'notice';
    const props = [it.file ? `file=${escProp(it.file)}` : '', `title=${escProp(`steward ${it.action}${it.reason ? ` (${it.reason})` : ''}: ${it.kind} ${it.name}`)}`].filter(Boolean).join(',');
    const way = it.wayOut?.length ? `\nWay out:\n${it.wayOut.map((w) => `- ${w}`).join('\n')}` : '';
    lines.push(`::${level} ${props}::${esc(it.message + way)}`);
  }
  lines.push(`::notice title=steward plan::${esc(summaryLine(plan))}`);
  return lines.join('\n') + '\n';
}
