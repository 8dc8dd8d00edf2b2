import type { HttpSessionCaps, HttpSessionRecord, HttpSessionTouch } from "../records.js";
import { requireWellFormedText } from "../well-formed-text.js";
import { SessionStore } from "./session-store.js";

/**
 * How long the row of a session that ended (DELETE) or expired is kept: a week, long enough to see in the
 * record who connected lately, short enough that a server running for months does not accumulate them.
 */
export const ENDED_HTTP_SESSION_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** How often, at most, a replica opening sessions tidies the table (see `tidyHttpSessions`). */
const TIDY_EVERY_MS = 60_000;

/**
 * The HTTP server's sessions, in the record so any replica can serve any request (migration 009). None of
 * it is read by an analysis, so none of it changes the record's version (`bookkeepingTransaction`): a
 * client connecting leaves every cached analysis answering.
 */
export class HttpSessionStore extends SessionStore {
  /** When this connection last tidied http_sessions (ms on its clock; -Infinity: never). */
  private tidiedAt = Number.NEGATIVE_INFINITY;

  /**
   * Opens an HTTP session if the caps allow it, counted over the live sessions of every replica on this
   * record: "full" (all sessions) or "principal-full" (this principal's share) otherwise. Count and insert
   * are one transaction: on SQLite the write lock serialises replicas, so the caps are exact.
   */
  openHttpSession(session: HttpSessionRecord, caps: HttpSessionCaps): "opened" | "full" | "principal-full" {
    requireWellFormedText(session, { client_name: "client name", client_version: "client version" });
    return this.bookkeepingTransaction(() => {
      this.tidyHttpSessions(session.created_at, caps.liveSince);
      const live = this.stmt(
        `SELECT count(*) AS n, coalesce(sum(CASE WHEN principal = ? THEN 1 ELSE 0 END), 0) AS mine
         FROM http_sessions WHERE closed_at IS NULL AND last_seen_at >= ?`,
      ).get(session.principal, caps.liveSince) as { n: number; mine: number };
      if (Number(live.n) >= caps.maxSessions) return "full";
      if (Number(live.mine) >= caps.maxSessionsPerPrincipal) return "principal-full";
      this.stmt(
        `INSERT INTO http_sessions (id, principal, protocol_version, initialize_params, client_name,
           client_version, created_at, last_seen_at, rate_tokens, rate_updated_at, rate_taken)
         VALUES (@id, @principal, @protocol_version, @initialize_params, @client_name, @client_version,
           @created_at, @created_at, @rate, @created_at, 1)`,
      ).run({ ...session, rate: caps.ratePerSecond });
      return "opened";
    });
  }

  /**
   * At most once a minute, inside the opening of a session: deletes the rows of sessions that ended or
   * expired more than ENDED_HTTP_SESSION_KEPT_MS ago, and brings a time stored in the future (the wall
   * clock stepped back since it was written) to now, so that an abandoned session expires a timeout from
   * now rather than a timeout after the clock catches up, and stops counting against the caps.
   */
  private tidyHttpSessions(now: number, liveSince: number): void {
    if (Math.abs(now - this.tidiedAt) < TIDY_EVERY_MS) return;
    this.tidiedAt = now;
    const before = Math.min(liveSince, now - ENDED_HTTP_SESSION_KEPT_MS);
    this.stmt(
      `DELETE FROM http_sessions
       WHERE (closed_at IS NOT NULL AND closed_at < @before) OR (closed_at IS NULL AND last_seen_at < @before)`,
    ).run({ before });
    this.stmt(
      `UPDATE http_sessions SET
         last_seen_at = CASE WHEN last_seen_at > @now THEN @now ELSE last_seen_at END,
         rate_updated_at = CASE WHEN rate_updated_at > @now THEN @now ELSE rate_updated_at END
       WHERE last_seen_at > @now OR rate_updated_at > @now`,
    ).run({ now });
  }

  /**
   * One request of a session, in one statement: finds the live row of this id for this principal, marks it
   * seen, and takes tokens from its bucket (refilled at `ratePerSecond` since the last request, capped at one
   * second's worth): `lease` of them when the bucket holds that many (the replica spends the rest on the
   * session's next requests without writing; see session-bookkeeping.ts), else exactly `messages`, else none
   * (a refusal). Undefined when the id is unknown, closed, expired or another principal's. One UPDATE, so
   * two replicas never both spend a token. `rate_taken` keeps how many tokens this request took (0: refused).
   * A stored time later than `now` (the wall clock stepped back, or another replica's runs a little ahead)
   * counts as now: the bucket refills from now on and the session's expiry counts from now, instead of the
   * session being refused, and never expiring, for as long as the step.
   */
  touchHttpSession(
    id: string,
    principal: string,
    at: { now: number; liveSince: number },
    rate: { messages: number; ratePerSecond: number; lease?: number },
  ): HttpSessionTouch | undefined {
    const elapsed = "(CASE WHEN @now > rate_updated_at THEN @now - rate_updated_at ELSE 0 END)";
    const grown = `(rate_tokens + ${elapsed} * CAST(@rate AS DOUBLE PRECISION) / 1000.0)`;
    const refill = `(CASE WHEN ${grown} > @rate THEN CAST(@rate AS DOUBLE PRECISION) ELSE ${grown} END)`;
    const take = `(CASE WHEN ${refill} >= @lease THEN @lease WHEN ${refill} >= @messages THEN @messages ELSE 0 END)`;
    const row = this.stmt(
      `UPDATE http_sessions SET
         last_seen_at = @now,
         rate_taken = ${take},
         rate_tokens = ${refill} - ${take},
         rate_updated_at = @now
       WHERE id = @id AND principal = @principal AND closed_at IS NULL AND last_seen_at >= @live_since
       RETURNING initialize_params, rate_taken, rate_tokens`,
    ).get({
      id,
      principal,
      now: at.now,
      live_since: at.liveSince,
      rate: rate.ratePerSecond,
      messages: rate.messages,
      lease: Math.max(rate.messages, rate.lease ?? rate.messages),
    }) as { initialize_params: string; rate_taken: number; rate_tokens: number } | undefined;
    if (!row) return undefined;
    const taken = Number(row.rate_taken);
    return {
      initialize_params: row.initialize_params,
      taken: taken > 0,
      leased: Math.max(0, taken - rate.messages),
      tokens: Number(row.rate_tokens),
    };
  }

  /**
   * The live row of this id for this principal, read without writing: what a replica asks, at most once a
   * second, on a request it pays from tokens it leased before, so an end (DELETE) on any replica answers
   * 404 there within a second (SessionBookkeeping).
   */
  liveHttpSession(
    id: string,
    principal: string,
    liveSince: number,
  ): { initialize_params: string } | undefined {
    return this.stmt(
      `SELECT initialize_params FROM http_sessions
       WHERE id = ? AND principal = ? AND closed_at IS NULL AND last_seen_at >= ?`,
    ).get(id, principal, liveSince) as { initialize_params: string } | undefined;
  }

  /** Ends a session for every replica (DELETE): its id answers 404 from now on. */
  closeHttpSession(id: string, principal: string, now: number): void {
    this.stmt(
      "UPDATE http_sessions SET closed_at = ? WHERE id = ? AND principal = ? AND closed_at IS NULL",
    ).run(now, id, principal);
  }

  /** Live sessions over every replica: the readiness check reports it (and proves a round trip). */
  countLiveHttpSessions(liveSince: number): number {
    const row = this.stmt(
      "SELECT count(*) AS n FROM http_sessions WHERE closed_at IS NULL AND last_seen_at >= ?",
    ).get(liveSince) as { n: number };
    return Number(row.n);
  }
}
