/**
 * One webhook listed twice in an alert's `channels`: HyperDX 2026-08 (`AlertChannels`: "duplicates are
 * rejected") refuses the create or update with a 400. validate says so when the file repeats an id or a name;
 * plan says so when a name resolves to an id the list already has. Before, both passed and apply failed.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyResource } from '../../src/model/resource.ts';
import { resolveWebhookNames } from '../../src/plan/names.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';
import type { AlertChannelSpec } from '../../src/schema/types.gen.ts';

const PAGER = '65f5e4a3b9e77c001a0002b1';
const SLACK = '65f5e4a3b9e77c001a0002b2';

function alertWith(channels: AlertChannelSpec[]): AnyResource {
  return {
    kind: 'Alert',
    name: 'paging',
    file: '/repo/alerts/paging.yaml',
    index: 0,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'Alert',
      metadata: { name: 'paging' },
      spec: { name: 'Paging', threshold: 5, thresholdType: 'above', interval: '5m', source: 'saved_search', savedSearchId: 's1', channels: channels as never },
    },
  };
}

const lines = (ps: Array<{ pointer: string; message: string }>) => ps.map((p) => `${p.pointer}: ${p.message}`);

test('validate: a webhook id or name listed twice is refused at the repeat', () => {
  const byId = alertWith([
    { type: 'webhook', webhookId: PAGER },
    { type: 'webhook', webhookId: SLACK },
    { type: 'webhook', webhookId: PAGER },
  ]);
  assert.equal(lines(checkSemantics([byId], { api: 'hyperdx' }).filter((p) => p.severity === 'error')), [
    `/spec/channels/2: channel 2 repeats channel 0 (webhook ${PAGER}); the hyperdx API refuses an alert that lists a webhook twice`,
  ]);
  const byName = alertWith([
    { type: 'webhook', webhook: 'ops-pager' },
    { type: 'webhook', webhook: 'ops-pager' },
  ]);
  assert.equal(lines(checkSemantics([byName], { api: 'hyperdx' }).filter((p) => p.severity === 'error')), [
    '/spec/channels/1: channel 1 repeats channel 0 (webhook "ops-pager"); the hyperdx API refuses an alert that lists a webhook twice',
  ]);
  assert.equal(
    checkSemantics(
      [
        alertWith([
          { type: 'webhook', webhookId: PAGER },
          { type: 'webhook', webhookId: SLACK },
        ]),
      ],
      { api: 'hyperdx' },
    ),
    [],
  );
});

test('plan: a name that resolves to an id the list already has is refused at the name', () => {
  const r = resolveWebhookNames(
    [
      alertWith([
        { type: 'webhook', webhookId: PAGER },
        { type: 'webhook', webhook: 'ops-pager' },
      ]),
    ],
    [
      { id: PAGER, name: 'ops-pager' },
      { id: SLACK, name: 'slack-sre' },
    ],
  );
  assert.equal(lines(r.problems), [
    `/spec/channels/1/webhook: webhook "ops-pager" is ${PAGER}, which channel 0 already lists; the service refuses an alert that lists a webhook twice`,
  ]);
  const ok = resolveWebhookNames(
    [
      alertWith([
        { type: 'webhook', webhookId: PAGER },
        { type: 'webhook', webhook: 'slack-sre' },
      ]),
    ],
    [{ id: SLACK, name: 'slack-sre' }],
  );
  assert.equal(ok.problems, []);
});

test.run();
