/**
 * An alert's channel, member by member, on the live profiles (table-driven, no server): ClickStack's webhook
 * channel carries webhookService, slackChannelId and severity, its email channel emailRecipients; HyperDX's
 * `channels` list carries webhooks. The PUT replaces the alert, so the plan compares every member the live
 * channel holds: one the file changes is an update shown field by field, one the file lacks is shown going
 * (never dropped silently), nulls are absent. And validate refuses what a profile's channel cannot hold.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Operation } from 'fast-json-patch';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import type { LiveAlert } from '../../src/model/alert.ts';
import type { AnyResource } from '../../src/model/resource.ts';
import { computePlan } from '../../src/plan/plan.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';
import type { AlertChannelSpec } from '../../src/schema/types.gen.ts';
import { DIR, MARKER, NOW } from './fixtures.ts';

const HOOK = '65f5e4a3b9e77c001a0002b4';
const OTHER = '65f5e4a3b9e77c001a0002b3';

function alertFile(channel: { channel: AlertChannelSpec } | { channels: [AlertChannelSpec, ...AlertChannelSpec[]] }): AnyResource {
  return {
    kind: 'Alert',
    name: 'paging',
    file: `${DIR}/alerts/paging.yaml`,
    index: 0,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'Alert',
      metadata: { name: 'paging' },
      spec: { name: 'Paging', threshold: 5, thresholdType: 'above', interval: '5m', source: 'saved_search', savedSearchId: 's1', ...channel },
    },
  };
}

function liveAlert(channel: Record<string, unknown>): LiveAlert {
  const list = channel['channels'] as unknown[] | undefined;
  const channels = list ? { channels: list, channel: list[0] } : { channel };
  return {
    id: '65f5e4a3b9e77c001a0003c9',
    name: 'Paging',
    threshold: 5,
    thresholdType: 'above',
    interval: '5m',
    source: 'saved_search',
    savedSearchId: 's1',
    note: MARKER,
    state: 'OK',
    ...channels,
  } as LiveAlert;
}

function planOne(api: 'hyperdx' | 'clickstack-cloud', file: AnyResource, live: LiveAlert) {
  const plan = computePlan({
    resources: [file],
    live: [],
    state: { formatVersion: 1, alerts: {} },
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
    capabilities: OBSERVABILITY_PROFILES[api].capabilities,
    api,
    liveAlerts: [live],
  });
  const item = plan.items.find((i) => i.kind === 'Alert')!;
  return item as typeof item & { body?: Record<string, unknown>; patch: Operation[] };
}

const webhook = (extra: Partial<AlertChannelSpec> = {}): AlertChannelSpec => ({ type: 'webhook', webhookId: HOOK, ...extra });

/**
 * Each case: the live alert as the file has it (`same`: no change) and as it differs (`live`: an update with
 * `patch`, sending `sent`).
 */
const CASES: Array<{
  name: string;
  api: 'hyperdx' | 'clickstack-cloud';
  file: AnyResource;
  same: LiveAlert;
  live: LiveAlert;
  patch: Operation[];
  sent?: unknown;
}> = [
  {
    name: 'clickstack: a severity changed on the server is an update of that one field; the whole channel is sent',
    api: 'clickstack-cloud',
    file: alertFile({ channel: webhook({ webhookService: 'slack_api', slackChannelId: 'C1', severity: 'critical' }) }),
    same: liveAlert({ type: 'webhook', webhookId: HOOK, webhookService: 'slack_api', slackChannelId: 'C1', severity: 'critical' }),
    live: liveAlert({ type: 'webhook', webhookId: HOOK, webhookService: 'slack_api', slackChannelId: 'C1', severity: 'warning' }),
    patch: [{ op: 'replace', path: '/channel/severity', value: 'critical' }],
    sent: { type: 'webhook', webhookId: HOOK, webhookService: 'slack_api', slackChannelId: 'C1', severity: 'critical' },
  },
  {
    name: 'clickstack: members the server holds and the file lacks are shown going, not dropped silently (null ones are absent)',
    api: 'clickstack-cloud',
    file: alertFile({ channel: webhook() }),
    same: liveAlert({ type: 'webhook', webhookId: HOOK, webhookService: null, slackChannelId: null, severity: null, emailRecipients: [] }),
    live: liveAlert({ type: 'webhook', webhookId: HOOK, webhookService: 'slack_api', slackChannelId: 'C1' }),
    patch: [
      { op: 'remove', path: '/channel/slackChannelId' },
      { op: 'remove', path: '/channel/webhookService' },
    ],
    sent: { type: 'webhook', webhookId: HOOK },
  },
  {
    name: "clickstack: a member of the other shape (the spec example's webhook with recipients) is shown going",
    api: 'clickstack-cloud',
    file: alertFile({ channel: webhook() }),
    same: liveAlert({ type: 'webhook', webhookId: HOOK }),
    live: liveAlert({ type: 'webhook', webhookId: HOOK, emailRecipients: ['string'] }),
    patch: [{ op: 'remove', path: '/channel/emailRecipients' }],
  },
  {
    name: 'clickstack: a recipient added in the file is an update of the email list',
    api: 'clickstack-cloud',
    file: alertFile({ channel: { type: 'email', emailRecipients: ['sre@example.com', 'oncall@example.com'] } }),
    same: liveAlert({ type: 'email', emailRecipients: ['sre@example.com', 'oncall@example.com'] }),
    live: liveAlert({ type: 'email', emailRecipients: ['sre@example.com'] }),
    patch: [{ op: 'add', path: '/channel/emailRecipients/1', value: 'oncall@example.com' }],
    sent: { type: 'email', emailRecipients: ['sre@example.com', 'oncall@example.com'] },
  },
  {
    name: 'clickstack: an email channel the file makes a webhook loses its recipients, shown',
    api: 'clickstack-cloud',
    file: alertFile({ channel: webhook({ severity: 'info' }) }),
    same: liveAlert({ type: 'webhook', webhookId: HOOK, severity: 'info' }),
    live: liveAlert({ type: 'email', emailRecipients: ['sre@example.com'] }),
    patch: [
      { op: 'remove', path: '/channel/emailRecipients' },
      { op: 'replace', path: '/channel/type', value: 'webhook' },
      { op: 'add', path: '/channel/webhookId', value: HOOK },
      { op: 'add', path: '/channel/severity', value: 'info' },
    ],
  },
  {
    name: 'hyperdx: a channel member the file cannot say (HyperDX takes type and webhookId) is shown going',
    api: 'hyperdx',
    file: alertFile({ channels: [webhook(), webhook({ webhookId: OTHER })] }),
    same: liveAlert({
      channels: [
        { type: 'webhook', webhookId: HOOK },
        { type: 'webhook', webhookId: OTHER },
      ],
    }),
    live: liveAlert({
      channels: [
        { type: 'webhook', webhookId: HOOK, slackChannelId: 'C1' },
        { type: 'webhook', webhookId: OTHER },
      ],
    }),
    patch: [
      { op: 'remove', path: '/channels/0/slackChannelId' },
      { op: 'remove', path: '/channel/slackChannelId' },
    ],
  },
];

for (const c of CASES) {
  test(c.name, () => {
    // GIVEN the file; WHEN the live alert matches it, THEN nothing is to do
    const same = planOne(c.api, c.file, c.same);
    assert.is(same.action, 'noop', JSON.stringify(same, null, 2));
    // WHEN it differs, THEN an update with the field-level patch, sending the channel as the file has it
    const item = planOne(c.api, c.file, c.live);
    assert.is(item.action, 'update', JSON.stringify(item, null, 2));
    assert.equal(item.patch, c.patch);
    if (c.sent) assert.equal(item.body!['channel'], c.sent);
  });
}

/** Each case: a channel, and the problems validate finds in it per profile. */
const PROBLEMS: Array<{
  name: string;
  channel: { channel: AlertChannelSpec } | { channels: [AlertChannelSpec, ...AlertChannelSpec[]] };
  problems: Record<string, string[]>;
}> = [
  {
    name: "ClickStack's members: taken by clickstack-cloud, refused by hyperdx at each",
    channel: { channels: [webhook({ severity: 'critical', slackChannelId: 'C1' })] },
    problems: {
      'clickstack-cloud': [],
      hyperdx: [
        "/spec/channels/0/slackChannelId: slackChannelId needs observability.api: clickstack-cloud (the hyperdx API's webhook channel takes webhookId only)",
        "/spec/channels/0/severity: severity needs observability.api: clickstack-cloud (the hyperdx API's webhook channel takes webhookId only)",
      ],
    },
  },
  {
    name: 'an email channel: taken by clickstack-cloud, refused by hyperdx and seed',
    channel: { channel: { type: 'email', emailRecipients: ['a@example.com'] } },
    problems: {
      'clickstack-cloud': [],
      hyperdx: ["/spec/channel/type: email channels need observability.api: clickstack-cloud (the hyperdx API's channels are webhooks)"],
      seed: [
        "/spec/channel/type: email channels need observability.api: clickstack-cloud (the seed API's channels are webhooks)",
        '/metadata: missing required key "id": the seed API cannot create alerts, so metadata.id names the alert made once in the UI',
        '/spec/source: the seed API calls it search; saved_search is hyperdx and clickstack-cloud',
        '/spec/savedSearchId: savedSearchId needs observability.api: hyperdx or clickstack-cloud (the seed API does not take it)',
      ],
    },
  },
  {
    name: 'an email channel without recipients, or with a webhook',
    channel: { channel: { type: 'email', webhook: 'pagerduty', severity: 'info' } },
    problems: {
      'clickstack-cloud': [
        '/spec/channel/webhook: webhook is for webhook channels, not email',
        '/spec/channel/severity: severity is for webhook channels, not email',
        '/spec/channel: an email channel takes emailRecipients',
      ],
    },
  },
  {
    name: 'a webhook channel with recipients',
    channel: { channel: webhook({ emailRecipients: ['a@example.com'] }) },
    problems: { 'clickstack-cloud': ['/spec/channel/emailRecipients: emailRecipients is for email channels, not webhook'] },
  },
];

for (const c of PROBLEMS) {
  test(`validate: ${c.name}`, () => {
    for (const [api, expected] of Object.entries(c.problems)) {
      const problems = checkSemantics([alertFile(c.channel)], { api });
      assert.equal(
        problems.map((p) => `${p.pointer}: ${p.message}`),
        expected,
        api,
      );
    }
  });
}

test.run();
