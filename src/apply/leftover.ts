/**
 * What a killed apply left: a copy it made of a name another runner made too, which it would have removed in
 * its check for copies (src/apply/duplicates.ts) had it lived. No other runner removes it (each removes only
 * its own), and every later plan blocks the name as ambiguous, so the next apply that takes over the killed
 * run's lock finishes that check: the killed run's own creates (its journal entries since its lock) that are
 * not the oldest of their name are removed, as the killed run would have removed them. Alerts likewise.
 */
import { NotFoundError } from '../clients/errors.ts';
import type { ObservabilityClient } from '../clients/observability.ts';
import type { LiveAlert } from '../model/alert.ts';
import type { LiveDashboard } from '../model/dashboard.ts';
import { groupBy, pushAll } from '../shared/arrays.ts';
import { readRegularFile } from '../shared/files.ts';
import { errorLine, listsTags, mayBeOurAlert, mayBeOurs } from './create.ts';
import { confirmedEntries, type Journal, type JournalLine, type SendEntry } from './journal.ts';
import { oldestFirst } from './oldest.ts';

type Kind = 'dashboard' | 'alert';
type Copy = { id: string; name?: string | null | undefined };
export type Leftover = { kind: Kind; name: string; title: string; id: string; kept: string };

/**
 * The copies to remove: dashboards (alerts) the run that held the lock since `since` made and did not remove,
 * that are not the oldest of their name's copies that are this project's (`ours`: a dashboard's marker tag;
 * for an alert, the note the killed run's copy carries). The oldest is the one every runner keeps
 * (src/apply/oldest.ts), so none of these is another runner's. An id `pinned` by a file (metadata.id) is kept:
 * someone chose it.
 */
export function leftoverCopies<T extends Copy>(
  kind: Kind,
  entries: readonly JournalLine[],
  since: string,
  live: readonly T[],
  ours: (x: T, mine: T) => boolean,
  pinned: ReadonlySet<string>,
): Leftover[] {
  const from = Date.parse(since);
  if (Number.isNaN(from)) return [];
  const after = entries.filter((e) => Date.parse(e.at) >= from);
  // Only the killed run wrote under its lock; entries of another run there (two environments' state files
  // sharing one journal) leave it unclear which are its: nothing is removed.
  if (new Set(after.map((e) => e.run)).size > 1) return [];
  const confirmed = confirmedEntries(after);
  const removed = new Set(confirmed.filter((e) => e.op === `${kind}.delete`).map((e) => e.id));
  const made = new Map(confirmed.filter((e) => e.op === `${kind}.create` && !removed.has(e.id)).map((e) => [e.id, e.name]));
  // Creates sent whose outcome the killed run never learned (its answer lost, killed in the settle window):
  // a copy of its may be any of the name's. It would have kept the oldest and removed the later ones that are
  // this project's (src/apply/duplicates.ts, after a lost answer); so does this, by the title sent.
  const settledNames = new Set(confirmed.filter((e) => e.op === `${kind}.create`).map((e) => e.name));
  const sent = after.filter((e): e is SendEntry => e.op === `${kind}.send` && !settledNames.has(e.name));
  // A journal is a committed file: a line without a title matches nothing.
  const unsettled = new Map(sent.flatMap((e) => (typeof e.title === 'string' ? [[e.title, e.name] as const] : [])));
  const out: Leftover[] = [];
  if (made.size === 0 && unsettled.size === 0) return out;
  for (const copies of groupBy(live, (d) => d.name).values()) {
    for (const mine of copies) {
      const name = made.get(mine.id) ?? (typeof mine.name === 'string' ? unsettled.get(mine.name) : undefined);
      if (name === undefined || pinned.has(mine.id)) continue;
      const same = oldestFirst(copies.filter((x) => ours(x, mine)));
      if (same.length > 1 && same[0]!.id !== mine.id) out.push({ kind, name, title: String(mine.name), id: mine.id, kept: same[0]!.id });
    }
  }
  return out;
}

/** A dashboard is this project's by the marker tag (mayBeOurs); an alert by the note the killed run's copy carries. */
export const dashboardsOurs = (live: readonly LiveDashboard[], marker: string) => {
  const tagsListed = listsTags(live);
  return (d: LiveDashboard) => mayBeOurs(d, marker, tagsListed);
};
export const alertsOurs = (a: LiveAlert, mine: LiveAlert) => mayBeOurAlert(a, (mine as { note?: string }).note);

/**
 * How much of the journal's end is read. It only grows (append-only, never rewritten), and what is read from
 * it is the killed run's lines, at its end: past ~512 MiB (years of applies, or a file padded by hand) Node
 * cannot hold it as one string, and a takeover failed with an internal error (red team, round 18). 64 MiB is
 * some 400,000 lines, far more than one run writes.
 */
export const JOURNAL_TAIL_BYTES = 64 * 1024 * 1024;

/**
 * The journal's text (its last JOURNAL_TAIL_BYTES, from the first whole line in them); none yet is no
 * entries. Not through a link, nor anything but a regular file with one name: a committed
 * `.steward/journal.jsonl` linking to a file outside the project (a key, a fifo) is not read (no entries);
 * opening the journal for writing next refuses it with the reason.
 */
export function readJournalText(path: string, tailBytes = JOURNAL_TAIL_BYTES): string {
  try {
    const bytes = readRegularFile(path, Number.MAX_SAFE_INTEGER, { noFollow: true, oneName: true, tail: tailBytes });
    if (!bytes.cut) return bytes.toString('utf8');
    const nl = bytes.indexOf(10);
    return nl === -1 ? '' : bytes.subarray(nl + 1).toString('utf8');
  } catch (e) {
    if (['ENOENT', 'ELOOP', 'ENXIO', 'ENOTREG', 'EISDIR', 'EHARDLINK'].includes((e as NodeJS.ErrnoException).code ?? '')) return '';
    throw e;
  }
}

/**
 * Lists the dashboards (and, where the service deletes alerts, the alerts) and removes the killed run's
 * leftover copies (leftoverCopies), each journalled. Says each removal (or why one could not be removed: the
 * next plan then blocks the name, as before) through `say`. How many were removed.
 */
export async function removeLeftovers(
  client: Pick<ObservabilityClient, 'listDashboards' | 'deleteDashboard' | 'listAlerts' | 'deleteAlert'>,
  o: {
    alerts: boolean;
    entries: readonly JournalLine[];
    since: string;
    marker: string;
    pinned: ReadonlySet<string>;
    journal: Journal;
    runId: string;
    now: () => Date;
    say: (text: string) => void;
  },
): Promise<number> {
  const dashboards = await client.listDashboards({});
  const ours = dashboardsOurs(dashboards, o.marker);
  const found = leftoverCopies('dashboard', o.entries, o.since, dashboards, (d) => ours(d), o.pinned);
  if (o.alerts) pushAll(found, leftoverCopies('alert', o.entries, o.since, await client.listAlerts({}), alertsOurs, o.pinned));
  let removed = 0;
  for (const c of found) {
    try {
      await (c.kind === 'alert' ? client.deleteAlert(c.id, {}) : client.deleteDashboard(c.id, {})).catch((e: unknown) => {
        if (!(e instanceof NotFoundError)) throw e;
      });
      await o.journal.append({ at: o.now().toISOString(), run: o.runId, op: `${c.kind}.delete`, name: c.name, id: c.id, confirmedBy: 'response' });
      removed++;
      o.say(`removed ${c.kind} ${c.id} ("${c.title}"), a later copy the killed run made and did not remove; ${c.kept} stays`);
    } catch (e) {
      o.say(`could not remove ${c.kind} ${c.id} ("${c.title}"), a later copy the killed run made: ${errorLine(e)}`);
    }
  }
  return removed;
}
