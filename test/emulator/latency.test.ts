import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type LatencyClock, LatencyWait } from '../../src/emulator/latency.ts';

/** A clock whose timers fire `lateMs` after the whole milliseconds asked for, at once (no real waiting). */
function lateClock(lateMs: number): LatencyClock & { asked: number[]; elapsed: () => number } {
  let t = 1000;
  const start = t;
  const asked: number[] = [];
  return {
    asked,
    elapsed: () => t - start,
    now: () => t,
    after(ms, fire) {
      assert.ok(Number.isInteger(ms) && ms >= 0, `timers take whole milliseconds, asked ${ms}`);
      asked.push(ms);
      t += ms + lateMs;
      fire();
    },
  };
}

async function run(w: LatencyWait, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await w.wait();
}

test('waits average the latency asked for, whatever the timer adds (table)', async () => {
  for (const [ms, lateMs] of [
    [20, 0.6],
    [20, 0.05],
    [20, 0],
    [120, 0.7],
    [50, 1.3],
    [7, 0.3],
  ] as const) {
    const clock = lateClock(lateMs);
    const w = new LatencyWait(ms, clock);
    await run(w, 200); // the moving average settles
    const before = clock.elapsed();
    await run(w, 1000);
    const mean = (clock.elapsed() - before) / 1000;
    assert.ok(Math.abs(mean - ms) < 0.02, `${ms} ms with timers ${lateMs} ms late: waits averaged ${mean.toFixed(3)} ms`);
  }
});

test('a fraction of a millisecond is carried: 19.4 ms of timer is 19 and 20 in the right mix, never a fraction', async () => {
  const clock = lateClock(0.6);
  const w = new LatencyWait(20, clock);
  await run(w, 300);
  clock.asked.length = 0;
  await run(w, 100);
  assert.equal([...new Set(clock.asked)].sort(), [19, 20]);
  const nineteen = clock.asked.filter((x) => x === 19).length;
  assert.ok(nineteen >= 55 && nineteen <= 65, `19 ms ${nineteen} times in 100 (0.6 of them expected)`);
});

test('a very late timer shortens the wait by at most a tenth of the latency or 2 ms', async () => {
  for (const [ms, floor] of [
    [20, 18],
    [120, 118],
    [5, 4.5],
  ] as const) {
    const clock = lateClock(9);
    const w = new LatencyWait(ms, clock);
    await run(w, 300);
    for (let i = 0; i < 20; i++) {
      clock.asked.length = 0;
      await w.wait();
      // The wait asked of the timer, with the carry, is never below the floor by a whole millisecond.
      assert.ok(clock.asked[0]! > floor - 1, `${ms} ms: asked the timer for ${clock.asked[0]} ms`);
    }
  }
});

test('a timer that fires early lengthens the next waits, by at most 1 ms', async () => {
  const clock = lateClock(-0.4);
  const w = new LatencyWait(20, clock);
  await run(w, 200);
  const before = clock.elapsed();
  await run(w, 1000);
  const mean = (clock.elapsed() - before) / 1000;
  assert.ok(Math.abs(mean - 20) < 0.02, `waits averaged ${mean.toFixed(3)} ms`);
});

test.run();
