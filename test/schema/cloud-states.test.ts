/**
 * A CloudService's declared pipe state and endpoint status against the values ClickHouse Cloud names
 * (ClickPipe.state and ReversePrivateEndpoint.status, 2026-04-14 and 2026-07-31): the report compares them as
 * written, so a value the API never sends differs from every pipe or endpoint of that name. validate warns at
 * it, with a "did you mean" where one is near; a newer server may name more, so never an error.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyResource } from '../../src/model/resource.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';

function service(spec: Record<string, unknown>): AnyResource {
  return {
    kind: 'CloudService',
    name: 's',
    file: '/repo/cloud/s.yaml',
    index: 0,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'CloudService',
      metadata: { name: 's' },
      spec: { organizationId: '6f1c4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c', serviceId: '9a2b4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c', ...spec },
    },
  } as AnyResource;
}

const problems = (spec: Record<string, unknown>) => checkSemantics([service(spec)], { api: 'seed' }).map((p) => `${p.severity} ${p.pointer}: ${p.message}`);

const cases: { name: string; spec: Record<string, unknown>; expect: string[] }[] = [
  {
    name: 'every state and status the API names passes, in any case (Degraded, Paused, GCP-era values included)',
    spec: {
      pipes: {
        expected: ['Running', 'degraded', 'Paused', 'Stopped', 'Completed', 'Unknown', 'InternalError', 'Resuming'].map((state, i) => ({
          name: `p${i}`,
          state,
        })),
      },
      reversePrivateEndpoints: {
        expected: ['Ready', 'pendingacceptance', 'Provisioning', 'Deleting', 'Failed', 'Rejected', 'Expired', 'Unknown'].map((status, i) => ({
          description: `e${i}`,
          status,
        })),
      },
    },
    expect: [],
  },
  {
    name: 'no state or status declared: nothing to check',
    spec: { pipes: { expected: [{ name: 'p' }] }, reversePrivateEndpoints: { expected: [{ description: 'e' }] } },
    expect: [],
  },
  {
    name: 'a typo of a pipe state: a warning at it, with the state meant',
    spec: {
      pipes: {
        expected: [
          { name: 'p', state: 'Running' },
          { name: 'q', state: 'Runing' },
        ],
      },
    },
    expect: [
      'warning /spec/pipes/expected/1/state: "Runing" is not a ClickPipe state ClickHouse Cloud names, and the report compares it as written: did you mean "Running"?',
    ],
  },
  {
    name: 'an endpoint status nothing is near: the warning lists the statuses',
    spec: { reversePrivateEndpoints: { expected: [{ description: 'e', status: 'Active' }] } },
    expect: [
      'warning /spec/reversePrivateEndpoints/expected/0/status: "Active" is not a reverse private endpoint status ClickHouse Cloud names, and the report compares it as written: use one of Unknown, Provisioning, Deleting, Ready, Failed, PendingAcceptance, Rejected, Expired',
    ],
  },
  {
    name: 'a pipe state used as an endpoint status is still not one',
    spec: { reversePrivateEndpoints: { expected: [{ description: 'e', status: 'Running' }] } },
    expect: [
      'warning /spec/reversePrivateEndpoints/expected/0/status: "Running" is not a reverse private endpoint status ClickHouse Cloud names, and the report compares it as written: use one of Unknown, Provisioning, Deleting, Ready, Failed, PendingAcceptance, Rejected, Expired',
    ],
  },
];

for (const c of cases) {
  test(c.name, () => {
    assert.equal(problems(c.spec), c.expect);
  });
}

test.run();
