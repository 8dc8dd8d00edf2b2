import { describe, expect, it } from "vitest";
import { compareGroups } from "../../src/analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../../src/analysis/comparison/comparison-rows.js";
import { agreeingWithP, bootstrapDifference } from "../../src/analysis/comparison/pair-differences.js";
import type { PooledModel } from "../../src/analysis/comparison/pooled-measures.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import { prisonersDilemmaPooled } from "../support/prisoners-dilemma-pooled.js";

describe("a pair's interval and its p-value agree", () => {
  it("widens the shift's interval to the normal interval whose tail floors p", () => {
    // 1,000 replicates alternating 0.05 and 0.25 about the estimate 0.15: the bias-corrected percentile
    // interval is [0.05, 0.25], which leaves 0 out; their sd is 0.1·√(1000/999) = 0.10005, so the normal
    // tail is 2·Φ(−0.15/0.10005) = 2·Φ(−1.4993) = 0.1338 > 0.05. The interval takes
    // 0.15 ± 1.95996·0.10005 = [−0.0461, 0.3461], which holds 0.
    const replicates = Float64Array.from({ length: 1000 }, (_, b) => (b % 2 === 0 ? 0.05 : 0.25));
    const { ci, p_value } = bootstrapDifference(0.15, replicates, 0.95, { normalFloor: true });
    expect(p_value).toBeCloseTo(0.1338, 3);
    expect(ci[0]).toBeCloseTo(-0.0461, 4);
    expect(ci[1]).toBeCloseTo(0.3461, 4);
    // R takes no normal floor and keeps its percentile interval (and its bootstrap tail 1/1001).
    const R = bootstrapDifference(0.15, replicates, 0.95);
    expect(R.ci[0]).toBeCloseTo(0.05, 12);
    expect(R.ci[1]).toBeCloseTo(0.25, 12);
    expect(R.p_value).toBeCloseTo(1 / 1001, 9);
  });

  it("extends an interval that leaves 0 out to 0 when p > 1 − confidence, and leaves the rest alone", () => {
    // 27/501 = 0.0539: the bootstrap tail's +1 beside an end a fraction of a replicate's step above 0.
    const lattice = { estimate: 0.2, ci: [0.001, 0.4] as [number, number], p_value: 27 / 501 };
    expect(agreeingWithP(lattice, 0.95)).toEqual({ estimate: 0.2, ci: [0, 0.4], p_value: 27 / 501 });
    const below = { estimate: -0.2, ci: [-0.4, -0.001] as [number, number], p_value: 0.06 };
    expect(agreeingWithP(below, 0.95).ci).toEqual([-0.4, 0]);
    const significant = { estimate: 0.2, ci: [0.001, 0.4] as [number, number], p_value: 0.05 };
    expect(agreeingWithP(significant, 0.95)).toBe(significant);
    const held = { estimate: 0.2, ci: [-0.1, 0.4] as [number, number], p_value: 0.3 };
    expect(agreeingWithP(held, 0.95)).toBe(held);
  });

  it("on records of every shape, no pair's interval leaves 0 out with p > .05 or holds 0 with p ≤ .05", () => {
    // A prisoner's dilemma (Δu_G = −0.3) for λ and exploitability; groups of 1–300 decisions per cell at
    // rates drawn anew for every record, some with every decision one action, some paired by schedule
    // position, some in sessions.
    const pooled: PooledModel = prisonersDilemmaPooled;
    const rng = createBootstrapRng("pair-agreement");
    const sizes = [1, 2, 3, 5, 10, 30, 300];
    const rates = [0, 0.03, 0.1, 0.3, 0.5, 0.7, 1];
    const pick = <T>(list: readonly T[]) => list[Math.floor(rng.next() * list.length)] as T;
    let pairs = 0;
    const disagreeing: string[] = [];
    for (let record = 0; record < 60; record++) {
      const rows: ComparisonRow[] = [];
      const groups = 2 + Math.floor(rng.next() * 3);
      const paired = rng.next() < 0.25;
      const n = pick(sizes);
      for (let g = 0; g < groups; g++) {
        const size = paired ? n : pick(sizes);
        const sessions = !paired && rng.next() < 0.3 ? 1 + Math.floor(rng.next() * 4) : 0;
        for (const framing of ["business", "friend-sharing"]) {
          const rate = pick(rates);
          for (let t = 0; t < size; t++) {
            const action = rng.next() < rate ? "cooperate" : "defect";
            const position = paired ? `s#${framing}-${t}` : null;
            const unit = paired
              ? `${g}:${framing}:${t}`
              : sessions > 0
                ? `${g}:${framing}:${Math.floor(t / sessions)}`
                : null;
            rows.push({ group: `g${g}`, game: "pd", framing, action, count: 1, unit, position });
          }
        }
      }
      const result = compareGroups(rows, {
        framings: ["business", "friend-sharing"],
        actionsOf: () => ["cooperate", "defect"],
        cooperativeAction: () => "cooperate",
        pooled,
        bootstrap: 200,
        seed: record + 1,
      });
      for (const p of result.pairs) {
        pairs++;
        const [lo, hi] = p.difference.ci;
        const holds = lo <= 0 && 0 <= hi;
        if (holds === p.p_value <= 0.05)
          disagreeing.push(`record ${record} ${p.measure} ${p.a}−${p.b}: [${lo}, ${hi}] p ${p.p_value}`);
      }
    }
    expect(pairs).toBeGreaterThan(400);
    expect(disagreeing).toEqual([]);
  });
});
