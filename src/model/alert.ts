/**
 * Alerts, as the services send and take them, derived from the generated API types (src/clients/api-types.ts,
 * from schemas/api/observability/alert-update.schema.json and live-alert.schema.json).
 */
import type { AlertChannel, AlertUpdate, LiveAlert, LiveAlertChannel } from '../clients/api-types.ts';

export type { AlertUpdate, LiveAlert, LiveAlertChannel } from '../clients/api-types.ts';

/**
 * The members a ClickStack webhook channel carries beside its webhook (ClickHouse Cloud spec 2026-07-31,
 * ClickStackAlertChannelWebhook), in the order steward writes them. HyperDX's channel has none of them.
 */
export const WEBHOOK_CHANNEL_EXTRAS = ['webhookService', 'slackChannelId', 'severity'] as const;

/** A webhook channel as steward sends it: by id, with ClickStack's Slack channel, service and PagerDuty severity. */
export type WebhookChannel = Required<Pick<AlertChannel, 'webhookId'>> & Pick<AlertChannel, (typeof WEBHOOK_CHANNEL_EXTRAS)[number]> & { type: 'webhook' };

/** ClickStack's email channel (ClickStackAlertChannelEmail). */
export type EmailChannel = Required<Pick<AlertChannel, 'emailRecipients'>> & { type: 'email' };

/** A channel steward sends. */
export type SentChannel = WebhookChannel | EmailChannel;

/** The members every alert body steward sends carries (the schema leaves them optional for partial updates). */
type AlwaysSent = 'name' | 'threshold' | 'thresholdType' | 'interval' | 'source';

/**
 * The alert body steward sends on PUT (and POST where the service creates alerts): every member, every time
 * (replace or merge, both converge). `channel` is the seed API's single channel (and ClickStack's), `channels`
 * HyperDX 2026-08's complete list (the server replaces the alert on update); `note` carries the project's
 * marker on the live profiles.
 */
export type AlertBody = Required<Pick<AlertUpdate, AlwaysSent>> &
  Omit<AlertUpdate, AlwaysSent | 'channel' | 'channels'> & {
    channel?: SentChannel;
    channels?: SentChannel[];
  };

/** A live alert's channels: its `channels` list (HyperDX 2026-08), else its one `channel`; objects only. */
export function liveChannels(live: LiveAlert): LiveAlertChannel[] {
  const raw: unknown[] = Array.isArray(live.channels) ? live.channels : live.channel ? [live.channel] : [];
  return raw.filter((c): c is LiveAlertChannel => typeof c === 'object' && c !== null && !Array.isArray(c));
}

/**
 * A live channel in the shape steward sends, with every member steward models that the server holds (nulls,
 * empty strings and an empty list read as absent): what a PUT must carry for nothing to be lost. Members of
 * the other shape (a webhook's recipients) are kept too, so the plan shows them going. The webhook id stays
 * an id here; import writes a name for it.
 */
export function sentChannelOf(c: LiveAlertChannel): SentChannel {
  const recipients = (c.emailRecipients ?? []).filter((r) => typeof r === 'string');
  const out: Record<string, unknown> =
    c.type === 'email' ? { type: 'email', emailRecipients: recipients } : { type: 'webhook', webhookId: typeof c.webhookId === 'string' ? c.webhookId : '' };
  if (c.type === 'email' && typeof c.webhookId === 'string' && c.webhookId !== '') out['webhookId'] = c.webhookId;
  // A severity the spec does not name is kept as the server said it, so the plan shows it replaced.
  for (const k of WEBHOOK_CHANNEL_EXTRAS) if (typeof c[k] === 'string' && c[k] !== '') out[k] = c[k];
  if (c.type !== 'email' && recipients.length > 0) out['emailRecipients'] = recipients;
  return out as SentChannel;
}
