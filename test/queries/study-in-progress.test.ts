import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { registerStudy } from "../../src/play/studies.js";
import { reportData } from "../../src/queries/report-data-query.js";
import { robustnessReport } from "../../src/queries/robustness-query.js";
import { studyProgress } from "../../src/queries/study-progress-query.js";
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
/** A finished trial of the study by alice, choosing `action` (null: five invalid replies, the round void). */
function play(framing: string, action: string | null): void {
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
  const decision =
    action === null
      ? firstRoundDecision(id, null, { status: "void", invalid_attempts: 5 })
      : firstRoundDecision(id, action);
  deps.store.saveDecision(decision, deps.store.getMatch(id) as MatchRecord);
}

const report = () => robustnessReport(deps, { study_id: studyId, bootstrap: 50 });
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
  it("is complete, as study show counts it, when a played trial ended void", () => {
    // business: cooperate, defect, and one trial void after five invalid replies; friend-sharing: 3 decided.
    for (const action of ["cooperate", "defect", null]) play("business", action);
    for (const action of ["cooperate", "defect", "defect"]) play("friend-sharing", action);
    expect(studyProgress(deps, studyId).players).toEqual([
      { player: "alice", finished: 6, open: 0, void: 1, forfeit: 0 },
    ]);
    const report = robustnessReport(deps, { study_id: studyId, bootstrap: 50 });
    expect(report.decisions).toBe(5);
    expect(designCheck()).toEqual({
      name: "design_decisions",
      ok: true,
      detail:
        "5 decisions analysed and 1 trial played without a valid decision (void or forfeit): the 6 trials the design plans, all played.",
    });
    // Neither the analysis nor the report reads a finished study as an interim look.
    expect(report.notes.map((n) => n.name)).not.toContain("study_in_progress");
    const page = reportData(deps, { study_id: studyId, bootstrap: 50 });
    expect(page.notes?.map((n) => n.name)).not.toContain("study_in_progress");
    expect(page.checks?.find((c) => c.name === "design_decisions")).toBeUndefined();
    expect(page.robustness?.checks.find((c) => c.name === "design_decisions")?.ok).toBe(true);
  });

  it("counts a void trial as played when the study is still in progress", () => {
    play("business", null);
    play("business", "cooperate");
    play("friend-sharing", "defect");
    expect(report().notes.find((n) => n.name === "study_in_progress")?.detail).toBe(
      "The study is in progress: 3 of the 6 trials the design plans for the analysed players, games and framings are not played yet; this is an interim look.",
    );
    expect(designCheck()?.detail).toBe(
      "2 decisions analysed and 1 trial played without a valid decision (void or forfeit) of the 6 the design plans, none beyond a cell's plan: the study is in progress.",
    );
  });
});
