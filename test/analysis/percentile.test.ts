import { describe, expect, it } from "vitest";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import { percentileInterval } from "../../src/analysis/sampling/percentile.js";

/** numpy.percentile(x, q, method="linear") by a full sort: h = (n − 1)q, x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋). */
function sortedPercentile(values: Float64Array, q: number): number {
  const sorted = Float64Array.from(values).sort();
  const h = (sorted.length - 1) * q;
  const i = Math.floor(h);
  const x = sorted[i] as number;
  return i + 1 < sorted.length ? x + (h - i) * ((sorted[i + 1] as number) - x) : x;
}

describe("percentileInterval", () => {
  it("matches numpy's linear definition on a hand example", () => {
    // 1..10, q = 0.025: h = 9·0.025 = 0.225 → 1 + 0.225·(2 − 1) = 1.225; q = 0.975: h = 8.775 → 9.775.
    const [lo, hi] = percentileInterval(Float64Array.from([7, 3, 10, 1, 5, 2, 9, 4, 8, 6]), 0.95);
    expect(lo).toBeCloseTo(1.225, 12);
    expect(hi).toBeCloseTo(9.775, 12);
  });

  it("equals the sort-based percentiles for small, large, tied and constant inputs", () => {
    const rng = createBootstrapRng(3);
    const cases: Float64Array[] = [];
    for (const n of [1, 2, 3, 17, 500, 2047, 2048, 10_000, 25_000]) {
      cases.push(Float64Array.from({ length: n }, () => rng.next()));
      cases.push(Float64Array.from({ length: n }, () => Math.floor(rng.next() * 7) / 7)); // heavy ties
    }
    cases.push(new Float64Array(10_000).fill(0.25));
    // Nearly constant: the pivots coincide but the tails differ.
    cases.push(Float64Array.from({ length: 10_000 }, (_, i) => (i % 50 === 0 ? i / 10_000 : 0.5)));
    // Sorted input: the pivot sample is not representative, so the exact fallback must take over.
    cases.push(Float64Array.from({ length: 10_000 }, (_, i) => i));
    for (const values of cases) {
      for (const confidence of [0.95, 0.9, 0.5]) {
        const tail = (1 - confidence) / 2;
        const expected = [sortedPercentile(values, tail), sortedPercentile(values, 1 - tail)];
        expect(percentileInterval(values.slice(), confidence)).toEqual(expected);
      }
    }
  });
});
