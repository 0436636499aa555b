/** The timer the wait runs on: injected so a test can say how late it fires. */
export interface LatencyClock {
  /** Milliseconds, sub-millisecond precision. */
  now(): number;
  /** Calls `fire` after `ms` whole milliseconds (0: at the end of this turn of the event loop). */
  after(ms: number, fire: () => void): void;
}

const nodeClock: LatencyClock = {
  now: () => performance.now(),
  after: (ms, fire) => {
    if (ms <= 0) setImmediate(fire);
    else setTimeout(fire, ms);
  },
};

/** Weight of the newest lateness in the moving average. */
const ALPHA = 0.1;

/**
 * The injected latency (`--latency ms`): each API request waits `ms` on average.
 *
 * Why not `setTimeout(ms)`: Node fires timers on whole milliseconds of a clock read once per turn of the
 * event loop, and a VM's idle core wakes late, so on the 2-core VM a 20 ms wait took 20.5-20.7 ms. Every
 * answer paid that on top of what was asked, and a benchmark's bound `N × latency / concurrency` was out of
 * reach for any client, even one that costs nothing. So each wait is shortened by how late the previous
 * timers fired (a moving average, never more than a tenth of `ms` or 2 ms), and since timers take whole
 * milliseconds the fraction left over is carried into the next wait. No spinning: the process stays idle.
 */
export class LatencyWait {
  /** Moving average of how late the timer fired, ms. */
  private late = 0;
  /** The part of a millisecond the last wait could not ask for. */
  private carry = 0;
  private readonly maxShorten: number;

  constructor(
    readonly ms: number,
    private readonly clock: LatencyClock = nodeClock,
  ) {
    this.maxShorten = Math.min(2, ms / 10);
  }

  wait(): Promise<void> {
    const want = Math.max(0, this.ms - this.late + this.carry);
    const whole = Math.floor(want);
    this.carry = want - whole;
    const start = this.clock.now();
    return new Promise((resolve) => {
      this.clock.after(whole, () => {
        const late = this.clock.now() - start - whole;
        this.late = clamp(this.late + ALPHA * (late - this.late), -1, this.maxShorten);
        resolve();
      });
    });
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}
