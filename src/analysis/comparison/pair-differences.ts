import { percentileInterval } from "../sampling/percentile.js";

/**
 * A difference a − b with its bootstrap interval and two-sided p-value. The interval is the basic
 * (reverse-percentile) bootstrap interval [2d̂ − q_hi, 2d̂ − q_lo]: the plug-in R is biased downward by
 * an amount that shrinks with a cell's size, so two groups of unequal sizes have a biased difference; the
 * replicates carry that bias once more, and reflecting them about d̂ removes it to first order (the
 * percentile interval would double it). The p-value of d = 0 is the matching bootstrap tail,
 * (2·min(#{2d̂ − d* ≤ 0}, #{2d̂ − d* ≥ 0}) + 1)/(B + 1), at most 1: p ≤ 1 − confidence exactly when the
 * interval leaves out 0 (up to ties).
 */
export interface Difference {
  readonly estimate: number;
  readonly ci: [number, number];
  readonly p_value: number;
}

export function bootstrapDifference(
  estimate: number,
  replicates: Float64Array,
  confidence: number,
): Difference {
  const B = replicates.length;
  // The reflected replicate 2d̂ − d* is the basic bootstrap's stand-in for d̂ under the truth d̂; its
  // share on either side of 0 is the p-value of d = 0 that matches the interval.
  let atOrBelow = 0;
  let atOrAbove = 0;
  for (let b = 0; b < B; b++) {
    const reflected = 2 * estimate - (replicates[b] as number);
    if (reflected <= 0) atOrBelow++;
    if (reflected >= 0) atOrAbove++;
  }
  const p_value = Math.min(1, (2 * Math.min(atOrAbove, atOrBelow) + 1) / (B + 1));
  const [qLo, qHi] = percentileInterval(Float64Array.from(replicates), confidence);
  return { estimate, ci: [2 * estimate - qHi, 2 * estimate - qLo], p_value };
}

/**
 * Holm's step-down adjustment: with p sorted ascending, p_(i) · (m − i + 1), made monotone, at most 1.
 * It keeps the family-wise error rate at the level for any dependence between the tests.
 */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, p * (m - rank)));
    adjusted[i] = running;
  });
  return adjusted;
}
