import { afterEach, beforeEach, expect, it } from "vitest";
import { reportSections } from "../../src/queries/report-data-query.js";
import type { MatchRecord } from "../../src/store/records.js";
import { tempDeps } from "../support/harness.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";
import { memorySession } from "../support/session-record.js";

// The report's equilibrium section reads every game's counts in one pass and splits them by game: each
// game's cells must hold that game's decisions only. Player p: prisoner's dilemma 3 cooperate + 1 defect
// under business; stag hunt 1 cooperate + 1 defect under business and 2 cooperate under friend-sharing.
let deps: ReturnType<typeof tempDeps>;
beforeEach(() => {
  deps = tempDeps();
  deps.store.saveSession(memorySession("s1"));
  const plays: [string, string, string][] = [
    ["prisoners-dilemma", "business", "cooperate"],
    ["prisoners-dilemma", "business", "cooperate"],
    ["prisoners-dilemma", "business", "cooperate"],
    ["prisoners-dilemma", "business", "defect"],
    ["stag-hunt", "business", "cooperate"],
    ["stag-hunt", "business", "defect"],
    ["stag-hunt", "friend-sharing", "cooperate"],
    ["stag-hunt", "friend-sharing", "cooperate"],
  ];
  plays.forEach(([game, framing, action], i) => {
    const id = `m${i + 1}`;
    deps.store.insertMatch(oneShotMatch(id, { session_id: "s1", game, framing }));
    const decision = firstRoundDecision(id, action, { session_id: "s1" });
    deps.store.saveDecision(decision, deps.store.getMatch(id) as MatchRecord);
  });
});
afterEach(() => deps.dispose());

it("lists each game's cells with that game's decisions, from one read of every game's counts", () => {
  const { equilibrium } = reportSections(deps, { bootstrap: 20, seed: 1 });
  expect(equilibrium?.map((c) => [c.game, c.framing, c.n, c.distribution])).toEqual([
    ["prisoners-dilemma", "business", 4, { cooperate: 0.75, defect: 0.25 }],
    ["stag-hunt", "business", 2, { cooperate: 0.5, defect: 0.5 }],
    ["stag-hunt", "friend-sharing", 2, { cooperate: 1, defect: 0 }],
  ]);
});
