// The studentized session-design null: every null record's statistic is scaled by v(ρ̂)/v(ρ̂*), its ρ̂*
// the same ANOVA estimate as the record's, computed from the null record's own sessions.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { permutationFill } from "../../src/analysis/invariance/invariance-permutation.js";
import {
  drawSessionDesignNull,
  intraSessionCorrelation,
} from "../../src/analysis/invariance/session-design-null.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { StatisticsEvaluator } from "../../src/analysis/robustness/robustness-statistics.js";
import { BufferedUniforms, createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import { jensenShannon } from "../../src/domain/divergence.js";

/** Framing a: `singles` one-decision sessions (xa cooperate); framing b: sessions of 4 (their cooperations). */
function recordCells(singles: number, xa: number, longSessions: readonly number[]): CountCell[] {
  const cells: CountCell[] = [
    {
      player: "m",
      game: "g",
      framing: "a",
      counts: { cooperate: xa, defect: singles - xa },
      clusters: Array.from(
        { length: singles },
        (_, s): Record<string, number> => (s < xa ? { cooperate: 1 } : { defect: 1 }),
      ),
    },
    {
      player: "m",
      game: "g",
      framing: "b",
      counts: {
        cooperate: longSessions.reduce((s, x) => s + x, 0),
        defect: longSessions.reduce((s, x) => s + 4 - x, 0),
      },
      clusters: longSessions.map((x) => ({ cooperate: x, defect: 4 - x })),
    },
  ];
  return cells;
}
const plan = (cells: readonly CountCell[]) =>
  planRobustness(cells, undefined, { g: "cooperate" }, { g: ["cooperate", "defect"] });
const record = (singles: number, xa: number, longSessions: readonly number[]) =>
  plan(recordCells(singles, xa, longSessions)).cells;

describe("drawSessionDesignNull", () => {
  it("scales each null record by v(ρ̂)/v(ρ̂*), ρ̂* recomputed from that record's sessions", () => {
    // Framing a: 4 sessions of 1 decision (m̃ 1, n 4); framing b: 1 session of 4 (m̃ 4, n 4), so
    // v(ρ) = 1/4 + (1 + 3ρ)/4, and a null record's sessions are known from its counts alone (a's are
    // singles, b's one session holds all of b's decisions).
    const cells = record(4, 1, [4]);
    const rho = intraSessionCorrelation(cells);
    const v = (r: number): number => 1 / 4 + (1 + 3 * r) / 4;
    const drawn = drawSessionDesignNull(cells, 200, createBootstrapRng("studentized"));
    const seen = new Set<string>();
    for (let r = 0; r < 200; r++) {
      const xa = drawn.counts[0]?.[2 * r] as number;
      const xb = drawn.counts[1]?.[2 * r] as number;
      const again = intraSessionCorrelation(record(4, xa, [xb]));
      expect(drawn.scale[r]).toBeCloseTo(v(rho) / v(again), 12);
      seen.add(`${xa}/${xb}`);
    }
    // The check ran over more than one kind of null record.
    expect(seen.size).toBeGreaterThan(3);
  });

  it("is what the invariance test compares: R* = 1 − (1 − R(null counts))·scale in the permutation rows", () => {
    const planned = plan(recordCells(10, 3, [1, 3, 4, 2]));
    const B = 50;
    const evaluator = new StatisticsEvaluator(planned, 1);
    const out = new Float64Array(evaluator.layout.count * B);
    evaluator.evaluate(permutationFill(planned, createBootstrapRng("rows")), B, out);
    // The same draws, by the same stream, outside the evaluator.
    const drawn = drawSessionDesignNull(planned.cells, B, new BufferedUniforms(createBootstrapRng("rows")));
    const row = evaluator.layout.unitR[0] as number;
    let scaled = 0;
    for (let r = 0; r < B; r++) {
      const rate = (f: number): number =>
        (drawn.counts[f]?.[2 * r] as number) / (planned.cells[f]?.n as number);
      const jsd = jensenShannon([rate(0), 1 - rate(0)], [rate(1), 1 - rate(1)]);
      expect(out[row * B + r]).toBeCloseTo(1 - (jsd / Math.LN2) * (drawn.scale[r] as number), 12);
      if (drawn.scale[r] !== 1 && jsd > 0) scaled++;
    }
    expect(scaled).toBeGreaterThan(10);
  });
});
