/**
 * HyperDX deletes the alerts of a tile a dashboard update drops or renames. An alert file describing such an
 * alert must be in the plan, and the alert created again, whether the plan is narrowed (--target) or the file
 * moved the alert to another dashboard: never deleted by the apply without the plan saying so.
 * examples/hyperdx against `emulator --api hyperdx` over loopback, through the CLI.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

const ALERT = 'Checkout errors (HyperDX)';

async function applied() {
  const p = tmpProject({});
  copyExample(p.dir, 'hyperdx');
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') };
  const run = (...args: string[]) => steward(args, { cwd: p.dir, env });
  /** Runs steward through a proxy that refuses every dashboard update with a 400. */
  const runRefusingUpdates = async (...args: string[]) => {
    const proxy = await startProxy(emu.url, {
      intercept: (req, path) =>
        req.method === 'PUT' && path.startsWith('/api/v2/dashboards/') ? { status: 400, body: JSON.stringify({ message: 'refused by the proxy' }) } : undefined,
    });
    try {
      return await steward(args, { cwd: p.dir, env: { ...env, STEWARD_OBS_URL: proxy.url } });
    } finally {
      await proxy.close();
    }
  };
  const edit = (file: string, from: string, to: string) => {
    const f = join(p.dir, file);
    const text = readFileSync(f, 'utf8');
    assert.ok(text.includes(from), from);
    writeFileSync(f, text.replace(from, to));
  };
  const alert = () => emu.state().alerts.find((a) => a.name === ALERT);
  const tileNamed = (dashboard: string, tile: string) =>
    emu
      .state()
      .dashboards.find((d) => d.name === dashboard)
      ?.tiles.find((t) => t.name === tile)?.id;
  const cleanup = async () => {
    await emu.close();
    p.cleanup();
  };
  const a = await run('apply', '--auto-approve');
  if (a.code !== 0) await cleanup();
  assert.is(a.code, 0, a.stdout + a.stderr);
  return { emu, run, runRefusingUpdates, edit, alert, tileNamed, cleanup };
}

test('--target dashboard/X renaming a tile brings the alert on it: created again on the renamed tile, not deleted unseen', async () => {
  const x = await applied();
  try {
    x.edit('dashboards/checkout.yaml', '- name: Error count', '- name: Error total');
    x.edit('alerts/checkout.yaml', 'name: Error count }', 'name: Error total }');
    const plan = await x.run('plan', '--target', 'dashboard/checkout-overview');
    assert.is(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /\+ create +checkout-errors/);
    assert.match(plan.stdout, 'created again');
    const a = await x.run('apply', '--auto-approve', '--target', 'dashboard/checkout-overview');
    assert.is(a.code, 0, a.stdout + a.stderr);
    // Before: the alert was gone after the apply, which the plan never showed.
    assert.ok(x.alert(), 'the alert exists after the apply');
    assert.is(x.alert()!['tileId'], x.tileNamed('Checkout overview (HyperDX)', 'Error total'));
    const again = await x.run('plan', '--detailed-exitcode');
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await x.cleanup();
  }
});

test('an alert moved to another dashboard in the commit that drops its old tile is created again there (before: its update found nothing)', async () => {
  const x = await applied();
  try {
    x.edit('dashboards/checkout.yaml', '- name: Error count', '- name: Errors (moved)');
    x.edit('alerts/checkout.yaml', 'tile: { dashboard: checkout-overview, name: Error count }', 'tile: { dashboard: jvm-runtime, name: Heap used }');
    const plan = await x.run('plan');
    assert.is(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, /\+ create +checkout-errors/);
    const a = await x.run('apply', '--auto-approve');
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.is(x.alert()?.['tileId'], x.tileNamed('JVM runtime (HyperDX)', 'Heap used'));
    const again = await x.run('plan', '--detailed-exitcode');
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await x.cleanup();
  }
});

test('a pinned alert whose tile the update drops: the plan says the service deletes it and the update will find nothing', async () => {
  const x = await applied();
  try {
    const id = x.alert()!.id;
    x.edit('alerts/checkout.yaml', '  name: checkout-errors\n', `  name: checkout-errors\n  id: ${id}\n`);
    x.edit('dashboards/checkout.yaml', '- name: Error count', '- name: Error total');
    x.edit('alerts/checkout.yaml', 'name: Error count }', 'name: Error total }');
    const plan = await x.run('plan');
    assert.is(plan.code, 0, plan.stderr);
    assert.match(plan.stdout, `the service deletes alert ${id} with it, so this update will find nothing: remove metadata.id`);
  } finally {
    await x.cleanup();
  }
});

test('an alert to create again is not sent when the update that deletes the live one failed: no second alert of its name', async () => {
  const x = await applied();
  try {
    const before = x.alert()!;
    x.edit('dashboards/checkout.yaml', '- name: Error count', '- name: Errors (moved)');
    x.edit('alerts/checkout.yaml', 'tile: { dashboard: checkout-overview, name: Error count }', 'tile: { dashboard: jvm-runtime, name: Heap used }');
    const a = await x.runRefusingUpdates('apply', '--auto-approve');
    assert.is(a.code, 1, a.stdout + a.stderr);
    assert.match(a.stdout, 'refused by the proxy');
    assert.match(a.stdout, `which deletes alert ${before.id} it replaces, was not applied`);
    assert.not.match(a.stdout, 'another runner');
    assert.equal(
      x.emu
        .state()
        .alerts.filter((l) => l.name === ALERT)
        .map((l) => l.id),
      [before.id],
    );
    // Once the update goes through, the alert moves.
    const b = await x.run('apply', '--auto-approve');
    assert.is(b.code, 0, b.stdout + b.stderr);
    assert.is(x.alert()?.['tileId'], x.tileNamed('JVM runtime (HyperDX)', 'Heap used'));
  } finally {
    await x.cleanup();
  }
});

test.run();
