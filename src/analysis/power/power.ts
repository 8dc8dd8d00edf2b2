import type { CountCell } from "../count-cells.js";
import { jensenShannon } from "../divergence.js";
import { reportProgress, withProgress } from "../progress/analysis-progress.js";
import { robustnessAnalysis } from "../robustness/robustness.js";
import { createBinomialSampler, drawBinomial } from "../sampling/binomial-sampler.js";
import { createBootstrapRng } from "../sampling/fast-rng.js";
import { normalQuantile } from "../sampling/normal-quantile.js";

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
  const zAlpha = normalQuantile(1 - alpha / 2);
  const zPower = normalQuantile(power);
  const pooled = (p1 + p2) / 2;
  const root =
    zAlpha * Math.sqrt(2 * pooled * (1 - pooled)) + zPower * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2));
  const exact = (root * root) / (shift * shift);
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
  readonly alpha: number;
  readonly power: number;
  /** Noncentrality λ = (z_{1−α/2} + z_{1−β})² the G statistic needs. */
  readonly noncentrality: number;
  readonly trials_exact: number;
  readonly design_effect: number;
  readonly trials_per_framing: number;
}

/**
 * Trials per framing for the invariance test to exclude R = 1 when two framings of a two-action game have
 * true robustness R < 1. With n decisions per framing the likelihood-ratio statistic is G = 2·(2n)·JSD
 * (the JSD with equal weights is the mutual information of framing and choice), χ²₁ under invariance and
 * noncentral χ²₁ with λ = 4n·JSD otherwise, JSD = (1 − R)·ln 2. Power 1 − β at two-sided level α needs
 * √λ ≈ z_{1−α/2} + z_{1−β} (the far tail ignored), so n = (z_{1−α/2} + z_{1−β})² / (4(1 − R) ln 2),
 * times the design effect for sessions. The permutation test the analysis reports has the same power to
 * first order; bench/coverage/power.ts checks it by simulation.
 */
export function trialsToExcludeInvariance(options: {
  readonly trueR: number;
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
  const root = normalQuantile(1 - alpha / 2) + normalQuantile(power);
  const noncentrality = root * root;
  const exact = noncentrality / (4 * (1 - trueR) * Math.LN2);
  return {
    test: "likelihood-ratio (G) test of one choice distribution for both framings, noncentral χ²₁ approximation",
    true_r: trueR,
    alpha,
    power,
    noncentrality,
    trials_exact: exact,
    design_effect: deff,
    trials_per_framing: Math.ceil(exact * deff - 1e-9),
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
          alpha: options.alpha,
          power: options.power,
          decisionsPerSession: options.decisionsPerSession,
          intraSessionCorrelation: options.intraSessionCorrelation,
        });
  return { shift_test: shiftTest, r2_precision: precision, invariance_test: invariance };
}
