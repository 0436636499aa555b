import type { Action, Plan, PlanItem } from '../plan/types.ts';
import { escapeCodeBlockLine, escapeMarkdown, escapeMarkdownCode, escapeMarkdownHtml, escapeMarkdownKeepingCode } from './escape.ts';
import { itemDetail, liveCounts, renameHint, summaryLine } from './plan-text.ts';
import { fanOut, fanOutLine } from '../templates/fan-out.ts';
import { pushAll } from '../shared/arrays.ts';
import { cut } from '../shared/text.ts';

/** GitHub refuses comments over 65,536 characters; stay well under it. */
const MARKDOWN_LIMIT = 60_000;

/**
 * The parts above the items list names that files and servers choose (templates, orphan ids, fields the
 * server sends): each list shows this many, each name at most NAME_LIMIT characters. Unbounded, 2,000
 * templates of a pull request made a 117,000-character "plan under 60,000", which GitHub refuses as a
 * comment: the sticky comment kept the previous commit's plan (red team, round 12).
 */
const HEAD_ITEMS = 20;
const NAME_LIMIT = 200;
/** `n` characters of `s` and an ellipsis when longer, a surrogate pair never split. */
const cutName = (s: string, n = NAME_LIMIT) => cut(s, n + 1);
const more = (n: number, what: string) => `… and ${n} more ${what}`;

/** The order a cut keeps items in: the ones that take something away first. */
const RISK: Record<Action, number> = { delete: 0, blocked: 1, update: 2, create: 3, noop: 4 };

const ICON: Record<Action, string> = { create: '🟢 create', update: '🟡 update', delete: '🗑️ delete', noop: '⚪ unchanged', blocked: '🔴 blocked' };

export interface MarkdownOptions {
  /** Where the whole plan is, named in the line that says what was cut. */
  artifactHint?: string;
  limit?: number;
}

/**
 * A PR comment or job summary: a summary table first, then one collapsible section per item. When the
 * sections do not fit under the limit, the rest are cut and a line says how many and where the JSON is.
 */
export function renderPlanMarkdown(plan: Plan, opts: MarkdownOptions = {}): string {
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const head: string[] = [];
  head.push(`## steward plan${plan.env ? ` · \`${escapeMarkdownCode(plan.env)}\`` : ''}`);
  head.push('');
  head.push(`**${summaryLine(plan)}**`);
  head.push('');
  head.push('| | dashboards | alerts |');
  head.push('| --- | ---: | ---: |');
  for (const a of plan.summary.delete ? (['create', 'update', 'delete', 'blocked', 'noop'] as const) : (['create', 'update', 'blocked', 'noop'] as const)) {
    const n = (k: PlanItem['kind']) => plan.items.filter((i) => i.kind === k && i.action === a).length;
    head.push(`| ${ICON[a]} | ${n('Dashboard')} | ${n('Alert')} |`);
  }
  head.push('');
  if (plan.summary.blocked > 0) {
    // A saved plan (`steward show FILE`) may hold any text as a reason: escaped as the file's other text.
    const reasons = Object.entries(plan.summary.blockedByReason)
      .map(([r, n]) => `${n} ${escapeMarkdown(r)}`)
      .join(', ');
    head.push(`> [!WARNING]\n> ${plan.summary.blocked} blocked (${reasons}): these need a person; \`steward apply\` skips them.`);
    head.push('');
  }
  if (plan.orphans?.length) {
    head.push(
      `> [!NOTE]\n> ${plan.orphans.length} orphan${plan.orphans.length === 1 ? '' : 's'} kept (${[
        ...plan.orphans.slice(0, HEAD_ITEMS).map((o) => `\`${escapeMarkdownCode(cutName(o.id))}\``),
        ...(plan.orphans.length > HEAD_ITEMS ? [more(plan.orphans.length - HEAD_ITEMS, 'orphans')] : []),
      ].join(', ')}): they carry the marker tag but no file declares them; \`steward apply --prune\` deletes them (\`plan --prune\` shows it first).`,
    );
    head.push('');
  }
  const rename = renameHint(plan);
  if (rename) head.push(`> [!TIP]\n> ${escapeMarkdownKeepingCode(rename)}`, '');
  const templates = fanOut(plan);
  if (templates.length > 0) {
    head.push('**Templates**', '');
    pushAll(
      head,
      templates.slice(0, HEAD_ITEMS).map((f) => `- ${escapeMarkdownKeepingCode(cutName(fanOutLine(f), 2 * NAME_LIMIT))}`),
    );
    if (templates.length > HEAD_ITEMS) head.push(`- ${more(templates.length - HEAD_ITEMS, 'templates')}`);
    head.push('');
  }
  head.push(`<sub>live: ${escapeMarkdownHtml(liveCounts(plan))} · fingerprint \`${plan.fingerprint.slice(0, 19)}\`</sub>`);
  head.push('');

  const changed = plan.items.filter((i) => i.action !== 'noop');
  const fields = plan.ignoredFields;
  const footer = fields.length
    ? `\n<sub>Not compared: ${[
        ...fields.slice(0, HEAD_ITEMS).map((f) => `\`${escapeMarkdownCode(cutName(f))}\``),
        ...(fields.length > HEAD_ITEMS ? [more(fields.length - HEAD_ITEMS, 'fields')] : []),
      ].join(', ')}</sub>\n`
    : '';
  const start = head.join('\n');
  const sections = changed.map(section);
  const reserve = 400 + footer.length;
  if (start.length + sections.reduce((n, s) => n + s.length, 0) + reserve <= limit) return start + sections.join('') + footer;

  // Not everything fits. What a reviewer must not miss goes first: deletes, then blocked items, updates,
  // creates; so a pull request cannot pad its plan with creates to push a delete out of the comment. Each item
  // without its section still gets a line while they fit, and the rest are counted by action.
  const order = changed.map((_, i) => i).sort((a, b) => RISK[changed[a]!.action] - RISK[changed[b]!.action] || a - b);
  let body = start;
  let shown = 0;
  for (const i of order) {
    if (body.length + sections[i]!.length + reserve > limit) break;
    body += sections[i]!;
    shown++;
  }
  const rest = order.slice(shown);
  body += `\n> ${rest.length} more item${rest.length === 1 ? '' : 's'} not shown to keep this under ${limit.toLocaleString('en-US')} characters; the full plan is in ${opts.artifactHint ?? 'the plan JSON (`steward plan --out plan.json`)'}.\n\n`;
  let listed = 0;
  for (const i of rest) {
    const it = changed[i]!;
    const line = `- ${ICON[it.action]} ${it.kind.toLowerCase()} <b>${escapeMarkdownHtml(cutName(it.name))}</b>${it.reason ? ` · ${escapeMarkdownHtml(it.reason)}` : ''}\n`;
    if (body.length + line.length + reserve > limit) break;
    body += line;
    listed++;
  }
  const unlisted = rest.slice(listed).map((i) => changed[i]!.action);
  if (unlisted.length > 0) {
    const counts = (['delete', 'blocked', 'update', 'create'] as const)
      .map((a) => [a, unlisted.filter((x) => x === a).length] as const)
      .filter(([, n]) => n > 0);
    body += `- ${more(unlisted.length, `items: ${counts.map(([a, n]) => `${n} ${a}`).join(', ')}`)}\n`;
  }
  return body + footer;
}

function section(it: PlanItem): string {
  const title = `${ICON[it.action]} ${it.kind.toLowerCase()} <b>${escapeMarkdownHtml(it.name)}</b>${it.reason ? ` · ${escapeMarkdownHtml(it.reason)}` : ''}`;
  const detail = itemDetail(it, 100);
  const diff = detail.filter((l) => /^[+~-] /.test(l)).map((l) => (l.startsWith('~') ? `! ${l.slice(2)}` : l));
  const rest = detail.filter((l) => !/^[+~-] /.test(l));
  let s = `<details><summary>${title}</summary>\n\n`;
  if (it.file) s += `\`${escapeMarkdownCode(it.file)}\`${it.id ? ` · id \`${escapeMarkdownCode(it.id)}\`` : ''}\n\n`;
  // Messages and way-out lines quote names and values of the user's and the server's: Markdown-escaped,
  // keeping the code spans steward writes around commands.
  s += `${escapeMarkdownKeepingCode(it.message)}\n\n`;
  if (diff.length) s += '```diff\n' + diff.map(escapeCodeBlockLine).join('\n') + '\n```\n\n';
  for (const l of rest) s += l.startsWith('  - ') ? `- ${escapeMarkdownKeepingCode(l.slice(4))}\n` : `${escapeMarkdownKeepingCode(l)}\n\n`;
  return s + '</details>\n\n';
}
