import { describe, expect, it } from "vitest";
import { hypergeometricFromMode } from "../../src/analysis/sampling/hypergeometric-from-mode.js";
import { HypergeometricMemo } from "../../src/analysis/sampling/hypergeometric-memo.js";

function lnFactorials(n: number): Float64Array {
  const f = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) f[i] = (f[i - 1] as number) + Math.log(i);
  return f;
}

describe("HypergeometricMemo", () => {
  it("visits the support from the mode outwards, as hypergeometricFromMode does", () => {
    // Hypergeometric(N 4, K 2, m 2): P(0) = 1/6, P(1) = 4/6, P(2) = 1/6; the mode ⌊3·3/6⌋ = 1 comes
    // first, then 2 (running mass 5/6), then 0 (mass 1). So u < 2/3 → 1, u < 5/6 → 2, else 0.
    const f = lnFactorials(4);
    const memo = new HypergeometricMemo(f, 4);
    expect([0, 0.5, 0.66, 0.7, 0.83, 0.84, 0.99].map((u) => memo.draw(4, 2, 2, u))).toEqual([
      1, 1, 1, 2, 2, 0, 0,
    ]);
    // At u equal to the mode's mass itself the walk goes on to the next value (it stops at u < sum).
    const pMode = Math.exp(f[2] - f[1] - f[1] + f[2] - f[1] - f[1] - (f[4] - f[2] - f[2]));
    expect(pMode).toBeCloseTo(2 / 3, 15);
    expect(memo.draw(4, 2, 2, pMode)).toBe(2);
    expect(hypergeometricFromMode(4, 2, 2, f, pMode)).toBe(2);
    // One possible value (K = N): that value, whatever u.
    expect(memo.draw(3, 3, 2, 0.999)).toBe(2);
    // Should rounding leave u above all the mass, the walk ends on its last value, the lowest (0 here);
    // a u past 1 reaches that end.
    expect(hypergeometricFromMode(4, 2, 2, f, 1.5)).toBe(0);
    expect(memo.draw(4, 2, 2, 1.5)).toBe(0);
  });

  it("gives hypergeometricFromMode's value for every u, in the flat and the keyed store", () => {
    for (const largest of [24, 200]) {
      const f = lnFactorials(largest);
      const memo = new HypergeometricMemo(f, largest);
      let checked = 0;
      for (let N = 1; N <= 24; N++)
        for (let K = 0; K <= N; K++)
          for (let m = 0; m <= N; m++)
            for (let i = 0; i < 64; i++) {
              const u = (i + 0.37) / 64;
              if (memo.draw(N, K, m, u) !== hypergeometricFromMode(N, K, m, f, u)) {
                throw new Error(`(${N}, ${K}, ${m}) at u ${u} differs`);
              }
              checked++;
            }
      // Every (K, m) of every N from 1 to 24: Σ (N + 1)², 64 values of u each.
      expect(checked).toBe(64 * sumSquares(1, 24));
    }
  });
});

/** Σ (N + 1)² for N from `from` to `to`. */
function sumSquares(from: number, to: number): number {
  let s = 0;
  for (let N = from; N <= to; N++) s += (N + 1) ** 2;
  return s;
}
