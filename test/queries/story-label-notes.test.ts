import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storyLabelNotes } from "../../src/analysis/story-labels/story-label-notes.js";
import { storyLabelReport, storyLabelText } from "../../src/queries/story-label-query.js";
import { tempDeps } from "../support/harness.js";
import { importCounts } from "../support/imported-counts.js";

// swayed cooperates 3 times in 30 under business and 27 times among friends: a story effect of
// 27/30 − 3/30 = +0.8. Its interval is a percentile interval of the redrawn cells; with one replicate it
// is the single point that replicate drew, which is not 0.8 (a draw of both cells exactly at their counts
// has probability about 0.24² ≈ 0.06, and seed 1 does not draw it): the estimate lies outside, and the
// result says why rather than nothing at all.

let deps: ReturnType<typeof tempDeps>;
beforeAll(async () => {
  deps = tempDeps();
  await importCounts(deps, { swayed: { business: 3, friend: 27 } });
});
afterAll(() => deps.dispose());

describe("story-labels' notes", () => {
  it("say why an interval leaves its estimate out with too few replicates", () => {
    const report = storyLabelReport(deps, { bootstrap: 1, seed: 1 });
    const main = report.units[0]?.story_effects[0]?.main;
    expect(main?.estimate).toBeCloseTo(0.8, 12);
    expect(main?.ci[0]).toBe(main?.ci[1]);
    expect(main?.ci[0]).not.toBe(main?.estimate);
    expect(report.notes.map((n) => n.name)).toEqual(["too_few_replicates"]);
    expect(report.notes[0]?.detail).toContain(
      "swayed/prisoners-dilemma story business → friend-sharing = 0.8",
    );
    expect(report.notes[0]?.detail).toContain("ask for 20 or more");
    expect(storyLabelText(report)).toContain("Note (too_few_replicates): swayed/prisoners-dilemma story");
  });

  it("are empty when every interval holds its estimate", () => {
    const report = storyLabelReport(deps, { bootstrap: 2000, seed: 1 });
    const main = report.units[0]?.story_effects[0]?.main;
    expect(main?.ci[0]).toBeLessThanOrEqual(main?.estimate as number);
    expect(main?.ci[1]).toBeGreaterThanOrEqual(main?.estimate as number);
    expect(report.notes).toEqual([]);
    expect(storyLabelText(report)).not.toContain("Note (");
  });

  it("name an estimate outside its interval at any number of replicates", () => {
    const outside = { label: "m/g story a → b", estimate: -0.4, ci: [-0.395, -0.205] as const };
    expect(storyLabelNotes([outside], 2).map((n) => n.name)).toEqual(["too_few_replicates"]);
    expect(storyLabelNotes([outside], 2000).map((n) => n.name)).toEqual(["estimate_outside_interval"]);
    expect(storyLabelNotes([{ ...outside, ci: [-0.5, -0.2] }], 2)).toEqual([]);
  });
});
