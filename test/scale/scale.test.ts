/**
 * The scale run of bench/scale.ts, small: 200 dashboards of 12 tiles and 80 alerts bound to their tiles,
 * plan → apply → plan through the built CLI against an emulator in a child process. Nothing lost or
 * duplicated; the second plan has nothing to do. (The full run, 5,000 and 2,000: bench/README.md, Scale.)
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runScaleBench } from '../../bench/scale.ts';

test('200 dashboards and 80 alerts: plan (2), apply (0), plan (0); every dashboard once, every alert equal to its file', async () => {
  const r = await runScaleBench({ dashboards: 200, alerts: 80 });
  assert.equal(r.problems, []);
  assert.equal(
    r.steps.map((s) => s.exitCode),
    [2, 0, 0],
  );
  assert.equal(r.summaries, [
    'plan (everything to do): steward plan: 200 to create, 80 to update, 0 blocked, 0 unchanged',
    'apply --auto-approve: Apply complete: 200 created, 80 updated, 0 unchanged, 0 failed, 0 skipped.',
    'plan again (nothing to do): steward plan: 0 to create, 0 to update, 0 blocked, 280 unchanged',
  ]);
  for (const s of r.steps) assert.ok(s.peakRssMiB > 0 && s.ms > 0, JSON.stringify(s));
});

test.run();
