// The interval of a mean of game-level R values (a player's R, the pooled R) from its games' own
// intervals. A percentile bootstrap of the mean fails where a robust agent lives: every game's R̂ sits on
// or next to the bound 1, the replicates of a deterministic framing do not vary, and the bias-adjusted
// percentile interval collapses toward 1 (72.7% coverage for a live .99 vs 1.0 agent at 20 sessions per
// cell). The games' intervals — test inversion for two-action games — already know how far each R may
// lie from its estimate on either side, so they are combined by the method of variance estimates recovery
// (MOVER, Zou & Donner 2008; Newcombe 2011): each game's distance from its estimate to its lower end,
// read as a standard error at that end, adds in quadrature,
//
//   lower = R̄ − √(κ · Σ_g (R̂_g − l_g)²) / G,      upper = R̄ + √(κ · Σ_g (u_g − R̂_g)²) / G,
//
// with κ the correlation of the games' estimates: Var*(Σ_g R*_g) / Σ_g Var*(R*_g) from the bootstrap
// replicates (1 for games resampled independently, above 1 when one session decided in several games).
// With one game the interval is that game's own.

import { variance } from "../sampling/replicate-variance.js";

/** One game's R: its estimate and interval. */
export interface GameInterval {
  readonly estimate: number;
  readonly ci: readonly [number, number];
}

export const MEAN_INTERVAL_METHOD =
  "player and pooled R: the games' intervals combined by the method of variance estimates recovery (MOVER), R̄ ∓ √(κ Σ_g d_g²)/G with d_g each game's distance from its estimate to its end on that side and κ = Var*(Σ R*_g) / Σ Var*(R*_g) from the bootstrap replicates; the upper end is 1 whenever the player's (pool's) permutation test of invariance does not reject";

/**
 * κ: how much the variance of a sum of the games' replicates exceeds the sum of their variances (1 for
 * independent games). `mean` is the replicate row of the games' mean, `games` each game's row. 1 where the
 * replicates do not vary (nothing to learn a correlation from). The variances' divisor (B − 1) cancels.
 */
export function correlationFactor(mean: Float64Array, games: readonly Float64Array[]): number {
  const parts = games.reduce((sum, row) => sum + variance(row), 0);
  if (!(parts > 0)) return 1;
  const factor = (games.length * games.length * variance(mean)) / parts;
  return Number.isFinite(factor) ? factor : 1;
}

/** How far the mean of some games lies from the MOVER ends of its interval, below and above. */
export interface MeanDistances {
  readonly estimate: number;
  readonly below: number;
  readonly above: number;
}

/** The MOVER distances of the mean of `games` from its ends (unclipped: see `meanInterval`). */
export function meanDistances(games: readonly GameInterval[], factor: number): MeanDistances {
  const G = games.length;
  let estimate = 0;
  let below = 0;
  let above = 0;
  for (const { estimate: r, ci } of games) {
    estimate += r;
    below += (r - ci[0]) ** 2;
    // A game whose upper end is the bound 1 (its own test did not reject) says nothing of how far R
    // could lie above its estimate: the bound cut that distance off. Its lower distance stands in.
    above += (ci[1] >= 1 ? Math.max(ci[1] - r, r - ci[0]) : ci[1] - r) ** 2;
  }
  return {
    estimate: estimate / G,
    below: Math.sqrt(factor * below) / G,
    above: Math.sqrt(factor * above) / G,
  };
}

/** The MOVER ends of the mean of `games` (before the invariance test's rule at R = 1), within [0, 1]. */
export function meanInterval(games: readonly GameInterval[], factor: number): [number, number] {
  const { estimate, below, above } = meanDistances(games, factor);
  return [Math.max(0, estimate - below), Math.min(1, estimate + above)];
}
