import { describe, expect, it } from "vitest";
import { createBinomialSampler, drawBinomial } from "../../src/analysis/sampling/binomial-sampler.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import {
  createMultinomialSampler,
  drawMultinomial,
} from "../../src/analysis/sampling/multinomial-sampler.js";

describe("binomial sampler", () => {
  it("has the exact Binomial(4, ½) distribution function", () => {
    // P(X ≤ x) = (1, 5, 11, 15, 16)/16.
    const expected = [1 / 16, 5 / 16, 11 / 16, 15 / 16, 1].map((p) => expect.closeTo(p, 15));
    expect(Array.from(createBinomialSampler(4, 0.5).cdf)).toEqual(expected);
  });

  it("draws 0 for p = 0 and n for p = 1, and never leaves 0..n for large n", () => {
    const rng = createBootstrapRng(1);
    const none = createBinomialSampler(300, 0);
    const all = createBinomialSampler(300, 1);
    const huge = createBinomialSampler(100_000, 0.5); // (½)^100000 underflows: built in log space
    for (let i = 0; i < 1000; i++) {
      expect(drawBinomial(none, rng)).toBe(0);
      expect(drawBinomial(all, rng)).toBe(300);
      const x = drawBinomial(huge, rng);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(100_000);
    }
  });

  it("has the binomial mean and variance", () => {
    // Binomial(300, 0.3): mean 90, variance 300·0.3·0.7 = 63. With 200,000 draws the sample mean has
    // standard error √(63/200000) ≈ 0.018, so ±0.1 is over 5 standard errors.
    const rng = createBootstrapRng(2);
    const sampler = createBinomialSampler(300, 0.3);
    const draws = Array.from({ length: 200_000 }, () => drawBinomial(sampler, rng));
    const mean = draws.reduce((s, x) => s + x, 0) / draws.length;
    const variance = draws.reduce((s, x) => s + (x - mean) ** 2, 0) / draws.length;
    expect(mean).toBeGreaterThan(89.9);
    expect(mean).toBeLessThan(90.1);
    expect(variance).toBeGreaterThan(61.5);
    expect(variance).toBeLessThan(64.5);
  });
});

describe("multinomial sampler", () => {
  it("keeps the total and has the multinomial means", () => {
    // Multinomial(60, (½, ⅓, ⅙)): means 30, 20, 10.
    const rng = createBootstrapRng(4);
    const sampler = createMultinomialSampler(60, [1 / 2, 1 / 3, 1 / 6]);
    const out = new Int32Array(3);
    const sums: [number, number, number] = [0, 0, 0];
    const draws = 50_000;
    for (let i = 0; i < draws; i++) {
      drawMultinomial(sampler, rng, out, 0);
      const [a = 0, b = 0, c = 0] = out;
      expect(a + b + c).toBe(60);
      sums[0] += a;
      sums[1] += b;
      sums[2] += c;
    }
    // Standard errors √(60·p(1−p)/50000): 0.017, 0.016, 0.013; closeTo(·, 1) allows ±0.05, ≈3 of them.
    expect(sums.map((s) => s / draws)).toEqual([
      expect.closeTo(30, 1),
      expect.closeTo(20, 1),
      expect.closeTo(10, 1),
    ]);
  });
});
