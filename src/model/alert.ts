/**
 * Alerts, as the services send and take them, derived from the generated API types (src/clients/api-types.ts,
 * from schemas/api/observability/alert-update.schema.json and live-alert.schema.json).
 */
import type { AlertChannel, AlertUpdate } from '../clients/api-types.ts';

export type { AlertUpdate, LiveAlert, LiveAlertChannel } from '../clients/api-types.ts';

/** The only channel steward writes: a webhook, by id. */
export type WebhookChannel = Required<Pick<AlertChannel, 'webhookId'>> & { type: 'webhook' };

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
    channel?: WebhookChannel;
    channels?: WebhookChannel[];
  };
