import { afterEach, beforeEach, expect, it } from "vitest";
import type { Caller } from "../../src/play/caller.js";
import { startMatch } from "../../src/play/start-match.js";
import { submitMove } from "../../src/play/submit-move.js";
import { tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// submit_move reads a round's attempts once, before it records the new one, and adds the new one itself:
// the decision's invalid count and tokens must equal what the attempts table sums, on both engines.
describeEachEngine("a round's totals over several attempts", (engine) => {
  let deps: ReturnType<typeof tempDeps>;
  beforeEach(() => {
    deps = tempDeps(engine);
  });
  afterEach(() => deps.dispose());

  // A caller per match: its session row is written once per caller, and each test has a fresh record.
  const newCaller = (): Caller => ({
    sessionId: "totals",
    transport: "memory",
    principal: "local",
    configuredPlayer: "totals",
    clientInfo: () => null,
  });

  /** One match of the one-shot dilemma; `LABEL0`/`LABEL1` in a choice stand for the listed labels. */
  function play(attempts: { choice: string; tokens?: number }[]) {
    const caller = newCaller();
    const view = startMatch(deps, caller, "totals", {
      game: "prisoners-dilemma",
      variant: "base",
      framing: "business",
      style: "zero-shot",
      opponent: { id: "always-defect", params: {} },
      seed: "7",
      history_mode: "none",
      reveal_horizon: false,
    });
    const outcomes = attempts.map((a) =>
      submitMove(deps, caller, {
        match_id: view.match_id,
        round: 1,
        ...a,
        choice: a.choice
          .replace("LABEL0", view.labels[0] as string)
          .replace("LABEL1", view.labels[1] as string),
      }),
    );
    return { id: view.match_id, labels: view.labels, outcomes };
  }

  it("two unreadable replies (30 and 20 tokens) then a valid one (50): invalid 2, tokens 100", () => {
    const { id, outcomes } = play([
      { choice: "??", tokens: 30 },
      { choice: "LABEL0 or LABEL1", tokens: 20 },
      { choice: "LABEL0", tokens: 50 },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual(["invalid", "invalid", "recorded"]);
    expect(outcomes[1]?.kind === "invalid" && outcomes[1].message).toMatch(/invalid reply 2 of 5/);
    const decision = deps.store.getDecision(id, 1);
    expect(decision).toMatchObject({ status: "decided", invalid_attempts: 2, tokens: 100 });
    expect(deps.store.attemptTotals(id, 1)).toEqual({ invalid: 2, tokens: 100 });
  });

  it("no attempt reports tokens: the decision's tokens stay unknown (null), not 0", () => {
    const { id } = play([{ choice: "??" }, { choice: "LABEL1" }]);
    expect(deps.store.getDecision(id, 1)).toMatchObject({
      status: "decided",
      invalid_attempts: 1,
      tokens: null,
    });
  });

  it("only the unreadable reply reports tokens (40): the decision counts them", () => {
    const { id } = play([{ choice: "??", tokens: 40 }, { choice: "LABEL1" }]);
    expect(deps.store.getDecision(id, 1)).toMatchObject({ invalid_attempts: 1, tokens: 40 });
  });

  it("five unreadable replies void the round with invalid 5; a resend after it is answered from the record", () => {
    const { id, outcomes } = play([
      { choice: "?1", tokens: 1 },
      { choice: "?2", tokens: 2 },
      { choice: "?3", tokens: 3 },
      { choice: "?4", tokens: 4 },
      { choice: "?5", tokens: 5 },
      { choice: "?5" },
    ]);
    expect(outcomes.map((o) => o.kind)).toEqual([
      "invalid",
      "invalid",
      "invalid",
      "invalid",
      "recorded",
      "recorded",
    ]);
    expect(outcomes[5]?.kind === "recorded" && outcomes[5].result.replayed).toBe(true);
    expect(deps.store.getDecision(id, 1)).toMatchObject({ status: "void", invalid_attempts: 5, tokens: 15 });
    // The resend wrote nothing: five attempts, as the void round left them.
    expect(deps.store.listAttempts(id, 1)).toHaveLength(5);
  });

  if (engine === "postgres") {
    it("a first decision waits on PostgreSQL twice: one read of the match's state, then its writes with the COMMIT", () => {
      const hops = () => (deps.store.engine as unknown as { requests: number }).requests;
      const { id, labels } = play([]);
      const caller = newCaller();
      // The caller's session row is written on its first call, in a statement of its own: not counted here.
      submitMove(deps, caller, { match_id: id, round: 1, choice: "??" });
      const before = hops();
      const moved = submitMove(deps, caller, { match_id: id, round: 1, choice: labels[1] as string });
      expect(moved.kind).toBe("recorded");
      expect(hops() - before).toBe(2);
      expect(deps.store.getDecision(id, 1)).toMatchObject({ status: "decided", invalid_attempts: 1 });
    });
  }
});
