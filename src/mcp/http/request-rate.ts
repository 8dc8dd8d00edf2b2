/**
 * A token bucket: `ratePerSecond` requests per second on average, bursts up to one second's worth. Time
 * is passed in (milliseconds) so the arithmetic is checkable without a clock.
 */
export class RequestRate {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly ratePerSecond: number,
    now: number,
  ) {
    this.tokens = ratePerSecond;
    this.updatedAt = now;
  }

  /** Takes one request; when none is left, the whole seconds until one is (for Retry-After). */
  take(now: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.ratePerSecond, this.tokens + elapsed * this.ratePerSecond);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / this.ratePerSecond)) };
  }
}
