/**
 * A create the server refuses with 429 (and a wait) was not made: apply sends it again after the wait
 * instead of failing it, so one apply does everything, and nothing is duplicated. The client and the
 * emulator share a virtual clock, so the waits cost no real time.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { applyPlan, type ApplyEvent } from '../../src/apply/apply.ts';
import { memoryJournal } from '../../src/apply/journal.ts';
import { createObservabilityClient } from '../../src/clients/observability.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { computePlan } from '../../src/plan/plan.ts';
import { EXAMPLES } from '../helpers/project.ts';

test('creates refused with 429 are sent again after the wait: one apply, no failure, no duplicate', async () => {
  let clock = Date.parse('2026-11-21T00:00:00.000Z');
  const now = () => clock;
  const sleep = async (ms: number) => {
    clock += ms;
    await new Promise((r) => setImmediate(r));
  };
  // Two requests a minute on the server, none on the client: the client's limit is set too high.
  const emu = await startEmulator({ seed: 7, rateLimitPerMinute: 2, now: () => new Date(clock) });
  try {
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: emu.env, cwd: EXAMPLES }, {});
    const client = createObservabilityClient({
      url: emu.url,
      token: emu.env.STEWARD_OBS_TOKEN,
      concurrency: 4,
      sleep,
      now,
      random: () => 0.5,
      retry: { limit: 8 },
    });
    const live = await client.listDashboards();
    const plan = computePlan({
      resources: loaded.resources,
      live,
      state: { formatVersion: 1, alerts: {} },
      markerTag: 'managed-by:steward',
      now: new Date(clock),
      projectDir: EXAMPLES,
    });
    assert.is(plan.summary.create, 3);
    const events: ApplyEvent[] = [];
    const r = await applyPlan(
      { client, journal: memoryJournal(), saveState: () => {}, now: () => new Date(clock), emit: (e) => events.push(e) },
      plan,
      { formatVersion: 1, alerts: {} },
      { concurrency: 4, runId: 'run-1', freshLive: live },
    );
    assert.equal(r.failed, []);
    assert.is(r.created.length, 3);
    assert.is(r.updated.length, 4);
    const log = emu.requests();
    const posts = log.filter((e) => e.method === 'POST');
    const refused = posts.filter((e) => e.status === 429).length;
    assert.ok(refused > 0, 'the server refused some creates');
    assert.is(posts.filter((e) => e.status === 200).length, 3);
    assert.is(events.filter((e) => e.type === 'create-rate-limited').length, refused);
    assert.not.ok(
      events.some((e) => e.type === 'retry-create'),
      'a refusal is not an unknown outcome: no list before sending again',
    );
    const names = emu
      .state()
      .dashboards.map((d) => d.name)
      .sort();
    assert.equal(names, ['Checkout overview', 'JVM runtime', 'Public API latency']);
  } finally {
    await emu.close();
  }
});

test.run();
