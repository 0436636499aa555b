import type { AnyResource } from '../../src/model/resource.ts';
import type { DashboardSpec } from '../../src/schema/kinds.ts';
import type { LiveDashboardInput, StateFile } from '../../src/plan/types.ts';

export const MARKER = 'managed-by:steward';
export const NOW = new Date('2026-11-21T12:00:00.000Z');
export const DIR = '/repo';

export function dashboard(name: string, spec: Partial<DashboardSpec> = {}, id?: string): AnyResource {
  return {
    kind: 'Dashboard',
    name,
    file: `/repo/dashboards/${name}.yaml`,
    index: 0,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'Dashboard',
      metadata: { name, ...(id ? { id } : {}) },
      spec: {
        name: spec.name ?? `Dash ${name}`,
        tags: spec.tags ?? ['team:a'],
        tiles: spec.tiles ?? [{ name: 'Errors', x: 0, y: 0, w: 6, h: 3, series: [{ type: 'time', aggFn: 'count', where: 'level:error', groupBy: [] }] }],
      },
    },
  };
}

export function alert(name: string, id: string, dash = 'd1', tile = 'Errors', threshold = 5): AnyResource {
  return {
    kind: 'Alert',
    name,
    file: `/repo/alerts/${name}.yaml`,
    index: 0,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'Alert',
      metadata: { name, id },
      spec: {
        name: `Alert ${name}`,
        threshold,
        thresholdType: 'above',
        interval: '5m',
        source: 'tile',
        tile: { dashboard: dash, name: tile },
        channel: { type: 'webhook', webhookId: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
      },
    },
  };
}

/** The live form the server returns for a dashboard created from `dashboard(name)`. */
export function liveOf(name: string, id: string, overrides: Partial<LiveDashboardInput> = {}): LiveDashboardInput {
  return {
    id,
    name: `Dash ${name}`,
    tags: ['team:a', MARKER],
    tiles: [
      {
        id: `${id.slice(0, 20)}t001`,
        name: 'Errors',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        asRatio: false,
        series: [{ type: 'time', aggFn: 'count', where: 'level:error', groupBy: [] }],
      },
    ],
    ...overrides,
  };
}

export const emptyState: StateFile = { formatVersion: 1, alerts: {} };
