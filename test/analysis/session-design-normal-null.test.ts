// The normal approximation of the session-design null: each session's moments of (counts, Σx²/m) in
// closed form, checked against enumeration, and the exact draws kept below the many-sessions threshold.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { permutationFill } from "../../src/analysis/invariance/invariance-permutation.js";
import {
  drawNormalSessionDesign,
  sessionMoments,
} from "../../src/analysis/invariance/session-design-normal-null.js";
import { drawSessionDesignNull } from "../../src/analysis/invariance/session-design-null.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";

/**
 * One session's (x_0..x_{k−2}, q) moments by enumerating every sequence of its m decisions as a Pólya urn
 * (the Dirichlet-multinomial: decision t picks a with probability (α_a + a's earlier picks)/(α₀ + t),
 * α = π(1 − ρ)/ρ; with ρ = 0, with probability π_a).
 */
function enumerated(m: number, pooled: readonly number[], rho: number) {
  const k = pooled.length;
  const outcomes: { p: number; v: number[] }[] = [];
  const walk = (t: number, counts: number[], p: number): void => {
    if (t === m) {
      const q = counts.reduce((s, x) => s + x * x, 0) / m;
      outcomes.push({ p, v: [...counts.slice(0, k - 1), q] });
      return;
    }
    pooled.forEach((pa, a) => {
      const step = rho === 0 ? pa : (pa * (1 - rho) + (counts[a] as number) * rho) / (1 - rho + t * rho);
      if (step === 0) return;
      counts[a] = (counts[a] as number) + 1;
      walk(t + 1, counts, p * step);
      counts[a] = (counts[a] as number) - 1;
    });
  };
  walk(
    0,
    pooled.map(() => 0),
    1,
  );
  const mean = Array.from({ length: k }, (_, i) =>
    outcomes.reduce((s, o) => s + o.p * (o.v[i] as number), 0),
  );
  const covariance = Array.from({ length: k * k }, (_, ij) => {
    const i = Math.floor(ij / k);
    const j = ij % k;
    return outcomes.reduce(
      (s, o) =>
        s + o.p * ((o.v[i] as number) - (mean[i] as number)) * ((o.v[j] as number) - (mean[j] as number)),
      0,
    );
  });
  return { mean, covariance };
}

describe("sessionMoments", () => {
  it("a session of 2 at p = ½, ρ = ⅓ (x uniform on 0, 1, 2): E x 1, Var x ⅔, E q 5/3, Var q 2/9, Cov 0", () => {
    // α₀ = (1 − ρ)/ρ = 2, so the propensity is Beta(1, 1) and x ~ BetaBinomial(2, 1, 1): ⅓ each.
    // q = (x² + (2 − x)²)/2 is 2, 1, 2: E q = 5/3, E q² = 3, Var q = 3 − 25/9 = 2/9; E[xq] = 5/3 = E x·E q.
    const { mean, covariance } = sessionMoments(2, [0.5, 0.5], 1 / 3);
    expect(mean[0]).toBeCloseTo(1, 12);
    expect(mean[1]).toBeCloseTo(5 / 3, 12);
    expect(covariance[0]).toBeCloseTo(2 / 3, 12);
    expect(covariance[3]).toBeCloseTo(2 / 9, 12);
    expect(covariance[1]).toBeCloseTo(0, 12);
    expect(covariance[2]).toBeCloseTo(0, 12);
  });

  it("a session of 2 of three actions at ρ = 0 (multinomial ½, ¼, ¼)", () => {
    // x = (x₀, x₁, x₂): (2,0,0) ¼, (0,2,0) and (0,0,2) 1/16 each, (1,1,0) and (1,0,1) ¼ each, (0,1,1) ⅛.
    // q = Σx²/2 is 2 for a repeated action (¼ + 1/16 + 1/16 = ⅜), else 1: E q = 11/8.
    // E x₀ = 1, Var x₀ = 2·½·½ = ½, Cov(x₀, x₁) = −2·½·¼ = −¼; E[x₀ q] = 2·2·¼ + 1·1·½ = 3/2, Cov = 3/2 − 11/8 = ⅛.
    const { mean, covariance } = sessionMoments(2, [0.5, 0.25, 0.25], 0);
    expect(mean[0]).toBeCloseTo(1, 12);
    expect(mean[1]).toBeCloseTo(0.5, 12);
    expect(mean[2]).toBeCloseTo(11 / 8, 12);
    expect(covariance[0]).toBeCloseTo(0.5, 12);
    expect(covariance[1]).toBeCloseTo(-0.25, 12);
    expect(covariance[2]).toBeCloseTo(1 / 8, 12);
    // Var q: q − 1 is Bernoulli(⅜).
    expect(covariance[8]).toBeCloseTo((3 / 8) * (5 / 8), 12);
  });

  it.each([
    [1, [0.3, 0.7], 0.4],
    [3, [0.4, 0.6], 0.3],
    [5, [0.1, 0.9], 0.8],
    [4, [0.5, 0.3, 0.2], 0],
    [4, [0.5, 0.3, 0.2], 0.25],
    [3, [0.1, 0.2, 0.3, 0.4], 0.6],
  ])("a session of %i at %j, ρ %f: every mean and covariance as enumeration gives them", (m, pooled, rho) => {
    const closed = sessionMoments(m, pooled, rho);
    const exact = enumerated(m, pooled, rho);
    exact.mean.forEach((x, i) => {
      expect(closed.mean[i]).toBeCloseTo(x, 10);
    });
    exact.covariance.forEach((x, i) => {
      expect(closed.covariance[i]).toBeCloseTo(x, 10);
    });
  });
});

describe("drawNormalSessionDesign", () => {
  it("draws a framing's sums with its sessions' summed moments (100 sessions of 2 at p = ½, ρ = ⅓)", () => {
    // Count: mean 100·1, variance 100·⅔; Q: mean 100·5/3, variance 100·2/9; uncorrelated.
    const B = 20_000;
    const out = [new Int32Array(B * 2)];
    const squares = [new Float64Array(B)];
    const lengths = [Array.from({ length: 100 }, () => 2)];
    drawNormalSessionDesign(lengths, [0.5, 0.5], 1 / 3, B, createBootstrapRng("normal"), out, squares);
    const x = Array.from({ length: B }, (_, r) => out[0]?.[2 * r] as number);
    const q = Array.from(squares[0] as Float64Array);
    const mean = (v: number[]) => v.reduce((s, y) => s + y, 0) / v.length;
    const variance = (v: number[]) => {
      const centre = mean(v);
      return mean(v.map((y) => (y - centre) ** 2));
    };
    // Within 5 standard errors of the means, 5% of the variances.
    expect(Math.abs(mean(x) - 100)).toBeLessThan(5 * Math.sqrt(200 / 3 / B));
    expect(Math.abs(mean(q) - 500 / 3)).toBeLessThan(5 * Math.sqrt(200 / 9 / B));
    expect(variance(x) / (200 / 3)).toBeCloseTo(1, 1);
    expect(variance(q) / (200 / 9)).toBeCloseTo(1, 1);
    // Every replicate's two counts make the framing's 200 decisions.
    const totals = new Set(x.map((c, r) => c + (out[0]?.[2 * r + 1] as number)));
    expect([...totals]).toEqual([200]);
  });
});

/** Framing a: `singles` one-decision sessions; framing b: `fours` sessions of 4 (alternately 1 and 3 cooperations). */
function record(singles: number, fours: number) {
  const record: CountCell[] = [
    {
      player: "m",
      game: "g",
      framing: "a",
      counts: { cooperate: Math.ceil(singles / 2), defect: Math.floor(singles / 2) },
      clusters: Array.from(
        { length: singles },
        (_, s): Record<string, number> => (s % 2 === 0 ? { cooperate: 1 } : { defect: 1 }),
      ),
    },
    {
      player: "m",
      game: "g",
      framing: "b",
      // ⌈fours/2⌉ sessions of 1 cooperation, ⌊fours/2⌋ of 3.
      counts: {
        cooperate: Math.ceil(fours / 2) + 3 * Math.floor(fours / 2),
        defect: 3 * Math.ceil(fours / 2) + Math.floor(fours / 2),
      },
      clusters: Array.from({ length: fours }, (_, s) =>
        s % 2 === 0 ? { cooperate: 1, defect: 3 } : { cooperate: 3, defect: 1 },
      ),
    },
  ];
  return planRobustness(record, undefined, { g: "cooperate" }, { g: ["cooperate", "defect"] });
}
const cells = (singles: number, fours: number) => record(singles, fours).cells;

describe("drawSessionDesignNull's threshold", () => {
  const draw = (c: ReturnType<typeof cells>, method: "auto" | "exact" | "normal") =>
    drawSessionDesignNull(c, 300, createBootstrapRng("threshold"), undefined, method);
  it("keeps the exact draws while a framing has fewer than 200 sessions, the normal one from there", () => {
    // 199 sessions of 4 in framing b, or 199 single decisions in framing a: exact.
    for (const [singles, fours] of [
      [300, 199],
      [199, 250],
    ] as const) {
      const c = cells(singles, fours);
      expect(draw(c, "auto")).toEqual(draw(c, "exact"));
      expect(draw(c, "auto")).not.toEqual(draw(c, "normal"));
    }
    // 200 in each: the normal path.
    const c = cells(200, 200);
    expect(draw(c, "auto")).toEqual(draw(c, "normal"));
    expect(draw(c, "auto")).not.toEqual(draw(c, "exact"));
  });

  it("is the path the invariance test's permutation rows take by default", () => {
    const plan = record(200, 200);
    const rows = (method: "auto" | "exact" | "normal") => {
      const out = new Int32Array(2 * 100);
      permutationFill(plan, createBootstrapRng("rows"), false, method)(0, 100, out);
      return out;
    };
    expect(rows("auto")).toEqual(rows("normal"));
    expect(rows("auto")).not.toEqual(rows("exact"));
  });
});
