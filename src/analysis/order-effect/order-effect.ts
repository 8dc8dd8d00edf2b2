// The order effect: does the agent favour whichever action is listed first? Study trials
// balance the action order within every cell, so without an order effect the first-listed action of a
// two-action game is chosen at rate ½ whatever the agent prefers (½·p + ½·(1 − p) = ½).

import type { Estimate } from "../robustness/robustness-checks.js";
import { normalQuantile } from "../sampling/normal-quantile.js";

export interface OrderEffect {
  readonly player: string;
  /** Valid one-shot decisions of two-action games with a recorded action order. */
  readonly decisions: number;
  /** Share of them that chose the first-listed action, with a Wilson score interval. */
  readonly first_listed_rate: Estimate;
  /** The rate without an order effect under a balanced order. */
  readonly null_rate: 0.5;
  readonly interval_method: string;
}

const METHOD = "Wilson score interval for a binomial proportion (decisions treated as independent)";

/** Wilson (1927) score interval: the p whose score test |x − np|/√(np(1 − p)) ≤ z does not reject. */
export function wilsonInterval(x: number, n: number, confidence: number): [number, number] {
  const z = normalQuantile((1 + confidence) / 2);
  const p = x / n;
  const denominator = 1 + (z * z) / n;
  const centre = (p + (z * z) / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denominator;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export function orderEffect(
  player: string,
  firstListed: number,
  decisions: number,
  confidence: number,
): OrderEffect {
  return {
    player,
    decisions,
    first_listed_rate: {
      estimate: firstListed / decisions,
      ci: wilsonInterval(firstListed, decisions, confidence),
    },
    null_rate: 0.5,
    interval_method: METHOD,
  };
}
