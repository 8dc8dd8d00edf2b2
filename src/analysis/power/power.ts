import { jensenShannon } from "../../domain/divergence.js";
import { UsageError } from "../../usage-error.js";
import type { CountCell } from "../count-cells.js";
import { reportProgress, withProgress } from "../progress/analysis-progress.js";
import { robustnessAnalysis } from "../robustness/robustness.js";
import { createBinomialSampler, drawBinomial } from "../sampling/binomial-sampler.js";
import { createBootstrapRng } from "../sampling/fast-rng.js";
import { normalQuantile } from "../sampling/normal-quantile.js";
import { exactInvariancePower, exactTrialsForPower, rateWithRobustness } from "./exact-invariance-power.js";

export interface ShiftPowerOptions {
  /** Cooperation rate p under the baseline framing. */
  readonly baselineRate: number;
  /** The shift δ to detect; the other framing's rate is p + δ. */
  readonly shift: number;
  readonly alpha?: number;
  readonly power?: number;
  /** Decisions each session makes per framing (m); with ρ it sets the design effect. Default 1. */
  readonly decisionsPerSession?: number;
  /** Intra-session correlation ρ of decisions; default 0. */
  readonly intraSessionCorrelation?: number;
}

export interface ShiftPowerResult {
  readonly test: string;
  readonly alpha: number;
  readonly power: number;
  readonly baseline_rate: number;
  readonly shifted_rate: number;
  readonly shift: number;
  readonly z_alpha: number;
  readonly z_power: number;
  /** The formula's n before rounding up, for independent decisions. */
  readonly trials_exact: number;
  /** Kish's design effect 1 + (m − 1)ρ of sessions of m decisions with intra-session correlation ρ. */
  readonly design_effect: number;
  /** ⌈trials_exact × design_effect⌉. */
  readonly trials_per_framing: number;
}

/** Kish (1965) design effect of clusters of m decisions with intra-cluster correlation ρ; validated. */
export function designEffect(decisionsPerSession = 1, rho = 0): number {
  if (!(Number.isInteger(decisionsPerSession) && decisionsPerSession >= 1)) {
    throw new Error(
      `Decisions per session ${decisionsPerSession} is invalid; it must be a positive integer.`,
    );
  }
  if (!(rho >= 0 && rho <= 1))
    throw new Error(`Intra-session correlation ${rho} is invalid; it must lie in [0, 1].`);
  return 1 + (decisionsPerSession - 1) * rho;
}

const rate = (name: string, value: number): number => {
  if (!(value >= 0 && value <= 1)) throw new Error(`${name} ${value} is invalid; it must lie in [0, 1].`);
  return value;
};

/**
 * Refuses a power at or below alpha. A level-α test already raises its false alarm with probability α when
 * there is no effect at all, so a plan to detect the effect less often than that asks for nothing, and the
 * formulas answer nonsense: far enough below α, z_{1−β} outweighs z_{1−α/2} and the square of their negative
 * sum asked for more trials than an ordinary plan needs.
 */
function checkPowerAboveAlpha(alpha: number, power: number): void {
  if (power <= alpha) {
    throw new UsageError(
      `Power ${power} is not above alpha ${alpha}: the test rejects with probability alpha even when there is no effect, so a power at or below it plans for nothing; give a power above alpha (e.g. power 0.8 with alpha 0.05).`,
    );
  }
}

/** The most trials per framing R2's precision is simulated at (the largest `n` the CLI and tool take). */
export const MAX_SIMULATED_TRIALS = 100_000;

/** The smallest α whose z quantile double precision resolves (1 − α/2 < 1). */
const MIN_ALPHA = 1e-12;

/**
 * Trials per framing for a two-sided two-proportion z test of p₁ = p vs p₂ = p + δ (pooled variance under
 * H0): n = (z_{1−α/2}·√(2 p̄ q̄) + z_{1−β}·√(p₁q₁ + p₂q₂))² / δ², p̄ = (p₁ + p₂)/2, rounded up.
 */
export function trialsToDetectShift({
  baselineRate,
  shift,
  alpha = 0.05,
  power = 0.8,
  decisionsPerSession,
  intraSessionCorrelation,
}: ShiftPowerOptions): ShiftPowerResult {
  const deff = designEffect(decisionsPerSession, intraSessionCorrelation);
  const p1 = rate("Baseline rate", baselineRate);
  const p2 = rate("Shifted rate (baseline rate + shift)", baselineRate + shift);
  if (shift === 0) throw new Error("Shift 0 cannot be detected; give a non-zero shift.");
  if (!(alpha > 0 && alpha < 1))
    throw new Error(`Alpha ${alpha} is invalid; it must lie strictly between 0 and 1.`);
  if (!(power > 0 && power < 1))
    throw new Error(`Power ${power} is invalid; it must lie strictly between 0 and 1.`);
  checkPowerAboveAlpha(alpha, power);
  if (alpha < MIN_ALPHA) {
    throw new UsageError(
      `Alpha ${alpha} is too small to plan for (1 − α/2 rounds to 1 in double precision); give an alpha of at least ${MIN_ALPHA}.`,
    );
  }
  const zAlpha = normalQuantile(1 - alpha / 2);
  const zPower = normalQuantile(power);
  const pooled = (p1 + p2) / 2;
  const root =
    zAlpha * Math.sqrt(2 * pooled * (1 - pooled)) + zPower * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  const exact = (root * root) / (shift * shift);
  if (!Number.isFinite(exact * deff)) {
    throw new UsageError(
      `A shift of ${shift} cannot be told from 0 by any number of trials this planner can count; give a larger shift (delta).`,
    );
  }
  return {
    test: "two-sided two-proportion z test, pooled variance under H0",
    alpha,
    power,
    baseline_rate: p1,
    shifted_rate: p2,
    shift,
    z_alpha: zAlpha,
    z_power: zPower,
    trials_exact: exact,
    design_effect: deff,
    trials_per_framing: Math.ceil(exact * deff - 1e-9),
  };
}

export interface InvariancePowerResult {
  readonly test: string;
  readonly true_r: number;
  /** The framings' rates the power is computed at: the baseline and the rate whose R against it is true_r. */
  readonly baseline_rate: number;
  readonly other_rate: number;
  readonly alpha: number;
  readonly power: number;
  /** Noncentrality λ = (z_{1−α/2} + z_{1−β})² the G statistic needs. */
  readonly noncentrality: number;
  /** The noncentral χ² approximation's n, before rounding (where the exact search starts). */
  readonly trials_approximate: number;
  /** The fewest decisions per framing whose exact power reaches the target (independent decisions). */
  readonly trials_exact: number;
  /** "exact" (the conditional test's power summed exactly), or "approximation" above EXACT_POWER_MAX_TRIALS. */
  readonly method: "exact" | "approximation";
  /** The exact power at trials_exact. */
  readonly achieved_power: number;
  readonly design_effect: number;
  readonly trials_per_framing: number;
}

/**
 * Why no second framing can have robustness `trueR` against one choosing the first action at `baselineRate`
 * (even one always choosing a single action is more robust than that), or null when one can. The callers'
 * edges ask before any work, so a plan that cannot exist is the user's to change, not a failure.
 */
export function trueRProblem(trueR: number, baselineRate = 0.5): string | null {
  return rateWithRobustness(baselineRate, trueR) === null ? trueROutOfReach(trueR, baselineRate) : null;
}

/** The refusal, with the lowest R the baseline allows (rounded up, so the number given is reachable). */
function trueROutOfReach(trueR: number, baseline: number): string {
  const robustness = (q: number) => 1 - jensenShannon([baseline, 1 - baseline], [q, 1 - q]) / Math.LN2;
  const lowest = Math.ceil(Math.min(robustness(0), robustness(1)) * 1000) / 1000;
  // The further the baseline from ½, the further a framing always choosing one action can sit from it.
  return `True R ${trueR} is out of reach from a baseline rate of ${baseline}: even the other framing always choosing one action gives R = ${lowest.toFixed(3)}; give a true R of at least ${lowest.toFixed(3)} or a baseline farther from ½.`;
}

/**
 * Trials per framing for the invariance test to exclude R = 1 when two framings of a two-action game have
 * true robustness R < 1, the baseline framing choosing the first action at `baselineRate` (default ½) and
 * the other at the rate that gives R. The search starts from the noncentral χ² approximation: the
 * likelihood-ratio statistic G = 2·(2n)·JSD is noncentral χ²₁ with λ = 4n·JSD, JSD = (1 − R)·ln 2, and
 * power 1 − β at level α needs √λ ≈ z_{1−α/2} + z_{1−β}, so n ≈ (z_{1−α/2} + z_{1−β})² / (4(1 − R) ln 2).
 * That undershoots at small n (75% instead of 80% at R = 0.95), so the answer is the fewest n whose exact
 * power (exact-invariance-power.ts) reaches the target, times the design effect for sessions.
 * bench/coverage/power.ts checks it by simulation with the analysis's own permutation test.
 */
export function trialsToExcludeInvariance(options: {
  readonly trueR: number;
  readonly baselineRate?: number;
  readonly alpha?: number;
  readonly power?: number;
  readonly decisionsPerSession?: number;
  readonly intraSessionCorrelation?: number;
}): InvariancePowerResult {
  const { trueR, alpha = 0.05, power = 0.8 } = options;
  if (!(trueR >= 0 && trueR < 1)) {
    throw new Error(
      `True R ${trueR} is invalid; it must lie in [0, 1) (R = 1 cannot be told from invariance).`,
    );
  }
  const deff = designEffect(options.decisionsPerSession, options.intraSessionCorrelation);
  if (!(alpha > 0 && alpha < 1))
    throw new Error(`Alpha ${alpha} is invalid; it must lie strictly between 0 and 1.`);
  if (!(power > 0 && power < 1))
    throw new Error(`Power ${power} is invalid; it must lie strictly between 0 and 1.`);
  checkPowerAboveAlpha(alpha, power);
  const baseline = rate("Baseline rate", options.baselineRate ?? 0.5);
  const other = rateWithRobustness(baseline, trueR);
  if (other === null) throw new Error(trueROutOfReach(trueR, baseline));
  const root = normalQuantile(1 - alpha / 2) + normalQuantile(power);
  const noncentrality = root * root;
  const approximate = noncentrality / (4 * (1 - trueR) * Math.LN2);
  const exact = exactTrialsForPower(baseline, other, alpha, power, approximate);
  const trials = exact ?? Math.ceil(approximate - 1e-9);
  return {
    test:
      exact === null
        ? "permutation test of one choice distribution for both framings; n by the noncentral χ²₁ approximation of its G statistic (accurate at this size)"
        : "permutation test of one choice distribution for both framings; n is the fewest whose exact conditional power reaches the target",
    true_r: trueR,
    baseline_rate: baseline,
    other_rate: other,
    alpha,
    power,
    noncentrality,
    trials_approximate: approximate,
    trials_exact: trials,
    method: exact === null ? "approximation" : "exact",
    achieved_power: exact === null ? power : exactInvariancePower(trials, baseline, other, alpha),
    design_effect: deff,
    trials_per_framing: Math.ceil(trials * deff - 1e-9),
  };
}

export interface R2PrecisionOptions {
  readonly baselineRate: number;
  readonly shiftedRate: number;
  /** Trials per framing. */
  readonly n: number;
  /** Simulated data sets (default 200). */
  readonly simulations?: number;
  /** Bootstrap replicates per data set (default 1,000). */
  readonly bootstrap?: number;
  readonly seed?: number;
  readonly confidence?: number;
}

export interface R2PrecisionResult {
  readonly baseline_rate: number;
  readonly shifted_rate: number;
  readonly n: number;
  readonly simulations: number;
  readonly bootstrap: number;
  readonly seed: number;
  readonly confidence: number;
  /** R2 of the true rates. */
  readonly true_r2: number;
  readonly mean_r2: number;
  /** Mean over simulated data sets of (upper − lower)/2 of the R2 interval. */
  readonly expected_half_width: number;
}

/**
 * Expected half-width of the R2 interval at n trials per framing, by simulation: draw data sets from the
 * true rates and run the same bootstrap as `robustnessAnalysis` on each. All seeded by `seed`.
 */
export function expectedR2HalfWidth(options: R2PrecisionOptions): R2PrecisionResult {
  const { n, simulations = 200, bootstrap = 1000, seed = 1, confidence = 0.95 } = options;
  const pb = rate("Baseline rate", options.baselineRate);
  const ps = rate("Shifted rate", options.shiftedRate);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`Trials per framing ${n} is invalid; it must be a positive integer.`);
  if (!Number.isInteger(simulations) || simulations < 1) {
    throw new Error(`Simulations ${simulations} is invalid; it must be a positive integer.`);
  }
  const rng = createBootstrapRng(seed);
  const baseline = createBinomialSampler(n, pb);
  const shifted = createBinomialSampler(n, ps);
  const cell = (framing: string, cooperate: number): CountCell => ({
    player: "simulated",
    game: "simulated",
    framing,
    counts: { cooperate, defect: n - cooperate },
  });
  let sumR2 = 0;
  let sumHalfWidth = 0;
  for (let s = 0; s < simulations; s++) {
    const cells = [
      cell("baseline", drawBinomial(baseline, rng)),
      cell("shifted", drawBinomial(shifted, rng)),
    ];
    const options = {
      framings: ["baseline", "shifted"],
      bootstrap,
      // Each data set gets its own bootstrap stream, drawn from the simulation's seeded stream.
      seed: Math.floor(rng.next() * 2 ** 31),
      confidence,
      cooperativeAction: { simulated: "cooperate" },
    };
    // One report per data set, not the cells of each one's bootstrap.
    const result = withProgress(null, () => robustnessAnalysis(cells, options));
    reportProgress(`power by simulation (n = ${n})`, s + 1, simulations, "data set");
    const r2 = (result.games[0] as (typeof result.games)[number]).R2;
    sumR2 += r2.estimate;
    sumHalfWidth += (r2.ci[1] - r2.ci[0]) / 2;
  }
  return {
    baseline_rate: pb,
    shifted_rate: ps,
    n,
    simulations,
    bootstrap,
    seed,
    confidence,
    true_r2: 1 - jensenShannon([pb, 1 - pb], [ps, 1 - ps]) / Math.LN2,
    mean_r2: sumR2 / simulations,
    expected_half_width: sumHalfWidth / simulations,
  };
}

export interface PowerOptions extends ShiftPowerOptions {
  /** A true R < 1 to tell from invariance (R = 1); adds `invariance_test` to the result. */
  readonly trueR?: number;
  /** Trials per framing for the R2 precision; default: the trials the shift test needs. */
  readonly n?: number;
  readonly simulations?: number;
  readonly bootstrap?: number;
  readonly seed?: number;
  readonly confidence?: number;
}

export interface PowerResult {
  readonly shift_test: ShiftPowerResult;
  readonly r2_precision: R2PrecisionResult;
  readonly invariance_test: InvariancePowerResult | null;
}

/**
 * Planning numbers for a framing contrast: trials per framing to detect the shift, and how precisely R2
 * would be estimated at that many trials (or at `n`) for the same two rates.
 */
export function powerAnalysis(options: PowerOptions): PowerResult {
  const shiftTest = trialsToDetectShift(options);
  // The precision is simulated at the trials the shift test needs unless n is given: a tiny shift (or a
  // large design effect) would have it simulate millions of decisions per data set, for minutes.
  if (options.n === undefined && shiftTest.trials_per_framing > MAX_SIMULATED_TRIALS) {
    throw new UsageError(
      `The shift test needs ${shiftTest.trials_per_framing.toLocaleString("en-US")} trials per framing here, more than the ${MAX_SIMULATED_TRIALS.toLocaleString("en-US")} at which R2's precision can be simulated; give n (1 to ${MAX_SIMULATED_TRIALS.toLocaleString("en-US")}) to simulate at, or a larger shift.`,
    );
  }
  const precision = expectedR2HalfWidth({
    baselineRate: shiftTest.baseline_rate,
    shiftedRate: shiftTest.shifted_rate,
    n: options.n ?? shiftTest.trials_per_framing,
    simulations: options.simulations,
    bootstrap: options.bootstrap,
    seed: options.seed,
    confidence: options.confidence,
  });
  const invariance =
    options.trueR === undefined
      ? null
      : trialsToExcludeInvariance({
          trueR: options.trueR,
          baselineRate: options.baselineRate,
          alpha: options.alpha,
          power: options.power,
          decisionsPerSession: options.decisionsPerSession,
          intraSessionCorrelation: options.intraSessionCorrelation,
        });
  return { shift_test: shiftTest, r2_precision: precision, invariance_test: invariance };
}
