// The R interval of a two-action game by test inversion (SPEC §4 "inference for invariance"; issue 12).
// R = 1 − max JSD / ln 2 is a maximum of plug-in divergences: its sampling distribution depends on how
// many framings crowd the extremes and, near p = 0 or 1, on the discreteness of the counts, so a bootstrap
// around the data (which has its own, different crowding and zeros) cannot be re-centred to cover. Test
// inversion asks the question the other way round: the interval is every r for which data like ours are
// not surprising when the true R is r (Casella & Berger 2002, §9.2; Garthwaite & Buckland 1992):
//
//   lower end: the r ≤ R̂ at which P_r(R* ≥ R̂) = α/2, P_r the framings' binomials at the restricted
//              maximum-likelihood configuration with R = r (the two extreme framings pulled apart, the
//              others kept);
//   upper end: the r ≥ R̂ at which P_r(R* ≤ R̂) = α/2, P_r at the configuration with R = r on the path
//              that shrinks every framing toward the pooled rate on the logit scale; 1 when the
//              permutation test of invariance does not reject at α (the boundary value R = 1 itself);
//
// with tail probabilities in mid-p form (a tie R* = R̂ counts one half, Lancaster 1961: the counts are
// discrete), from `SIMULATIONS` simulated records per candidate with common random numbers (the same
// uniforms for every candidate, so the tail probability moves smoothly and bisection is stable). Rates
// are Jeffreys-smoothed, (x + ½)/(n + 1), so a framing with no cooperation can still vary.
//
// Sessions nested in cells enter by their design effect (Rao & Scott 1992): the pooled ratio of the
// between-session variance of a framing's rate to its binomial variance, deff ≥ 1, and each framing is
// simulated as a binomial of n / deff decisions. (Sessions that span cells, and games with more actions,
// keep the bootstrap interval of `robustness-interval.ts`.) Measured on `npm run coverage`.
import type { UniformSource } from "./fast-rng.js";

export const INVERSION_METHOD =
  "test inversion (two-action games): lower end where P_r(R* ≥ R̂) = α/2 at the restricted maximum-likelihood configuration with R = r, upper end where P_r(R* ≤ R̂) = α/2 on the logit path toward the pooled rate (1 when the permutation test does not reject at α); mid-p tails from 2,000 simulated records per candidate with common random numbers; Jeffreys-smoothed rates; sessions nested in cells by their design effect (binomials of n / deff); where no r ≤ R̂ reaches α/2 (R̂ = 1 from exactly tied counts) the lower end is the bootstrap one";

/** Simulated records per candidate r (fewer when the analysis asks for fewer bootstrap replicates). */
export const SIMULATIONS = 2000;

/** One framing of a two-action game: decisions that chose the first action, of n, and its sessions. */
export interface InversionFraming {
  readonly x: number;
  readonly n: number;
  /** Per session (each listed `weight` times): first-action count and size; absent = independent decisions. */
  readonly sessions?: readonly { readonly x: number; readonly n: number; readonly weight: number }[];
}

const LN2 = Math.LN2;
const EPS = 1e-12;
/** Bisection steps on r: the interval ends to within 2⁻¹⁵ of their bracket. */
const STEPS = 15;

const entropy = (p: number): number => (p <= 0 || p >= 1 ? 0 : -p * Math.log(p) - (1 - p) * Math.log(1 - p));
/** JSD of two Bernoulli distributions, in nats. */
const bernoulliJsd = (p: number, q: number): number =>
  Math.max(0, entropy((p + q) / 2) - (entropy(p) + entropy(q)) / 2);
/** R of a set of two-action rates: the largest JSD is always that of the extremes (see `binaryMaxJsd`). */
export function robustnessOf(rates: ArrayLike<number>): number {
  let lo = 1;
  let hi = 0;
  for (let f = 0; f < rates.length; f++) {
    const p = rates[f] as number;
    if (p < lo) lo = p;
    if (p > hi) hi = p;
  }
  return 1 - bernoulliJsd(lo, hi) / LN2;
}

const logit = (p: number): number => Math.log(p / (1 - p));
const logistic = (z: number): number => 1 / (1 + Math.exp(-z));
export const smoothed = (x: number, n: number): number => (x + 0.5) / (n + 1);
/** Log-likelihood of rate q for x of n, Jeffreys-smoothed like the rates (keeps the optimum inside (0, 1)). */
const logLikelihood = (x: number, n: number, q: number): number =>
  (x + 0.5) * Math.log(q) + (n - x + 0.5) * Math.log(1 - q);

/** The rate b > a with JSD(a, b) = c nats (the largest rate below 1 when even that is closer). */
function partnerAbove(a: number, c: number): number {
  let lo = a;
  let hi = 1 - 1e-12;
  if (bernoulliJsd(a, hi) <= c) return hi;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (bernoulliJsd(a, mid) < c) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Golden-section search for the maximum of a unimodal f on [lo, hi]. */
function argmax(f: (a: number) => number, lo: number, hi: number): number {
  const g = (Math.sqrt(5) - 1) / 2;
  let a = lo;
  let b = hi;
  let c = b - g * (b - a);
  let d = a + g * (b - a);
  let fc = f(c);
  let fd = f(d);
  for (let i = 0; i < 48; i++) {
    if (fc > fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}

/**
 * The most likely rates with R = r ≤ R(smoothed rates): the lowest and highest framing pulled apart to
 * JSD (1 − r)·ln 2, where along that curve the likelihood of their counts is largest; the others kept.
 */
export function stretchedRates(
  x: readonly number[],
  n: readonly number[],
  rates: readonly number[],
  r: number,
): number[] {
  const c = (1 - r) * LN2;
  let low = 0;
  let high = 0;
  rates.forEach((p, f) => {
    if (p < (rates[low] as number)) low = f;
    if (p > (rates[high] as number)) high = f;
  });
  if (low === high) high = low === 0 ? 1 : 0;
  const score = (a: number): number =>
    logLikelihood(x[low] as number, n[low] as number, a) +
    logLikelihood(x[high] as number, n[high] as number, partnerAbove(a, c));
  const a = argmax(score, 1e-9, Math.min(rates[low] as number, rates[high] as number));
  const b = partnerAbove(a, c);
  return rates.map((p, f) => (f === low ? a : f === high ? b : p));
}

/** The rates with R = r ≥ R(smoothed rates) on the logit path toward the pooled rate (t = 0 is invariance). */
export function shrunkRates(rates: readonly number[], pooled: number, r: number): number[] {
  const centre = logit(pooled);
  const at = (t: number): number[] => rates.map((p) => logistic(centre + t * (logit(p) - centre)));
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40 && robustnessOf(at(hi)) > r; i++) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (robustnessOf(at(mid)) > r) lo = mid;
    else hi = mid;
  }
  return at((lo + hi) / 2);
}

/** Binomial(n, q) CDF at 0..n. */
function binomialCdf(n: number, q: number, out: Float64Array): void {
  let logPmf = n * Math.log1p(-q);
  const ratio = Math.log(q) - Math.log1p(-q);
  let sum = 0;
  for (let j = 0; j <= n; j++) {
    sum += Math.exp(logPmf);
    out[j] = sum;
    logPmf += Math.log((n - j) / (j + 1)) + ratio;
  }
  out[n] = 1;
}

/** The smallest j with cdf[j] ≥ u: the inverse-CDF draw, monotone in q for a fixed u. */
function inverse(cdf: Float64Array, n: number, u: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cdf[mid] as number) >= u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The design effect of sessions nested in the framings: pooled between-session over binomial variance, ≥ 1. */
export function designEffect(framings: readonly InversionFraming[]): number {
  let between = 0;
  let binomial = 0;
  for (const f of framings) {
    if (f.sessions === undefined || f.x === 0 || f.x === f.n) continue;
    const p = f.x / f.n;
    let squares = 0;
    let count = 0;
    for (const s of f.sessions) {
      squares += s.weight * (s.x - s.n * p) ** 2;
      count += s.weight;
    }
    if (count < 2) continue;
    between += (count / (count - 1)) * squares;
    binomial += f.n * p * (1 - p);
  }
  return binomial > 0 ? Math.max(1, between / binomial) : 1;
}

/**
 * The test-inversion interval of R (before attenuation) for one two-action game; `rejectsInvariance`
 * is the permutation test's verdict at α = 1 − confidence. A lower end of NaN: the test cannot place it
 * (see below), and the caller keeps the bootstrap's.
 */
export function invertRobustness(
  framings: readonly InversionFraming[],
  confidence: number,
  rejectsInvariance: boolean,
  simulations: number,
  rng: UniformSource,
): [number, number] {
  const alpha = 1 - confidence;
  const x = framings.map((f) => f.x);
  const n = framings.map((f) => f.n);
  const estimate = robustnessOf(framings.map((f) => f.x / f.n));
  const deff = designEffect(framings);
  // Simulated framing sizes: the decisions a framing is worth once its sessions' correlation is counted.
  const size = n.map((m) => Math.max(1, Math.round(m / deff)));
  const F = framings.length;
  const uniforms = new Float64Array(simulations * F);
  rng.fill(uniforms, uniforms.length);
  const cdfs = size.map((m) => new Float64Array(m + 1));
  const simulated = new Float64Array(F);

  /** Mid-p tail probabilities P(R* ≥ R̂) and P(R* ≤ R̂) at the given true rates. */
  const tails = (rates: readonly number[]): { above: number; below: number } => {
    rates.forEach((q, f) => {
      binomialCdf(size[f] as number, q, cdfs[f] as Float64Array);
    });
    let above = 0;
    let below = 0;
    for (let s = 0; s < simulations; s++) {
      for (let f = 0; f < F; f++) {
        const m = size[f] as number;
        simulated[f] = inverse(cdfs[f] as Float64Array, m, uniforms[s * F + f] as number) / m;
      }
      const r = robustnessOf(simulated);
      const weight = Math.abs(r - estimate) <= EPS ? 0.5 : 1;
      if (r >= estimate - EPS) above += weight;
      if (r <= estimate + EPS) below += weight;
    }
    return { above: above / simulations, below: below / simulations };
  };

  const rates = framings.map((f) => smoothed(f.x, f.n));
  const pooled = smoothed(
    x.reduce((s, v) => s + v, 0),
    n.reduce((s, v) => s + v, 0),
  );
  const target = alpha / 2;
  // Lower end: P_r(R* ≥ R̂) grows with r; the largest r in [0, R̂] where it is still ≤ α/2. When even
  // r = R̂ gives less (R̂ = 1 from counts that tie exactly, an event rarer than α/2 at large n under any
  // r, R = 1 included) the test cannot place the end, and NaN says so.
  const aboveAt = (r: number): number => tails(stretchedRates(x, n, rates, r)).above;
  let lower = Number.NaN;
  if (aboveAt(estimate) > target) {
    let lo = 0;
    let hi = estimate;
    for (let i = 0; i < STEPS; i++) {
      const mid = (lo + hi) / 2;
      if (aboveAt(mid) <= target) lo = mid;
      else hi = mid;
    }
    lower = lo;
  }
  // Upper end: P_r(R* ≤ R̂) falls as r grows; the smallest r in [R̂, 1] where it is ≤ α/2.
  let upper = 1;
  if (rejectsInvariance) {
    const belowAt = (r: number): number => tails(shrunkRates(rates, pooled, r)).below;
    // The permutation test rejected R = 1 at α; when the tail at (nearly) R = 1 is still above α/2, the
    // end is placed at level α, the test's own, so that it falls below 1 as the verdict says.
    const level = belowAt(1) > target ? alpha : target;
    upper = estimate;
    if (belowAt(estimate) > level) {
      let lo = estimate;
      let hi = 1;
      for (let i = 0; i < STEPS; i++) {
        const mid = (lo + hi) / 2;
        if (belowAt(mid) <= level) hi = mid;
        else lo = mid;
      }
      upper = hi;
    }
  }
  return [Number.isNaN(lower) ? lower : Math.min(lower, estimate), Math.max(upper, estimate)];
}
