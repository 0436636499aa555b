import type { ObservabilityCapabilities } from '../clients/profiles.ts';
import type { LiveAlert } from '../model/alert.ts';
import type { LiveDashboardInput, Orphan, PlanItem } from './types.ts';

/**
 * What is live, carries this project's marker and no file claims: with --prune a delete where the service
 * can delete, else an orphan (listed, kept) or, where dashboards cannot be deleted, a blocked item with the
 * way out. A narrowed plan (--target, paths) looks for none. Also counts the live dashboards with and without
 * the marker.
 */
export function liveLeftovers(
  input: { live: readonly LiveDashboardInput[]; liveAlerts?: readonly LiveAlert[]; markerTag: string; prune?: boolean },
  caps: Partial<ObservabilityCapabilities>,
  seen: { claimed: ReadonlySet<string>; claimedAlerts: ReadonlySet<string>; targeted: boolean },
): { items: PlanItem[]; orphans: Orphan[]; managed: number; unmanaged: number } {
  const { markerTag } = input;
  const { claimed, claimedAlerts, targeted } = seen;
  const out: PlanItem[] = [];
  let unmanaged = 0;
  let managed = 0;
  const orphans: Orphan[] = [];
  for (const d of input.live) {
    const marked = Array.isArray(d.tags) && d.tags.includes(markerTag);
    if (marked) managed++;
    if (claimed.has(d.id)) continue;
    if (!marked) {
      unmanaged++;
      continue;
    }
    if (targeted) continue;
    if (caps.deleteDashboard) {
      if (input.prune) {
        out.push({
          kind: 'Dashboard',
          name: d.name,
          action: 'delete',
          id: d.id,
          message: `live dashboard "${d.name}" (${d.id}) carries ${markerTag} but no file declares it: deleted (prune)`,
          patch: [],
        });
      } else orphans.push({ kind: 'Dashboard', name: d.name, id: d.id });
      continue;
    }
    out.push({
      kind: 'Dashboard',
      name: d.name,
      action: 'blocked',
      reason: 'orphan',
      id: d.id,
      message: `live dashboard "${d.name}" (${d.id}) carries ${markerTag} but no file declares it`,
      wayOut: [
        `delete dashboard ${d.id} by hand in the observability UI (the API cannot delete dashboards)`,
        `or keep it: run \`steward import --id ${d.id}\` to write its file`,
      ],
      patch: [],
    });
  }

  // Alerts steward created carry the marker in `note`; one no file declares any more is an orphan.
  for (const l of input.liveAlerts ?? []) {
    if (targeted || claimedAlerts.has(l.id) || (l as { note?: unknown }).note !== markerTag) continue;
    const name = typeof l.name === 'string' ? l.name : l.id;
    if (caps.deleteAlert && input.prune) {
      out.push({
        kind: 'Alert',
        name,
        action: 'delete',
        id: l.id,
        message: `live alert "${name}" (${l.id}) carries ${markerTag} but no file declares it: deleted (prune)`,
        patch: [],
      });
    } else orphans.push({ kind: 'Alert', name, id: l.id });
  }
  return { items: out, orphans, managed, unmanaged };
}
