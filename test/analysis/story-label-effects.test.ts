import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { storyLabelEffects } from "../../src/analysis/story-labels/story-label-effects.js";
import { splitPresentationId } from "../../src/domain/label-sets.js";

const presentationOf = (framing: string) => {
  const { framing: story, labels } = splitPresentationId(framing);
  return { story, labels: labels ?? "story-true" };
};

/** A cell with `c` cooperations out of `n`. */
const cell = (framing: string, c: number, n: number, player = "p"): CountCell => ({
  player,
  game: "pd",
  framing,
  counts: { cooperate: c, defect: n - c },
});

describe("story × labels effects", () => {
  it("computes main effects and the interaction by hand on a 2 × 2 crossing", () => {
    // P(C): business 0.2 / 0.6 (story-true / familiar), friend 0.4 / 0.8.
    // story = ((0.4 − 0.2) + (0.8 − 0.6)) / 2 = 0.2; labels = ((0.6 − 0.2) + (0.8 − 0.4)) / 2 = 0.4;
    // interaction = (0.8 − 0.6) − (0.4 − 0.2) = 0.
    const result = storyLabelEffects(
      [
        cell("business", 200, 1000),
        cell("business+familiar", 600, 1000),
        cell("friend", 400, 1000),
        cell("friend+familiar", 800, 1000),
      ],
      { presentationOf, focalAction: { pd: "cooperate" }, bootstrap: 1000, seed: 3 },
    );
    expect(result.stories).toEqual(["business", "friend"]);
    expect(result.labels).toEqual(["story-true", "familiar"]);
    const [unit] = result.units;
    expect(unit?.story_effects[0]?.main.estimate).toBeCloseTo(0.2, 12);
    expect(unit?.label_effects[0]?.main.estimate).toBeCloseTo(0.4, 12);
    expect(unit?.interaction?.estimate).toBeCloseTo(0, 12);
    expect(unit?.story_effects[0]?.simple.map((s) => s.delta.estimate)).toEqual([
      expect.closeTo(0.2, 12),
      expect.closeTo(0.2, 12),
    ]);
    // At n = 1000 per cell the standard error of a main effect is about 0.015: both intervals exclude 0.
    expect(unit?.label_effects[0]?.main.ci[0]).toBeGreaterThan(0.3);
    expect(unit?.verdict).toBe("both");
    // JSD of (0.2, 0.8) and (0.6, 0.4), in nats: H(0.4, 0.6) − (H(0.2, 0.8) + H(0.6, 0.4)) / 2.
    const h = (p: number) => -(p * Math.log(p) + (1 - p) * Math.log(1 - p));
    expect(unit?.label_effects[0]?.simple[0]?.jsd).toBeCloseTo(h(0.4) - (h(0.2) + h(0.6)) / 2, 12);
  });

  it("finds the words alone when only the label set changes P(C)", () => {
    const result = storyLabelEffects(
      [cell("b", 20, 200), cell("b+familiar", 160, 200), cell("f", 20, 200), cell("f+familiar", 160, 200)],
      { presentationOf, focalAction: { pd: "cooperate" }, bootstrap: 2000, seed: 1 },
    );
    const [unit] = result.units;
    expect(unit?.story_effects[0]?.main.estimate).toBe(0);
    expect(unit?.label_effects[0]?.main.estimate).toBeCloseTo(0.7, 12);
    expect(unit?.verdict).toBe("labels");
  });

  it("skips a player missing a combination and refuses when none is complete", () => {
    const cells = [cell("b", 1, 2), cell("b+familiar", 1, 2), cell("f", 1, 2), cell("f+familiar", 1, 2)];
    const result = storyLabelEffects([...cells, cell("b", 1, 2, "q")], { presentationOf, bootstrap: 10 });
    expect(result.skipped).toEqual([
      { player: "q", game: "pd", missing: ["b × familiar", "f × story-true", "f × familiar"] },
    ]);
    expect(() =>
      storyLabelEffects([cell("b", 1, 2), cell("f+familiar", 1, 2)], { presentationOf, bootstrap: 10 }),
    ).toThrow(
      "No (player, game) has decisions in every combination of stories b, f and label sets story-true, familiar.",
    );
  });
});
