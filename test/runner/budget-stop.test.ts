import { describe, expect, it } from "vitest";
import { RunStats, StopSignal } from "../../src/runner/run-stats.js";

// A budget stop ends the admission of trials, not the trials in play: each of those was admitted because
// the budget could pay for it to the end. When the stop aborted them too, a --max-calls 7 run with three
// workers made 5 calls and left 2 admitted trials open whenever the stop came while they were in play.
describe("a budget stop", () => {
  it("takes no new trial but lets the trials in play make their calls", () => {
    const stats = new RunStats();
    expect(stats.takesNewTrials).toBe(true);
    stats.stopAtBudget("7 calls (--max-calls 7)");
    expect(stats.takesNewTrials).toBe(false);
    expect(stats.budgetStop).toBe("7 calls (--max-calls 7)");
    expect(() => stats.checkStopped()).not.toThrow();
  });

  it("leaves a stop for another reason (an interruption, a fatal error) stopping every request", () => {
    const stats = new RunStats();
    stats.stop("5 trials in a row failed");
    stats.stopAtBudget("3 calls");
    expect(stats.budgetStop).toBeNull();
    expect(stats.takesNewTrials).toBe(false);
    expect(() => stats.checkStopped()).toThrow(StopSignal);
  });
});
