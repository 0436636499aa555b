import type { AnyResource } from '../../src/model/resource.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';

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

/**
 * An Alert resource as loading makes it, named `a` in alerts/a.yaml: a saved-search alert with one webhook
 * channel, `spec` laid over it.
 */
export function alertResource(spec: Record<string, unknown>): AnyResource {
  return {
    kind: 'Alert',
    name: 'a',
    file: '/repo/alerts/a.yaml',
    index: 0,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'Alert',
      metadata: { name: 'a' },
      spec: {
        name: 'A',
        threshold: 1,
        thresholdType: 'above',
        interval: '5m',
        source: 'saved_search',
        savedSearchId: 's1',
        channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a0002b1' },
        ...spec,
      },
    },
  } as AnyResource;
}

/** The errors checkSemantics finds in one resource on a profile, as `pointer: message`. */
export const semanticErrors = (r: AnyResource, api: string): string[] =>
  checkSemantics([r], { api })
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.pointer}: ${p.message}`);
