import { describe, expect, it } from "vitest";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { DILEMMA_COOPERATIVE_ACTION, LORE_HEYDARI_CSV, loadLoreHeydariCells } from "./lore-heydari-cells.js";

const cells = loadLoreHeydariCells();

describe("Lorè & Heydari (2024) reference counts", () => {
  it(`reproduces hand-computed R and shifts from ${LORE_HEYDARI_CSV}`, () => {
    expect(cells).not.toBeNull();
    const options = {
      cooperativeAction: DILEMMA_COOPERATIVE_ACTION,
      bootstrap: 2000,
      expected: { cells: 24, decisions: 7200, over: [] },
    };
    const raw = robustnessAnalysis(cells ?? [], options);
    const cons = robustnessAnalysis(cells ?? [], { ...options, attenuation: 0.7 });
    expect(raw.framings).toEqual(["business", "friend-sharing"]);

    // gpt-4, prisoners-dilemma: business 0/300 cooperate, friend-sharing 296/300.
    // Shift business → friend-sharing = 296/300 − 0/300 = 0.986667; with a = 0.7: 0.690667.
    // JSD: p = (0, 1), q = (296, 4)/300, m = (148, 152)/300.
    //   H(m) = −(148/300) ln(148/300) − (152/300) ln(152/300) = 0.6930583
    //   H(p) = 0, H(q) = −(296/300) ln(296/300) − (4/300) ln(4/300) = 0.0708106
    //   JSD = 0.6930583 − (0 + 0.0708106)/2 = 0.6576530; R = 1 − JSD/ln 2 = 0.0512073;
    //   R_cons = 1 − 0.7·(1 − R) = 0.3358451.
    const pick = (result: typeof raw) =>
      result.games.find((g) => g.player === "gpt-4" && g.game === "prisoners-dilemma");
    expect(pick(raw)?.shift?.estimate).toBeCloseTo(296 / 300, 14);
    expect(pick(cons)?.shift?.estimate).toBeCloseTo(0.7 * (296 / 300), 14);
    expect(pick(raw)?.R.estimate).toBeCloseTo(0.0512073, 6);
    expect(pick(cons)?.R.estimate).toBeCloseTo(0.3358451, 6);
    expect(pick(raw)?.pairwise_jsd[0]?.jsd).toBeCloseTo(0.657653, 6);

    // gpt-4, harmony: 300/300 cooperate under both framings → R = 1 and Δ = 0. Every permuted split is
    // 300/300 too, so invariance has p = 1 and the R interval reaches 1; the cells are redrawn from
    // 300.5/301 (an action never chosen), so the intervals are no longer single points.
    const harmony = cons.games.find((g) => g.player === "gpt-4" && g.game === "harmony");
    expect(harmony?.R.estimate).toBe(1);
    expect(harmony?.R.ci[1]).toBe(1);
    expect(harmony?.invariance.p_value).toBe(1);
    expect(harmony?.shift?.ci[0]).toBeLessThan(0);
    expect(harmony?.shift?.ci[1]).toBeGreaterThan(0);
    // gpt-4, PD: 0/300 vs 296/300 rejects invariance at the smallest p the permutations can give.
    expect(pick(raw)?.invariance.p_value).toBe(1 / 2001);

    expect(cons.games).toHaveLength(12);
    expect(cons.players.map((p) => p.player)).toEqual(["gpt-3.5-turbo-16k", "gpt-4", "llama-2"]);
    expect(cons.checks.map((c) => [c.name, c.ok])).toEqual([
      ["r_in_unit_interval", true],
      ["shifts_in_range", true],
      ["ci_ordered", true],
      ["ci_contains_estimate", true],
      ["aggregates_are_means", true],
      ["design_cells", true],
      ["design_decisions", true],
    ]);
    // Where an interval sits is information: gpt-4/harmony is 300/300 in both framings, so its R interval
    // reaches 1 by test inversion — a note, not a failed check.
    expect(cons.notes.map((n) => n.name)).toEqual(["interval_at_boundary"]);
    expect(cons.notes[0]?.detail).toMatch(
      /R of gpt-4\/harmony: upper end 1 by test inversion \(invariance p = 1\)/,
    );
  });
});
