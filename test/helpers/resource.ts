import type { AnyResource } from '../../src/model/resource.ts';

/** A Dashboard resource as loading makes it, named `d` in dashboards/d.yaml, for the checks that take resources. */
export function dashboardResource(spec: { name: string; tiles: unknown[]; filters?: unknown[] }): AnyResource {
  return {
    kind: 'Dashboard',
    name: 'd',
    file: '/repo/dashboards/d.yaml',
    index: 0,
    doc: { apiVersion: 'steward/v1', kind: 'Dashboard', metadata: { name: 'd' }, spec: spec as never },
  };
}
