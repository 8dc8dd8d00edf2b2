// Maximum-likelihood λ of the logit response P(C) = 1/(1 + exp(−λ·Δu_G)) pooled across games (SPEC §4).

/** λ is searched on [0, LAMBDA_MAX], the same cap as the per-cell estimate. */
export const LAMBDA_MAX = 20;

/** One game's data for the fit: x cooperative choices out of n, and its normalised payoff difference. */
export interface LogitObservation {
  readonly cooperative: number;
  readonly n: number;
  readonly deltaU: number;
}

/** σ(z) = 1/(1 + e^−z), evaluated without overflow for large |z|. */
function logistic(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** Score dℓ/dλ = Σ Δu_g (x_g − n_g σ(λ Δu_g)); strictly decreasing in λ unless every Δu_g is 0. */
function score(observations: readonly LogitObservation[], lambda: number): number {
  let s = 0;
  for (const o of observations) s += o.deltaU * (o.cooperative - o.n * logistic(lambda * o.deltaU));
  return s;
}

/** Fisher information Σ n_g Δu_g² σ(1 − σ) = −dS/dλ. */
function information(observations: readonly LogitObservation[], lambda: number): number {
  let i = 0;
  for (const o of observations) {
    const p = logistic(lambda * o.deltaU);
    i += o.n * o.deltaU * o.deltaU * p * (1 - p);
  }
  return i;
}

/** Newton/bisection steps allowed; bisection alone reaches 2^−60 of the bracket in 60. */
const MAX_ITERATIONS = 200;

/**
 * The λ ∈ [0, LAMBDA_MAX] maximising the binomial log-likelihood. The log-likelihood is concave in λ,
 * so the maximiser is 0 when the score at 0 is ≤ 0, LAMBDA_MAX when the score there is ≥ 0, and
 * otherwise the unique root of the (strictly decreasing) score, found by safeguarded Newton:
 *
 * 1. evaluate the score at the current λ and stop if it is 0 to rounding (|S| ≤ 1e−12 · Σ n_g |Δu_g|);
 * 2. shrink the bracket [lo, hi] that holds the root (S(lo) > 0 > S(hi)) to the current λ's side;
 * 3. take the Newton step λ + S/I; if it leaves the bracket, bisect instead;
 * 4. stop when a Newton step moved λ by ≤ 1e−13 (quadratic convergence: the root is then reached to
 *    rounding) or the bracket is narrower than 1e−13, returning the newest λ.
 *
 * The convergence test reads the score and the Newton step before any fallback, so a bisection midpoint
 * is never returned as converged (the wave-1 fit did exactly that, e.g. 7.525 instead of 5.05).
 * Observations with Δu = 0 carry no information about λ; null when no observation has Δu ≠ 0.
 */
export function fitPooledLambda(observations: readonly LogitObservation[], start = 1): number | null {
  const informative = observations.filter((o) => o.deltaU !== 0 && o.n > 0);
  if (informative.length === 0) return null;
  if (score(informative, 0) <= 0) return 0;
  if (score(informative, LAMBDA_MAX) >= 0) return LAMBDA_MAX;
  const tolerance = 1e-12 * informative.reduce((s, o) => s + o.n * Math.abs(o.deltaU), 0);
  let lo = 0;
  let hi = LAMBDA_MAX;
  // Start where one logit-scale unit of the typical |Δu| puts the rates: inside the bracket, near most roots
  // (or at a caller's warm start, a nearby fit's λ: a bootstrap replicate starts from the point estimate).
  let lambda = start > 0 && start < LAMBDA_MAX ? start : 1;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    const s = score(informative, lambda);
    if (Math.abs(s) <= tolerance) return lambda;
    if (s > 0) lo = lambda;
    else hi = lambda;
    const newton = lambda + s / information(informative, lambda);
    if (Number.isFinite(newton) && newton > lo && newton < hi) {
      const moved = Math.abs(newton - lambda);
      lambda = newton;
      if (moved <= 1e-13 * Math.max(1, lambda)) return lambda;
    } else {
      lambda = (lo + hi) / 2;
    }
    if (hi - lo <= 1e-13 * Math.max(1, hi)) return lambda;
  }
  return lambda;
}
