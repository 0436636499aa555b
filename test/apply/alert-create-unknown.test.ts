/**
 * An alert create (POST .../alerts) the server made but whose answer never came: Ctrl-C while it was in
 * flight, or the answer cut and the list that checks it failing. Either way apply says the outcome is unknown
 * (never "not done", never "failed" for the list's error), and the next apply and plan converge with one alert
 * per name. Over real HTTP: the emulator (hyperdx) behind a proxy on 127.0.0.1, the CLI spawned. Needs dist/.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../src/emulator/index.ts';
import { steward, stewardSpawned } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

const MARKER = 'managed-by:steward/acme-hyperdx';

/** examples/hyperdx against a fresh emulator; a short request timeout keeps the settle window short. */
async function setUp(timeoutSeconds: number): Promise<{ dir: string; emu: Emulator; env: Record<string, string>; cleanup: () => Promise<void> }> {
  const p = tmpProject({});
  copyExample(p.dir, 'hyperdx', { timeoutSeconds });
  const emu = await startEmulator({ api: 'hyperdx', seed: 11 });
  return {
    dir: p.dir,
    emu,
    env: { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') },
    cleanup: async () => {
      await emu.close();
      p.cleanup();
    },
  };
}

type Alert = { id: string; name: string; note?: string };
const managedAlerts = (emu: Emulator) => ((emu.state() as { alerts: Alert[] }).alerts ?? []).filter((a) => (a.note ?? '').includes(MARKER));

/** apply --format json, spawned; `onChild` gets the process to signal. */
function spawnApply(dir: string, env: Record<string, string>, onChild: (kill: (s: NodeJS.Signals) => void, exited: Promise<void>) => void) {
  return stewardSpawned(['apply', '--auto-approve', '--concurrency', '1', '--format', 'json'], {
    cwd: dir,
    env,
    onChild: (child) => onChild((s) => child.kill(s), new Promise<void>((r) => child.once('close', () => r()))),
  });
}

/** Every managed alert on the server was reported created or unknown; then apply and plan converge, one alert per name. */
async function assertAccountedThenConverges(x: { dir: string; emu: Emulator; env: Record<string, string> }, out: string, alertsPlanned: number) {
  const result = JSON.parse(out) as {
    created: Array<{ id: string }>;
    unknown?: Array<{ kind: string; name: string; error: string }>;
    notDone?: Array<{ kind: string }>;
  };
  const live = managedAlerts(x.emu);
  const createdIds = new Set(result.created.map((c) => c.id));
  const reportedCreated = live.filter((a) => createdIds.has(a.id)).length;
  const unknownAlerts = (result.unknown ?? []).filter((u) => u.kind === 'Alert');
  assert.is(live.length, reportedCreated + unknownAlerts.length, `each alert the server has was reported created or unknown: ${out}`);
  const notDone = (result.notDone ?? []).filter((n) => n.kind === 'Alert').length;
  assert.is(reportedCreated + unknownAlerts.length + notDone, alertsPlanned, out);

  const again = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
  assert.is(again.code, 0, again.stdout + again.stderr);
  const plan = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
  assert.is(plan.code, 0, plan.stdout + plan.stderr);
  const names = managedAlerts(x.emu).map((a) => a.name);
  assert.is(names.length, alertsPlanned, names.join(', '));
  assert.is(new Set(names).size, names.length, `one alert per name: ${names.join(', ')}`);
  return unknownAlerts;
}

test('Ctrl-C while an alert create is in flight (the server made it): "unknown", not "not done"; the next apply converges', async () => {
  // A request timeout longer than the 10 s apply gives requests in flight after Ctrl-C: the create is abandoned.
  const x = await setUp(30);
  let kill: ((s: NodeJS.Signals) => void) | undefined;
  let exited: Promise<void> | undefined;
  let fired = false;
  const proxy = await startProxy(x.emu.url, {
    rewrite: async (req, path, _status, text) => {
      if (fired || req.method !== 'POST' || !path.endsWith('/alerts')) return text;
      fired = true;
      // Committed; the answer is held until the run has ended on the Ctrl-C.
      kill!('SIGINT');
      await exited;
      return 'drop';
    },
  });
  try {
    const r = await spawnApply(x.dir, { ...x.env, STEWARD_OBS_URL: proxy.url }, (k, e) => ((kill = k), (exited = e)));
    assert.ok(fired, 'an alert create was sent');
    assert.is(r.code, 130, r.stdout + r.stderr);
    const unknown = await assertAccountedThenConverges(x, r.stdout, 5);
    assert.is(unknown.length, 1, r.stdout);
    assert.match(unknown[0]!.error, 'interrupted');
  } finally {
    await proxy.close();
    await x.cleanup();
  }
});

test('an alert create whose answer was cut, and the list that checks it fails: "unknown", not "failed"; the next apply converges', async () => {
  const x = await setUp(1);
  let cut = false;
  let refused = false;
  const proxy = await startProxy(x.emu.url, {
    // The one list after the cut is refused (a 400 is not retried).
    intercept: (req, path) => {
      if (!cut || refused || req.method !== 'GET' || !path.endsWith('/alerts')) return undefined;
      refused = true;
      return { status: 400, body: JSON.stringify({ message: 'bad request' }) };
    },
    rewrite: (req, path, _status, text) => {
      if (cut || req.method !== 'POST' || !path.endsWith('/alerts')) return text;
      cut = true;
      return 'drop';
    },
  });
  try {
    const r = await spawnApply(x.dir, { ...x.env, STEWARD_OBS_URL: proxy.url }, () => {});
    assert.ok(cut && refused, 'an alert create was sent, and the list after it refused');
    assert.is(r.code, 1, r.stdout + r.stderr);
    const result = JSON.parse(r.stdout) as { failed: Array<{ kind: string; error: string }> };
    assert.equal(
      result.failed.filter((f) => f.kind === 'Alert'),
      [],
      r.stdout,
    );
    const unknown = await assertAccountedThenConverges(x, r.stdout, 5);
    assert.is(unknown.length, 1, r.stdout);
    assert.match(unknown[0]!.error, /outcome unknown, not re-sent .*listing to check failed/);
  } finally {
    await proxy.close();
    await x.cleanup();
  }
});

test.run();
