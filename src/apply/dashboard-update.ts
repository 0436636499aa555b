/** A dashboard update (PUT) and the tile ids it gives, which alerts of the plan are bound to. */
import type { LiveDashboard } from '../model/dashboard.ts';
import { CliError } from '../errors.ts';
import type { ItemOf } from '../plan/types.ts';
import { answered2xx, errorLine } from './create.ts';
import type { ApplyDeps } from './types.ts';

/** A dashboard this run created or updated: its id and its tiles' ids by name; `tilesUnknown` says why they could not be read. */
export interface MadeDashboard {
  id: string;
  tiles: Map<string, string>;
  tilesUnknown?: string;
  /** The name the service answered with, where it is not the one sent (apply reports it: ApplyResult.renamed). */
  storedName?: string;
}

export function tileIds(d: LiveDashboard | undefined): Map<string, string> {
  return new Map((d?.tiles ?? []).filter((t) => typeof t.name === 'string' && typeof t.id === 'string').map((t) => [t.name as string, t.id as string]));
}

/**
 * Sends the update; throws what the PUT threw unless it was answered 2xx. A 2xx is applied whatever its body,
 * so an unreadable answer still makes the update done: the tiles' ids are read back from one list, and when
 * that list fails (or does not hold the dashboard) they are unknown, said in `tilesUnknown`, so that no alert
 * is bound to a guess. It was reported "failed" with the list's error though the server had applied it.
 */
export async function updateDashboard(deps: ApplyDeps, item: ItemOf<'Dashboard', 'update'>): Promise<MadeDashboard> {
  if (!deps.client.updateDashboard) throw new CliError('this service cannot update dashboards');
  try {
    const answer = await deps.client.updateDashboard(item.id, item.body, {});
    return { id: item.id, tiles: tileIds(answer), ...storedName(answer, item) };
  } catch (e) {
    if (!answered2xx(e)) throw e;
    const unreadable = `answered 2xx (applied) with an answer steward could not read (${errorLine(e)})`;
    let listed: LiveDashboard | undefined;
    try {
      listed = (await deps.client.listDashboards({})).find((d) => d.id === item.id);
    } catch (le) {
      return { id: item.id, tiles: new Map(), tilesUnknown: `${unreadable}, and the list that reads them back failed: ${errorLine(le)}` };
    }
    if (!listed) return { id: item.id, tiles: new Map(), tilesUnknown: `${unreadable}, and the list that reads them back does not hold it` };
    return { id: item.id, tiles: tileIds(listed), ...storedName(listed, item) };
  }
}

/**
 * The name the service holds the updated dashboard under, where it is not the one sent and the answer carries
 * every tag sent (so it is this dashboard as stored: a mock server's canned answer is not, and its name is no
 * rename).
 */
function storedName(answer: LiveDashboard | undefined, item: ItemOf<'Dashboard', 'update'>): { storedName?: string } {
  const stored = answer?.name;
  const tags = answer?.tags;
  if (typeof stored !== 'string' || stored === item.body.name || !Array.isArray(tags)) return {};
  return (item.body.tags ?? []).every((t) => tags.includes(t)) ? { storedName: stored } : {};
}
