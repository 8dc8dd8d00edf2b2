import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionBookkeeping } from "../../src/mcp/http/session-bookkeeping.js";
import { tempDeps } from "../support/harness.js";

// A session's row as one replica keeps it, on a real record with the clock passed in (milliseconds).
let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
});
afterEach(() => deps.dispose());

function open(id: string, rate: number): void {
  const opened = deps.store.openHttpSession(
    {
      id,
      principal: "p",
      protocol_version: "2025-06-18",
      initialize_params: "{}",
      client_name: null,
      client_version: null,
      created_at: 0,
    },
    { maxSessions: 10, maxSessionsPerPrincipal: 10, liveSince: -1, ratePerSecond: rate },
  );
  expect(opened).toBe("opened");
}

function row(id: string): { last_seen_at: number; rate_tokens: number } {
  return deps.store.db
    .prepare("SELECT last_seen_at, rate_tokens FROM http_sessions WHERE id = ?")
    .get(id) as {
    last_seen_at: number;
    rate_tokens: number;
  };
}

describe("a session's bookkeeping on one replica", () => {
  it("writes the row once per lease of a tenth of a second's tokens, and spends the lease from memory", () => {
    open("s", 50); // bucket of 50; a lease is 5 tokens
    const books = new SessionBookkeeping(deps.store, { idleTimeoutMs: 900_000, rateLimitPerSecond: 50 });
    expect(books.touch("s", "p", 0, 1)).toMatchObject({ taken: true, tokens: 4 });
    expect(row("s")).toEqual({ last_seen_at: 0, rate_tokens: 45 });
    // Four more requests at 1 ms apart spend the lease: the row stays as it was.
    for (const [i, left] of [3, 2, 1, 0].entries()) {
      expect(books.touch("s", "p", 1 + i, 1)).toMatchObject({ taken: true, tokens: left });
    }
    expect(row("s")).toEqual({ last_seen_at: 0, rate_tokens: 45 });
    // The sixth takes a new lease: 45 + 10 ms × 50/s = 45.5, less 5.
    books.touch("s", "p", 10, 1);
    expect(row("s")).toEqual({ last_seen_at: 10, rate_tokens: 40.5 });
  });

  it("writes last seen at most every 5 s while the lease lasts, so the record lags the session by < 5 s", () => {
    open("s", 1000); // a lease of 100 tokens outlasts the requests below
    const books = new SessionBookkeeping(deps.store, { idleTimeoutMs: 900_000, rateLimitPerSecond: 1000 });
    books.touch("s", "p", 0, 1);
    books.touch("s", "p", 4_999, 1);
    expect(row("s").last_seen_at).toBe(0);
    books.touch("s", "p", 5_000, 1);
    expect(row("s").last_seen_at).toBe(5_000);
  });

  it("answers a session ended on another replica as gone within a second, and an expired one at once", () => {
    open("s", 1000);
    const books = new SessionBookkeeping(deps.store, { idleTimeoutMs: 900_000, rateLimitPerSecond: 1000 });
    books.touch("s", "p", 0, 1);
    // Another replica's DELETE at 1 ms. Requests spending the lease within a second of the row's last read
    // or write read nothing (the bound: 999 ms is still served); the first one after reads it, closed.
    deps.store.closeHttpSession("s", "p", 1);
    expect(books.touch("s", "p", 500, 1)).toMatchObject({ taken: true, initialize_params: "{}" });
    expect(books.touch("s", "p", 999, 1)).toMatchObject({ taken: true });
    expect(books.touch("s", "p", 1_000, 1)).toBeUndefined();
    // Once gone, gone: the lease went with it, so the next request reads (and writes) the row again.
    expect(books.touch("s", "p", 1_001, 1)).toBeUndefined();
    // A read that finds the row live restarts the second: read at 1,000, trusted to 1,999, read at 2,000.
    open("v", 1000);
    books.touch("v", "p", 0, 1);
    expect(books.touch("v", "p", 1_000, 1)).toMatchObject({ taken: true });
    deps.store.closeHttpSession("v", "p", 1_001);
    expect(books.touch("v", "p", 1_999, 1)).toMatchObject({ taken: true });
    expect(books.touch("v", "p", 2_000, 1)).toBeUndefined();
    // Idle expiry: with a 300 ms timeout last seen is written (and the row read) every 30 ms, and a
    // session seen at 0 is live at 299 and gone at 301.
    const brief = new SessionBookkeeping(deps.store, { idleTimeoutMs: 300, rateLimitPerSecond: 1000 });
    open("t", 1000);
    brief.touch("t", "p", 0, 1);
    expect(brief.touch("t", "p", 20, 1)).toMatchObject({ taken: true });
    expect(row("t").last_seen_at).toBe(0);
    expect(brief.touch("t", "p", 299, 1)).toMatchObject({ taken: true });
    expect(row("t").last_seen_at).toBe(299);
    expect(brief.touch("t", "p", 600, 1)).toBeUndefined();
    // Another principal's request never spends this session's lease.
    open("u", 1000);
    books.touch("u", "p", 0, 1);
    expect(books.touch("u", "q", 1, 1)).toBeUndefined();
  });

  it("takes exactly the request's tokens when the bucket holds less than a lease, and refuses beyond it", () => {
    open("s", 3); // a lease is max(1, 0.3) = 1 token: every request writes, as a bucket of 3 needs
    const books = new SessionBookkeeping(deps.store, { idleTimeoutMs: 900_000, rateLimitPerSecond: 3 });
    expect(books.touch("s", "p", 0, 2)).toMatchObject({ taken: true, tokens: 0 });
    expect(row("s").rate_tokens).toBe(1);
    expect(books.touch("s", "p", 0, 2)).toMatchObject({ taken: false, tokens: 1 });
    expect(books.touch("s", "p", 0, 1)).toMatchObject({ taken: true });
    expect(row("s").rate_tokens).toBe(0);
  });
});
