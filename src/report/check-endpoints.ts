/** Reverse private endpoint checks: presence and status. Pure. */
import type { CloudServiceSpec } from '../schema/kinds.ts';
import type { ObservedEndpoint } from '../model/cloud.ts';
import type { Finding, FindingObject } from './types.ts';
import { compareText as cmp } from '../shared/text.ts';
import { groupBy, isIn, same } from './check-helpers.ts';

/** Endpoint statuses that mean "waiting" (for provisioning or for someone to accept): warning, not error. */
const WAITING_ENDPOINT_STATUSES: readonly string[] = ['Provisioning', 'Pending', 'PendingAcceptance'];

export const DEFAULT_ENDPOINT_STATUS = 'Ready';
export const DEFAULT_REPORT_UNLISTED_ENDPOINTS = false;

type EndpointExpectations = NonNullable<CloudServiceSpec['reversePrivateEndpoints']>;

export function checkEndpoints(exp: EndpointExpectations, list: readonly ObservedEndpoint[]): Finding[] {
  const out: Finding[] = [];
  const live = [...list].sort((a, b) => cmp(a.description, b.description) || cmp(a.id ?? '', b.id ?? ''));
  const byDescription = groupBy(live, (e) => e.description);
  const expected = exp.expected ?? [];
  const declared = new Set(expected.map((e) => e.description));

  for (const [description, eps] of byDescription) {
    if (eps.length > 1) {
      out.push({
        id: 'endpoint.duplicate-description',
        severity: 'warning',
        object: { kind: 'endpoint', name: description },
        actual: { ids: eps.map((e) => e.id ?? null) },
        message: `${eps.length} reverse private endpoints are described "${description}"; ${declared.has(description) ? 'each is checked against the file' : 'descriptions should be unique'}`,
      });
    }
  }

  for (const e of expected) {
    const want = e.status ?? DEFAULT_ENDPOINT_STATUS;
    // Every endpoint with the declared description: none may hide another's status.
    const matching = byDescription.get(e.description) ?? [];
    if (matching.length === 0) {
      out.push({
        id: 'endpoint.missing',
        severity: 'error',
        object: { kind: 'endpoint', name: e.description },
        expected: { description: e.description, status: want },
        actual: null,
        message: `reverse private endpoint "${e.description}" is not on the service`,
      });
      continue;
    }
    for (const ep of matching) {
      const actual = typeof ep.status === 'string' ? ep.status : undefined;
      if (same(actual, want)) continue;
      const waiting = isIn(WAITING_ENDPOINT_STATUSES, actual);
      out.push({
        id: 'endpoint.status',
        severity: waiting ? 'warning' : 'error',
        object: endpointObject(ep),
        expected: want,
        actual: actual ?? null,
        message: `reverse private endpoint "${e.description}" ${actual === undefined ? 'reports no status' : `is ${actual}`}; expected ${want}${waiting ? ' (waiting)' : ''}`,
      });
    }
  }

  if (exp.reportUnlisted ?? DEFAULT_REPORT_UNLISTED_ENDPOINTS) {
    for (const [description, eps] of byDescription) {
      if (declared.has(description)) continue;
      for (const ep of eps) {
        out.push({
          id: 'endpoint.unlisted',
          severity: 'warning',
          object: endpointObject(ep),
          actual: { status: ep.status ?? null, type: ep.type ?? null },
          message: `reverse private endpoint "${description}"${ep.status !== undefined ? ` (${ep.status})` : ''} is on the service but no file lists it`,
        });
      }
    }
  }
  return out;
}

function endpointObject(e: ObservedEndpoint): FindingObject {
  return e.id !== undefined ? { kind: 'endpoint', name: e.description, id: e.id } : { kind: 'endpoint', name: e.description };
}
