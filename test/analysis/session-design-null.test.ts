// The studentized session-design null: every null record's statistic is scaled by v(ρ̂)/v(ρ̂*), its ρ̂*
// the same ANOVA estimate as the record's, computed from the null record's own sessions.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { permutationFill } from "../../src/analysis/invariance/invariance-permutation.js";
import {
  drawSessionDesignNull,
  intraSessionCorrelation,
} from "../../src/analysis/invariance/session-design-null.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
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

describe("the session-design null where every session of a framing agrees", () => {
  /** Two framings of two sessions each, lengths 5, 5 and 4, 6; `business` and `friend` the sessions' actions. */
  const unanimous = (business: readonly string[], friend: readonly string[]): CountCell[] => {
    const framing = (name: string, lengths: readonly number[], actions: readonly string[]): CountCell => {
      const clusters = lengths.map((m, s) => ({ [actions[s] as string]: m }));
      const counts: Record<string, number> = {};
      for (const c of clusters) for (const [a, x] of Object.entries(c)) counts[a] = (counts[a] ?? 0) + x;
      return { player: "m", game: "g", framing: name, counts, clusters };
    };
    return [framing("a", [5, 5], business), framing("b", [4, 6], friend)];
  };

  it("estimates ρ about the pooled rate: sessions that each chose one action give ρ̂ = 1 (clipped to .999), not 0", () => {
    // Pooled rate ½; each session m decisions all one action: between = Σ m·2·(½)² = 10, within = 0.
    const cells = plan(unanimous(["cooperate", "cooperate"], ["defect", "defect"])).cells;
    expect(intraSessionCorrelation(cells)).toBe(0.999);
  });

  it("gives the split 5 + 5 all C against 4 + 6 all D its probability under one coin per session, 1/8", () => {
    const result = robustnessAnalysis(unanimous(["cooperate", "cooperate"], ["defect", "defect"]), {
      cooperativeAction: { g: "cooperate" },
      bootstrap: 2000,
      seed: 1,
    });
    // Under the null each session is one coin: the framings split all-C / all-D (or the reverse) with
    // probability 2·(½)⁴ = 1/8; the null's Monte Carlo error at B = 2,000 is ±0.015 (two standard errors).
    const p = result.games[0]?.invariance.p_value as number;
    expect(p).toBeGreaterThan(0.105);
    expect(p).toBeLessThan(0.145);
    expect(result.games[0]?.R.ci[1]).toBe(1);
  });

  it("rejects none of the 16 equally likely records of one coin per session at 5% (2 of 16 before)", () => {
    const sides = ["cooperate", "defect"];
    let rejected = 0;
    for (let bits = 0; bits < 16; bits++) {
      const coin = (i: number): string => sides[(bits >> (3 - i)) & 1] as string;
      const result = robustnessAnalysis(unanimous([coin(0), coin(1)], [coin(2), coin(3)]), {
        cooperativeAction: { g: "cooperate" },
        actions: { g: sides },
        bootstrap: 500,
        seed: 1,
      });
      if ((result.games[0]?.invariance.p_value as number) <= 0.05) rejected++;
      expect(result.games[0]?.R.ci[1]).toBe(1);
    }
    expect(rejected).toBe(0);
  });
});
