import type { Store } from "../../store/store.js";

/**
 * How often, at most, a replica writes a session's last-seen time while the session is busy on it: every
 * this many milliseconds (or a tenth of the idle timeout, when that is shorter). In between, the record's
 * last_seen_at lags the session's last request by up to this much, so another replica (or the session caps,
 * which count live rows) may take the session for expired up to this much before the idle timeout is up.
 */
export const LAST_SEEN_EVERY_MS = 5_000;

/** A replica takes a session's tokens from the shared bucket this many seconds' worth at a time. */
export const LEASE_SECONDS = 0.1;

/**
 * How long a replica trusts that a session it has seen live is still live: within this many milliseconds
 * of reading or writing its row, a request that spends its lease reads nothing. So an end (DELETE) on
 * another replica answers 404 here within this much; a DELETE on this replica, and an idle expiry, at once
 * (a request after a tenth of the idle timeout goes to the row). A busy session makes dozens of requests
 * in that time, and on PostgreSQL each read was a round trip: two of a decision's five.
 */
export const LIVE_CHECK_EVERY_MS = 1_000;

/** Tokens this replica took from a session's bucket ahead of the requests that spend them. */
interface Lease {
  readonly principal: string;
  tokens: number;
  /** When this replica last wrote the session's row (last seen, bucket). */
  readonly syncedAt: number;
  /** When this replica last found the row live (read or written). */
  checkedAt: number;
  readonly initializeParams: string;
}

/** What a request's session bookkeeping found: as `Store.touchHttpSession` answers (undefined: no session). */
export type SessionTouch = { initialize_params: string; taken: boolean; tokens: number } | undefined;

/**
 * A session's row (http_sessions) kept current by one replica without a durable write per request, nor a
 * read: a request reads the row when this replica last found it live more than `LIVE_CHECK_EVERY_MS` ago,
 * so an end (DELETE) on another replica answers 404 here within that bound (an idle expiry at once). The
 * writes are spread out:
 * - last seen: written with the bucket, at most every `LAST_SEEN_EVERY_MS` while the session is busy here;
 * - rate: the request that writes takes a lease of `LEASE_SECONDS`' worth of tokens from the shared bucket
 *   (when it holds them; else exactly what the request needs), and the session's next requests on this
 *   replica spend the lease without writing. Tokens are never spent twice, so a session never exceeds its
 *   rate; it may burst a lease's worth beyond one second's worth per replica it uses, and a lease left
 *   unspent when the row is next written is dropped (the session may be refused that much earlier).
 */
export class SessionBookkeeping {
  private readonly leases = new Map<string, Lease>();
  private readonly syncEveryMs: number;
  private readonly checkEveryMs: number;
  private readonly leaseTokens: number;

  constructor(
    private readonly store: Store,
    private readonly options: {
      idleTimeoutMs: number;
      rateLimitPerSecond: number;
      lastSeenEveryMs?: number;
    },
  ) {
    this.syncEveryMs = Math.min(options.lastSeenEveryMs ?? LAST_SEEN_EVERY_MS, options.idleTimeoutMs / 10);
    this.checkEveryMs = Math.min(LIVE_CHECK_EVERY_MS, this.syncEveryMs);
    this.leaseTokens = Math.max(1, Math.floor(options.rateLimitPerSecond * LEASE_SECONDS));
  }

  /**
   * One request of `count` JSON-RPC messages on session `id` at `now`: ms on the record's clock
   * (`Store.now`), the one every replica writes the session's row by, whatever its own wall clock says.
   */
  touch(id: string, principal: string, now: number, count: number): SessionTouch {
    const liveSince = now - this.options.idleTimeoutMs;
    const lease = this.leases.get(id);
    if (
      lease !== undefined &&
      lease.principal === principal &&
      lease.tokens >= count &&
      now - lease.syncedAt < this.syncEveryMs
    ) {
      if (now - lease.checkedAt >= this.checkEveryMs) {
        if (!this.store.liveHttpSession(id, principal, liveSince)) {
          this.leases.delete(id);
          return undefined;
        }
        lease.checkedAt = now;
      }
      lease.tokens -= count;
      return { initialize_params: lease.initializeParams, taken: true, tokens: lease.tokens };
    }
    this.leases.delete(id);
    const row = this.store.touchHttpSession(
      id,
      principal,
      { now, liveSince },
      { messages: count, ratePerSecond: this.options.rateLimitPerSecond, lease: this.leaseTokens },
    );
    if (!row?.taken) return row;
    this.leases.set(id, {
      principal,
      tokens: row.leased,
      syncedAt: now,
      checkedAt: now,
      initializeParams: row.initialize_params,
    });
    return { initialize_params: row.initialize_params, taken: true, tokens: row.leased };
  }

  /** This replica no longer holds the session: its lease (if any) is dropped. */
  forget(id: string): void {
    this.leases.delete(id);
  }
}
