import { describe, expect, it } from "vitest";
import { classifyStatus, EndpointError, redact, retryAfterMs } from "../../src/runner/endpoint.js";
import { backoffDelay, withRetries } from "../../src/runner/retry.js";

const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1000 };

describe("runner retries", () => {
  it("reads Retry-After as seconds, as an HTTP date, and retry-after-ms first", () => {
    expect(retryAfterMs(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after": "0.25" }))).toBe(250);
    const now = Date.parse("2026-12-01T10:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "Tue, 01 Dec 2026 10:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ "retry-after": "9", "retry-after-ms": "40" }))).toBe(40);
    expect(retryAfterMs(new Headers({}))).toBeNull();
  });

  it("backs off exponentially with full jitter under the cap, never below Retry-After", () => {
    // random() = 1 gives the ceiling: 100, 200, 400, 800, then the 1000 cap.
    expect([0, 1, 2, 3, 4].map((r) => backoffDelay(r, policy, null, () => 1))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
    expect(backoffDelay(2, policy, null, () => 0.5)).toBe(200);
    expect(backoffDelay(0, policy, 700, () => 0.5)).toBe(700);
    // Retry-After: 86400 waits the policy's longest wait (1000 ms here), not a day.
    expect(backoffDelay(0, policy, 86_400_000, () => 0.5)).toBe(1000);
  });

  it("classifies failures: 401/403 auth, 429 rate or quota, 5xx/408 server, other 4xx request", () => {
    expect(classifyStatus(401, {})).toBe("auth");
    expect(classifyStatus(403, {})).toBe("auth");
    expect(classifyStatus(429, { type: "rate_limit_error" })).toBe("rate");
    expect(classifyStatus(429, { code: "insufficient_quota" })).toBe("quota");
    expect(classifyStatus(503, {})).toBe("server");
    expect(classifyStatus(529, {})).toBe("server");
    expect(classifyStatus(408, {})).toBe("server");
    expect(classifyStatus(404, {})).toBe("request");
  });

  it("retries rate, server and timeout failures up to the limit, and never auth", async () => {
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls < 3) throw new EndpointError("rate", "slow down", 429, 1);
      return "ok";
    };
    const kinds: string[] = [];
    const result = await withRetries(
      flaky,
      policy,
      (e) => kinds.push(e.kind),
      () => 0,
    );
    expect(result).toEqual({ value: "ok", retries: 2 });
    expect(kinds).toEqual(["rate", "rate"]);

    calls = 0;
    const refused = async () => {
      calls++;
      throw new EndpointError("auth", "no", 401, null);
    };
    await expect(
      withRetries(
        refused,
        policy,
        () => {},
        () => 0,
      ),
    ).rejects.toThrow("no");
    expect(calls).toBe(1);

    calls = 0;
    const down = async () => {
      calls++;
      throw new EndpointError("server", "down", 500, null);
    };
    await expect(
      withRetries(
        down,
        policy,
        () => {},
        () => 0,
      ),
    ).rejects.toThrow("down");
    expect(calls).toBe(4);
  });

  it("redacts a key wherever it appears", () => {
    expect(redact("bad key sk-abc123 (sk-abc123)", "sk-abc123")).toBe("bad key [redacted] ([redacted])");
  });
});
