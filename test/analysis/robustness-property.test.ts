import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { type RobustnessResult, robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";

/** Every reported estimate with its interval, labelled by kind. */
function intervals(
  result: RobustnessResult,
): { kind: "R" | "shift"; estimate: number; ci: readonly [number, number] }[] {
  const rows = [...result.games, ...result.players, result.pooled];
  return rows.flatMap((row) => [
    { kind: "R" as const, ...row.R },
    ...("R2" in row ? [{ kind: "R" as const, ...row.R2 }] : []),
    ...(row.shift ? [{ kind: "shift" as const, estimate: row.shift.estimate, ci: row.shift.ci }] : []),
  ]);
}

/** 1–2 players × 1–3 games × 2–3 framings of a two-action game, 1–400 decisions per cell. */
const studies = fc
  .record({
    players: fc.integer({ min: 1, max: 2 }),
    games: fc.integer({ min: 1, max: 3 }),
    framings: fc.integer({ min: 2, max: 3 }),
    counts: fc.array(fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 200 })), {
      minLength: 18,
      maxLength: 18,
    }),
    attenuation: fc.double({ min: 0.05, max: 1, noNaN: true }),
    seed: fc.integer({ min: 0, max: 1_000_000 }),
  })
  .map(({ players, games, framings, counts, attenuation, seed }) => {
    const cells: CountCell[] = [];
    let i = 0;
    for (let p = 0; p < players; p++) {
      for (let g = 0; g < games; g++) {
        for (let f = 0; f < framings; f++) {
          const [cooperate, defect] = counts[i++] as [number, number];
          // A cell needs at least one decision.
          cells.push({
            player: `p${p}`,
            game: `g${g}`,
            framing: `f${f}`,
            counts: { cooperate, defect: defect + (cooperate + defect === 0 ? 1 : 0) },
          });
        }
      }
    }
    // Game g2 has no cooperative action, so shifts are sometimes absent.
    return { cells, attenuation, seed, cooperativeAction: { g0: "cooperate", g1: "defect", g2: null } };
  });

describe("robustnessAnalysis properties", () => {
  it("keeps R in [0, 1] and shifts in [−1, 1], orders every interval, and is reproducible by seed", () => {
    fc.assert(
      fc.property(studies, ({ cells, attenuation, seed, cooperativeAction }) => {
        const options = { attenuation, seed, cooperativeAction, bootstrap: 200 };
        const result = robustnessAnalysis(cells, options);
        for (const { kind, estimate, ci } of intervals(result)) {
          const [lo, hi] = kind === "R" ? [0, 1] : [-1, 1];
          for (const x of [estimate, ...ci]) {
            expect(x).toBeGreaterThanOrEqual(lo);
            expect(x).toBeLessThanOrEqual(hi);
          }
          expect(ci[0]).toBeLessThanOrEqual(ci[1]);
        }
        const names = ["r_in_unit_interval", "shifts_in_range", "ci_ordered", "aggregates_are_means"];
        expect(result.checks.filter((c) => names.includes(c.name)).every((c) => c.ok)).toBe(true);
        expect(robustnessAnalysis(cells, options)).toEqual(result);
      }),
      { seed: 20_260_101, numRuns: 80 },
    );
  });

  it("gives different intervals for different seeds when the data can vary", () => {
    fc.assert(
      fc.property(studies, ({ cells, attenuation, seed, cooperativeAction }) => {
        // Resampling changes something only in cells with both actions, and with few decisions the statistics
        // take so few values that two seeds can land on the same percentiles by chance; so require two cells
        // with at least 20 of each action.
        fc.pre(
          cells.filter((c) => (c.counts.cooperate ?? 0) >= 20 && (c.counts.defect ?? 0) >= 20).length >= 2,
        );
        const options = { attenuation, cooperativeAction, bootstrap: 200 };
        const one = intervals(robustnessAnalysis(cells, { ...options, seed })).map((x) => x.ci);
        const other = intervals(robustnessAnalysis(cells, { ...options, seed: seed + 1 })).map((x) => x.ci);
        expect(other).not.toEqual(one);
      }),
      { seed: 20_260_102, numRuns: 80 },
    );
  });
});
