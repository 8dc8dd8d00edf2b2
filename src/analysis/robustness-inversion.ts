// The R interval of a two-action game by test inversion (SPEC §4 "inference for invariance"; issue 12).
// R = 1 − max JSD / ln 2 is a maximum of plug-in divergences: its sampling distribution depends on how
// many framings crowd the extremes and, near p = 0 or 1, on the discreteness of the counts, so a bootstrap
// around the data (which has its own, different crowding and zeros) cannot be re-centred to cover. Test
// inversion asks the question the other way round: the interval is every r for which data like ours are
// not surprising when the true R is r (Casella & Berger 2002, §9.2):
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
// uniforms for every candidate, so the tail probability moves smoothly in r and the search for each end is stable). Rates
// are Jeffreys-smoothed, (x + ½)/(n + 1), so a framing with no cooperation can still vary.
//
// Sessions nested in cells enter by their design effect (Rao & Scott 1992): the pooled ratio of the
// between-session variance of a framing's rate to its binomial variance, deff ≥ 1, and each framing is
// simulated as a binomial of n / deff decisions. (Sessions that span cells, and games with more actions,
// keep the bootstrap interval of `robustness-interval.ts`.) Measured on `npm run coverage`.
import { bernoulliJsd } from "./divergence.js";
import type { UniformSource } from "./fast-rng.js";
import { SimulatedTails } from "./simulated-tails.js";

export const INVERSION_METHOD =
  "test inversion (two-action games): lower end where P_r(R* ≥ R̂) = α/2 at the restricted maximum-likelihood configuration with R = r; upper end where P_r(R* ≤ R̂) = α/2 on the logit path toward the pooled rate (at level α when the permutation test rejects R = 1 but the tail at R = 1 exceeds α/2; 1 when the permutation test does not reject at α); mid-p tails from 1,000 simulated records per candidate r (B when B is smaller) with common random numbers; Jeffreys-smoothed rates; sessions nested in cells by their pooled design effect (binomials of n / deff); where no r ≤ R̂ reaches α/2 (R̂ = 1 from exactly tied counts) the lower end is the bootstrap one";

/**
 * Simulated records per candidate r (fewer when the analysis asks for fewer bootstrap replicates): the
 * number the coverage grid of bench/coverage was measured with (B = 1,000 there).
 */
export const SIMULATIONS = 1000;

/** One framing of a two-action game: decisions that chose the first action, of n, and its sessions. */
export interface InversionFraming {
  readonly x: number;
  readonly n: number;
  /** Per session (each listed `weight` times): first-action count and size; absent = independent decisions. */
  readonly sessions?: readonly { readonly x: number; readonly n: number; readonly weight: number }[];
}

const LN2 = Math.LN2;
/** The interval ends are placed to within this much D = √(1 − R), in at most this many tail evaluations each. */
const TOLERANCE = 5e-4;
const MAX_EVALUATIONS = 16;
/** Simulated records of the first, rough search for each end. */
const COARSE = 250;

/** R of a set of two-action rates: the largest JSD is always that of the extremes (see `binaryUnitJsd` in divergence.ts). */
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

/**
 * The rate b > a with JSD(a, b) = c nats (the largest rate below 1 when even that is closer): Newton's
 * method on b, ∂JSD/∂b = ½[logit b − logit((a + b)/2)] > 0, kept inside a shrinking bracket.
 */
function partnerAbove(a: number, c: number): number {
  let lo = a;
  let hi = 1 - 1e-12;
  if (bernoulliJsd(a, hi) <= c) return hi;
  let b = Math.min(hi, a + Math.sqrt(8 * c * Math.max(a * (1 - a), 1e-6))); // JSD ≈ (b − a)²/(8a(1 − a))
  for (let i = 0; i < 60; i++) {
    const f = bernoulliJsd(a, b) - c;
    if (Math.abs(f) < 1e-15) break;
    if (f < 0) lo = b;
    else hi = b;
    const slope = (logit(b) - logit((a + b) / 2)) / 2;
    let next = b - f / slope;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - b) < 1e-15) break;
    b = next;
  }
  return b;
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
  for (let i = 0; i < 36; i++) {
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
  const at = (p: number, t: number): number => logistic(centre + t * (logit(p) - centre));
  // The path keeps the framings' order, so R along it is that of the two extremes.
  const low = Math.min(...rates);
  const high = Math.max(...rates);
  const rAt = (t: number): number => 1 - bernoulliJsd(at(low, t), at(high, t)) / LN2;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40 && rAt(hi) > r; i++) {
    lo = hi;
    hi *= 2;
  }
  for (let i = 0; i < 44; i++) {
    const mid = (lo + hi) / 2;
    if (rAt(mid) > r) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  return rates.map((p) => at(p, t));
}

/**
 * Where an increasing step function g crosses 0 on [a, b] (g(a) ≤ 0 < g(b)): the Illinois variant of
 * regula falsi, which the nearly smooth tail probabilities let converge in a handful of evaluations,
 * bisecting every fourth step so that a stalled side cannot hold it up. Returns the final bracket
 * [lo, hi] with g(lo) ≤ 0 < g(hi), or [r, r] at an r where |g| is within `resolution`.
 */
function crossing(
  g: (r: number) => number,
  a: number,
  b: number,
  ga: number,
  gb: number,
  resolution: number,
): [number, number] {
  let lo = a;
  let hi = b;
  let gLo = ga;
  let gHi = gb;
  let side = 0;
  // Converged when the bracket is narrow on the scale D = √(1 − R), on which the tails move about
  // linearly: near R = 1 a bracket of fixed width in R would be as wide as the whole interval.
  const width = (): number => Math.sqrt(1 - lo) - Math.sqrt(1 - hi);
  for (let i = 0; i < MAX_EVALUATIONS && width() > TOLERANCE; i++) {
    let mid = lo - (gLo * (hi - lo)) / (gHi - gLo);
    if (!(mid > lo + TOLERANCE / 4 && mid < hi - TOLERANCE / 4) || i % 4 === 3) mid = (lo + hi) / 2;
    const gm = g(mid);
    // Within one simulated record of the level: as close as the simulated tail can tell.
    if (Math.abs(gm) <= resolution) return [mid, mid];
    if (gm <= 0) {
      lo = mid;
      gLo = gm;
      if (side === -1) gHi /= 2;
      side = -1;
    } else {
      hi = mid;
      gHi = gm;
      if (side === 1) gLo /= 2;
      side = 1;
    }
  }
  return [lo, hi];
}

/** One evaluated point of a tail function. */
interface Point {
  readonly r: number;
  readonly g: number;
}

/**
 * Where g crosses 0 between `near` (the estimate, evaluated) and `far` (a bound whose sign is known),
 * starting at `start`: from there, steps of `spread` (doubling) toward `far` while g keeps near's sign,
 * or toward `near` once it has far's, until the sign changes; then `crossing` on that narrow bracket —
 * far fewer evaluations than regula falsi from the bounds, the tail being sigmoid in r and nearly flat
 * far from the end.
 */
function crossingAround(
  g: (r: number) => number,
  near: Point,
  far: Point,
  start: number,
  spread: number,
  resolution: number,
): [number, number] {
  let inner = near;
  let outer = far;
  const between = (r: number): boolean => (r - inner.r) * (outer.r - r) > 0;
  if (spread > 0 && between(start)) {
    const first = { r: start, g: g(start) };
    const outward = first.g <= 0 !== far.g <= 0; // still on near's side: the crossing is further out
    if (outward) inner = first;
    else outer = first;
    let step = spread * Math.sign(far.r - near.r) * (outward ? 1 : -1);
    for (let r = first.r + step; between(r); r = first.r + step) {
      const v = g(r);
      const point = { r, g: v };
      if (v <= 0 === far.g <= 0) outer = point;
      else inner = point;
      if ((v <= 0 === far.g <= 0) === outward) break;
      step *= 2;
    }
  }
  const [a, b] = inner.r < outer.r ? [inner, outer] : [outer, inner];
  return crossing(g, a.r, b.r, a.g, b.g, resolution);
}

/**
 * The end of the interval on one side: first with the leading `COARSE` simulated records (cheap, from the
 * bootstrap's end), then with all of them from there, in a bracket a few Monte Carlo errors wide.
 */
function intervalEnd(
  tail: (r: number, records: number) => number,
  near: Point,
  far: Point,
  guess: number,
  simulations: number,
  side: 0 | 1,
): number {
  const coarse = Math.min(COARSE, simulations);
  const g1 = (r: number): number => tail(r, coarse);
  const start = Math.min(1, Math.max(0, guess));
  const nearCoarse = { r: near.r, g: g1(near.r) };
  const rough = crossingAround(g1, nearCoarse, far, start, Math.abs(start - near.r), 1 / coarse);
  if (coarse === simulations) return rough[side];
  const first = (rough[0] + rough[1]) / 2;
  const g = (r: number): number => tail(r, simulations);
  return crossingAround(g, near, far, first, Math.abs(first - near.r) / 8, 1 / simulations)[side];
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
 * is the permutation test's verdict at α = 1 − confidence; `guess`, where the search for each end starts
 * (the bootstrap interval: close, and any value is safe). A lower end of NaN: the test cannot place it
 * (see below), and the caller keeps the bootstrap's.
 */
export function invertRobustness(
  framings: readonly InversionFraming[],
  confidence: number,
  rejectsInvariance: boolean,
  simulations: number,
  rng: UniformSource,
  guess: readonly [number, number],
): [number, number] {
  const alpha = 1 - confidence;
  const x = framings.map((f) => f.x);
  const n = framings.map((f) => f.n);
  const estimate = robustnessOf(framings.map((f) => f.x / f.n));
  const deff = designEffect(framings);
  // Simulated framing sizes: the decisions a framing is worth once its sessions' correlation is counted.
  const size = n.map((m) => Math.max(1, Math.round(m / deff)));
  const uniforms = new Float64Array(simulations * framings.length);
  rng.fill(uniforms, uniforms.length);
  const simulated = new SimulatedTails(size, (1 - estimate) * LN2, uniforms, simulations);

  const rates = framings.map((f) => smoothed(f.x, f.n));
  const pooled = smoothed(
    x.reduce((s, v) => s + v, 0),
    n.reduce((s, v) => s + v, 0),
  );
  const target = alpha / 2;
  // Lower end: P_r(R* ≥ R̂) grows with r; the largest r in [0, R̂] where it is still ≤ α/2. When even
  // r = R̂ gives less (R̂ = 1 from counts that tie exactly, an event rarer than α/2 at large n under any
  // r, R = 1 included) the test cannot place the end, and NaN says so.
  const above = (r: number, records: number): number =>
    simulated.at(stretchedRates(x, n, rates, r), records).above - target;
  let lower = Number.NaN;
  const atEstimate = above(estimate, simulations);
  if (atEstimate > 0) {
    // At r = 0 the extremes are 0 and 1, so no simulated record reaches R̂ > 0: g(0) = −α/2.
    const near = { r: estimate, g: atEstimate };
    lower = intervalEnd(above, near, { r: 0, g: -target }, guess[0], simulations, 0);
  }
  // Upper end: P_r(R* ≤ R̂) falls as r grows; the smallest r in [R̂, 1] where it is ≤ α/2.
  let upper = 1;
  if (rejectsInvariance) {
    const belowAt = (r: number, records: number): number =>
      simulated.at(shrunkRates(rates, pooled, r), records).below;
    // The permutation test rejected R = 1 at α; when the tail at (nearly) R = 1 is still above α/2, the
    // end is placed at level α, the test's own, so that it falls below 1 as the verdict says.
    const atOne = belowAt(1, simulations);
    const level = atOne > target ? alpha : target;
    const below = (r: number, records: number): number => level - belowAt(r, records);
    const near = { r: estimate, g: below(estimate, simulations) };
    if (near.g > 0) upper = estimate;
    else if (level - atOne > 0) {
      upper = intervalEnd(below, near, { r: 1, g: level - atOne }, guess[1], simulations, 1);
    }
  }
  return [Number.isNaN(lower) ? lower : Math.min(lower, estimate), Math.max(upper, estimate)];
}
