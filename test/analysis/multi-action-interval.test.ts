// The R interval of games with three or more actions: a scaled noncentral χ² inversion matched to the
// bootstrap's bias and spread, joined with the percentile interval moved by the bias on 1 − R.
import { describe, expect, it } from "vitest";
import {
  multiActionInterval,
  noncentralChiSquareDeviate,
} from "../../src/analysis/robustness/multi-action-interval.js";
import { normalUpperTail } from "../../src/analysis/story-labels/normal-tail.js";

const cdf = (x: number, nu: number, lambda: number): number =>
  1 - normalUpperTail(noncentralChiSquareDeviate(x, nu, lambda));

/** P(χ²_ν(λ) ≤ x) exactly for even ν: a Poisson(λ/2) mixture of central χ² of ν + 2j degrees of freedom. */
function exactEvenCdf(x: number, nu: number, lambda: number): number {
  const centralEven = (m: number): number => {
    // P(χ²_{2m} ≤ x) = 1 − e^{−x/2} Σ_{i<m} (x/2)^i / i!
    let term = 1;
    let sum = 0;
    for (let i = 0; i < m; i++) {
      sum += term;
      term *= x / 2 / (i + 1);
    }
    return 1 - Math.exp(-x / 2) * sum;
  };
  let weight = Math.exp(-lambda / 2);
  let total = 0;
  for (let j = 0; j < 400; j++) {
    total += weight * centralEven(nu / 2 + j);
    weight *= lambda / 2 / (j + 1);
  }
  return total;
}

describe("noncentralChiSquareDeviate", () => {
  it("gives χ² probabilities a reader can check: central 2 df and noncentral 1 df", () => {
    // P(χ²₂ ≤ 5.991) = 1 − e^{−2.9955} = 0.9500 (Wilson–Hilferty: 0.9514).
    expect(Math.abs(cdf(5.991, 2, 0) - 0.95)).toBeLessThan(0.003);
    // χ²₁(4) is (Z + 2)²: P(≤ 3.84) = Φ(1.9596 − 2) − Φ(−1.9596 − 2) = 0.4839 (Patnaik: 0.494).
    expect(Math.abs(cdf(3.84, 1, 4) - 0.4839)).toBeLessThan(0.012);
  });
});

describe("multiActionInterval", () => {
  // Ŷ = 1 − R̂ = 0.01; replicates Y* half at 0.014 − s, half at 0.014 + s with s² = 4.8·10⁻⁵: bias
  // b = 0.004, variance v = 4.8·10⁻⁵. Matched: c = (2b + 4Ŷ)/v = 0.048/4.8·10⁻⁵ = 1000, ν = b·c = 4, and
  // the observed t = c·Ŷ = 10.
  const s = Math.sqrt(4.8e-5);
  const replicates = Float64Array.from({ length: 1000 }, (_, r) => Math.sqrt(0.014 + (r % 2 ? s : -s)));

  it("inverts the matched noncentral χ² (ν 4, c 1000, t 10) and joins the moved percentile interval", () => {
    const [lower, upper] = multiActionInterval(0.99, replicates.slice(), 0.95);
    // λ = 0 already gives P(χ²₄ ≤ 10) = 1 − e^{−5}(1 + 5) = 0.960 < 0.975: R = 1 is not excluded.
    expect(exactEvenCdf(10, 4, 0)).toBeCloseTo(1 - 6 * Math.exp(-5), 12);
    expect(upper).toBe(1);
    // The lower end: λ = 1000·(1 − lower) with P(χ²₄(λ) ≤ 10) = 2.5% by Patnaik's approximation, 21.26
    // (lower 0.97874); the exact mixture gives 3.26% there (the approximation errs by under a point this
    // far in the tail). It lies below the moved percentile interval's end, 1 − (0.014 + s − 0.004) = 0.983072.
    const lambda = 1000 * (1 - lower);
    expect(lambda).toBeCloseTo(21.256, 2);
    expect(Math.abs(exactEvenCdf(10, 4, lambda) - 0.025)).toBeLessThan(0.01);
    expect(lower).toBeLessThan(1 - (0.014 + s - 0.004));
    expect(lower).toBeGreaterThan(0.97);
  });

  it("keeps the estimate inside and every end finite, even for replicates that do not vary", () => {
    expect(multiActionInterval(1, new Float64Array(200), 0.95)).toEqual([1, 1]);
    const still = new Float64Array(200).fill(Math.sqrt(0.02));
    const [lo, hi] = multiActionInterval(0.98, still, 0.95);
    expect(lo).toBeLessThanOrEqual(0.98);
    expect(hi).toBeGreaterThanOrEqual(0.98);
    expect(Number.isFinite(lo) && Number.isFinite(hi)).toBe(true);
  });
});
