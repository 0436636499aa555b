/**
 * ClickStack's alert channel, whole (audit F4): examples/clickstack-cloud against `emulator --api
 * clickstack-cloud` over loopback, through the CLI. Its alerts name a PagerDuty API webhook with a severity
 * and a Slack API webhook with its channel. The PUT replaces the alert, so an update sends the whole channel;
 * plan shows a changed member field by field and a member the file lacks as going; import writes every
 * member, email channels too, and plans as unchanged. Validate refuses them where the profile's server
 * drops them (hyperdx), at the file's line and column.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HX_WEBHOOK_IDS, startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const MARKER = 'managed-by:steward/acme-cs';
const PAGER = { type: 'webhook', webhookId: HX_WEBHOOK_IDS.pagerduty, severity: 'critical' };
const SLACK = { type: 'webhook', webhookId: HX_WEBHOOK_IDS['slack-alerts'], webhookService: 'slack_api', slackChannelId: 'C01ABCDEF23' };

/** examples/clickstack-cloud applied to a fresh emulator. */
async function applied() {
  const p = tmpProject({});
  copyExample(p.dir, 'clickstack-cloud');
  const emu = await startEmulator({ api: 'clickstack-cloud', seed: 7 });
  const cs = emu.clickstack!;
  const base = `${emu.url}/v1/organizations/${cs.organizationId}/services/${cs.serviceId}/clickstack`;
  const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') };
  const run = (...args: string[]) => steward(args, { cwd: p.dir, env });
  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from('dev-key:dev-secret').toString('base64')}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path} → ${res.status} ${text}`);
    return JSON.parse(text).result;
  };
  const alert = async (prefix: string): Promise<any> => ((await api('GET', '/alerts')) as any[]).find((l) => l.name.startsWith(prefix));
  /** An edit made in the UI: the live alert sent back with some members changed. */
  const editLive = async (prefix: string, edit: (a: any) => void) => {
    const { id, state: _s, teamId: _t, createdAt: _c, updatedAt: _u, ...body } = await alert(prefix);
    edit(body);
    await api('PUT', `/alerts/${id}`, body);
  };
  const edit = (from: string, to: string) => {
    const f = join(p.dir, 'alerts/checkout.yaml');
    const text = readFileSync(f, 'utf8');
    assert.ok(text.includes(from), from);
    writeFileSync(f, text.replace(from, to));
  };
  const cleanup = async () => {
    await emu.close();
    p.cleanup();
  };
  const a = await run('apply', '--auto-approve');
  if (a.code !== 0) {
    await cleanup();
    assert.unreachable(`apply exited ${a.code}: ${a.stdout}${a.stderr}`);
  }
  return {
    dir: p.dir,
    run,
    api,
    alert,
    editLive,
    edit,
    cleanup,
  };
}

/** The field lines of a text plan (`~ channel › severity: ...`), trimmed. */
const changes = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => /^\s+[+~-] (?!create|update|delete)/.test(l))
    .map((l) => l.trim());

test('apply creates the alerts with their whole channel: severity, Slack channel and service', async () => {
  const x = await applied();
  try {
    assert.equal((await x.alert('Checkout errors')).channel, PAGER);
    assert.equal((await x.alert('Slow payments')).channel, SLACK);
    assert.is((await x.run('plan', '--detailed-exitcode')).code, 0, 'and they plan as unchanged');
  } finally {
    await x.cleanup();
  }
});

test('an update sends the whole channel: severity and Slack channel stay on the live alerts', async () => {
  const x = await applied();
  try {
    // GIVEN a threshold changed in the file and another changed in the UI
    x.edit('threshold: 50', 'threshold: 60');
    await x.editLive('Slow payments', (a) => (a.threshold = 9999));
    // WHEN planned and applied
    const p = await x.run('plan', '--detailed-exitcode');
    assert.is(p.code, 2, p.stdout + p.stderr);
    assert.match(p.stdout, '0 to create, 2 to update, 0 blocked, 2 unchanged');
    assert.equal(changes(p.stdout), ['~ threshold: 50 → 60', '~ threshold: 9999 → 2000'], 'the channels are unchanged');
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    // THEN the PUTs (which replace the alert) carried the channels whole
    const errors = await x.alert('Checkout errors');
    assert.is(errors.threshold, 60);
    assert.equal(errors.channel, PAGER);
    const slow = await x.alert('Slow payments');
    assert.is(slow.threshold, 2000);
    assert.equal(slow.channel, SLACK);
    assert.is((await x.run('plan', '--detailed-exitcode')).code, 0);
  } finally {
    await x.cleanup();
  }
});

test('plan shows a severity changed on the server, and a Slack channel changed in the file, field by field', async () => {
  const x = await applied();
  try {
    await x.editLive('Checkout errors', (a) => (a.channel.severity = 'warning'));
    x.edit('slackChannelId: C01ABCDEF23', 'slackChannelId: C09ZYXWVU87');
    const p = await x.run('plan', '--detailed-exitcode');
    assert.is(p.code, 2, p.stdout + p.stderr);
    assert.match(p.stdout, '0 to create, 2 to update, 0 blocked, 2 unchanged');
    assert.match(p.stdout, /~ update\s+checkout-errors/);
    assert.equal(changes(p.stdout), ['~ channel › severity: "warning" → "critical"', '~ channel › slackChannelId: "C01ABCDEF23" → "C09ZYXWVU87"']);
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.is((await x.alert('Checkout errors')).channel.severity, 'critical');
    assert.is((await x.alert('Slow payments')).channel.slackChannelId, 'C09ZYXWVU87');
    assert.is((await x.run('plan', '--detailed-exitcode')).code, 0);
  } finally {
    await x.cleanup();
  }
});

test('a channel member the server holds and the file lacks is shown going before apply removes it, never silently', async () => {
  const x = await applied();
  try {
    // GIVEN a Slack channel set on the PagerDuty alert in the UI, and webhookService taken out of a file
    await x.editLive('Checkout errors', (a) => (a.channel.slackChannelId = 'C0UIONLY1'));
    x.edit('webhookService: slack_api, ', '');
    // WHEN planned, THEN both show as going, on their own lines
    const p = await x.run('plan', '--detailed-exitcode');
    assert.is(p.code, 2, p.stdout + p.stderr);
    assert.equal(changes(p.stdout), ['- channel › slackChannelId: "C0UIONLY1"', '- channel › webhookService: "slack_api"']);
    // and the JSON plan's body is what the PUT sends: the channel as the file has it
    const json = JSON.parse((await x.run('plan', '--format', 'json')).stdout);
    const body = (name: string) => json.items.find((i: any) => i.name === name).body;
    assert.equal(body('checkout-errors').channel, PAGER);
    assert.equal(body('slow-payments').channel, { type: 'webhook', webhookId: HX_WEBHOOK_IDS['slack-alerts'], slackChannelId: 'C01ABCDEF23' });
    // Keeping one is a line in the file, after which nothing is to do.
    x.edit('severity: critical', 'severity: critical, slackChannelId: C0UIONLY1');
    x.edit('webhook: slack-alerts, ', 'webhook: slack-alerts, webhookService: slack_api, ');
    assert.is((await x.run('plan', '--detailed-exitcode')).code, 0);
  } finally {
    await x.cleanup();
  }
});

/** An email alert made in the UI, with the project's marker (so it is steward's). */
function mailAlert(x: Awaited<ReturnType<typeof applied>>, name: string, emailRecipients: string[]) {
  return x.api('POST', '/alerts', {
    name,
    source: 'saved_search',
    savedSearchId: '65f5e4a3b9e77c001a0004d9',
    threshold: 3,
    thresholdType: 'above',
    interval: '15m',
    note: MARKER,
    channel: { type: 'email', emailRecipients },
  });
}

test('import writes every channel member, an email channel too; the imported files plan as unchanged', async () => {
  const x = await applied();
  try {
    // GIVEN also an email alert made in the UI (with the project's marker, so it is steward's)
    await mailAlert(x, 'Paging by mail', ['sre@example.com', 'oncall@example.com']);
    // WHEN the alerts' files are replaced by what import writes
    rmSync(join(x.dir, 'alerts'), { recursive: true });
    mkdirSync(join(x.dir, 'alerts'));
    const names = ['Checkout errors (ClickStack)', 'Slow payments (ClickStack)', 'Paging by mail'];
    const r = await x.run('import', ...names.flatMap((n) => ['--name', n]));
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.not.match(r.stdout, 'left out');
    const files = readdirSync(join(x.dir, 'alerts')).sort();
    assert.equal(files, ['checkout-errors-clickstack.yaml', 'paging-by-mail.yaml', 'slow-payments-clickstack.yaml']);
    const text = (f: string) => readFileSync(join(x.dir, 'alerts', f), 'utf8');
    assert.match(text(files[0]!), '  channel: { type: webhook, webhook: pagerduty, severity: critical }\n');
    assert.match(text(files[2]!), '  channel: { type: webhook, webhook: slack-alerts, webhookService: slack_api, slackChannelId: C01ABCDEF23 }\n');
    assert.match(text(files[1]!), '  channel: { type: email, emailRecipients: [ sre@example.com, oncall@example.com ] }\n');
    // THEN plan finds nothing to do
    const p = await x.run('plan', '--detailed-exitcode');
    assert.is(p.code, 0, p.stdout + p.stderr);
    assert.match(p.stdout, '0 to create, 0 to update, 0 blocked, 5 unchanged');
    // and the email alert's recipients are managed like any member: one more is an update of the list
    const f = join(x.dir, 'alerts', files[1]!);
    writeFileSync(f, readFileSync(f, 'utf8').replace('oncall@example.com ]', 'oncall@example.com, boss@example.com ]'));
    const p2 = await x.run('plan', '--detailed-exitcode');
    assert.is(p2.code, 2, p2.stdout + p2.stderr);
    assert.equal(changes(p2.stdout), ['+ channel › emailRecipients › 2: "boss@example.com"']);
    assert.is((await x.run('apply', '--auto-approve')).code, 0);
    assert.equal((await x.alert('Paging by mail')).channel, { type: 'email', emailRecipients: ['sre@example.com', 'oncall@example.com', 'boss@example.com'] });
  } finally {
    await x.cleanup();
  }
});

test('an email channel with no recipients (ClickStack takes it) is imported and warned about, not skipped', async () => {
  const x = await applied();
  try {
    // GIVEN an email alert whose list was emptied in the UI
    await mailAlert(x, 'Mail nobody', []);
    // WHEN it is imported
    const r = await x.run('import', '--name', 'Mail nobody');
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, '+ alerts/mail-nobody.yaml');
    const text = readFileSync(join(x.dir, 'alerts/mail-nobody.yaml'), 'utf8');
    assert.match(text, '  channel: { type: email, emailRecipients: [] }\n');
    // THEN validate passes with a warning at the list, and plan finds it unchanged
    const v = await x.run('validate');
    assert.is(v.code, 0, v.stdout + v.stderr);
    const line = text.slice(0, text.indexOf('  channel:')).split('\n').length;
    assert.match(
      v.stdout + v.stderr,
      `alerts/mail-nobody.yaml:${line}:${'  channel: { type: email, emailRecipients: '.length + 1}  /spec/channel/emailRecipients  warning: an email channel with no emailRecipients mails no one`,
    );
    const p = await x.run('plan', '--detailed-exitcode');
    assert.is(p.code, 0, p.stdout + p.stderr);
  } finally {
    await x.cleanup();
  }
});

test('validate refuses ClickStack channel members on hyperdx, each at its line and column', async () => {
  const p = tmpProject({});
  try {
    copyExample(p.dir, 'hyperdx');
    const f = join(p.dir, 'alerts/checkout.yaml');
    const text = readFileSync(f, 'utf8');
    assert.ok(text.includes('    - { type: webhook, webhook: ops-pager }\n'));
    writeFileSync(
      f,
      text.replace(
        '    - { type: webhook, webhook: ops-pager }\n',
        '    - { type: webhook, webhook: ops-pager, severity: critical }\n    - { type: email, emailRecipients: [sre@example.com] }\n',
      ),
    );
    const r = await steward(['validate'], { cwd: p.dir, env: {} });
    assert.is(r.code, 1, r.stdout + r.stderr);
    const line = text.slice(0, text.indexOf('    - { type: webhook, webhook: ops-pager }')).split('\n').length;
    const col = '    - { type: webhook, webhook: ops-pager, '.length + 1;
    assert.match(r.stdout + r.stderr, `alerts/checkout.yaml:${line}:${col}  /spec/channels/0/severity`);
    assert.match(r.stdout + r.stderr, "severity needs observability.api: clickstack-cloud (the hyperdx API's webhook channel takes webhookId only)");
    assert.match(r.stdout + r.stderr, `alerts/checkout.yaml:${line + 1}:15  /spec/channels/1/type`);
    assert.match(r.stdout + r.stderr, "email channels need observability.api: clickstack-cloud (the hyperdx API's channels are webhooks)");
  } finally {
    p.cleanup();
  }
});

test.run();
