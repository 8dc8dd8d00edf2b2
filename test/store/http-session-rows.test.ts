import { afterEach, beforeEach, expect, it } from "vitest";
import { ENDED_HTTP_SESSION_KEPT_MS } from "../../src/store/aggregates/http-session-store.js";
import { Store } from "../../src/store/store.js";
import { describeEachEngine, freshRecord, type TestRecord } from "../support/postgres.js";

// The HTTP server's session rows on a real record, the clock passed in (milliseconds): what they change in
// the record's version (which every cached analysis is keyed by), how a wall clock stepped back is taken,
// and how long ended sessions are kept.

const HOUR = 3_600_000;
const TIMEOUT = 15 * 60_000;

describeEachEngine("HTTP session rows", (engine) => {
  let record: TestRecord;
  let store: Store;
  beforeEach(() => {
    record = freshRecord(engine);
    store = new Store(record.location);
  });
  afterEach(() => {
    store.close();
    record.dispose();
  });

  function open(id: string, now: number, rate = 5): void {
    const opened = store.openHttpSession(
      {
        id,
        principal: "p",
        protocol_version: "2025-06-18",
        initialize_params: "{}",
        client_name: null,
        client_version: null,
        created_at: now,
      },
      { maxSessions: 10, maxSessionsPerPrincipal: 10, liveSince: now - TIMEOUT, ratePerSecond: rate },
    );
    expect(opened).toBe("opened");
  }

  const touch = (id: string, now: number) =>
    store.touchHttpSession(id, "p", { now, liveSince: now - TIMEOUT }, { messages: 1, ratePerSecond: 5 });

  function row(id: string): { last_seen_at: number; rate_updated_at: number } | undefined {
    const found = store.engine
      .prepare("SELECT last_seen_at, rate_updated_at FROM http_sessions WHERE id = ?")
      .get(id) as { last_seen_at: number | string; rate_updated_at: number | string } | undefined;
    return (
      found && { last_seen_at: Number(found.last_seen_at), rate_updated_at: Number(found.rate_updated_at) }
    );
  }

  it("leaves the record's version as it is when sessions open, are used and end; a decision's transaction moves it", () => {
    const before = store.recordVersion();
    open("a", 1_000);
    touch("a", 1_500);
    store.closeHttpSession("a", "p", 2_000);
    open("b", 2 * HOUR);
    expect(store.recordVersion()).toBe(before);
    store.transaction(() => {});
    expect(store.recordVersion()).toBe(before + 1);
  });

  it("takes a stored time later than now as now: the bucket refills and expiry counts from now", () => {
    // Opened at 1 h; then the wall clock steps back to 0 and the client calls twice a second (limit 5/s).
    open("s", HOUR);
    const answers = Array.from({ length: 20 }, (_, i) => touch("s", i * 500)?.taken);
    expect(answers).toEqual(Array(20).fill(true));
    expect(row("s")).toEqual({ last_seen_at: 9_500, rate_updated_at: 9_500 });
    // Idle for the timeout after its last request (not after 1 h + the timeout): expired.
    expect(touch("s", 9_500 + TIMEOUT + 1)).toBeUndefined();
  });

  it("brings an abandoned session's future times to now when another session opens, so it can expire", () => {
    open("abandoned", HOUR);
    open("next", 0);
    expect(row("abandoned")).toEqual({ last_seen_at: 0, rate_updated_at: 0 });
  });

  it("deletes the rows of sessions ended or expired more than a week before a session opens, and keeps the rest", () => {
    const week = ENDED_HTTP_SESSION_KEPT_MS;
    expect(week).toBe(7 * 24 * HOUR);
    open("ended long ago", 0);
    store.closeHttpSession("ended long ago", "p", 1);
    open("idle long ago", 2 * 60_000);
    open("ended lately", week + 12 * HOUR);
    store.closeHttpSession("ended lately", "p", week + 24 * HOUR);
    // At two weeks: ended at 1 ms and idle since 2 min are more than a week gone; ended at 8 days is not.
    open("live", 2 * week);
    open("new", 2 * week + 2 * 60_000);
    const ids = (
      store.engine.prepare("SELECT id FROM http_sessions ORDER BY id").all() as { id: string }[]
    ).map((r) => r.id);
    expect(ids).toEqual(["ended lately", "live", "new"]);
  });
});
