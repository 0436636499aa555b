import type { ApplyEvent, ApplyResult } from '../apply/apply.ts';
import { escapeTerminal } from './escape.ts';

/** One plain line per event, for CI logs (no TTY). Names, ids and server messages are terminal-escaped. */
export function renderApplyEventLine(e: ApplyEvent): string | undefined {
  const line = rawEventLine(e);
  return line === undefined ? undefined : escapeTerminal(line);
}

function rawEventLine(e: ApplyEvent): string | undefined {
  switch (e.type) {
    case 'start':
      return e.total === 0 ? undefined : `applying ${e.total} change${e.total === 1 ? '' : 's'}`;
    case 'created':
      return `  + created ${e.item.kind.toLowerCase()} ${e.item.name} (${e.id})${e.recovered ? ', confirmed by listing after an unknown outcome' : ''}`;
    case 'updated':
      return `  ~ updated ${e.item.kind.toLowerCase()} ${e.item.name} (${e.item.id})`;
    case 'deleted':
      return `  - deleted ${e.item.kind.toLowerCase()} ${e.item.name} (${e.item.id}, prune)`;
    case 'failed':
      return `  ✗ failed ${e.item.kind.toLowerCase()} ${e.item.name}: ${e.error}`;
    case 'skipped':
      return `  - skipped ${e.item.kind.toLowerCase()} ${e.item.name}: ${e.reason}`;
    case 'create-rate-limited':
      return `  ? dashboard ${e.item.name}: refused with 429 (nothing was created); sending it again in ${Math.ceil(e.waitMs / 1000)} s`;
    case 'retry-create':
      return `  ? dashboard ${e.item.name}: ${e.why}; listing dashboards before sending it again`;
    default:
      return undefined;
  }
}

/** The status line a terminal redraws in place. */
export function renderProgress(done: number, total: number, current: string, columns: number): string {
  const line = `[${done}/${total}] ${escapeTerminal(current)}`;
  return line.length > columns - 1 ? line.slice(0, columns - 2) + '…' : line;
}

/** The summary after an apply, text. */
export function renderApplySummary(r: ApplyResult, opts: { color: boolean }): string {
  const paint = (c: number, s: string) => (opts.color ? `\u001b[${c}m${s}\u001b[39m` : s);
  const lines: string[] = [];
  const ok = r.failed.length === 0 && r.skipped.length === 0;
  lines.push(
    `${ok ? paint(32, 'Apply complete') : paint(31, 'Apply incomplete')}: ${r.created.length} created, ${r.updated.length} updated, ${r.deleted.length ? `${r.deleted.length} deleted, ` : ''}${r.unchanged} unchanged, ${r.failed.length} failed, ${r.skipped.length} skipped${r.blocked ? `, ${r.blocked} blocked (not applied)` : ''}.`,
  );
  for (const f of r.failed) lines.push(paint(31, escapeTerminal(`  ✗ ${f.kind.toLowerCase()} ${f.name}: ${f.error}`)));
  for (const s of r.skipped) lines.push(paint(33, escapeTerminal(`  - ${s.kind.toLowerCase()} ${s.name}: ${s.reason}`)));
  if (!ok) lines.push('Fix what failed and run `steward apply` again: what succeeded is recorded and will not be repeated.');
  if (r.blocked) lines.push(`${r.blocked} blocked item${r.blocked === 1 ? '' : 's'} need a person: run \`steward plan\` to see them and the way out.`);
  return lines.join('\n') + '\n';
}

export function renderApplyJson(r: ApplyResult): string {
  const { state: _state, deleted, ...others } = r;
  // `deleted` only where something was (seed applies keep their old shape).
  const rest = deleted.length > 0 ? { ...others, deleted } : others;
  return JSON.stringify({ formatVersion: 1, ok: r.failed.length === 0 && r.skipped.length === 0, ...rest }, null, 2) + '\n';
}
