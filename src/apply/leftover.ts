/**
 * What a killed apply left: a copy it made of a name another runner made too, which it would have removed in
 * its check for copies (src/apply/duplicates.ts) had it lived. No other runner removes it (each removes only
 * its own), and every later plan blocks the name as ambiguous, so the next apply that takes over the killed
 * run's lock finishes that check: the killed run's own creates (its journal entries since its lock) that are
 * not the oldest of their name are removed, as the killed run would have removed them.
 */
import { readFileSync } from 'node:fs';
import { NotFoundError } from '../clients/errors.ts';
import type { LiveDashboard } from '../model/dashboard.ts';
import { groupBy } from '../shared/arrays.ts';
import { errorLine, mayBeOurs, listsTags } from './create.ts';
import type { Journal, JournalEntry } from './journal.ts';
import { oldestFirst } from './oldest.ts';

/**
 * The copies to remove: dashboards the run that held the lock since `since` made (and did not remove), which
 * carry this project's marker and are not the oldest of their name's copies that carry it. The oldest is the
 * one every runner keeps (src/apply/oldest.ts), so none of these is another runner's. An id `pinned` by a file
 * (metadata.id) is kept: someone chose it.
 */
export function leftoverCopies(
  entries: readonly JournalEntry[],
  since: string,
  live: readonly LiveDashboard[],
  marker: string,
  pinned: ReadonlySet<string>,
): Array<{ name: string; title: string; id: string; kept: string }> {
  const from = Date.parse(since);
  if (Number.isNaN(from)) return [];
  const after = entries.filter((e) => Date.parse(e.at) >= from);
  const removed = new Set(after.filter((e) => e.op === 'dashboard.delete').map((e) => e.id));
  const made = new Map(after.filter((e) => e.op === 'dashboard.create' && !removed.has(e.id)).map((e) => [e.id, e.name]));
  if (made.size === 0) return [];
  const tagsListed = listsTags(live);
  const out: Array<{ name: string; title: string; id: string; kept: string }> = [];
  for (const copies of groupBy(live, (d) => d.name).values()) {
    const same = oldestFirst(copies.filter((d) => mayBeOurs(d, marker, tagsListed)));
    if (same.length < 2) continue;
    for (const d of same.slice(1)) {
      const name = made.get(d.id);
      if (name !== undefined && !pinned.has(d.id)) out.push({ name, title: d.name, id: d.id, kept: same[0]!.id });
    }
  }
  return out;
}

/** The journal's text; none yet is no entries. */
export function readJournalText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw e;
  }
}

/**
 * Lists the dashboards and removes the killed run's leftover copies (leftoverCopies), each journalled. Says
 * each removal (or why one could not be removed: the next plan then blocks the name, as before) through
 * `say`. How many were removed.
 */
export async function removeLeftovers(
  client: { listDashboards(o: object): Promise<LiveDashboard[]>; deleteDashboard(id: string, o: object): Promise<void> },
  o: {
    entries: readonly JournalEntry[];
    since: string;
    marker: string;
    pinned: ReadonlySet<string>;
    journal: Journal;
    runId: string;
    now: () => Date;
    say: (text: string) => void;
  },
): Promise<number> {
  const live = await client.listDashboards({});
  let removed = 0;
  for (const c of leftoverCopies(o.entries, o.since, live, o.marker, o.pinned)) {
    try {
      await client.deleteDashboard(c.id, {}).catch((e: unknown) => {
        if (!(e instanceof NotFoundError)) throw e;
      });
      await o.journal.append({ at: o.now().toISOString(), run: o.runId, op: 'dashboard.delete', name: c.name, id: c.id, confirmedBy: 'response' });
      removed++;
      o.say(`removed dashboard ${c.id} ("${c.title}"), a later copy the killed run made and did not remove; ${c.kept} stays`);
    } catch (e) {
      o.say(`could not remove dashboard ${c.id} ("${c.title}"), a later copy the killed run made: ${errorLine(e)}`);
    }
  }
  return removed;
}
