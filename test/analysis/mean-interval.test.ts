// The player and pooled R interval from the games' intervals (MOVER), the correlation factor κ from the
// joint replicates, and what a live near-deterministic agent's player interval now holds.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { correlationFactor, meanInterval } from "../../src/analysis/robustness/mean-interval.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";

describe("meanInterval", () => {
  it("adds the games' distances to their ends in quadrature (by hand)", () => {
    // Mean 0.95; below: √(0.1² + 0.06²)/2 = √0.0136/2 = 0.058310; above: √(0.1² + 0²)/2 = 0.05.
    const [lo, hi] = meanInterval(
      [
        { estimate: 0.9, ci: [0.8, 1] },
        { estimate: 1, ci: [0.94, 1] },
      ],
      1,
    );
    expect(lo).toBeCloseTo(0.95 - Math.sqrt(0.0136) / 2, 12);
    expect(hi).toBe(1);
    // κ = 2 (perfectly correlated games): the distances add linearly, 0.95 − √(2·0.0136)/2.
    expect(meanInterval([{ estimate: 0.9, ci: [0.8, 0.95] }], 1)).toEqual([0.8, 0.95]);
    expect(
      meanInterval(
        [
          { estimate: 0.9, ci: [0.8, 1] },
          { estimate: 1, ci: [0.94, 1] },
        ],
        2,
      )[0],
    ).toBeCloseTo(0.95 - Math.sqrt(0.0272) / 2, 12);
  });

  it("lets a game whose upper end is the bound 1 stand in with its larger distance", () => {
    // Game a's own test did not reject (upper end 1): its distance above, 0.02, was cut off by the bound,
    // so its distance below, 0.08, stands in. Upper: 0.94 + √(0.08² + 0.05²)/2 = 0.94 + √0.0089/2.
    // Without the stand-in it would be 0.94 + √(0.02² + 0.05²)/2 = 0.96693, too tight near R = 1.
    const [lo, hi] = meanInterval(
      [
        { estimate: 0.98, ci: [0.9, 1] },
        { estimate: 0.9, ci: [0.8, 0.95] },
      ],
      1,
    );
    expect(hi).toBeCloseTo(0.94 + Math.sqrt(0.0089) / 2, 12);
    expect(lo).toBeCloseTo(0.94 - Math.sqrt(0.0164) / 2, 12);
  });

  it("stays inside [0, 1]", () => {
    expect(
      meanInterval(
        [
          { estimate: 0.1, ci: [0, 0.9] },
          { estimate: 0.05, ci: [0, 0.95] },
        ],
        4,
      ),
    ).toEqual([0, 1]);
  });
});

describe("correlationFactor", () => {
  it("is 2 for two games that move together, 0 for two that cancel, 1 where nothing varies", () => {
    const a = Float64Array.from([0.9, 1, 0.8, 1]);
    const mean = (x: Float64Array, y: Float64Array): Float64Array =>
      x.map((v, r) => (v + (y[r] as number)) / 2);
    expect(correlationFactor(mean(a, a), [a, a])).toBeCloseTo(2, 12);
    const b = a.map((v) => 1.8 - v); // b = 1.8 − a: the sum never moves
    expect(correlationFactor(mean(a, b), [a, b])).toBeCloseTo(0, 12);
    const flat = Float64Array.from([1, 1, 1, 1]);
    expect(correlationFactor(flat, [flat, flat])).toBe(1);
  });
});

describe("player and pooled R of a live near-deterministic agent", () => {
  // 20 sessions deciding once in every cell of 4 games × 2 framings; in game g0 framing b one session
  // defected (19 of 20), everything else cooperated.
  const cells: CountCell[] = ["g0", "g1", "g2", "g3"].flatMap((game) =>
    ["a", "b"].map((framing) => {
      const defects = game === "g0" && framing === "b" ? 1 : 0;
      const clusters = Array.from(
        { length: 20 },
        (_, s): Record<string, number> => (s < defects ? { defect: 1 } : { cooperate: 1 }),
      );
      return {
        player: "m",
        game,
        framing,
        counts: (defects > 0 ? { cooperate: 20 - defects, defect: defects } : { cooperate: 20 }) as Record<
          string,
          number
        >,
        clusters,
        cluster_ids: Array.from({ length: 20 }, (_, s) => `s${s}`),
      };
    }),
  );
  const result = robustnessAnalysis(cells, {
    cooperativeAction: { g0: "cooperate", g1: "cooperate", g2: "cooperate", g3: "cooperate" },
    actions: Object.fromEntries(["g0", "g1", "g2", "g3"].map((g) => [g, ["cooperate", "defect"]])),
    bootstrap: 1000,
    seed: 3,
  });

  it("is the games' intervals combined, reaching 1 where the test does not reject", () => {
    const player = result.players[0];
    expect(player?.invariance.p_value).toBeGreaterThan(0.05);
    expect(player?.R.ci[1]).toBe(1);
    // The games' own lower ends: g0 (19 vs 20 of 20) and three all-one games, each the test inversion's.
    const games = result.games.map((g) => ({ estimate: g.R.estimate, ci: g.R.ci }));
    const below = games.reduce((s, g) => s + (g.estimate - g.ci[0]) ** 2, 0);
    const mean = games.reduce((s, g) => s + g.estimate, 0) / 4;
    const lower = player?.R.ci[0] as number;
    // κ comes from the replicates (the games' cells are drawn jointly by session): near 1 here, as every
    // all-one cell is redrawn from its smoothed rate on its own; the end is √κ times the κ = 1 one.
    const kappa = ((mean - lower) / (Math.sqrt(below) / 4)) ** 2;
    expect(kappa).toBeGreaterThan(0.7);
    expect(kappa).toBeLessThan(1.3);
    // Wide enough to hold a true R of .995 (.99 vs 1.0 in every game).
    expect(lower).toBeLessThan(0.99);
    expect(result.pooled.R.ci).toEqual(player?.R.ci);
  });
});
