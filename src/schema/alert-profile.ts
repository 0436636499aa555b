/** What a live profile's server (HyperDX 2026-08, ClickStack) refuses in an alert that the schema lets through. */
import { WEBHOOK_CHANNEL_EXTRAS } from '../model/alert.ts';
import type { Resource } from '../model/resource.ts';
import { didYouMean } from './did-you-mean.ts';

/**
 * A scheduleStartAt as both the contract and the server take it: the spec's `format: date-time` needs the
 * seconds and a real date (2026-02-30 is none), and HyperDX reads it with zod's `datetime()`, which takes
 * UTC (`Z`) only and refuses an offset such as +02:00.
 */
const TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Why `s` is not a scheduleStartAt the live APIs take, naming the same instant in their form where it has one. */
function scheduleStartProblem(s: string, api: string): string | undefined {
  const m = TIME.exec(s);
  const wall = m && `${m[1]}T${m[2]}:${m[3]}:${m[4] ?? '00'}`;
  if (!m || !wall || Number.isNaN(Date.parse(`${wall}Z`)) || !new Date(`${wall}Z`).toISOString().startsWith(wall))
    return `scheduleStartAt "${s}" is not a valid time (no such day or hour, or not a date and time); expected a UTC time with seconds, like 2026-02-08T10:00:00Z`;
  if (m[4] !== undefined && m[6] === 'Z') return undefined;
  const utc = new Date(Date.parse(s)).toISOString().replace('.000Z', 'Z');
  return `scheduleStartAt "${s}": the ${api} API takes a UTC time with seconds (Z, no offset); this instant is ${utc}`;
}

/** HyperDX 2026-08's alert intervals (AlertInterval), in minutes. */
const INTERVAL_MINUTES: Readonly<Record<string, number>> = { '1m': 1, '5m': 5, '15m': 15, '30m': 30, '1h': 60, '6h': 360, '12h': 720, '1d': 1440 };
const LIVE_INTERVALS = Object.keys(INTERVAL_MINUTES);

type AlertDoc = Resource<'Alert'>['doc'];

/**
 * An id the seed profile refuses (the seed's ids are 24 lowercase hex characters; the live profiles take any id
 * the service assigned): the message, or undefined. Quoted whole or not at all, as the schema's messages
 * (validator.ts): a ${VAR} may have put a secret in it. Dashboards' pins use it too (semantic.ts).
 */
export function seedIdProblem(id: string | undefined): string | undefined {
  if (id === undefined || /^[0-9a-f]{24}$/.test(id)) return undefined;
  return `${id.length > 120 ? `a string of ${id.length} characters` : `the string ${JSON.stringify(id)}`} is not valid: must be 24 lowercase hex characters (an id the service assigned)`;
}

/** What the profile's server refuses in an alert (the schema takes the union of every profile's values). */
export function alertProfileProblems(doc: AlertDoc, api: string): Array<{ pointer: string; message: string; atKey?: boolean; severity?: 'warning' }> {
  const out: Array<{ pointer: string; message: string; atKey?: boolean; severity?: 'warning' }> = [];
  const spec = doc.spec;
  const channels = spec.channels ?? (spec.channel ? [spec.channel] : []);
  channels.forEach((c, i) => {
    const at = spec.channels ? `/spec/channels/${i}` : '/spec/channel';
    // ClickStack's two channel shapes (ClickStackAlertChannel is oneOf them): a member of the other is refused.
    const foreign = c.type === 'email' ? (['webhookId', 'webhook', ...WEBHOOK_CHANNEL_EXTRAS] as const) : (['emailRecipients'] as const);
    for (const k of foreign)
      if (c[k] !== undefined)
        out.push({ pointer: `${at}/${k}`, atKey: true, message: `${k} is for ${c.type === 'email' ? 'webhook' : 'email'} channels, not ${c.type}` });
    if (c.type === 'email') {
      if (c.emailRecipients === undefined) out.push({ pointer: at, message: 'an email channel takes emailRecipients' });
      // ClickStack's spec takes an empty list (a channel made in the UI and emptied since): said, not refused,
      // so import keeps such an alert instead of skipping it.
      else if (c.emailRecipients.length === 0)
        out.push({ pointer: `${at}/emailRecipients`, severity: 'warning', message: 'an email channel with no emailRecipients mails no one' });
      if (api !== 'clickstack-cloud')
        out.push({ pointer: `${at}/type`, message: `email channels need observability.api: clickstack-cloud (the ${api} API's channels are webhooks)` });
      return;
    }
    if ((c.webhookId === undefined) === (c.webhook === undefined))
      out.push({ pointer: at, message: 'a webhook channel takes webhookId (the id) or webhook (its name), one of the two' });
    // HyperDX's channel is {type, webhookId} and its server drops other members: they would plan as drift forever.
    for (const k of api === 'clickstack-cloud' ? [] : WEBHOOK_CHANNEL_EXTRAS)
      if (c[k] !== undefined)
        out.push({
          pointer: `${at}/${k}`,
          atKey: true,
          message: `${k} needs observability.api: clickstack-cloud (the ${api} API's webhook channel takes webhookId only)`,
        });
  });
  if (api === 'seed') {
    if (doc.metadata.id === undefined)
      out.push({
        pointer: '/metadata',
        message: 'missing required key "id": the seed API cannot create alerts, so metadata.id names the alert made once in the UI',
      });
    if (spec.thresholdType !== 'above' && spec.thresholdType !== 'below')
      out.push({
        pointer: '/spec/thresholdType',
        message: `thresholdType ${spec.thresholdType} needs observability.api: hyperdx or clickstack-cloud (the seed API takes above and below)`,
      });
    if (spec.source === 'saved_search')
      out.push({ pointer: '/spec/source', message: 'the seed API calls it search; saved_search is hyperdx and clickstack-cloud' });
    if (spec.channels !== undefined)
      out.push({ pointer: '/spec/channels', atKey: true, message: 'channels needs observability.api: hyperdx (the seed API takes one channel)' });
    if (channels.some((c) => c.webhook !== undefined))
      out.push({ pointer: '/spec/channel/webhook', message: 'webhook names need a profile that lists webhooks (hyperdx, clickstack-cloud); give webhookId' });
    // The seed's ids are 24 lowercase hex characters; the live profiles take whatever id the service assigned
    // (HyperDX's and ClickStack's specs say only "string": an alert imported from them must validate).
    const idProblem = seedIdProblem(doc.metadata.id);
    if (idProblem) out.push({ pointer: '/metadata/id', message: idProblem });
    const webhookProblem = seedIdProblem(spec.channel?.webhookId);
    if (webhookProblem) out.push({ pointer: '/spec/channel/webhookId', message: webhookProblem });
    for (const k of ['savedSearchId', 'thresholdMax', 'groupBy', 'numConsecutiveWindows', 'scheduleOffsetMinutes', 'scheduleStartAt'] as const) {
      if (spec[k] !== undefined)
        out.push({ pointer: `/spec/${k}`, atKey: true, message: `${k} needs observability.api: hyperdx or clickstack-cloud (the seed API does not take it)` });
    }
    return out;
  }
  if (!LIVE_INTERVALS.includes(spec.interval)) {
    const hint = didYouMean(spec.interval, LIVE_INTERVALS);
    out.push({
      pointer: '/spec/interval',
      message: `interval ${spec.interval}: the ${api} API takes ${LIVE_INTERVALS.join(', ')}${hint ? `; did you mean "${hint}"?` : ''}`,
    });
  }
  // HyperDX (validateAlertScheduleOffsetMinutes): the offset is into the interval, so less than it.
  const minutes = Object.hasOwn(INTERVAL_MINUTES, spec.interval) ? INTERVAL_MINUTES[spec.interval]! : undefined;
  if (spec.scheduleOffsetMinutes !== undefined && minutes !== undefined && spec.scheduleOffsetMinutes >= minutes)
    out.push({
      pointer: '/spec/scheduleOffsetMinutes',
      message: `scheduleOffsetMinutes ${spec.scheduleOffsetMinutes} is not inside the ${spec.interval} interval; the ${api} API takes 0 to ${minutes - 1} with it`,
    });
  // HyperDX's server bounds an alert's texts (its alertSchema: name 1-512, message 1-4,096 characters), which
  // the spec leaves open: an empty message was sent, refused, and planned again after every apply.
  for (const [k, max] of [
    ['name', 512],
    ['message', 4096],
  ] as const) {
    const v = spec[k];
    if (v !== undefined && (v.length === 0 || v.length > max))
      out.push({
        pointer: `/spec/${k}`,
        message: `${k} is ${v.length === 0 ? 'empty' : `${v.length} characters long`}; the ${api} API takes 1 to ${max.toLocaleString('en-US')} characters${k === 'message' && v.length === 0 ? ': leave message out for none' : ''}`,
      });
  }
  if (spec.source === 'search') out.push({ pointer: '/spec/source', message: `the ${api} API calls it saved_search; did you mean "saved_search"?` });
  if (spec.source === 'saved_search' && spec.savedSearchId === undefined) out.push({ pointer: '/spec', message: 'a saved_search alert needs savedSearchId' });
  if ((spec.thresholdType === 'between' || spec.thresholdType === 'not_between') && spec.thresholdMax === undefined)
    out.push({ pointer: '/spec', message: `thresholdType ${spec.thresholdType} needs thresholdMax` });
  else if ((spec.thresholdType === 'between' || spec.thresholdType === 'not_between') && spec.thresholdMax! < spec.threshold)
    out.push({
      pointer: '/spec/thresholdMax',
      message: `thresholdMax ${spec.thresholdMax} is below threshold ${spec.threshold}; the ${api} API takes thresholdMax >= threshold`,
    });
  const startProblem = spec.scheduleStartAt === undefined ? undefined : scheduleStartProblem(spec.scheduleStartAt, api);
  if (startProblem) out.push({ pointer: '/spec/scheduleStartAt', message: startProblem });
  if (spec.channel && spec.channels) out.push({ pointer: '/spec/channel', atKey: true, message: 'give channel or channels, not both' });
  // HyperDX drops these from a tile alert (its tile alert schema has neither): they would show as drift forever.
  if (spec.source === 'tile') {
    for (const k of ['groupBy', 'savedSearchId'] as const) {
      if (spec[k] !== undefined)
        out.push({ pointer: `/spec/${k}`, atKey: true, message: `${k} is for saved_search alerts; the ${api} API drops it from a tile alert` });
    }
  }
  if (spec.thresholdMax !== undefined && spec.thresholdType !== 'between' && spec.thresholdType !== 'not_between')
    out.push({
      pointer: '/spec/thresholdMax',
      atKey: true,
      // A warning: files import wrote before carry one, and plan compares it only for ranges.
      severity: 'warning',
      message: `thresholdMax is for between and not_between; with thresholdType ${spec.thresholdType} the ${api} API keeps it unused`,
    });
  if (spec.scheduleStartAt !== undefined && spec.scheduleOffsetMinutes !== undefined && spec.scheduleOffsetMinutes !== 0)
    out.push({
      pointer: '/spec/scheduleOffsetMinutes',
      atKey: true,
      message: `with scheduleStartAt the ${api} API sets scheduleOffsetMinutes to 0: give one of the two`,
    });
  // HyperDX 2026-08 (AlertChannels): "duplicates are rejected". A name that resolves to a listed id is plan's.
  if (api !== 'seed' && spec.channels) {
    const first = new Map<string, number>();
    spec.channels.forEach((c, j) => {
      const key = c.webhookId !== undefined ? `id:${c.webhookId}` : c.webhook !== undefined ? `name:${c.webhook}` : undefined;
      if (key === undefined) return;
      const i = first.get(key);
      if (i === undefined) return void first.set(key, j);
      out.push({
        pointer: `/spec/channels/${j}`,
        message: `channel ${j} repeats channel ${i} (webhook ${c.webhookId ?? JSON.stringify(c.webhook)}); the ${api} API refuses an alert that lists a webhook twice`,
      });
    });
  }
  if (api === 'clickstack-cloud' && spec.channels && spec.channels.length > 1)
    out.push({ pointer: '/spec/channels', message: 'the ClickStack API takes one channel per alert' });
  return out;
}
