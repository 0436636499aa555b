import type { ApplyEvent, ApplyResult } from '../apply/apply.ts';
import { applyProblems } from '../apply/types.ts';
import { escapeTerminal, jsonText, shownId } from './escape.ts';
import { painter } from '../shared/colour.ts';

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
      return `  + created ${e.item.kind.toLowerCase()} ${e.item.name} (${shownId(e.id)})${e.recovered ? ', confirmed by listing after an unknown outcome' : ''}`;
    case 'updated':
      return `  ~ updated ${e.item.kind.toLowerCase()} ${e.item.name} (${shownId(String(e.item.id))})`;
    case 'deleted':
      return `  - deleted ${e.item.kind.toLowerCase()} ${e.item.name} (${shownId(String(e.item.id))}, prune)`;
    case 'failed':
      return `  ✗ failed ${e.item.kind.toLowerCase()} ${e.item.name}: ${e.error}`;
    case 'skipped':
      return `  - skipped ${e.item.kind.toLowerCase()} ${e.item.name}: ${e.reason}`;
    case 'create-rate-limited':
      return `  ? ${e.item.kind.toLowerCase()} ${e.item.name}: refused with 429; in ${Math.ceil(e.waitMs / 1000)} s steward lists it by name and sends it again only if it is not there`;
    case 'retry-create':
      return `  ? dashboard ${e.item.name}: not listed after two reads; sending it again`;
    case 'settle':
      return `  ? dashboard ${e.item.name}: ${e.why}; waiting ${formatMs(e.waitMs)} for it to settle, then listing before any re-send`;
    case 'id-by-listing':
      return e.after === 'rate-limited'
        ? `  ? dashboard ${e.item.name}: after the 429, a dashboard of this name is listed (${shownId(e.id)}): taken as this create, not sent again`
        : `  ? dashboard ${e.item.name}: the service answered 2xx without the new id; found ${shownId(e.id)} by listing`;
    case 'unknown':
      return `  ? ${e.item.kind.toLowerCase()} ${e.item.name}: ${e.why}`;
    case 'duplicate':
      return `  ✗ ${e.ids.length} ${e.kind === 'Alert' ? 'alerts' : 'dashboards'} are named "${e.name}" (${e.ids.map(shownId).join(', ')}): ${
        e.unmanaged ? unmanagedLine(e.unmanaged, e.kind) : 'another runner applied at the same time'
      }${e.removed ? `; removed this run's copy ${shownId(e.removed)}` : ''}`;
    case 'not-recorded':
      return `  ! applied ${e.item.kind.toLowerCase()} ${e.item.name} (${shownId(String(e.item.id))}), not recorded: ${e.error}`;
    default:
      return undefined;
  }
}

/** The status line a terminal redraws in place. */
export function renderProgress(done: number, total: number, current: string, columns: number): string {
  const line = `[${done}/${total}] ${escapeTerminal(current)}`;
  return line.length > columns - 1 ? line.slice(0, columns - 2) + '…' : line;
}

/** The summary after an apply, text: every outcome, including what an interruption left undone. */
export function renderApplySummary(r: ApplyResult, opts: { color: boolean }): string {
  const paint = painter(opts.color);
  const lines: string[] = [];
  const ok = applyOk(r);
  const head = r.interrupted ? paint('red', 'Apply interrupted') : ok ? paint('green', 'Apply complete') : paint('red', 'Apply incomplete');
  const extra = [
    r.unknown.length ? `${r.unknown.length} unknown` : '',
    r.notRecorded.length ? `${r.notRecorded.length} applied, not recorded` : '',
    r.renamed.length ? `${r.renamed.length} stored under another name` : '',
    r.duplicates.length ? `${r.duplicates.length} duplicated` : '',
    r.notDone.length ? `${r.notDone.length} not done` : '',
  ].filter(Boolean);
  lines.push(
    `${head}: ${r.created.length} created, ${r.updated.length} updated, ${r.deleted.length ? `${r.deleted.length} deleted, ` : ''}${r.unchanged} unchanged, ${r.failed.length} failed, ${r.skipped.length} skipped${extra.length ? `, ${extra.join(', ')}` : ''}${r.blocked ? `, ${r.blocked} blocked (not applied)` : ''}.`,
  );
  if (r.interrupted) {
    for (const c of r.created) lines.push(escapeTerminal(`  + created dashboard ${c.name} (${shownId(c.id)})`));
    for (const u of r.updated) lines.push(escapeTerminal(`  ~ updated ${u.name} (${shownId(u.id)})`));
  }
  for (const f of r.failed) lines.push(paint('red', escapeTerminal(`  ✗ ${f.kind.toLowerCase()} ${f.name}: ${f.error}`)));
  for (const u of r.unknown) lines.push(paint('red', escapeTerminal(`  ? ${u.kind.toLowerCase()} ${u.name}: ${u.error}`)));
  for (const d of r.duplicates) {
    const after = d.unmanaged
      ? `: ${unmanagedLine(d.unmanaged, d.kind)}; this run kept its own${d.kind === 'Alert' ? '' : ' (its alerts are bound to it)'} and removed neither`
      : d.removed
        ? `; this run removed its copy ${shownId(d.removed)}`
        : d.cleared
          ? `; this run's answer was lost, so it kept the oldest, ${shownId(String(d.kept))}, and removed the later ${d.cleared.length === 1 ? 'copy' : 'copies'} ${d.cleared.map(shownId).join(', ') || '(none carried its marker: delete the extra ones by hand)'}`
          : d.kept
            ? `; this run's copy ${shownId(d.kept)} is the oldest: the other runner removes its own (else delete the extra ones by hand)`
            : '; delete the extra ones by hand';
    lines.push(
      paint(
        'red',
        escapeTerminal(`  ✗ ${d.ids.length} ${d.kind === 'Alert' ? 'alerts' : 'dashboards'} are named "${d.name}" (${d.ids.map(shownId).join(', ')})${after}`),
      ),
    );
  }
  for (const n of r.notRecorded)
    lines.push(paint('red', escapeTerminal(`  ! ${n.kind.toLowerCase()} ${n.name} (${shownId(n.id)}): applied, not recorded: ${n.error}`)));
  for (const n of r.renamed)
    lines.push(
      paint(
        'red',
        escapeTerminal(
          n.action === 'update'
            ? `  ! ${n.kind.toLowerCase()} ${n.name} (${shownId(n.id)}): updated, but the service answered with the name ${JSON.stringify(n.stored)}, not ${JSON.stringify(n.sent)} as sent; the next apply would send it again: set spec.name to ${JSON.stringify(n.stored)}`
            : `  ! ${n.kind.toLowerCase()} ${n.name} (${shownId(n.id)}): made, but the service lists it as ${JSON.stringify(n.stored)}, not ${JSON.stringify(n.sent)} as sent; plan finds ${n.kind === 'Alert' ? 'alerts' : 'dashboards'} by name, so the next apply would make it again: set spec.name to ${JSON.stringify(n.stored)} (or pin it with metadata.id: ${n.id})`,
        ),
      ),
    );
  for (const s of r.skipped) lines.push(paint('yellow', escapeTerminal(`  - ${s.kind.toLowerCase()} ${s.name}: ${s.reason}`)));
  for (const n of r.notDone) lines.push(paint('yellow', escapeTerminal(`  - ${n.kind.toLowerCase()} ${n.name}: not done`)));
  if (r.unknown.length) lines.push('Outcomes that stayed unknown were not sent again: run `steward plan` to see whether they were applied.');
  if (r.duplicates.some((d) => !d.unmanaged))
    lines.push('Another steward applied to this service at the same time: run one apply at a time (one state folder, or one CI concurrency group).');
  if (r.duplicates.some((d) => d.unmanaged))
    lines.push(
      'Someone made one of the names this plan creates since the plan was made: the next plan blocks it as ambiguous. Delete one of the two, or give the file its own spec.name, or pin it with metadata.id.',
    );
  if (r.heldOff)
    lines.push(
      `The service asked to wait ${Math.ceil(r.heldOff.waitMs / 1000)} s (429), longer than steward waits: nothing more was sent. Run \`steward apply\` again after that.`,
    );
  // Two of a name because someone made one since the plan is for a person (the line above), not a re-run.
  const rerun = r.duplicates.filter((d) => !d.unmanaged).length;
  if (!ok && !r.interrupted && r.failed.length + rerun + r.notRecorded.length + r.skipped.length > 0)
    lines.push('Fix what failed and run `steward apply` again: what succeeded is recorded and will not be repeated.');
  if (r.interrupted) lines.push('What was confirmed is recorded; run `steward apply` again to finish.');
  if (r.blocked) lines.push(`${r.blocked} blocked item${r.blocked === 1 ? ' needs' : 's need'} a person: run \`steward plan\` to see them and the way out.`);
  return lines.join('\n') + '\n';
}

/** Of a name this run created: the ones without the project's marker, made by someone else since the plan. */
function unmanagedLine(ids: readonly string[], kind: 'Alert' | undefined): string {
  const what = kind === 'Alert' ? "this project's marker in its note" : "this project's marker";
  return `${ids.join(', ')}, without ${what}, ${ids.length === 1 ? 'was' : 'were'} made by someone else since the plan`;
}

function applyOk(r: ApplyResult): boolean {
  return applyProblems(r) === 0 && !r.interrupted;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

export function renderApplyJson(r: ApplyResult): string {
  const { state: _state, deleted, unknown, duplicates, notRecorded, renamed, notDone, interrupted, ...others } = r;
  // `deleted` and the rarer outcomes only where there are some (applies that went well keep their old shape).
  const rest = {
    ...others,
    ...(deleted.length > 0 ? { deleted } : {}),
    ...(unknown.length > 0 ? { unknown } : {}),
    ...(duplicates.length > 0 ? { duplicates } : {}),
    ...(notRecorded.length > 0 ? { notRecorded } : {}),
    ...(renamed.length > 0 ? { renamed } : {}),
    ...(notDone.length > 0 ? { notDone } : {}),
    ...(interrupted ? { interrupted } : {}),
  };
  return jsonText({ formatVersion: 1, ok: applyOk(r), ...rest }) + '\n';
}
