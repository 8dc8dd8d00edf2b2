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

/**
 * The λ ∈ [0, LAMBDA_MAX] maximising the binomial log-likelihood. The log-likelihood is concave in λ,
 * so the maximiser is 0 when the score at 0 is ≤ 0, LAMBDA_MAX when the score there is ≥ 0, and
 * otherwise the root of the score, found by Newton steps kept inside a shrinking bracket (a step that
 * would leave the bracket is replaced by bisection), to 1e−12.
 * Observations with Δu = 0 carry no information about λ; null when no observation has Δu ≠ 0.
 */
export function fitPooledLambda(observations: readonly LogitObservation[]): number | null {
  const informative = observations.filter((o) => o.deltaU !== 0 && o.n > 0);
  if (informative.length === 0) return null;
  if (score(informative, 0) <= 0) return 0;
  if (score(informative, LAMBDA_MAX) >= 0) return LAMBDA_MAX;
  let lo = 0;
  let hi = LAMBDA_MAX;
  let lambda = LAMBDA_MAX / 2;
  for (let iteration = 0; iteration < 200 && hi - lo > 1e-12; iteration++) {
    const s = score(informative, lambda);
    if (s === 0) return lambda;
    if (s > 0) lo = lambda;
    else hi = lambda;
    const step = s / information(informative, lambda);
    const newton = lambda + step;
    lambda = Number.isFinite(newton) && newton > lo && newton < hi ? newton : (lo + hi) / 2;
    if (Math.abs(step) < 1e-13) break;
  }
  return lambda;
}
