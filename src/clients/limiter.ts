/**
 * Client-side pacing: a rate limiter (requests per minute) and a concurrency bound, both shared by every
 * request of one client. Time is injected so tests run on a fake clock.
 */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RateLimiterOptions {
  /** Requests allowed per minute; 0, undefined or Infinity means no limit. */
  requestsPerMinute?: number | undefined;
  /** How many requests may start back to back before spacing applies (default 1: pure spacing). */
  burst?: number | undefined;
  now: () => number;
  sleep: Sleep;
}

/**
 * Spaces request starts `60 000 / requestsPerMinute` ms apart (GCRA, a token bucket without a timer).
 * Slots are reserved synchronously, so concurrent callers are served in call order and never bunch up.
 * `pauseUntil(t)` holds every start until `t`: used when the server says "wait" (429, or a rate-limit
 * header with nothing remaining), so the whole client backs off, not only the request that was told.
 */
export class RateLimiter {
  private readonly intervalMs: number;
  private readonly toleranceMs: number;
  private readonly now: () => number;
  private readonly sleep: Sleep;
  /** Theoretical arrival time of the next request at the steady rate. */
  private tat = -Infinity;
  private pausedUntil = -Infinity;
  /** The clock's latest reading: one below it means the clock was stepped back. */
  private last = -Infinity;

  constructor(opts: RateLimiterOptions) {
    const rpm = opts.requestsPerMinute;
    this.intervalMs = rpm && Number.isFinite(rpm) && rpm > 0 ? 60_000 / rpm : 0;
    this.toleranceMs = this.intervalMs * Math.max(0, Math.floor(opts.burst ?? 1) - 1);
    this.now = opts.now;
    this.sleep = opts.sleep;
  }

  /** Waits until this caller may start a request. Returns how long it waited (ms). */
  async acquire(signal?: AbortSignal): Promise<number> {
    const t = this.read();
    const start = Math.max(t, this.tat - this.toleranceMs, this.pausedUntil);
    if (this.intervalMs > 0) this.tat = Math.max(this.tat, start) + this.intervalMs;
    const wait = start - t;
    if (wait > 0) {
      await this.sleep(wait, signal);
      // Read again: a step is measured from the latest reading, not from before the wait.
      this.read();
    }
    return Math.max(0, wait);
  }

  /** Holds every request start until the given time (epoch ms of the injected clock). */
  pauseUntil(time: number): void {
    this.read();
    if (time > this.pausedUntil) this.pausedUntil = time;
  }

  /**
   * The clock (the wall clock, in the CLI). Stepped back (NTP correcting a fast clock, a VM resumed from a
   * snapshot), the slots already reserved move back with it: else the step itself became a wait, and an hour
   * back held every request for an hour. Stepped forward, the next start is simply due.
   */
  private read(): number {
    const t = this.now();
    if (t < this.last) {
      const back = this.last - t;
      this.tat -= back;
      this.pausedUntil -= back;
    }
    this.last = t;
    return t;
  }
}

/** A counting semaphore: at most `limit` holders at once, waiters served first come, first served. */
export class Semaphore {
  private readonly limit: number;
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(limit: number | undefined) {
    this.limit = limit && limit > 0 ? Math.floor(limit) : Infinity;
  }

  async acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
    // The releaser handed its slot over: `active` is unchanged.
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.active--;
  }

  /** Runs `fn` holding one slot. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  get inUse(): number {
    return this.active;
  }
}
