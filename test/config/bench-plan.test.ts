/**
 * bench/plan.ts at a small scale (about 5 s), so the benchmark of loading and planning keeps running: the
 * built CLI and the refresh peer against emulator children; every run is checked there to plan N noops
 * (or N creates). Beside the config tests because loading is what the benchmark is mostly about.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FLOOR_STRATEGY, runPlanBench, runPlanStages } from '../../bench/plan.ts';

test('plan benchmark: one request for steward and the floor at every size and case, N + 1 for the refresh peer', async () => {
  const rows = await runPlanBench({ sizes: [20], createSizes: [20], repeats: 1 });
  assert.equal(
    rows.map((r) => `${r.case} | ${r.strategy.split(' (')[0]} | ${r.requests}`),
    [
      'all create | steward, --no-cache | 1',
      'all create | steward, first run | 1',
      'all create | steward, warm cache | 1',
      'all create | floor: the files read and one GET of the list | 1',
      'noop | steward, --no-cache | 1',
      'noop | steward, first run | 1',
      'noop | steward, warm cache | 1',
      'noop | refresh-per-resource | 21',
      'noop | floor: the files read and one GET of the list | 1',
    ],
  );
  assert.ok(rows.every((r) => r.ms > 0 && r.peakRssMiB > 0 && r.floorMs > 0));
  // Every row of a case has the same floor: the floor's own figure.
  for (const kase of ['all create', 'noop']) {
    const of = rows.filter((r) => r.case === kase);
    assert.ok(of.every((r) => r.floorMs === of.find((x) => x.strategy === FLOOR_STRATEGY)!.ms));
  }
  assert.is(rows.find((r) => r.strategy.startsWith('refresh'))!.at100PerMinute, '≥ 12 s');
});

test('plan stages run', async () => {
  const stages = await runPlanStages({ sizes: [20], repeats: 1 });
  assert.ok(stages.length >= 10);
  assert.ok(stages.some((s) => s.stage.startsWith('load, warm cache') && s.detail === '20 hits'));
});

test.run();
