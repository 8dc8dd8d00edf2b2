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

  /**
   * Takes `count` requests at once (a JSON-RPC batch); when they are not all there, none is taken and the
   * answer is the whole seconds until they are (for Retry-After). A batch larger than a second's worth
   * never fits.
   */
  take(now: number, count = 1): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const elapsed = Math.max(0, now - this.updatedAt) / 1000;
    this.tokens = Math.min(this.ratePerSecond, this.tokens + elapsed * this.ratePerSecond);
    this.updatedAt = now;
    if (this.tokens >= count) {
      this.tokens -= count;
      return { ok: true };
    }
    const wait = Math.min(count, this.ratePerSecond) - this.tokens;
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / this.ratePerSecond)) };
  }
}

/**
 * Whole seconds until a bucket holding `tokens` has `count` (capped at one second's worth, as `take`
 * does): the Retry-After of a request the shared bucket in the record refused.
 */
export function retryAfterSeconds(tokens: number, count: number, ratePerSecond: number): number {
  const wait = Math.min(count, ratePerSecond) - tokens;
  return Math.max(1, Math.ceil(wait / ratePerSecond));
}
