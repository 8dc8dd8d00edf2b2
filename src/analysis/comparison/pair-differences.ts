import type { MeanDistances } from "../robustness/mean-interval.js";
import { normalQuantile } from "../sampling/normal-quantile.js";
import { percentileInterval } from "../sampling/percentile.js";
import { variance } from "../sampling/replicate-variance.js";
import { studentQuantile, studentUpperTail } from "../sampling/student-t.js";
import { normalUpperTail } from "../story-labels/normal-tail.js";

/** A mean's distances from its interval's ends, below and above (`meanDistances` of mean-interval.ts). */
type Distances = Pick<MeanDistances, "below" | "above">;

/**
 * A difference a − b with its bootstrap interval and two-sided p-value of d = 0.
 *
 * The interval is the bias-corrected percentile interval (for R widened, below): the percentile interval of the replicates d*,
 * moved by the bootstrap estimate of the bias, mean(d*) − d̂. The plug-in R is biased downward by an
 * amount that depends on each cell's size and distance from the boundary R = 1, so two groups' plug-in
 * difference is biased, and the replicates carry that bias once more; the plain percentile interval would
 * double it, the basic (reflected) interval removes it but also reflects the skew of R near 1. Measured on
 * the simulation grid (bench/coverage/compare-coverage.ts), the bias-corrected percentile interval was the
 * one of the three that held 95% where either side sits at or near R = 1.
 *
 * The p-value is the share of the bias-corrected replicates on the far side of 0, doubled:
 * (2·min(#{d* − bias ≤ 0}, #{d* − bias ≥ 0}) + 1)/(B + 1), at most 1, so p ≤ 1 − confidence exactly when
 * the interval leaves 0 out (up to ties and the +1).
 *
 * For the shift, λ and exploitability (smooth functions of the cells' rates, the shift a plain mean of 0/1
 * choices), the p-value is the larger of that bootstrap tail and the normal tail 2·Φ(−|d̂|/sd(d*)); the
 * larger of the two can only make Holm more conservative. The bootstrap tail of such a mean is a lattice:
 * when a few units carry the whole difference (paired positions that mostly agree, so a handful of
 * discordant ones), the chance that a resample draws none of them is far smaller than the chance under
 * "no difference", and Holm, which tests the smallest p at (1 − confidence)/(pairs), sees those tails.
 * On the grid the bootstrap tail alone gave a family-wise error of 6.8% over 10 equal groups and 9.4%
 * over 5 paired ones; with the normal floor 3.9% and 4.9%. λ and exploitability with the bootstrap tail
 * alone: 8.2% and 7.6% over 5 paired groups, 0.8% and 6.4% over 10. R keeps the bootstrap tail: near R = 1 its
 * replicates are skewed, the normal tail would overstate p, and its family-wise error was already ≤ 1.5%.
 */
export interface Difference {
  readonly estimate: number;
  readonly ci: [number, number];
  readonly p_value: number;
}

export interface DifferenceOptions {
  /** Floor the p-value by the normal tail (a smooth function of rates; see above). */
  readonly normalFloor?: boolean;
  /**
   * Widen the interval to the union of the bias-corrected and the plain percentile interval, and take
   * the larger of their two p-values (R; see below).
   */
  readonly percentileUnion?: boolean;
}

/**
 * For R the interval is the union of the bias-corrected and the plain percentile interval. The bias
 * estimate mean(d*) − d̂ is itself a bootstrap quantity, and for R it is off in both directions where
 * one side sits at the boundary R = 1 or has tiny cells: with one group at R = 1 (.5 vs .5) and the
 * other far below (.1 vs .9), n 30, the correction overshot and the interval lay above the truth in 5.2%
 * of studies (bias-corrected 93.3–93.8% covered, plain percentile 95.2–95.3%); with 5 decisions per
 * framing against 300 the correction fell short (bias-corrected 93.3–94.3%, percentile 99.0%). Taking
 * both ends outward covers whichever of the two is right, at the cost of over-covering where the plain
 * percentile interval alone already does (the 5-decision side's R takes a handful of values).
 */
export function bootstrapDifference(
  estimate: number,
  replicates: Float64Array,
  confidence: number,
  options: DifferenceOptions = {},
): Difference {
  const B = replicates.length;
  let mean = 0;
  for (let b = 0; b < B; b++) mean += replicates[b] as number;
  mean /= B;
  const bias = mean - estimate;
  let squares = 0;
  for (let b = 0; b < B; b++) squares += ((replicates[b] as number) - mean) ** 2;
  const sd = Math.sqrt(squares / Math.max(1, B - 1));
  const union = options.percentileUnion === true;
  const tail = union
    ? Math.max(bootstrapTail(replicates, bias), bootstrapTail(replicates, 0))
    : bootstrapTail(replicates, bias);
  // No spread at all (every replicate equal): the bootstrap tail alone speaks.
  const normal = sd > 0 ? Math.min(1, 2 * normalUpperTail(Math.abs(estimate) / sd)) : 0;
  const floored = options.normalFloor === true;
  const p_value = floored ? Math.max(tail, normal) : tail;
  const [lo, hi] = percentileInterval(Float64Array.from(replicates), confidence);
  const ci: [number, number] = union
    ? [Math.min(lo, lo - bias), Math.max(hi, hi - bias)]
    : [lo - bias, hi - bias];
  if (floored && sd > 0) {
    // The interval whose tail floors p goes into the interval too, so that a p raised above 1 − confidence
    // by the normal tail is never beside an interval that leaves 0 out (see `normalInterval`).
    const [nLo, nHi] = normalInterval(estimate, sd, confidence);
    ci[0] = Math.min(ci[0], nLo);
    ci[1] = Math.max(ci[1], nHi);
  }
  return { estimate, ci, p_value };
}

/**
 * The two-sided bootstrap p-value of d = 0 from replicates moved by `shift` (the bias for the
 * bias-corrected interval, 0 for the plain one): (2·min(#{d* − shift ≤ 0}, #{d* − shift ≥ 0}) + 1)/(B + 1),
 * at most 1. With the +1 it exceeds 1 − confidence whenever the percentile interval moved by the same shift
 * holds 0 (the interval's ends lie between order statistics that count at least ⌊(B − 1)α/2⌋ + 1
 * replicates on each side).
 */
export function bootstrapTail(replicates: Float64Array, shift: number): number {
  const B = replicates.length;
  let atOrBelow = 0;
  let atOrAbove = 0;
  for (let b = 0; b < B; b++) {
    const moved = (replicates[b] as number) - shift;
    if (moved <= 0) atOrBelow++;
    if (moved >= 0) atOrAbove++;
  }
  return Math.min(1, (2 * Math.min(atOrAbove, atOrBelow) + 1) / (B + 1));
}

/**
 * The normal-theory interval d̂ ± z_(1−α/2)·sd(d*): it holds 0 exactly when the normal tail
 * 2·Φ(−|d̂|/sd(d*)) exceeds α. The shift, λ and exploitability floor their p-value by that tail; where the
 * bootstrap's percentile interval is the shorter of the two (a lattice of a few discordant units, a
 * skewed fit), the interval left 0 out while p said it could not (shift [−0.2843, −0.0131] beside
 * p 0.0824), and Holm read the p while a reader read the interval.
 */
export function normalInterval(estimate: number, sd: number, confidence: number): [number, number] {
  const z = normalQuantile(1 - (1 - confidence) / 2);
  return [estimate - z * sd, estimate + z * sd];
}

/**
 * A pair's interval made to agree with its p-value: wherever p > 1 − confidence, the interval is extended
 * to hold 0. Every widening before this one keeps its own interval and p in step (each p is the tail of
 * the interval it widens by), so what is left are the bootstrap tail's lattice and its +1: an end that lies
 * between the order statistics straddling 0 leaves 0 out by a fraction of one replicate's step while the
 * count puts p just above α (0.0539 = 27/501 at B = 500). Extending the interval, not lowering p, keeps
 * both on the conservative side, and Holm, which reads p, is unchanged. Hence: an interval that leaves 0
 * out always has p ≤ 1 − confidence. (The converse, p ≤ 1 − confidence only when 0 is left out, holds
 * for each widening by construction; it is checked over the simulation grid, not enforced here.)
 */
export function agreeingWithP(difference: Difference, confidence: number): Difference {
  if (!(difference.p_value > 1 - confidence)) return difference;
  const [lo, hi] = difference.ci;
  if (lo <= 0 && 0 <= hi) return difference;
  return { ...difference, ci: [Math.min(lo, 0), Math.max(hi, 0)] };
}

/**
 * A difference of R a − b made at least as wide as the MOVER interval of the two groups' test-inversion
 * intervals, d̂ − √(a.below² + b.above² − 2r·a.below·b.above) to d̂ + √(a.above² + b.below² − 2r·…), r the
 * correlation of the two groups' replicates where they were drawn paired (0 otherwise), and its p-value at
 * least the normal tail of d̂ over the distance on the side of 0 read as z_(1−α/2) standard errors — so
 * p ≤ 1 − confidence exactly when that interval leaves 0 out.
 *
 * Why: R̂ is biased down by how many of a group's framings crowd an extreme, and the bootstrap of a
 * difference cannot see it (its replicates spread tied framings apart). Two groups of the same R, one
 * with 6 framings at .2 and 5 at .8, the other spread from .2 to .8, had the bootstrap interval hold the
 * true difference 0 in 86% of studies at 30 decisions per framing and 75% at 300. Each group's
 * test-inversion interval accounts for its own crowding, and their combination covers the difference.
 */
export function moverWidened(
  difference: Difference,
  a: Distances,
  b: Distances,
  correlation: number,
  confidence: number,
): Difference {
  const d = difference.estimate;
  const [lower, upper] = moverInterval(d, a, b, correlation);
  const down = d - lower;
  const up = upper - d;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const towardZero = d >= 0 ? down : up;
  const p =
    towardZero > 0 ? Math.min(1, 2 * normalUpperTail((Math.abs(d) * z) / towardZero)) : d === 0 ? 1 : 0;
  return {
    estimate: d,
    ci: [Math.min(difference.ci[0], d - down), Math.max(difference.ci[1], d + up)],
    p_value: Math.max(difference.p_value, p),
  };
}

/** MOVER's interval of a − b from the two means' distances (see `moverWidened`). */
export function moverInterval(d: number, a: Distances, b: Distances, correlation: number): [number, number] {
  const down = Math.sqrt(Math.max(0, a.below ** 2 + b.above ** 2 - 2 * correlation * a.below * b.above));
  const up = Math.sqrt(Math.max(0, a.above ** 2 + b.below ** 2 - 2 * correlation * a.above * b.below));
  return [d - down, d + up];
}

/**
 * λ at its lower bound 0 (a group that cooperates at least half the time in games where defecting pays
 * more): λ is then not a regular parameter — λ̂ is 0 in about half the studies and positive in the rest —
 * and the bootstrap of a difference of two such fits misses 0 far more often than 5% (85.4% covered over
 * 4 games at n 20). The share of a group's replicates whose fit is 0 is the bootstrap p-value of the score
 * test of λ = 0 (a replicate's score at 0 is the observed one plus a draw of its noise, so under λ = 0
 * that share is near uniform), clustered like the bootstrap itself. When neither group rejects λ = 0 at
 * (1 − confidence)/2 (Bonferroni over the two), both may sit at the bound, the difference may be 0, and
 * the interval is widened to hold 0; the p-value is at least 2·min(shares), the level at which one of
 * the two would reject, so p > 1 − confidence exactly when this widening applies. Both truths at 0 are
 * then covered with probability ≥ confidence whatever the bias-corrected interval does.
 */
export function boundaryWidened(
  difference: Difference,
  shareAtBoundA: number,
  shareAtBoundB: number,
  confidence: number,
): Difference {
  const p = Math.min(1, 2 * Math.min(shareAtBoundA, shareAtBoundB));
  if (!(p > 1 - confidence)) return difference;
  const [lo, hi] = difference.ci;
  return {
    estimate: difference.estimate,
    ci: [Math.min(lo, 0), Math.max(hi, 0)],
    p_value: Math.max(difference.p_value, p),
  };
}

/**
 * λ at its upper cap (LAMBDA_MAX = 20): a group whose every decision in the fitted cells defected has
 * λ̂ = 20, the cap, not an estimate — its replicates, drawn from the cells' add-½ smoothed rates, fit 20
 * wherever they drew no cooperation (some 40% of them, whatever the cells' size) and a moderate λ
 * elsewhere. Their mean then lies far below λ̂, and the bias correction, mean(d*) − d̂, moves the whole
 * interval by that distance: two identical agents cooperating 10% of the time, 5 against 300 decisions
 * per cell, had the interval of their difference hold the true 0 in 66.6% of studies. The share of a
 * group's replicates that fit the cap plays the part the share at λ = 0 plays below (boundaryWidened):
 * where either group's exceeds (1 − confidence)/2 that group may sit at the cap, the bias estimate means
 * nothing, and the interval is widened to the plain percentile interval of d* (the uncorrected
 * replicates: the at-cap group's lower quantile is what its counts allow, its upper the cap), p to at
 * least its tail. A group that defected 60 times of 60 is still told apart from one at λ = 0: its
 * replicates' 2.5% point stays near 2.
 */
export function capWidened(
  difference: Difference,
  star: Float64Array,
  shareAtCapA: number,
  shareAtCapB: number,
  confidence: number,
): Difference {
  if (!(Math.max(shareAtCapA, shareAtCapB) > (1 - confidence) / 2)) return difference;
  const [lo, hi] = percentileInterval(Float64Array.from(star), confidence);
  return {
    estimate: difference.estimate,
    ci: [Math.min(difference.ci[0], lo), Math.max(difference.ci[1], hi)],
    p_value: Math.max(difference.p_value, bootstrapTail(star, 0)),
  };
}

/**
 * The bootstrap difference made at least as wide as Welch's t interval d̂ ± t_ν·sd(d*), and its p-value
 * at least the t tail 2·P(T_ν ≥ |d̂|/sd(d*)). A group's value is a mean of a few matches (often 3–10): the
 * bootstrap distribution of such a mean is too narrow and too light-tailed (on the simulation grid,
 * bench/coverage/compare-repeated-coverage.ts, the bias-corrected percentile interval alone covered
 * 77.8–94.3% and Holm over 5 equal groups of 6 matches rejected in 11.5% of studies). ν is halfway
 * between Welch's (Satterthwaite's, from each side's replicate variance and fewest matches per condition)
 * and the conservative n_min − 1; n − 1 of the fewer positions when paired. The
 * union keeps the bootstrap's skew where it is wider.
 *
 * Exploitability (compare-groups.ts) is widened the same way, each side's units being the decisions,
 * sessions or schedule positions its cells resample: a cell's exploitability is a function of its
 * rates, and with 5 decisions per framing or paired positions that mostly agree its bootstrap is as
 * short as a mean's.
 *
 * `towardWelch` places ν between n_min − 1 (0) and Satterthwaite's (1): halfway unless a caller measured
 * another share on its own grid (the shift over few sessions, shift-cluster-widening.ts).
 */
export function welchWidened(
  difference: Difference,
  star: Float64Array,
  a: { variance: number; units: number },
  b: { variance: number; units: number },
  paired: boolean,
  confidence: number,
  towardWelch = 0.5,
): Difference {
  const welch = welchInterval(difference.estimate, star, a, b, paired, confidence, towardWelch);
  if (welch === null) return difference;
  const d = difference.estimate;
  return {
    estimate: d,
    ci: [Math.min(difference.ci[0], welch.ci[0]), Math.max(difference.ci[1], welch.ci[1])],
    p_value: Math.min(
      1,
      Math.max(difference.p_value, 2 * studentUpperTail(Math.abs(d) / welch.se, welch.nu)),
    ),
  };
}

/**
 * Welch's t interval d ± t_ν·sd(d*) at `confidence` (ν as in `welchWidened`), with its standard error and
 * ν; null where the replicates do not vary. The ranks of exploitability read it at their simultaneous
 * level, so that two groups are ranked apart only where the pair's own widening would part them too.
 */
export function welchInterval(
  d: number,
  star: Float64Array,
  a: { variance: number; units: number },
  b: { variance: number; units: number },
  paired: boolean,
  confidence: number,
  towardWelch = 0.5,
): { ci: [number, number]; se: number; nu: number } | null {
  const se = Math.sqrt(variance(star));
  if (!(se > 0)) return null;
  const term = (s: { variance: number; units: number }) =>
    s.units > 1 ? s.variance ** 2 / (s.units - 1) : 0;
  const welch = (a.variance + b.variance) ** 2 / (term(a) + term(b));
  const fewer = Math.min(a.units, b.units) - 1;
  // Satterthwaite's ν is itself estimated: when one side has 3 matches and its variance comes out small by
  // chance, ν grows towards the other side's and the interval is too short exactly then (Welch's interval
  // covered 91.9% at 3 vs 30 matches, simulated). The conservative ν = n_min − 1 (Satterthwaite's is never
  // below it) over-covers (97–99%); halfway between the two held 93.3–97.5% on every shape simulated
  // (3 vs 3, 3 vs 10, 3 vs 30, 5 vs 5, 10 vs 10, one side near-deterministic).
  const unpaired = Number.isFinite(welch) ? fewer + (welch - fewer) * towardWelch : 1;
  const nu = Math.max(1, paired ? fewer : unpaired);
  const t = studentQuantile((1 - confidence) / 2, nu);
  return { ci: [d - t * se, d + t * se], se, nu };
}
