/**
 * The rate a bootstrap redraws x of n decisions from. At x = 0 or x = n the empirical rate can only
 * reproduce itself, and a percentile interval from 1–5 decisions (or 300) would be a point claiming
 * certainty; there the draw is from the Jeffreys-smoothed rate (x + ½)/(n + 1) instead, as the robustness
 * analysis redraws such a cell (cell-resampling.ts), so every analysis gives a deterministic agent an
 * interval that can move.
 */
export function bootstrapRate(x: number, n: number): number {
  return x === 0 || x === n ? (x + 0.5) / (n + 1) : x / n;
}
