import { expect, it } from "vitest";
import type { MatchRecord } from "../../src/store/records.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";
import { describeEachEngine } from "../support/postgres.js";
import { memorySession } from "../support/session-record.js";
import { useSmallRecord } from "../support/small-one-shot-record.js";

// compare's counts per player, cell, action and unit on the small record of small-one-shot-record.ts: read
// from the tallies while every unit is an MCP session, and from the decisions once a match is a runner
// trial (its unit is then the trial), with the same rows either way for the sessions. Both engines.
describeEachEngine("compare's counts by player", (engine) => {
  const store = useSmallRecord(engine);

  const row = (group: string, framing: string, action: string, count: number, unit: string | null) => ({
    group,
    game: "prisoners-dilemma",
    framing,
    action,
    count,
    unit,
    position: null,
  });

  it("count each session's decisions per cell and action, in group, cell, action and unit order", () => {
    // p's session s1 made three decisions, so p is resampled by session: its rows keep their units. q's
    // only session made one decision, so q is resampled by decision: its rows have no unit.
    expect(store().comparisonCounts({}, "player")).toEqual([
      row("p", "business", "cooperate", 1, "s1"),
      row("p", "business", "defect", 1, "s1"),
      row("p", "business", "defect", 1, "s2"),
      row("p", "business", "defect", 1, "s3"),
      row("p", "friend-sharing", "cooperate", 1, "s1"),
      row("q", "business", "cooperate", 1, null),
    ]);
    expect(store().comparisonCounts({ players: ["q"] }, "player")).toEqual([
      row("q", "business", "cooperate", 1, null),
    ]);
    // Without the friend-sharing cell, p's sessions made one business decision each except s1 (two):
    // still resampled by session.
    expect(store().comparisonCounts({ framings: ["business"] }, "player")).toEqual([
      row("p", "business", "cooperate", 1, "s1"),
      row("p", "business", "defect", 1, "s1"),
      row("p", "business", "defect", 1, "s2"),
      row("p", "business", "defect", 1, "s3"),
      row("q", "business", "cooperate", 1, null),
    ]);
  });

  it("count a player whose every session made one decision per cell and action, with no unit", () => {
    // Player r: sessions u1, u2, u3 each make one business decision (cooperate, cooperate, defect).
    const at = "2026-12-01T00:00:00.000Z";
    ["u1", "u2", "u3"].forEach((session, i) => {
      store().saveSession(memorySession(session, { player: "r" }));
      const action = i < 2 ? "cooperate" : "defect";
      store().insertMatch(oneShotMatch(`r${i}`, { player: "r", session_id: session, created_at: at }));
      store().saveDecision(
        firstRoundDecision(`r${i}`, action, { session_id: session, decided_at: at }),
        store().getMatch(`r${i}`) as MatchRecord,
      );
    });
    expect(store().comparisonCounts({ players: ["r"] }, "player")).toEqual([
      row("r", "business", "cooperate", 2, null),
      row("r", "business", "defect", 1, null),
    ]);
    // p's friend-sharing decision alone: one session of one decision.
    expect(store().comparisonCounts({ players: ["p"], framings: ["friend-sharing"] }, "player")).toEqual([
      row("p", "friend-sharing", "cooperate", 1, null),
    ]);
  });

  it("count a runner trial as its own unit", () => {
    const attempt = store().insertAttempt({
      match_id: "m6",
      round: 1,
      session_id: "t1",
      raw_text: "cooperate",
      action: "cooperate",
      invalid_reason: null,
      tokens: null,
      created_at: "2026-12-01T00:00:00.000Z",
    });
    store().insertModelCalls(attempt, "m6", 1, [
      {
        provider: "openai",
        requested_model: "m",
        reported_model: null,
        mode: "text",
        style: "zero-shot",
        sample_index: 0,
        decoding: {},
        prompt_tokens: null,
        completion_tokens: null,
        latency_ms: 1,
        retries: 0,
        finish_reason: null,
        raw_reply: "cooperate",
        called_at: "2026-12-01T00:00:00.000Z",
      },
    ]);
    expect(
      store()
        .comparisonCounts({}, "player")
        .map((r) => [r.group, r.framing, r.action, r.unit]),
    ).toEqual([
      ["p", "business", "cooperate", "s1"],
      ["p", "business", "defect", "s1"],
      ["p", "business", "defect", "s2"],
      ["p", "business", "defect", "s3"],
      ["p", "friend-sharing", "cooperate", "s1"],
      ["q", "business", "cooperate", "trial:m6"],
    ]);
  });
});
