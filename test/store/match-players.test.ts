import { afterEach, beforeEach, expect, it } from "vitest";
import type { Caller } from "../../src/play/caller.js";
import { startMatch } from "../../src/play/start-match.js";
import { submitMove } from "../../src/play/submit-move.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { tempDeps } from "../support/harness.js";
import { describeEachEngine } from "../support/postgres.js";

// The record's player labels, one index seek each (what an analysis asks before it reads every match in
// scope for players without a valid decision), in code-point order on both engines; and the analysis
// still names a player whose every round was void when no --players filter lists it.

describeEachEngine("the record's player labels", (engine: EngineKind) => {
  let deps: ReturnType<typeof tempDeps>;
  beforeEach(() => {
    deps = tempDeps(engine);
  });
  afterEach(() => deps.dispose());

  const caller = (player: string): Caller => ({
    sessionId: `session-${player}`,
    transport: "memory",
    principal: "local",
    configuredPlayer: player,
    clientInfo: () => null,
  });

  /** One match of `player`: the framing's label of action `label` (0 or 1), or five unreadable replies (null). */
  function play(player: string, framing: string, label: 0 | 1 | null): void {
    const view = startMatch(deps, caller(player), player, {
      game: "prisoners-dilemma",
      variant: "base",
      framing,
      style: "zero-shot",
      opponent: { id: "always-defect", params: {} },
      seed: "7",
      history_mode: "none",
      reveal_horizon: false,
    });
    const { labels } = view;
    const attempts = label === null ? 5 : 1;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const choice = label === null ? `no idea ${attempt}` : (labels[label] as string);
      submitMove(deps, caller(player), { match_id: view.match_id, round: 1, choice });
    }
  }

  it("lists each label once, in code-point order, however many matches it has", () => {
    expect(deps.store.matchPlayers()).toEqual([]);
    for (const player of ["zed", "émile", "alice", "Bob", "alice"]) play(player, "business", 0);
    expect(deps.store.matchPlayers()).toEqual(["Bob", "alice", "zed", "émile"]);
  });

  it("leaves robustness naming a player whose every round was void, without a players filter", () => {
    for (const framing of ["business", "friend-sharing"]) {
      play("alpha", framing, 0);
      play("alpha", framing, 1);
      play("void-bot", framing, null);
    }
    const report = robustnessReport(deps, { bootstrap: 200, seed: 1 });
    expect(report.players.map((p) => p.player)).toEqual(["alpha"]);
    expect(report.notes).toContainEqual({
      name: "no_valid_decisions",
      detail: "Left out: void-bot: 2 matches, 0 valid decisions (all void).",
    });
  });
});
