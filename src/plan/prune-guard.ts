import type { PlanItem } from './types.ts';

/**
 * Argo CD's `allowEmpty`, for --prune: files that declare no dashboard (or no alert) while the service holds
 * ones this project manages are far more often a resources pattern that stopped matching (a folder renamed, a
 * job run from the wrong directory: validate only warns "matches no file") than a wish to delete them all. Those
 * deletes become blocked items, which apply skips and `--detailed-exitcode` reports as 3, unless `allowEmpty`
 * says the emptiness is meant. Deletes beside declared resources of their kind are left as they are.
 */
export function blockPruneToEmpty(items: PlanItem[], declared: { dashboards: number; alerts: number }): void {
  const deletes = { Dashboard: 0, Alert: 0 };
  for (const it of items) if (it.action === 'delete') deletes[it.kind]++;
  for (const [i, it] of items.entries()) {
    if (it.action !== 'delete') continue;
    const kind = it.kind === 'Dashboard' ? 'dashboard' : 'alert';
    if ((it.kind === 'Dashboard' ? declared.dashboards : declared.alerts) > 0) continue;
    items[i] = {
      ...it,
      action: 'blocked',
      reason: 'prune-to-empty',
      message: `${it.message.replace(/: deleted \(prune\)$/, '')}; not deleted: no file declares any ${kind}, and --prune would delete all ${deletes[it.kind]} this project manages`,
      wayOut: [
        `if a folder moved or was renamed, fix spec.resources (validate warns about a pattern that matches no file)`,
        `to delete every one of them on purpose: steward apply --prune --allow-empty`,
      ],
    };
  }
}
