import { describe, expect, it } from "vitest";
import { compareGroups, rankMeasure } from "../../src/analysis/comparison/compare-groups.js";
import type { ComparisonRow } from "../../src/analysis/comparison/comparison-rows.js";
import { capWidened, welchWidened } from "../../src/analysis/comparison/pair-differences.js";
import type { PooledModel, PooledReplicates } from "../../src/analysis/comparison/pooled-measures.js";
import { pooledFurther } from "../../src/analysis/comparison/pooled-rank-widenings.js";
import { prisonersDilemmaPooled, prisonersDilemmaStage } from "../support/prisoners-dilemma-pooled.js";

const _stage = prisonersDilemmaStage;
const pooled: PooledModel = prisonersDilemmaPooled;
const options = {
  framings: ["business", "friend-sharing"],
  actionsOf: () => ["cooperate", "defect"],
  cooperativeAction: () => "cooperate",
  bootstrap: 2000,
  seed: 3,
  pooled,
};

function counts(group: string, cooperate: Record<string, number>, n: number): ComparisonRow[] {
  return Object.entries(cooperate).flatMap(([framing, c]) => [
    { group, game: "pd", framing, action: "cooperate", count: c, unit: null, position: null },
    { group, game: "pd", framing, action: "defect", count: n - c, unit: null, position: null },
  ]);
}

describe("λ at its cap", () => {
  it("does not part a group that defected 10 times of 10 from a large group that played alike", () => {
    // "small" defected 5 of 5 under both framings: its fit is the cap, λ̂ = 20. "big" cooperated 30 and 24
    // of 300: σ(−0.3λ) = 54/600, λ̂ = ln(546/54)/0.3 = 7.712. A replicate of "small" draws each cell from
    // its add-½ smoothed rates (cooperation 0.5/6) and fits the cap when it draws no cooperation:
    // (11/12)^10 = 0.419 of them, far above 0.025, so "small" may sit at the cap. Before, the bias-corrected
    // interval of big − small was about [−20, −3.8] and ranked "small" alone first.
    const result = compareGroups(
      [
        ...counts("small", { business: 0, "friend-sharing": 0 }, 5),
        ...counts("big", { business: 30, "friend-sharing": 24 }, 300),
      ],
      options,
    );
    const pair = result.pairs.find((p) => p.measure === "lambda");
    expect(pair?.difference.estimate).toBeCloseTo(Math.log(546 / 54) / 0.3 - 20, 9);
    expect(pair?.difference.ci[0]).toBeLessThan(0);
    expect(pair?.difference.ci[1]).toBeGreaterThan(0);
    expect(pair?.p_value).toBeGreaterThan(0.05);
    const ranks = result.ranks.filter((r) => r.measure === "lambda");
    expect(ranks.map((r) => [r.group, r.rank.ci, r.tied_group])).toEqual([
      ["small", [1, 2], 1],
      ["big", [1, 2], 1],
    ]);
  });

  it("still parts a group that defected 60 times of 60 from one at λ = 0", () => {
    // 0 of 30 per framing: λ̂ = 20, and its replicates fit the cap in (30.5/31)^60 = 0.377 of them; a
    // replicate that draws 3 cooperations of 60 fits ln(57/3)/0.3 = 9.8, so the plain percentile interval
    // still lies far above the other group's λ̂ = 0 (16 of 30 cooperate, more than half).
    const result = compareGroups(
      [
        ...counts("always-defect", { business: 0, "friend-sharing": 0 }, 30),
        ...counts("half", { business: 16, "friend-sharing": 16 }, 30),
      ],
      options,
    );
    const pair = result.pairs.find((p) => p.measure === "lambda");
    expect(pair?.difference.estimate).toBe(20);
    expect(pair?.difference.ci[0]).toBeGreaterThan(5);
    expect(pair?.p_value).toBeLessThan(0.01);
    const ranks = result.ranks.filter((r) => r.measure === "lambda");
    expect(ranks.map((r) => [r.group, r.rank.ci])).toEqual([
      ["always-defect", [1, 1]],
      ["half", [2, 2]],
    ]);
  });

  it("takes the plain percentile interval and its tail where either group's share at the cap exceeds 2.5%", () => {
    // 1,001 replicates evenly from −10 to 10 about the estimate 10: bias-corrected [−0.5, 19.5] (mean 0,
    // bias −10), plain [−9.5, 9.5] with tail (2·501 + 1)/1002 capped at 1.
    const star = Float64Array.from({ length: 1001 }, (_, b) => -10 + 0.02 * b);
    const corrected = { estimate: 10, ci: [-0.5, 19.5] as [number, number], p_value: 0.9 };
    const widened = capWidened(corrected, star, 0.03, 0, 0.95);
    expect(widened.ci[0]).toBeCloseTo(-9.5, 9);
    expect(widened.ci[1]).toBe(19.5);
    expect(widened.p_value).toBe(1);
    expect(capWidened(corrected, star, 0.025, 0.02, 0.95)).toBe(corrected);
  });
});

describe("exploitability's ranks", () => {
  it("tie two groups whose pair's Welch interval holds 0", () => {
    // "few" played two sessions of 10 per framing, cooperating 0 and 2 times: rate 0.1, exploitability
    // 0.8·0.1 = 0.08 (a best-responding opponent defects and gains 4·rate over the equilibrium, of a range
    // of 5). "many" played ten sessions of 2 per framing, six of them cooperating once: rate 0.3,
    // exploitability 0.24. With two sessions a cell, Welch's ν is small and the pair's interval holds 0;
    // the ranks, which read the bootstrap alone, parted the two ([1, 1] and [2, 2]) before.
    const sessions = (group: string, list: [number, number][]): ComparisonRow[] =>
      ["business", "friend-sharing"].flatMap((framing) =>
        list.flatMap(([c, n], s) => [
          {
            group,
            game: "pd",
            framing,
            action: "cooperate",
            count: c,
            unit: `${framing}:${s}`,
            position: null,
          },
          {
            group,
            game: "pd",
            framing,
            action: "defect",
            count: n - c,
            unit: `${framing}:${s}`,
            position: null,
          },
        ]),
      );
    const result = compareGroups(
      [
        ...sessions("few", [
          [0, 10],
          [2, 10],
        ]),
        ...sessions(
          "many",
          Array.from({ length: 10 }, (_, s): [number, number] => [s < 6 ? 1 : 0, 2]),
        ),
      ],
      options,
    );
    const pair = result.pairs.find((p) => p.measure === "exploitability");
    expect(pair?.difference.estimate).toBeCloseTo(0.08 - 0.24, 9);
    expect(pair?.difference.ci[0]).toBeLessThan(0);
    expect(pair?.difference.ci[1]).toBeGreaterThan(0);
    expect(pair?.p_value).toBeGreaterThan(0.05);
    const ranks = result.ranks.filter((r) => r.measure === "exploitability");
    expect(ranks.map((r) => [r.group, r.rank.ci, r.tied_group])).toEqual([
      ["few", [1, 2], 1],
      ["many", [1, 2], 1],
    ]);
  });

  it("part two groups only where the pair's Welch interval leaves 0 out", () => {
    // 1,000 replicates: "a" alternating 0.28 / 0.32 about 0.30, "b" 0.26 / 0.24 about 0.25, in opposite
    // phase, so a − b alternates 0.02 / 0.08 (sd 0.03·√(1000/999)). Its percentile interval [0.02, 0.08]
    // leaves 0 out, and on it alone "b", the less exploitable, is ranked 1 and "a" 2. Each side of 3 units:
    // Satterthwaite's ν = (0.0004 + 0.0001)²/(0.0004²/2 + 0.0001²/2) = 2.94, halfway to 2: ν = 2.47,
    // t ≈ 3.7, and 0.05 ± 3.7·0.03 holds 0, as in the pair.
    const B = 1000;
    const alternating = (x: number, y: number) => Float64Array.from({ length: B }, (_, b) => (b % 2 ? y : x));
    const values: PooledReplicates[] = [
      { measure: "exploitability", point: 0.3, star: alternating(0.28, 0.32), bounds: [0, 1] },
      { measure: "exploitability", point: 0.25, star: alternating(0.26, 0.24), bounds: [0, 1] },
    ];
    const star = Float64Array.from({ length: B }, (_, b) => (b % 2 ? 0.08 : 0.02));
    const side = (v: PooledReplicates) => ({ variance: v.point === 0.3 ? 0.0004 : 0.0001, units: 3 });
    const pair = welchWidened(
      { estimate: 0.05, ci: [0.02, 0.08], p_value: 0.001 },
      star,
      side(values[0] as PooledReplicates),
      side(values[1] as PooledReplicates),
      false,
      0.95,
    );
    expect(pair.ci[0]).toBeLessThan(0);
    const groups = ["a", "b"];
    const alone = rankMeasure("exploitability", groups, values, 0.95, [0, 1]);
    expect(alone.map((r) => [r.group, r.rank.ci])).toEqual([
      ["b", [1, 1]],
      ["a", [2, 2]],
    ]);
    const further = pooledFurther("exploitability", values, [3, 3], () => false, 0.95);
    const widened = rankMeasure("exploitability", groups, values, 0.95, [0, 1], undefined, further);
    expect(widened.map((r) => [r.group, r.rank.ci, r.tied_group])).toEqual([
      ["b", [1, 2], 1],
      ["a", [1, 2], 1],
    ]);
  });
});
