import { createHash } from 'node:crypto';
import type { LiveDashboardInput, StateFile } from './types.ts';

/** JSON with object keys sorted, so equal values always give equal text. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .filter((k) => o[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

/**
 * A digest of everything a plan was computed from on the service side: the live dashboards (whole, in id
 * order) and the alert records. Apply recomputes it before writing; any difference means the plan is stale.
 */
export function fingerprintLive(live: readonly LiveDashboardInput[], state: StateFile, liveAlerts?: ReadonlyArray<{ id: string }>): string {
  const h = createHash('sha256');
  const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const sorted = [...live].sort(byId);
  h.update(canonicalJson(sorted));
  h.update('\u0000');
  h.update(canonicalJson(state.alerts));
  // Profiles that read alerts: the live alerts are part of what the plan was computed from.
  if (liveAlerts) {
    h.update('\u0000');
    h.update(canonicalJson([...liveAlerts].sort(byId)));
  }
  return `sha256:${h.digest('hex')}`;
}
