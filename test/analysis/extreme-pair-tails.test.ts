// The exact tails of the test-inversion interval: against brute-force enumeration of every record of a few
// small framings, and the same whichever rates were evaluated before (the windows are filled in lazily).
import { describe, expect, it } from "vitest";
import { ExtremePairTails } from "../../src/analysis/robustness/extreme-pair-tails.js";
import { jensenShannon } from "../../src/domain/divergence.js";

/**
 * Mid-p P(R* ≥ R̂), i.e. P(maxJSD* < observed) + ½ P(tie), by enumerating every count vector of
 * independent binomial framings (R falls as the largest JSD grows).
 */
function enumerated(sizes: readonly number[], rates: readonly number[], observed: number): number {
  let above = 0;
  let tied = 0;
  const walk = (f: number, p: number, x: number[]): void => {
    if (f === sizes.length) {
      const r = x.map((c, i) => c / (sizes[i] as number));
      const lo = Math.min(...r);
      const hi = Math.max(...r);
      const jsd = jensenShannon([lo, 1 - lo], [hi, 1 - hi]);
      if (Math.abs(jsd - observed) <= 1e-12 * Math.LN2) tied += p;
      else if (jsd < observed) above += p;
      return;
    }
    const m = sizes[f] as number;
    const q = rates[f] as number;
    let choose = 1;
    for (let c = 0; c <= m; c++) {
      walk(f + 1, p * choose * q ** c * (1 - q) ** (m - c), [...x, c]);
      choose = (choose * (m - c)) / (c + 1);
    }
  };
  walk(0, 1, []);
  return above + tied / 2;
}

describe("ExtremePairTails", () => {
  const sizes = [5, 7, 4];
  // R̂'s largest JSD: the pair 1/5 against 5/7.
  const observed = jensenShannon([1 / 5, 4 / 5], [5 / 7, 2 / 7]);
  const rateSets = [
    [0.9, 0.85, 0.95],
    [0.1, 0.15, 0.05],
    [0.4, 0.6, 0.5],
    [0.2, 0.7, 0.45],
  ];

  it("gives the mid-p P(R* ≥ R̂) that enumerating every record gives", () => {
    const tails = new ExtremePairTails(sizes, observed);
    for (const rates of rateSets) {
      expect(tails.at(rates).above).toBeCloseTo(enumerated(sizes, rates, observed), 12);
    }
  });

  it("gives the same tails whatever rates it was evaluated at before", () => {
    // One object taken through the rate sets in turn (high, low, middle: its windows filled upwards,
    // downwards and in between), against a fresh object per set.
    const reused = new ExtremePairTails([40, 57, 33], 0.05);
    for (const rates of rateSets) {
      const fresh = new ExtremePairTails([40, 57, 33], 0.05).at(rates);
      expect(reused.at(rates)).toEqual(fresh);
    }
  });
});
