import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatBenchRows, runEmulatorBench } from '../../bench/emulator.ts';

test('runEmulatorBench runs end to end on a small scale and returns its rows', async () => {
  const rows = await runEmulatorBench({ durationMs: 150, dashboards: 40, tiles: 2, listRuns: 2 });
  assert.equal(
    rows.map((r) => r.unit),
    ['req/s', 'req/s', 'creates/s', 'ms server', 'ms server'],
  );
  for (const r of rows) {
    assert.ok(Number.isFinite(r.value) && r.value >= 0, `${r.name}: ${r.value}`);
    assert.not.match(r.detail, /unexpected|failures/, r.detail);
  }
  assert.match(formatBenchRows(rows), /^\| measure \| value \| detail \|/);
});

test.run();
