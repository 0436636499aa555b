/**
 * A range alert's bounds (between, not_between): HyperDX 2026-08 and ClickStack say thresholdMax "must be
 * >= threshold", and the server refuses the create or update otherwise. validate passed it and apply failed.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyResource } from '../../src/model/resource.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';

function rangeAlert(threshold: number, thresholdMax: number): AnyResource {
  return {
    kind: 'Alert',
    name: 'range',
    file: '/repo/alerts/range.yaml',
    index: 0,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'Alert',
      metadata: { name: 'range' },
      spec: {
        name: 'Range',
        threshold,
        thresholdMax,
        thresholdType: 'between',
        interval: '5m',
        source: 'saved_search',
        savedSearchId: 's1',
        channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a0002b1' },
      },
    },
  };
}

for (const api of ['hyperdx', 'clickstack-cloud']) {
  test(`${api}: thresholdMax below threshold is refused at thresholdMax; equal passes`, () => {
    const errors = (r: AnyResource) =>
      checkSemantics([r], { api })
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.pointer}: ${p.message}`);
    assert.equal(errors(rangeAlert(2000, 100)), [
      `/spec/thresholdMax: thresholdMax 100 is below threshold 2000; the ${api} API takes thresholdMax >= threshold`,
    ]);
    assert.equal(errors(rangeAlert(5, 5)), []);
  });
}

test.run();
