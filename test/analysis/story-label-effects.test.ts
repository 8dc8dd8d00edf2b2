import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { type ProgressStep, withProgress } from "../../src/analysis/progress/analysis-progress.js";
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

  it("reports each (player, game) it bootstraps, so the CLI's progress line moves", () => {
    // Two players of one game: two units of B = 500 redraws. It used to report nothing: \`analyze
    // story-labels\` drew no line on a terminal through 12 s of bootstrap at 10,000 decisions.
    const steps: ProgressStep[] = [];
    withProgress(
      (step) => steps.push(step),
      () =>
        storyLabelEffects(
          ["a", "b"].flatMap((player) => [
            cell("business", 20, 100, player),
            cell("business+familiar", 60, 100, player),
            cell("friend", 40, 100, player),
            cell("friend+familiar", 80, 100, player),
          ]),
          { presentationOf, focalAction: { pd: "cooperate" }, bootstrap: 500, seed: 1 },
        ),
    );
    expect(steps.map((s) => `${s.stage}: ${s.unit} ${s.done} of ${s.total}`)).toEqual([
      "bootstrap (500 replicates): player and game 0 of 2",
      "bootstrap (500 replicates): player and game 1 of 2",
      "bootstrap (500 replicates): player and game 2 of 2",
    ]);
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

  it("names a crossover an interaction, with the simple effects, though neither main effect moves", () => {
    // P(C): business 0.3 / 0.7 (story-true / familiar), friend 0.7 / 0.3, n = 40 each: both main effects
    // are 0 and the interaction is (0.3 − 0.7) − (0.7 − 0.3) = −0.8.
    const result = storyLabelEffects(
      [cell("b", 12, 40), cell("b+familiar", 28, 40), cell("f", 28, 40), cell("f+familiar", 12, 40)],
      { presentationOf, focalAction: { pd: "cooperate" }, bootstrap: 1000, seed: 1 },
    );
    const [unit] = result.units;
    expect(unit?.story_effects[0]?.main.estimate).toBeCloseTo(0, 12);
    expect(unit?.label_effects[0]?.main.estimate).toBeCloseTo(0, 12);
    expect(unit?.interaction?.estimate).toBeCloseTo(-0.8, 12);
    expect(unit?.verdict).toBe("interaction");
    // The simple effects of the story: +0.4 under the story's own labels, −0.4 under the familiar ones.
    expect(unit?.story_effects[0]?.simple.map((s) => [s.at, Number(s.delta.estimate.toFixed(12))])).toEqual([
      ["story-true", 0.4],
      ["familiar", -0.4],
    ]);
    // Pooled rate 80/160 = ½, so each cell's variance is ¼/40 = 1/160. Interaction weights ±1 on four
    // cells: variance 4/160, z = 0.8/√(1/40) = 5.0596, p = 2 · 2.1002·10⁻⁷; Holm multiplies the smallest of the
    // three p-values by 3. The main effects (weights ±½) have z = 0, p = 1.
    const test = (name: string) => unit?.tests.find((t) => t.contrast.startsWith(name));
    expect(test("interaction")?.p_value).toBeCloseTo(4.2004e-7, 10);
    expect(test("interaction")?.p_holm).toBeCloseTo(3 * 4.2004e-7, 10);
    expect(test("story")?.p_value).toBe(1);
    expect(test("labels")?.p_holm).toBe(1);
    expect(result.verdict_rule).toMatch(/Holm-adjusted/);
  });

  it("holds two tests that each pass at 5% alone to the family-wise level", () => {
    // Story and labels each move P(C) by 0.15 at n = 100 per cell, pooled rate ½: every cell has variance
    // ¼/100, a main effect (weights ±½ on four cells) 4 · ¼ · ¼/100 = 1/400, so z = 0.15/0.05 = 3.0 and
    // p = 0.0027; Holm over the three tests: 3 · 0.0027 = 0.0081, both significant. At 0.1 (z = 2.0,
    // p = 0.0455) each would pass at 5% alone, but Holm's 3 · 0.0455 = 0.1365 does not.
    const strong = storyLabelEffects(
      [cell("b", 35, 100), cell("b+familiar", 50, 100), cell("f", 50, 100), cell("f+familiar", 65, 100)],
      { presentationOf, focalAction: { pd: "cooperate" }, bootstrap: 200, seed: 1 },
    ).units[0];
    expect(strong?.tests.map((t) => Number(t.p_value.toFixed(4)))).toEqual([0.0027, 0.0027, 1]);
    expect(strong?.verdict).toBe("both");
    const mild = storyLabelEffects(
      [cell("b", 40, 100), cell("b+familiar", 50, 100), cell("f", 50, 100), cell("f+familiar", 60, 100)],
      { presentationOf, focalAction: { pd: "cooperate" }, bootstrap: 200, seed: 1 },
    ).units[0];
    expect(mild?.tests.map((t) => Number(t.p_value.toFixed(4)))).toEqual([0.0455, 0.0455, 1]);
    expect(mild?.tests.map((t) => Number(t.p_holm.toFixed(4)))).toEqual([0.1365, 0.1365, 1]);
    expect(mild?.verdict).toBe("neither");
  });

  it("finds nothing when every decision chose the same action", () => {
    const result = storyLabelEffects(
      [cell("b", 20, 20), cell("b+familiar", 5, 5), cell("f", 20, 20), cell("f+familiar", 300, 300)],
      { presentationOf, focalAction: { pd: "cooperate" }, bootstrap: 200, seed: 1 },
    );
    expect(result.units[0]?.tests.map((t) => t.p_value)).toEqual([1, 1, 1]);
    expect(result.units[0]?.verdict).toBe("neither");
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

  it("draws a cell's decisions without a session, listed once with a weight, as that many sessions", () => {
    // Business: sessions of 2 C and of 1 C + 1 D, and 3 D without a session (one listed cluster of
    // weight 3): the same cell as the three listed one by one. Both give the same numbers.
    const business = (weighted: boolean): CountCell => ({
      player: "p",
      game: "pd",
      framing: "b",
      counts: { cooperate: 3, defect: 4 },
      clusters: weighted
        ? [{ cooperate: 2 }, { cooperate: 1, defect: 1 }, { defect: 1 }]
        : [{ cooperate: 2 }, { cooperate: 1, defect: 1 }, { defect: 1 }, { defect: 1 }, { defect: 1 }],
      ...(weighted ? { cluster_weights: [1, 1, 3] } : {}),
    });
    const others = [cell("b+familiar", 12, 20), cell("f", 9, 20), cell("f+familiar", 5, 20)];
    const run = (weighted: boolean) =>
      storyLabelEffects([business(weighted), ...others], {
        presentationOf,
        focalAction: { pd: "cooperate" },
        bootstrap: 500,
        seed: 2,
      }).units[0];
    const weighted = run(true);
    const listed = run(false);
    expect(weighted?.story_effects).toEqual(listed?.story_effects);
    expect(weighted?.interaction).toEqual(listed?.interaction);
    expect(weighted?.tests).toEqual(listed?.tests);
  });
});
