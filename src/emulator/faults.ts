/**
 * A sliding-window rate limit: at most `limit` accepted requests per credential in any `windowMs`. Each
 * credential keeps a ring of its accepted requests' times, so a check costs O(1).
 */
export class RateLimiter {
  private readonly rings = new Map<string, { times: Float64Array; head: number; count: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs = 60_000,
  ) {}

  /**
   * Counts a request when it fits. `resetSeconds` is when the oldest request in the window leaves it (a slot
   * frees up); on refusal that is the `Retry-After`.
   */
  take(key: string, nowMs: number): { ok: boolean; remaining: number; resetSeconds: number } {
    let ring = this.rings.get(key);
    if (!ring) {
      ring = { times: new Float64Array(this.limit), head: 0, count: 0 };
      this.rings.set(key, ring);
    }
    while (ring.count > 0 && nowMs - ring.times[ring.head]! >= this.windowMs) {
      ring.head = (ring.head + 1) % this.limit;
      ring.count--;
    }
    const resetOf = (oldest: number) => Math.max(1, Math.ceil((oldest + this.windowMs - nowMs) / 1000));
    if (ring.count >= this.limit) {
      return { ok: false, remaining: 0, resetSeconds: resetOf(ring.times[ring.head]!) };
    }
    ring.times[(ring.head + ring.count) % this.limit] = nowMs;
    ring.count++;
    return { ok: true, remaining: this.limit - ring.count, resetSeconds: resetOf(ring.times[ring.head]!) };
  }

  clear(): void {
    this.rings.clear();
  }
}
