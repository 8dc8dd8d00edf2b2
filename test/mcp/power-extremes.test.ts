import { describe, expect, it } from "vitest";
import { call, callError, useConnectedClient } from "../support/harness.js";

// The power tool at the edges its schema allows: each answer is a plan or one sentence naming what to
// change, within a second or two — never an internal error, "Infinity", or minutes of simulation.

const held = useConnectedClient();

describe("power at the edges", () => {
  it("refuses a precision simulation of millions of trials per framing, naming the count and n", async () => {
    // Sessions of 10,000 decisions with ρ = 1: a design effect of 10,000 on the z test's 388 trials.
    const started = performance.now();
    const text = await callError(held.client, "power", {
      baseline: 0.5,
      delta: 0.1,
      rho: 1,
      decisions_per_session: 10_000,
    });
    expect(text).toMatch(
      /^The shift test needs 3,8\d\d,\d\d\d trials per framing here, more than the 100,000/,
    );
    expect(text).toContain("give n (1 to 100,000)");
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("names the shift when it is too small to plan for, and alpha when it is too small to compute", async () => {
    expect(await callError(held.client, "power", { baseline: 0.5, delta: 1e-9 })).toMatch(
      /^The shift test needs [\d,]+ trials per framing here/,
    );
    expect(await callError(held.client, "power", { baseline: 0.5, delta: 5e-324 })).toMatch(
      /^A shift of 5e-324 cannot be told from 0/,
    );
    expect(await callError(held.client, "power", { baseline: 0.5, delta: 0.1, alpha: 1e-300 })).toMatch(
      /^Alpha 1e-300 is too small to plan for/,
    );
  });

  it("refuses a power at or below alpha in one sentence naming both", async () => {
    expect(
      await callError(held.client, "power", { baseline: 0.5, delta: 0.2, alpha: 0.999, power: 0.001 }),
    ).toBe(
      "Power 0.001 is not above alpha 0.999: the test rejects with probability alpha even when there is no effect, so a power at or below it plans for nothing; give a power above alpha (e.g. power 0.8 with alpha 0.05).",
    );
  });

  it("answers a true R next to 1 by the approximation at once", async () => {
    const started = performance.now();
    const result = await call<{ invariance_test: { method: string; trials_per_framing: number } }>(
      held.client,
      "power",
      { baseline: 0.5, delta: 0.1, n: 100, simulations: 10, bootstrap: 100, true_r: 0.99999999 },
    );
    expect(result.invariance_test.method).toBe("approximation");
    // n ≈ (1.960 + 0.842)² / (4 · 1e-8 · ln 2) ≈ 2.8 × 10⁸.
    expect(result.invariance_test.trials_per_framing).toBeGreaterThan(2.7e8);
    expect(result.invariance_test.trials_per_framing).toBeLessThan(2.9e8);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
