import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerStudy } from "../../src/play/studies.js";
import { storyLabelReport, storyLabelText } from "../../src/queries/story-label-query.js";
import type { MatchRecord } from "../../src/store/records.js";
import { tempDeps } from "../support/harness.js";
import { firstRoundDecision, oneShotMatch } from "../support/match-record.js";

// carl cooperates 0, 1, 2 and 3 times in 5 under business, business+familiar, friend-sharing and
// friend-sharing+familiar: the familiar words add 1 in 5 under either story, so the interaction is
// (3/5 − 2/5) − (1/5 − 0/5) = 0 — which floating point computes as −2.8e−17. The text prints it as
// +0.0 pp, as the other surfaces print a zero, never as "-0.0 pp".

let deps: ReturnType<typeof tempDeps>;
let studyId: string;
beforeAll(() => {
  deps = tempDeps();
  ({ study_id: studyId } = registerStudy(deps, {
    name: "story × labels",
    games: ["prisoners-dilemma"],
    framings: ["business", "friend-sharing"],
    labels: ["story-true", "familiar"],
    trials_per_cell: 5,
    seed: 3,
  }));
  let trial = 0;
  const cooperating: Record<string, number> = {
    business: 0,
    "business+familiar": 1,
    "friend-sharing": 2,
    "friend-sharing+familiar": 3,
  };
  for (const [framing, cooperate] of Object.entries(cooperating)) {
    for (let i = 0; i < 5; i++) {
      const id = `m${++trial}`;
      deps.store.insertMatch(
        oneShotMatch(id, {
          study_id: studyId,
          trial_index: trial,
          player: "carl",
          framing,
          status: "finished",
          next_round: 2,
        }),
      );
      const action = i < cooperate ? "cooperate" : "defect";
      deps.store.saveDecision(firstRoundDecision(id, action), deps.store.getMatch(id) as MatchRecord);
    }
  }
});
afterAll(() => deps.dispose());

describe("a story × labels effect of zero", () => {
  it("reads +0.0 pp, not -0.0 pp", () => {
    const report = storyLabelReport(deps, { study_id: studyId, bootstrap: 200 });
    const unit = report.units[0];
    expect(unit?.cells.map((c) => [c.story, c.labels, c.p_focal])).toEqual([
      ["business", "story-true", 0],
      ["business", "familiar", 0.2],
      ["friend-sharing", "story-true", 0.4],
      ["friend-sharing", "familiar", 0.6],
    ]);
    expect(Math.abs(unit?.interaction?.estimate as number)).toBeLessThan(1e-12);
    const text = storyLabelText(report);
    expect(text).toMatch(/ {2}interaction: \+0\.0 pp \[/);
    expect(text).not.toContain("-0.0 pp");
  });
});
