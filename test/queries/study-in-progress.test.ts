import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerStudy } from "../../src/play/studies.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import type { MatchRecord } from "../../src/store/records.js";
import { tempDeps } from "../support/harness.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";

let deps: ReturnType<typeof tempDeps>;
let studyId: string;
beforeEach(() => {
  deps = tempDeps();
  // 1 game × 2 framings, 3 trials each: 6 trials per player.
  ({ study_id: studyId } = registerStudy(deps, {
    name: "interim",
    games: ["prisoners-dilemma"],
    framings: ["business", "friend-sharing"],
    trials_per_cell: 3,
    seed: 7,
  }));
});
afterEach(() => deps.dispose());

let trials = 0;
/** A finished trial of the study by alice, choosing `action`. */
function play(framing: string, action: string): void {
  const id = `m${++trials}`;
  const match = oneShotMatch(id, {
    study_id: studyId,
    trial_index: trials,
    player: "alice",
    framing,
    status: "finished",
    next_round: 2,
  });
  deps.store.insertMatch(match);
  deps.store.saveDecision(firstRoundDecision(id, action), deps.store.getMatch(id) as MatchRecord);
}

const designCheck = () =>
  robustnessReport(deps, { study_id: studyId, bootstrap: 50 }).checks.find(
    (c) => c.name === "design_decisions",
  );

describe("robustness of a study still being played", () => {
  it("is an interim look, not a failed check, when the record is a prefix of the design", () => {
    for (const framing of ["business", "friend-sharing"]) {
      play(framing, "cooperate");
      play(framing, "defect");
    }
    const report = robustnessReport(deps, { study_id: studyId, bootstrap: 50 });
    expect(report.checks.every((c) => c.ok)).toBe(true);
    expect(designCheck()?.detail).toBe(
      "4 decisions analysed of the 6 the design plans, none beyond a cell's plan: the study is in progress.",
    );
    expect(report.notes.find((n) => n.name === "study_in_progress")?.detail).toBe(
      "The study is in progress: 2 of the 6 trials the design plans for the analysed players, games and framings are not played yet; this is an interim look.",
    );
  });

  it("fails the check when a cell holds more than the design plans, even at the planned total", () => {
    // business 4 of 3, friend-sharing 2 of 3: 6 decisions, as many as planned.
    for (const action of ["cooperate", "defect", "cooperate", "defect"]) play("business", action);
    for (const action of ["cooperate", "defect"]) play("friend-sharing", action);
    expect(designCheck()).toEqual({
      name: "design_decisions",
      ok: false,
      detail:
        "6 decisions analysed; the design says 6; more decisions than the design plans in alice/prisoners-dilemma/business: 4 of 3.",
    });
  });
});
