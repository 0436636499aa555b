/**
 * What the real HyperDX server does that its OpenAPI file does not say, and that steward must live with
 * (contract audit, 2026-11-25): an update rebuilds tiles from the request but sets filters only when sent;
 * a tile's place in a container or tab is the UI's; `scheduleStartAt` comes back as `Date#toISOString()`;
 * alert names are optional and need not be unique; an alert's `note` is a person's text. Each case runs the CLI against `emulator --api hyperdx`
 * over loopback and ends with a plan that finds nothing to do, the way a user would check it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

async function hyperdx() {
  const p = tmpProject({});
  cpSync(join(EXAMPLES, 'hyperdx'), p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replaceAll('requestsPerMinute: 100', 'requestsPerMinute: 6000'));
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') };
  const run = (...args: string[]) => steward(args, { cwd: p.dir, env });
  const api = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${emu.url}/api/v2${path}`, {
      method,
      headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    assert.ok(res.ok, `${method} ${path} → ${res.status} ${text}`);
    return JSON.parse(text).data;
  };
  const edit = (file: string, from: string | RegExp, to: string) => {
    const path = join(p.dir, file);
    const text = readFileSync(path, 'utf8');
    assert.ok(typeof from === 'string' ? text.includes(from) : from.test(text), `${file} has ${String(from)}`);
    writeFileSync(path, text.replace(from, to));
  };
  const applied = await run('apply', '--auto-approve');
  assert.is(applied.code, 0, applied.stdout + applied.stderr);
  return {
    dir: p.dir,
    run,
    api,
    edit,
    cleanup: async () => {
      await emu.close();
      p.cleanup();
    },
  };
}

const checkoutOf = async (x: { api: (m: string, p: string) => Promise<any> }) =>
  ((await x.api('GET', '/dashboards')) as any[]).find((d) => d.name.startsWith('Checkout overview'));

test('an update keeps the containers and tabs a person grouped tiles into in the UI', async () => {
  const x = await hyperdx();
  try {
    // GIVEN tiles grouped on the server, as the UI does it
    const d = await checkoutOf(x);
    const containers = [{ id: 'svc', title: 'Service', collapsed: false, tabs: [{ id: 'errors', title: 'Errors' }] }];
    const tiles = d.tiles.map((t: any, i: number) => (i === 0 ? { ...t, containerId: 'svc', tabId: 'errors' } : t));
    await x.api('PUT', `/dashboards/${d.id}`, { name: d.name, tags: d.tags, tiles, filters: d.filters, containers });
    // WHEN the file changes that tile's width and is applied
    x.edit('dashboards/checkout.yaml', /(name: Error count\n(?:.*\n){2}\s*)w: 8/, '$1w: 6');
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, '1 updated');
    // THEN the width changed and the grouping stayed
    const after = await checkoutOf(x);
    const tile = after.tiles.find((t: any) => t.name === 'Error count');
    assert.is(tile.w, 6);
    assert.is(tile.containerId, 'svc');
    assert.is(tile.tabId, 'errors');
    assert.equal(after.containers, containers);
    assert.is((await x.run('plan', '--detailed-exitcode')).code, 0);
  } finally {
    await x.cleanup();
  }
});

test("removing a dashboard's last filter is sent (filters: []), and the next plan is clean", async () => {
  const x = await hyperdx();
  try {
    assert.is((await checkoutOf(x)).filters.length, 1);
    x.edit('dashboards/checkout.yaml', /  filters:\n    - \{[^\n]*\}\n/, '');
    const p = await x.run('plan', '--detailed-exitcode');
    assert.is(p.code, 2, p.stdout + p.stderr);
    assert.match(p.stdout, '1 to update');
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.equal((await checkoutOf(x)).filters, []);
    const again = await x.run('plan', '--detailed-exitcode');
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await x.cleanup();
  }
});

test('scheduleStartAt: the server answers its own spelling of the instant (.000Z); the plan compares instants', async () => {
  const x = await hyperdx();
  try {
    x.edit('alerts/checkout.yaml', '  interval: 15m\n', '  interval: 15m\n  scheduleStartAt: "2026-02-08T10:00:00Z"\n');
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, '1 updated');
    const slow = async () => ((await x.api('GET', '/alerts')) as any[]).find((l) => l.name === 'Slow payments (HyperDX)');
    const live = await slow();
    assert.is(live.scheduleStartAt, '2026-02-08T10:00:00.000Z');
    // The server stores an offset of 0 with an anchor: its default, not drift.
    assert.is(live.scheduleOffsetMinutes, 0);
    const again = await x.run('plan', '--detailed-exitcode');
    assert.is(again.code, 0, again.stdout + again.stderr);
    // Another instant is still a change.
    x.edit('alerts/checkout.yaml', '2026-02-08T10:00:00Z', '2026-02-08T11:00:00Z');
    const moved = await x.run('plan', '--detailed-exitcode');
    assert.is(moved.code, 2, moved.stdout + moved.stderr);
    assert.match(moved.stdout, 'scheduleStartAt');
    // Removing the anchor from the file is sent (null: the server keeps what an update leaves out) and done.
    x.edit('alerts/checkout.yaml', '  scheduleStartAt: "2026-02-08T11:00:00Z"\n', '');
    const removed = await x.run('apply', '--auto-approve');
    assert.is(removed.code, 0, removed.stdout + removed.stderr);
    assert.is((await slow()).scheduleStartAt, undefined);
    const clean = await x.run('plan', '--detailed-exitcode');
    assert.is(clean.code, 0, clean.stdout + clean.stderr);
  } finally {
    await x.cleanup();
  }
});

test('a range alert made a plain one: the thresholdMax the server keeps (and cannot clear) is not drift', async () => {
  const x = await hyperdx();
  try {
    x.edit('alerts/checkout.yaml', '  threshold: 2000\n  thresholdType: above\n', '  threshold: 2000\n  thresholdType: between\n  thresholdMax: 5000\n');
    assert.is((await x.run('apply', '--auto-approve')).code, 0);
    x.edit('alerts/checkout.yaml', '  thresholdType: between\n  thresholdMax: 5000\n', '  thresholdType: above\n');
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    const live = ((await x.api('GET', '/alerts')) as any[]).find((l) => l.name === 'Slow payments (HyperDX)');
    assert.is(live.thresholdType, 'above');
    assert.is(live.thresholdMax, 5000, 'the server keeps it (as HyperDX does)');
    const p = await x.run('plan', '--detailed-exitcode');
    assert.is(p.code, 0, p.stdout + p.stderr);
  } finally {
    await x.cleanup();
  }
});

test('a plan says which alerts no file declares the service deletes with a tile an update renames', async () => {
  const x = await hyperdx();
  try {
    // GIVEN an alert a person made in the UI on a steward dashboard's tile
    const checkout = await checkoutOf(x);
    const tileId = checkout.tiles.find((t: any) => t.name === 'Orders per minute').id;
    const webhooks: any[] = await x.api('GET', '/webhooks');
    await x.api('POST', '/alerts', {
      name: 'Orders dropped',
      threshold: 1,
      thresholdType: 'below',
      interval: '5m',
      source: 'tile',
      dashboardId: checkout.id,
      tileId,
      channels: [{ type: 'webhook', webhookId: webhooks[0].id }],
    });
    // WHEN the file renames that tile
    x.edit('dashboards/checkout.yaml', '- name: Orders per minute', '- name: Orders each minute');
    const p = await x.run('plan');
    // THEN the update names the alert the server will delete with it
    assert.is(p.code, 0, p.stdout + p.stderr);
    assert.match(
      p.stdout,
      'the service deletes with the tiles it drops, renames or makes charts alerts cannot watch 1 alert no file declares: "Orders dropped"',
    );
    const json = await x.run('plan', '--format', 'json');
    const item = JSON.parse(json.stdout).items.find((i: any) => i.kind === 'Dashboard' && i.action === 'update');
    assert.match(item.message, '"Orders dropped"');
    // AND so does one that makes that tile a chart alerts cannot watch (HyperDX deletes its alerts too)
    x.edit('dashboards/checkout.yaml', '- name: Orders each minute', '- name: Orders per minute');
    x.edit('dashboards/checkout.yaml', 'displayType: stacked_bar', 'displayType: table');
    const typed = await x.run('plan');
    assert.match(typed.stdout, '1 alert no file declares: "Orders dropped"');
  } finally {
    await x.cleanup();
  }
});

test('a tile renamed with its alert: the alert the service deletes with the old tile is created again, not updated (404)', async () => {
  const x = await hyperdx();
  try {
    const before = ((await x.api('GET', '/alerts')) as any[]).length;
    x.edit('dashboards/checkout.yaml', '- name: Error count', '- name: Checkout errors');
    x.edit('alerts/checkout.yaml', 'name: Error count }', 'name: Checkout errors }');
    const p = await x.run('plan');
    assert.match(p.stdout, 'is dropped or renamed by this apply, and the service deletes alert');
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    const alerts: any[] = await x.api('GET', '/alerts');
    assert.is(alerts.length, before, 'one alert deleted with its tile, one created');
    const checkout = await checkoutOf(x);
    const errors = alerts.find((l) => l.name === 'Checkout errors (HyperDX)');
    assert.is(errors.tileId, checkout.tiles.find((t: any) => t.name === 'Checkout errors').id);
    const again = await x.run('plan', '--detailed-exitcode');
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await x.cleanup();
  }
});

test('validate refuses what HyperDX refuses or drops though its OpenAPI file allows it, each at its line', async () => {
  const x = await hyperdx();
  try {
    // An empty value expression on a non-count series, groupBy on a tile alert.
    x.edit(
      'dashboards/checkout.yaml',
      /select: \[\{ aggFn: count, where: "ServiceName:checkout AND SeverityText:error"/,
      'select: [{ aggFn: avg, where: "ServiceName:checkout AND SeverityText:error"',
    );
    x.edit('alerts/checkout.yaml', '  interval: 15m\n', '  interval: 15m\n  groupBy: ServiceName\n');
    // An alert on a table tile: HyperDX takes it, then deletes it on the dashboard's next update.
    x.edit('alerts/checkout.yaml', 'name: Payment latency p95 }', 'name: Slowest endpoints }');
    const v = await x.run('validate');
    assert.is(v.code, 1, v.stdout + v.stderr);
    assert.match(
      v.stdout + v.stderr,
      /dashboards\/checkout\.yaml:\d+:\d+\s+\/spec\/tiles\/0\/config\/select\/0\/valueExpression\s+error: aggFn avg needs a valueExpression/,
    );
    assert.match(v.stdout + v.stderr, /alerts\/checkout\.yaml:\d+:\d+\s+\/spec\/groupBy\s+error: groupBy is for saved_search alerts/);
    assert.match(
      v.stdout + v.stderr,
      /alerts\/checkout\.yaml:\d+:\d+\s+\/spec\/tile\/name\s+error: tile "Slowest endpoints" is a table chart; alerts need a line, stacked_bar or number tile/,
    );
    // A default marker tag longer than HyperDX's 32-character tags.
    x.edit('steward.yaml', /    markerTag: [^\n]*\n/, '');
    x.edit('steward.yaml', /  name: acme-hyperdx/, '  name: payments-observability');
    const m = await x.run('validate');
    assert.is(m.code, 1, m.stdout + m.stderr);
    assert.match(
      m.stdout + m.stderr,
      /steward\.yaml:\d+:\d+.*the marker tag "managed-by:steward\/payments-observability" is 41 characters; the hyperdx API takes tags of at most 32/,
    );
    // plan refuses it too (every dashboard write would be refused); report, which sends no tags, does not check it.
    const p = await x.run('plan');
    assert.is(p.code, 1, p.stdout + p.stderr);
    assert.match(p.stdout + p.stderr, 'the marker tag "managed-by:steward/payments-observability" is 41 characters');
  } finally {
    await x.cleanup();
  }
});

test('import pins alerts plan could not find by name (no name, or a name two alerts share): the next plan creates nothing', async () => {
  const x = await hyperdx();
  try {
    // GIVEN two more alerts on the same tile: one without a name, two sharing one
    const checkout = await checkoutOf(x);
    const tileId = checkout.tiles.find((t: any) => t.name === 'Error count').id;
    const webhooks: any[] = await x.api('GET', '/webhooks');
    const base = {
      threshold: 9,
      thresholdType: 'above',
      interval: '5m',
      source: 'tile',
      dashboardId: checkout.id,
      tileId,
      channels: [{ type: 'webhook', webhookId: webhooks[0].id }],
    };
    const unnamed = await x.api('POST', '/alerts', { ...base, name: null });
    const twinA = await x.api('POST', '/alerts', { ...base, name: 'Twin' });
    const twinB = await x.api('POST', '/alerts', { ...base, name: 'Twin', threshold: 10, note: 'Raised to 10 after the May incident' });
    const before = ((await x.api('GET', '/alerts')) as any[]).length;
    // WHEN they are imported
    const r = await x.run('import', '--id', unnamed.id, '--id', twinA.id, '--id', twinB.id);
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, 'it has no name on the service');
    // A person's note is not kept (steward's marker lives there): import says so before apply replaces it.
    assert.match(r.stdout, `its note "Raised to 10 after the May incident" is replaced by steward's marker`);
    // THEN each file pins its alert by id
    const files = readdirSync(join(x.dir, 'alerts')).filter((f) => f !== 'checkout.yaml');
    assert.is(files.length, 3, files.join(', '));
    const pinned = files.map((f) => readFileSync(join(x.dir, 'alerts', f), 'utf8'));
    for (const [i, id] of [unnamed.id, twinA.id, twinB.id].entries()) {
      assert.ok(
        pinned.some((t) => t.includes(`id: ${id}`)),
        `alert ${i} pinned: ${pinned.join('\n---\n')}`,
      );
    }
    // AND the next plan creates no alert and blocks none: each is updated once to carry the marker (as any
    // alert steward did not create), the unnamed one also to take the name its file gives it
    const p = await x.run('plan');
    assert.is(p.code, 0, p.stdout + p.stderr);
    assert.match(p.stdout, /0 to create, 3 to update, 0 blocked/, p.stdout);
    assert.match(p.stdout, `~ name: "" → "${unnamed.id}"`);
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.is(((await x.api('GET', '/alerts')) as any[]).length, before, 'no alert created twice');
    assert.is((await x.run('plan', '--detailed-exitcode')).code, 0);
  } finally {
    await x.cleanup();
  }
});

test.run();
