/**
 * Fan-out of a plan: what each template's change does across its stamps, summarized once before the
 * per-item detail ("template jvm-runtime: 3 dashboards, 1 tile changed"). Pure; read from the plan alone:
 * a stamped resource's name is `<template>/<key>[/<entry>]`, and a hand-written metadata.name cannot hold
 * "/" (its schema pattern), so the part before the first "/" is always the template.
 */
import type { Action, Plan } from '../plan/types.ts';

export interface FanOut {
  template: string;
  dashboards: number;
  alerts: number;
  /** Items per action (unchanged stamps are not counted). */
  actions: Partial<Record<Action, number>>;
  /** Names of the tiles any updated dashboard's patch touches, sorted. */
  tiles: string[];
  /** Top-level fields other than tiles that the patches touch (name, tags, filters), sorted. */
  fields: string[];
  /** Whether every changed stamp has the very same patch (one change, fanned out). */
  same: boolean;
}

/** The template a stamped resource's name comes from; undefined for hand-written names. */
export function templateOf(name: string): string | undefined {
  const i = name.indexOf('/');
  return i > 0 ? name.slice(0, i) : undefined;
}

const ACTION_ORDER: Action[] = ['create', 'update', 'delete', 'blocked', 'noop'];
const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** One entry per template with at least one changed stamp, by template name. */
export function fanOut(plan: Plan): FanOut[] {
  const by = new Map<string, FanOut & { patches: Set<string> }>();
  for (const it of plan.items) {
    // Only items from files: an orphan's name is the live dashboard's, which may hold anything, "/" too.
    const t = it.file !== undefined ? templateOf(it.name) : undefined;
    if (!t || it.action === 'noop' || it.action === 'delete') continue;
    let f = by.get(t);
    if (!f) by.set(t, (f = { template: t, dashboards: 0, alerts: 0, actions: {}, tiles: [], fields: [], same: true, patches: new Set() }));
    if (it.kind === 'Dashboard') f.dashboards++;
    else f.alerts++;
    f.actions[it.action] = (f.actions[it.action] ?? 0) + 1;
    f.patches.add(`${it.kind}\u0000${it.action}\u0000${JSON.stringify(it.patch)}`);
    if (it.kind !== 'Dashboard' || it.action !== 'update') continue;
    for (const op of it.patch) {
      const [top, tile] = op.path.split('/').slice(1).map(unescape);
      if (top === 'tiles' && tile !== undefined) f.tiles.push(tile);
      else if (top !== undefined && top !== 'tiles') f.fields.push(top);
    }
  }
  return [...by.values()]
    .sort((a, b) => (a.template < b.template ? -1 : 1))
    .map(({ patches, ...f }) => ({ ...f, tiles: [...new Set(f.tiles)].sort(), fields: [...new Set(f.fields)].sort(), same: patches.size === 1 }));
}

/** "template jvm-runtime: 3 dashboards, 1 tile changed ("CPU"), the same change in each (3 to update)". */
export function fanOutLine(f: FanOut): string {
  const n = (k: number, word: string) => `${k} ${word}${k === 1 ? '' : 's'}`;
  const parts: string[] = [];
  if (f.dashboards) parts.push(n(f.dashboards, 'dashboard'));
  if (f.alerts) parts.push(n(f.alerts, 'alert'));
  if (f.tiles.length)
    parts.push(
      `${n(f.tiles.length, 'tile')} changed (${f.tiles
        .slice(0, 5)
        .map((t) => JSON.stringify(t))
        .join(', ')}${f.tiles.length > 5 ? ', …' : ''})`,
    );
  if (f.fields.length) parts.push(`${f.fields.join(', ')} changed`);
  const count = f.dashboards + f.alerts;
  const actions = ACTION_ORDER.filter((a) => f.actions[a]).map((a) => `${f.actions[a]} ${a === 'blocked' ? 'blocked' : `to ${a}`}`);
  return `template ${f.template}: ${parts.join(', ')}${f.same && count > 1 ? ', the same change in each' : ''} (${actions.join(', ')})`;
}
