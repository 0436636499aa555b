/** The bench table's goal notes judge the exact ratio, not the one rounded for display. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApplyBenchRow } from '../../bench/apply.ts';
import { normalizeApply } from '../../bench/run.ts';

const row = (wallMs: number, group: ApplyBenchRow['group'] = 'cli'): ApplyBenchRow => ({
  group,
  case: group === 'cli' ? 'steward apply (built CLI)' : 'concurrency 4, no rate limit',
  concurrency: 4,
  dashboards: 1000,
  clientRpm: 0,
  serverRpm: 0,
  serverWindowMs: 0,
  wallMs,
  boundMs: 5000,
  bound: 'N × latency / 4',
  efficiency: Math.round((5000 / wallMs) * 100) / 100,
  rejected429: 0,
  failed: 0,
  resent: 0,
  journalMs: 0,
  applies: 1,
  created: 1000,
  distinct: 1000,
  peakInFlight: 4,
  ok: true,
  detail: '',
});

for (const [wallMs, group, verdict, shown] of [
  [5582, 'cli', 'NOT met', 'efficiency 0.896'],
  [5582, 'concurrency', 'NOT met', 'efficiency 0.896'],
  [5555, 'cli', 'met', 'efficiency 0.900'],
  [5000, 'concurrency', 'met', 'efficiency 1.000'],
] as const) {
  test(`apply at concurrency 4, ${wallMs} ms against 5,000 (${group}): goal ${verdict}, ${shown}`, () => {
    const notes = normalizeApply([row(wallMs, group)])[0]!.notes;
    assert.match(notes, `goal efficiency ≥ 0.9: ${verdict},`);
    assert.match(notes, shown);
  });
}

test.run();
