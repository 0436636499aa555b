/**
 * Apply under faults, in-process over real HTTP: the emulator answers 503 to 10% of requests, rate-limits
 * each credential, and drops the connection after committing 5% of creates. The client and the emulator
 * share a virtual clock, so waits for Retry-After cost no real time.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPlan } from '../../src/apply/apply.ts';
import { memoryJournal } from '../../src/apply/journal.ts';
import { createObservabilityClient } from '../../src/clients/observability.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import type { Resource } from '../../src/model/resource.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { computePlan } from '../../src/plan/plan.ts';
import type { StateFile } from '../../src/plan/types.ts';
import { EXAMPLES } from '../helpers/project.ts';

const MARKER = 'managed-by:steward';

function mulberry(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function converge(seed: number) {
  let clock = Date.parse('2026-11-21T00:00:00.000Z');
  const now = () => clock;
  const sleep = async (ms: number) => {
    clock += ms;
    await new Promise((r) => setImmediate(r));
  };
  const emu = await startEmulator({ seed, failRate: 0.1, dropAfterCommit: 0.05, rateLimitPerMinute: 6, now: () => new Date(clock) });
  const loaded = await loadWorkspace({ fs: nodeFileSystem, env: emu.env, cwd: EXAMPLES }, {});
  const client = createObservabilityClient({
    url: emu.url,
    token: emu.env.STEWARD_OBS_TOKEN,
    requestsPerMinute: 600,
    concurrency: 4,
    sleep,
    now,
    random: mulberry(seed),
    retry: { limit: 8 },
  });
  let state: StateFile = { formatVersion: 1, alerts: {} };
  let applies = 0;
  try {
    for (;;) {
      const live = await client.listDashboards();
      const plan = computePlan({ resources: loaded.resources, live, state, markerTag: MARKER, now: new Date(clock), projectDir: EXAMPLES });
      if (plan.summary.create + plan.summary.update === 0) {
        assert.is(plan.summary.blocked, 0, `seed ${seed}: nothing blocked at the end`);
        break;
      }
      applies++;
      assert.ok(applies <= 3, `seed ${seed}: converged within three applies`);
      const r = await applyPlan(
        { client, journal: memoryJournal(), saveState: (s) => (state = structuredClone(s)), now: () => new Date(clock), emit: () => {}, sleep },
        plan,
        state,
        { concurrency: 4, runId: `run-${applies}`, freshLive: live, settleMs: 60_000 },
      );
      state = r.state;
    }
    // Exactly one dashboard per file, and every alert at its desired values.
    const s = emu.state();
    const names = s.dashboards.map((d: { name: string }) => d.name).sort();
    assert.equal(names, ['Checkout overview', 'JVM runtime', 'Public API latency'], `seed ${seed}: one dashboard per file`);
    for (const a of loaded.resources.filter((r): r is Resource<'Alert'> => r.kind === 'Alert')) {
      const live = s.alerts.find((x: { id: string }) => x.id === a.doc.metadata.id) as unknown as Record<string, unknown>;
      for (const k of ['name', 'message', 'threshold', 'thresholdType', 'interval', 'source'] as const) {
        assert.equal(live[k], a.doc.spec[k], `seed ${seed}: alert ${a.name} ${k}`);
      }
      const dash = s.dashboards.find((d: { id: string }) => d.id === live['dashboard']) as { name: string; tiles: Array<{ id: string; name: string }> };
      assert.ok(dash, `seed ${seed}: alert ${a.name} bound to an existing dashboard`);
      assert.is(dash.tiles.find((t) => t.id === live['tileId'])?.name, a.doc.spec.tile!.name, `seed ${seed}: alert ${a.name} bound to its tile`);
    }
    const log = emu.requests();
    return {
      applies,
      requests: log.length,
      s503: log.filter((e) => e.status === 503).length,
      s429: log.filter((e) => e.status === 429).length,
      drops: log.filter((e) => e.status === 0).length,
    };
  } finally {
    await emu.close();
  }
}

test('twenty seeded runs under 5xx, rate limits and dropped creates each converge within three applies', async () => {
  const totals = { applies: 0, requests: 0, s503: 0, s429: 0, drops: 0 };
  for (let seed = 1; seed <= 20; seed++) {
    const r = await converge(seed);
    for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += r[k];
  }
  // The faults really happened: otherwise this test proves nothing.
  assert.ok(totals.s503 > 0, `503s seen: ${JSON.stringify(totals)}`);
  assert.ok(totals.s429 > 0, `429s seen: ${JSON.stringify(totals)}`);
  assert.ok(totals.drops > 0, `dropped creates seen: ${JSON.stringify(totals)}`);
});

test.run();
