import type { Action, Plan, PlanItem } from '../plan/types.ts';
import { escapeTerminal as t } from './escape.ts';
import { patchLines, wrapWords } from './patch.ts';
import { fanOut, fanOutLine } from '../templates/fan-out.ts';
import { painter, type Style } from '../shared/colour.ts';
import { groupBy, pushAll } from '../shared/arrays.ts';
import { alikeName } from '../shared/alike-name.ts';

const SYMBOL: Record<Action, string> = { create: '+', update: '~', delete: '-', noop: '=', blocked: '!' };

export interface TextOptions {
  color: boolean;
  /** List unchanged items one by one (default: only counted). */
  showUnchanged?: boolean;
  columns?: number;
  /**
   * The last line's next step: the command that applies this plan (default `steward apply`; a saved plan
   * names its file), or 'applying' when apply itself prints the plan before it runs it.
   */
  next?: string;
}

/** A one-line count of the plan, e.g. "2 to create, 3 to update, 1 blocked, 4 unchanged". */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const parts = [
    `${s.create} to create`,
    `${s.update} to update`,
    ...(s.delete ? [`${s.delete} to delete`] : []),
    `${s.blocked} blocked`,
    `${s.noop} unchanged`,
  ];
  return parts.join(', ') + (plan.targeted && plan.targetedOf !== undefined ? `; targeted: ${plan.items.length} of ${plan.targetedOf} items` : '');
}

/**
 * The live dashboards, in parts that add up: those with the marker tag, those a file declares that lack it
 * (matched by name or id), and the rest. "1 dashboard", "2 dashboards". Not escaped (the caller escapes).
 */
export function liveCounts(plan: Plan): string {
  const { dashboards, managed, unmanaged } = plan.live;
  const declared = dashboards - managed - unmanaged;
  const parts = [
    `${managed} carr${managed === 1 ? 'ies' : 'y'} ${plan.markerTag}`,
    ...(declared > 0 ? [`${declared} declared in files without it`] : []),
    `${unmanaged} unmanaged`,
  ];
  return `${dashboards} dashboard${dashboards === 1 ? '' : 's'} (${parts.join(', ')})`;
}

/** The plan for a terminal or a CI log. */
export function renderPlanText(plan: Plan, opts: TextOptions): string {
  const paint = painter(opts.color);
  const dim = (s: string) => paint('dim', s);
  const bold = (s: string) => paint('bold', s);
  const colorOf: Record<Action, Style> = { create: 'green', update: 'yellow', delete: 'red', noop: 'gray', blocked: 'red' };
  const width = Math.max(60, Math.min(opts.columns ?? 100, 160));

  const out: string[] = [];
  out.push(bold(`steward plan${plan.env ? ` (env ${t(plan.env)})` : ''}: ${summaryLine(plan)}`));
  out.push(dim(`live: ${t(liveCounts(plan))}; fingerprint ${plan.fingerprint.slice(0, 19)}…`));

  // A template's change, once, before the items it fans out to.
  const templates = fanOut(plan);
  if (templates.length > 0) {
    out.push('', bold('Templates'));
    pushAll(
      out,
      templates.map((f) => `  ${t(fanOutLine(f))}`),
    );
  }

  for (const kind of ['Dashboard', 'Alert'] as const) {
    const items = plan.items.filter((i) => i.kind === kind && (opts.showUnchanged || i.action !== 'noop'));
    const unchanged = plan.items.filter((i) => i.kind === kind && i.action === 'noop').length;
    if (items.length === 0 && unchanged === 0) continue;
    out.push('', bold(kind === 'Dashboard' ? 'Dashboards' : 'Alerts'));
    for (const it of items) {
      const sym = paint(colorOf[it.action], `${SYMBOL[it.action]} ${it.action.padEnd(7)}`);
      // Names, files and messages hold the user's and the server's text: escaped for the terminal. So is the
      // reason, which a saved plan (`steward show FILE`) may hold as any text.
      const label = it.action === 'blocked' ? `${t(it.reason)}: ` : '';
      out.push(`  ${sym} ${bold(t(it.name))}${it.file ? dim(`  ${t(it.file)}`) : ''}`);
      out.push(`      ${label}${t(it.message)}`);
      for (const line of itemDetail(it, width - 8))
        out.push(
          `      ${line.startsWith('+') ? paint('green', line) : line.startsWith('-') ? paint('red', line) : line.startsWith('~') ? paint('yellow', line) : line}`,
        );
    }
    if (!opts.showUnchanged && unchanged > 0)
      out.push(dim(`  = ${unchanged} unchanged ${kind === 'Dashboard' ? 'dashboard' : 'alert'}${unchanged === 1 ? '' : 's'}`));
  }

  if (plan.orphans?.length) {
    out.push('', bold('Orphans (kept)'));
    for (const o of plan.orphans) out.push(`  ${paint('gray', '? orphan ')} ${o.kind === 'Alert' ? 'alert ' : ''}${bold(t(o.name))}${dim(`  ${t(o.id)}`)}`);
    out.push(
      dim(
        `  they carry ${t(plan.markerTag)} (dashboards as a tag, alerts in their note) but no file declares them; \`steward apply --prune\` (or spec.prune: true) deletes them (\`plan --prune\` shows it first), or write their files (\`steward import --id ID\`)`,
      ),
    );
  }
  const rename = renameHint(plan);
  if (rename) out.push('', dim(t(rename)));
  if (plan.ignoredFields.length > 0) {
    out.push('', dim(`Not compared (the service's own or not modeled by steward): ${t(plan.ignoredFields.join(', '))}`));
  }
  out.push('');
  if (plan.summary.blocked > 0)
    out.push(
      paint('red', `${plan.summary.blocked} blocked item${plan.summary.blocked === 1 ? ' needs' : 's need'} a person: see "way out" above. apply skips them.`),
    );
  const deletes = plan.summary.delete ?? 0;
  if (plan.summary.create + plan.summary.update + deletes === 0) out.push('Nothing to apply.');
  else {
    const what = [
      plan.summary.create && `create ${plan.summary.create}`,
      plan.summary.update && `update ${plan.summary.update}`,
      deletes && `delete ${deletes}`,
    ]
      .filter(Boolean)
      .join(' and ');
    out.push(opts.next === 'applying' ? `This apply will ${what}.` : `Run \`${t(opts.next ?? 'steward apply')}\` to ${what}.`);
  }
  return out.join('\n') + '\n';
}

/**
 * Detail lines of one item, shared by the text and Markdown renderers. Each line is terminal-escaped (one
 * line, no control characters), whatever names, tags, values or server messages it quotes.
 */
export function itemDetail(it: PlanItem, width: number): string[] {
  return rawDetail(it, width).map(t);
}

function rawDetail(it: PlanItem, width: number): string[] {
  const lines: string[] = [];
  if (it.kind === 'Dashboard' && it.action === 'create') {
    const body = it.body;
    const tiles = body.tiles ?? [];
    lines.push(`+ name: ${JSON.stringify(body.name)}`);
    if (body.tags?.length) lines.push(`+ tags: ${body.tags.join(', ')}`);
    const count = `${tiles.length} tile${tiles.length === 1 ? '' : 's'}`;
    const names = tiles.map((tile) => tile.name).join(', ');
    if (count.length + names.length + 4 <= width) lines.push(`+ ${count}: ${names}`);
    else {
      lines.push(`+ ${count}:`);
      pushAll(
        lines,
        wrapWords(names, Math.max(30, width - 4)).map((l) => `+   ${l}`),
      );
    }
  } else if (it.action !== 'noop' && it.action !== 'delete') {
    for (const l of patchLines(it.patch, it.before, width)) lines.push(`${l.sign} ${l.text}`);
  }
  if (it.kind === 'Dashboard' && it.action === 'delete') lines.push(`- dashboard ${it.id} (prune)`);
  if (it.serverValidation) {
    lines.push(it.serverValidation.valid ? 'service validation: valid' : `service validation: INVALID`);
    for (const e of it.serverValidation.errors) lines.push(`  - ${e}`);
  }
  if (it.reference) {
    lines.push(`tile ${it.reference.dashboard} › ${JSON.stringify(it.reference.tile)} = dashboard ${it.reference.dashboardId}, tile ${it.reference.tileId}`);
  }
  if (it.candidates) lines.push(`candidates: ${it.candidates.join(', ')}`);
  if (it.wayOut?.length) {
    lines.push('way out:');
    for (const w of it.wayOut) lines.push(`  - ${w}`);
  }
  return lines;
}

/**
 * Dashboards match their live twin by spec.name (or a pinned metadata.id): one renamed in its file plans as a
 * create beside an orphan (or a delete, with --prune), which Terraform users do not expect. Said when a plan
 * has both, with the way to rename in place.
 */
export function renameHint(plan: Plan): string | undefined {
  const creates = plan.items.some((i) => i.kind === 'Dashboard' && i.action === 'create');
  const gone = plan.orphans?.some((o) => o.kind === 'Dashboard') || plan.items.some((i) => i.kind === 'Dashboard' && i.action === 'delete');
  if (!creates || !gone) return undefined;
  return [
    ...alikeHints(plan),
    'A dashboard renamed in its file (spec.name) plans as a create and an orphan: to rename it in place, keeping its id and its alerts, set metadata.id in its file to the live id (shown beside the orphan) before the rename is applied.',
  ].join(' ');
}

/**
 * Creates whose name is alike (src/shared/alike-name.ts) the name of a listed dashboard of this project that
 * no file declares (an orphan, or a delete with --prune): on a service that trims names or folds their case,
 * that dashboard is this file's, stored under the name the service made of it, and apply would make another
 * copy each time (apply then fails, reporting the name stored). Said before anything is sent.
 */
export function alikeHints(plan: Plan): string[] {
  const listed = [...(plan.orphans ?? []), ...plan.items.filter((i) => i.action === 'delete')].flatMap((g) =>
    g.kind === 'Dashboard' && g.id !== undefined ? [{ name: g.name, id: g.id }] : [],
  );
  const gone = groupBy(listed, (g) => alikeName(g.name));
  const out: string[] = [];
  for (const i of plan.items) {
    if (i.kind !== 'Dashboard' || i.action !== 'create' || typeof i.body.name !== 'string') continue;
    const sent = i.body.name;
    for (const g of gone.get(alikeName(sent)) ?? []) {
      if (g.name === sent) continue;
      out.push(
        `Dashboard ${i.name} is sent as ${JSON.stringify(sent)} and this project's ${JSON.stringify(g.name)} (${g.id}) is listed: a service that trims names or folds their case stores the one as the other, and apply would make another copy. Set its spec.name to ${JSON.stringify(g.name)}, or pin metadata.id: ${g.id}.`,
      );
    }
  }
  return out;
}
