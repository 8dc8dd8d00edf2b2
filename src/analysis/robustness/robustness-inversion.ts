// The R interval of a two-action game by test inversion (SPEC §4 "inference for invariance").
// R = 1 − max JSD / ln 2 is a maximum of plug-in divergences: its sampling distribution depends on how
// many framings crowd the extremes and, near p = 0 or 1, on the discreteness of the counts, so a bootstrap
// around the data (which has its own, different crowding and zeros) cannot be re-centred to cover. Test
// inversion asks the question the other way round: the interval is every r for which data like ours are
// not surprising when the true R is r (Casella & Berger 2002, §9.2):
//
//   lower end: the r ≤ R̂ at which P_r(R* ≥ R̂) = α/2, P_r the framings' binomials at the restricted
//              maximum-likelihood configuration with R = r (the most likely pair of framings, any pair,
//              pulled apart, the others clipped between them), or, where it is larger, at that
//              configuration with the framings that chose one action every time left on their boundary
//              (`onBoundary`);
//   upper end: the r ≥ R̂ at which P_r(R* ≤ R̂) = α/2, P_r at the restricted maximum-likelihood
//              configuration with R = r (a band of that width, every framing clipped into it, those
//              within a standard error of an edge put on it); 1 when the permutation test of
//              invariance does not reject at α (the boundary value R = 1 itself);
//
// with tail probabilities in mid-p form (a tie R* = R̂ counts one half, Lancaster 1961: the counts are
// discrete), computed exactly over the framings' binomials (extreme-pair-tails.ts), so the tail moves
// smoothly in r, the search for each end is stable and the interval is the same on every run. Rates are
// Jeffreys-smoothed, (x + ½)/(n + 1), so a framing with no cooperation can still vary.
//
// Sessions enter by each framing's design effect (Rao & Scott 1992; Kish's 1 + (m̃ − 1)ρ with the
// framing's own session lengths, see designEffects): each framing is a binomial of n_f / deff_f decisions
// in the tails. Sessions that span cells enter through their part in each cell, and the correlation between
// framings that a shared session adds divides every size by one more factor (shared-session-factor.ts).
// Games with more actions get the interval of `multi-action-interval.ts`. Measured on
// `npm run coverage`.
import { bernoulliEntropy, bernoulliJsd, bernoulliJsdWith } from "../../domain/divergence.js";
import { normalQuantile } from "../sampling/normal-quantile.js";
import { ExtremePairTails } from "./extreme-pair-tails.js";
import type { FramingSessions } from "./framing-sessions.js";
import { sharedSessionFactor } from "./shared-session-factor.js";

export const INVERSION_METHOD =
  "test inversion (two-action games): lower end where P_r(R* ≥ R̂) = α/2 at the restricted maximum-likelihood configuration with R = r (over every pair of framings as the extremes); upper end where P_r(R* ≤ R̂) = α/2 at the restricted maximum-likelihood configuration with R = r (a band of that width placed where the record is most likely, every framing clipped into it and each framing within one standard error of an edge put on it; at level α when the permutation test rejects R = 1 but the tail at R = 1 exceeds α/2; 1 when the permutation test does not reject at α); exact mid-p tails (summed over the lowest framing rate's lattice values); Jeffreys-smoothed rates; sessions by each framing's own design effect 1 + (m̃_f − 1)ρ̂, ρ̂ the intra-session correlation pooled over framings (binomials of n_f / deff_f), and, where 20 or more sessions decided in several framings, divided again by c = Var(p̂_a − p̂_b)/(Var p̂_a + Var p̂_b) (cluster-robust, in [0.1, 1]) for the covariance they add; where some framing chose one action every time, the lower end's tail is the larger of those at that configuration and at the same search with such framings kept on their boundary rate 0 or 1 (unsmoothed); where no r ≤ R̂ reaches α/2 even so (R̂ = 1 from counts tied exactly between both actions) the lower end is the bootstrap one";

/** One framing of a two-action game: decisions that chose the first action, of n, and its sessions. */
export interface InversionFraming {
  readonly x: number;
  readonly n: number;
  /** Its sessions; absent = independent decisions. */
  readonly sessions?: FramingSessions;
}

const LN2 = Math.LN2;
/** The interval ends are placed to within this much D = √(1 − R), in at most this many tail evaluations each. */
const TOLERANCE = 5e-4;
const MAX_EVALUATIONS = 16;
/**
 * A tail this close to its level on the Φ⁻¹ scale is the end: at α/2 = 2.5%, within about 0.006 points
 * (the end then sits within ~10⁻⁴ of R of the exact crossing, below the reported precision).
 */
const RESOLUTION = 1e-3;

/** Φ⁻¹ of a tail probability, finite at 0 and 1 (a bound far beyond any level searched for). */
export const probit = (p: number): number => normalQuantile(Math.min(1 - 1e-15, Math.max(1e-300, p)));

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
export const smoothed = (x: number, n: number): number => (x + 0.5) / (n + 1);
/**
 * Log-likelihood of rate q for x of n with `prior` pseudo-decisions added to each action: ½ (Jeffreys,
 * like the rates: keeps the optimum inside (0, 1)) unless a caller says otherwise (`onBoundary`).
 */
const logLikelihood = (x: number, n: number, q: number, prior = 0.5): number =>
  (x + prior) * Math.log(q) + (n - x + prior) * Math.log(1 - q);

/** The highest rate a partner may take (a rate of 1 would make the likelihood's log infinite). */
const PARTNER_CAP = 1 - 1e-12;

/**
 * `searchPartnerAbove`'s answers, remembered by their arguments: the searches for a lower end ask the same
 * (a, c, guess) again and again (every `stretchedRates` call the floor's partner, every pair's search its
 * best point once more, the same level for two sets of rates …), three calls in five at 10,000 decisions.
 * Direct-mapped on a hash of the arguments' bits, kept per thread. The search is a function of its
 * arguments alone, so a hit returns the very number it would compute.
 */
const PARTNER_MEMO_BITS = 12;
const partnerArguments = new Float64Array(3 << PARTNER_MEMO_BITS);
const partnerAnswers = new Float64Array(1 << PARTNER_MEMO_BITS);
const partnerKnown = new Uint8Array(1 << PARTNER_MEMO_BITS);
/** One double seen as its two 32-bit words, for hashing. */
const hashedDouble = new Float64Array(1);
const hashedWords = new Int32Array(hashedDouble.buffer);
const PARTNER_HASH = 0x9e3779b1 | 0;

function doubleHash(h: number, v: number): number {
  hashedDouble[0] = v;
  return Math.imul(h ^ (hashedWords[0] as number) ^ Math.imul(hashedWords[1] as number, 31), PARTNER_HASH);
}

/** `Object.is` without the call: NaN (the default guess) is itself, and −0 is not 0. */
function sameNumber(x: number, y: number): boolean {
  return x === y ? x !== 0 || 1 / x === 1 / y : Number.isNaN(x) && Number.isNaN(y);
}

/** `searchPartnerAbove(a, c, guess)`, from the memo when it was asked before. */
function partnerAbove(a: number, c: number, guess = Number.NaN): number {
  const slot = doubleHash(doubleHash(doubleHash(0, a), c), guess) >>> (32 - PARTNER_MEMO_BITS);
  const at = 3 * slot;
  if (
    partnerKnown[slot] === 1 &&
    sameNumber(partnerArguments[at] as number, a) &&
    sameNumber(partnerArguments[at + 1] as number, c) &&
    sameNumber(partnerArguments[at + 2] as number, guess)
  ) {
    return partnerAnswers[slot] as number;
  }
  const b = searchPartnerAbove(a, c, guess);
  partnerArguments[at] = a;
  partnerArguments[at + 1] = c;
  partnerArguments[at + 2] = guess;
  partnerAnswers[slot] = b;
  partnerKnown[slot] = 1;
  return b;
}

/**
 * The rate b > a with JSD(a, b) = c nats (the largest rate below 1 when even that is closer): Newton's
 * method on b, ∂JSD/∂b = ½[logit b − logit((a + b)/2)] > 0, kept inside a shrinking bracket.
 */
function searchPartnerAbove(a: number, c: number, guess: number): number {
  let lo = a;
  let hi = PARTNER_CAP;
  const ha = bernoulliEntropy(a); // a is fixed: its entropy once, not in every JSD
  if (bernoulliJsdWith(a, hi, ha, bernoulliEntropy(hi)) <= c) return hi;
  // From the caller's guess (the partner of a nearby a), or JSD ≈ (b − a)²/(8a(1 − a)).
  let b = guess > a && guess < hi ? guess : Math.min(hi, a + Math.sqrt(8 * c * Math.max(a * (1 - a), 1e-6)));
  for (let i = 0; i < 60; i++) {
    const f = bernoulliJsdWith(a, b, ha, bernoulliEntropy(b)) - c;
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

/**
 * The maximum of a unimodal f on [lo, hi] by Brent's method (Brent 1973, ch. 5; the `fmin` of Forsythe,
 * Malcolm & Moler 1977): golden-section steps where a parabola through the three best points cannot be
 * trusted, parabolic steps where it can. The score it maximises is smooth, so the parabola takes over
 * after a few steps: about a dozen evaluations to the precision that 36 golden-section steps reached
 * (about 1.5·10⁻⁸ of the rate, the square root of the machine epsilon, below which f is flat to rounding).
 */
function argmax(f: (a: number) => number, lo: number, hi: number): number {
  const golden = (3 - Math.sqrt(5)) / 2;
  const eps = Math.sqrt(Number.EPSILON);
  const tol = 1e-12;
  let a = lo;
  let b = hi;
  let x = a + golden * (b - a);
  let w = x;
  let v = x;
  // Minimises −f.
  let fx = -f(x);
  let fw = fx;
  let fv = fx;
  let d = 0;
  let e = 0;
  for (let i = 0; i < 100; i++) {
    const xm = (a + b) / 2;
    const tol1 = eps * Math.abs(x) + tol / 3;
    const tol2 = 2 * tol1;
    if (Math.abs(x - xm) <= tol2 - (b - a) / 2) break;
    let parabolic = false;
    if (Math.abs(e) > tol1) {
      let r = (x - w) * (fx - fv);
      let q = (x - v) * (fx - fw);
      let p = (x - v) * q - (x - w) * r;
      q = 2 * (q - r);
      if (q > 0) p = -p;
      q = Math.abs(q);
      r = e;
      e = d;
      if (Math.abs(p) < Math.abs(0.5 * q * r) && p > q * (a - x) && p < q * (b - x)) {
        d = p / q;
        const u = x + d;
        if (u - a < tol2 || b - u < tol2) d = xm >= x ? tol1 : -tol1;
        parabolic = true;
      }
    }
    if (!parabolic) {
      e = x >= xm ? a - x : b - x;
      d = golden * e;
    }
    const u = x + (Math.abs(d) >= tol1 ? d : d >= 0 ? tol1 : -tol1);
    const fu = -f(u);
    if (fu <= fx) {
      if (u >= x) a = x;
      else b = x;
      v = w;
      fv = fw;
      w = x;
      fw = fx;
      x = u;
      fx = fu;
    } else {
      if (u < x) a = u;
      else b = u;
      if (fu <= fw || w === x) {
        v = w;
        fv = fw;
        w = u;
        fw = fu;
      } else if (fu <= fv || v === x || v === w) {
        v = u;
        fv = fu;
      }
    }
  }
  return x;
}

/**
 * The highest lower rate a that still has a partner below 1 at JSD c: JSD(a, PARTNER_CAP) falls as a
 * grows, so bisection. Above it the partner stops at PARTNER_CAP and the pair is closer than c, a
 * configuration whose R is not the r searched for, yet whose likelihood can be the larger (rates near 1:
 * a lower end of 0 was found that way).
 */
function highestLowerRate(c: number): number {
  // A function of c alone, asked by every `stretchedRates` call, most levels more than once (the two sets
  // of rates of one level, the levels an inversion revisits): remembered as `partnerAbove` is.
  const slot = doubleHash(0, c) >>> (32 - LOWER_RATE_MEMO_BITS);
  if (lowerRateKnown[slot] === 1 && sameNumber(lowerRateLevels[slot] as number, c)) {
    return lowerRateAnswers[slot] as number;
  }
  const a = searchHighestLowerRate(c);
  lowerRateLevels[slot] = c;
  lowerRateAnswers[slot] = a;
  lowerRateKnown[slot] = 1;
  return a;
}

const LOWER_RATE_MEMO_BITS = 10;
const lowerRateLevels = new Float64Array(1 << LOWER_RATE_MEMO_BITS);
const lowerRateAnswers = new Float64Array(1 << LOWER_RATE_MEMO_BITS);
const lowerRateKnown = new Uint8Array(1 << LOWER_RATE_MEMO_BITS);

function searchHighestLowerRate(c: number): number {
  const hCap = bernoulliEntropy(PARTNER_CAP);
  const gap = (a: number): number => bernoulliJsdWith(a, PARTNER_CAP, bernoulliEntropy(a), hCap) - c;
  if (gap(1e-9) < 0) return 1e-9;
  let lo = 1e-9;
  let hi = PARTNER_CAP;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (gap(mid) >= 0) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** How many times `pairCannotReach` may halve a piece of the range before it gives up. */
const BOUND_DEPTH = 5;

/**
 * Whether the two pulled framings' part of `stretchedRates`' score, LL_low(a) + LL_high(b(a)) over a in
 * [a0, a1] (b(a) the partner of a, b0 and b1 those of the ends), stays below `threshold` everywhere: the
 * partner grows with a (∂b/∂a = −∂J/∂a ÷ ∂J/∂b > 0) and LL_low grows up to rl ≥ a1, so on a piece
 * [a_i, a_(i+1)] the sum is at most LL_low(a_(i+1)) plus LL_high's largest value for b in
 * [b(a_i), b(a_(i+1))]. A piece whose bound reaches the threshold is halved (one partner more), up to
 * BOUND_DEPTH times; a few partners instead of the dozen or two a search takes.
 */
function pairCannotReach(
  low: { x: number; n: number; prior: number },
  high: { x: number; n: number; prior: number; rate: number },
  c: number,
  ends: { a0: number; b0: number; a1: number; b1: number },
  threshold: number,
  depth = 0,
): boolean {
  const { a0, b0, a1, b1 } = ends;
  // Newton's partners are exact to rounding: the piece's range of b widened by a hair either way.
  const q = Math.min(Math.min(PARTNER_CAP, b1 * (1 + 1e-12)), Math.max(b0 * (1 - 1e-12), high.rate));
  if (logLikelihood(low.x, low.n, a1, low.prior) + logLikelihood(high.x, high.n, q, high.prior) < threshold)
    return true;
  if (depth === BOUND_DEPTH) return false;
  const mid = (a0 + a1) / 2;
  const bMid = partnerAbove(mid, c, (b0 + b1) / 2);
  return (
    pairCannotReach(low, high, c, { a0, b0, a1: mid, b1: bMid }, threshold, depth + 1) &&
    pairCannotReach(low, high, c, { a0: mid, b0: bMid, a1, b1 }, threshold, depth + 1)
  );
}

/**
 * The most likely rates with R = r ≤ R(smoothed rates): some framing `low` and some framing `high` pulled
 * apart to JSD (1 − r)·ln 2, the others at their own rates clipped into [rate_low, rate_high] (a rate
 * outside the pair would make R smaller still), where along that curve the likelihood of every framing's
 * counts is largest — over every pair (low, high) with rate_low ≤ rate_high, not only the two observed
 * extremes: a small framing observed in the middle may be the true extreme (its counts cost little
 * likelihood to move), and the lower end must consider it.
 */
export function stretchedRates(
  x: readonly number[],
  n: readonly number[],
  rates: readonly number[],
  r: number,
  /** Pseudo-decisions per action of each framing's likelihood: ½ each (Jeffreys) when absent. */
  priors?: readonly number[],
): number[] {
  const c = (1 - r) * LN2;
  const F = rates.length;
  const prior = (f: number): number => (priors === undefined ? 0.5 : (priors[f] as number));
  const ll = (f: number, q: number): number => logLikelihood(x[f] as number, n[f] as number, q, prior(f));
  // A framing left at its own rate contributes its own maximum, the same number every time it is asked.
  const atOwnRate = rates.map((q, f) => ll(f, q));
  const others = atOwnRate.reduce((sum, v) => sum + v, 0);
  // Each unordered pair once: the lower rate is `low` (ties broken by index), in the order of the loops
  // below; that order breaks ties between equally likely pairs.
  const pairs: [number, number][] = [];
  for (let low = 0; low < F; low++) {
    for (let high = 0; high < F; high++) {
      if (high === low) continue;
      const rl = rates[low] as number;
      const rh = rates[high] as number;
      if (rl > rh || (rl === rh && low > high)) continue;
      pairs.push([low, high]);
    }
  }
  // The observed extremes first: usually the most likely pair, its score lets `pairBound` rule out most
  // of the others without searching them.
  const extremes = pairs.reduce((e, p, i) => {
    const spread = (q: [number, number]): number => (rates[q[1]] as number) - (rates[q[0]] as number);
    return spread(p) > spread(pairs[e] as [number, number]) ? i : e;
  }, 0);
  const order = [extremes, ...pairs.keys()].filter((i, at) => at === 0 || i !== extremes);
  // The partners of the search range's ends, shared by the pairs' bounds.
  const partnerOfFloor = partnerAbove(1e-9, c);
  const top = highestLowerRate(c);
  /** Where the lower rate of a pair whose lower framing is f is searched: up to its own rate, and no
   * further than a partner below 1 can be (beyond, the pair would be closer than R = r asks). */
  const searchTop = (f: number): number => Math.max(1e-9, Math.min(rates[f] as number, top));
  const partners = new Map<number, number>();
  const partnerOf = (f: number): number => {
    let b = partners.get(f);
    if (b === undefined) {
      b = partnerAbove(searchTop(f), c);
      partners.set(f, b);
    }
    return b;
  };
  let best: { a: number; b: number; low: number; high: number; score: number; index: number } | null = null;
  for (const index of order) {
    const [low, high] = pairs[index] as [number, number];
    if (best !== null) {
      // A pair whose best possible score is below the best found cannot be the most likely (the margin
      // covers rounding in the sums); the framings between the two add at most their own maxima.
      const rest = others - (atOwnRate[low] as number) - (atOwnRate[high] as number);
      const threshold = best.score - 1e-9 * (1 + Math.abs(best.score)) - rest;
      const ends = { a0: 1e-9, b0: partnerOfFloor, a1: searchTop(low), b1: partnerOf(low) };
      const lowCounts = { x: x[low] as number, n: n[low] as number, prior: prior(low) };
      const highCounts = {
        x: x[high] as number,
        n: n[high] as number,
        prior: prior(high),
        rate: rates[high] as number,
      };
      if (pairCannotReach(lowCounts, highCounts, c, ends, threshold)) continue;
    }
    // Each partner is searched from the last one found (the search's points close in): a few Newton
    // steps instead of a dozen.
    let b = Number.NaN;
    const score = (a: number): number => {
      b = partnerAbove(a, c, b);
      let sum = ll(low, a) + ll(high, b);
      for (let f = 0; f < F; f++) {
        if (f === low || f === high) continue;
        const own = rates[f] as number;
        const q = Math.min(b, Math.max(a, own));
        sum += q === own ? (atOwnRate[f] as number) : ll(f, q);
      }
      return sum;
    };
    const a = argmax(score, 1e-9, searchTop(low));
    const total = score(a);
    if (best === null || total > best.score || (total === best.score && index < best.index)) {
      best = { a, b, low, high, score: total, index };
    }
  }
  const { a, b, low, high } = best as NonNullable<typeof best>;
  return rates.map((p, f) => (f === low ? a : f === high ? b : Math.min(b, Math.max(a, p))));
}

/**
 * The upper end's configuration with R = r ≥ R(smoothed rates): a band [a, b] with JSD(a, b) = (1 − r)·ln 2,
 * every framing at its own rate clipped into the band, the band placed where the likelihood of every
 * framing's counts is largest (the restricted maximum-likelihood configuration), then each framing that
 * the counts cannot tell from an edge put on it (`EDGE_DEVIANCE`). Only framings at or near the edges
 * move, and they move onto them: where several framings share an extreme (a player whose framings fall in two
 * groups), they stay crowded there, and R* keeps the downward pull a maximum over many pairs has. The
 * logit path that shrank every framing toward the pooled rate spread them inside instead, a configuration
 * with a higher R* than the truth's, and the upper end missed: 6 framings at .2 and 5 at .8 were covered
 * in 78–81% of records at any n from 20 to 300.
 */
export function clippedRates(
  x: readonly number[],
  n: readonly number[],
  rates: readonly number[],
  r: number,
): number[] {
  const F = rates.length;
  if (r >= 1) {
    // The band is a point: the common rate that is most likely, Jeffreys-smoothed like the rates.
    const common = (x.reduce((s, v) => s + v, 0) + F / 2) / (n.reduce((s, v) => s + v, 0) + F);
    return rates.map(() => common);
  }
  const c = (1 - r) * LN2;
  const low = Math.min(...rates);
  const high = Math.max(...rates);
  let b = Number.NaN;
  const score = (a: number): number => {
    b = partnerAbove(a, c, b);
    let sum = 0;
    for (let f = 0; f < F; f++) {
      sum += logLikelihood(x[f] as number, n[f] as number, Math.min(b, Math.max(a, rates[f] as number)));
    }
    return sum;
  };
  // The band's lower edge lies between the lowest rate and the highest that still has a partner below
  // 1 (r ≥ R̂: the band is narrower than the rates' spread, so the lowest rate has one). A coarse grid
  // first, then Brent's search around its best point: the score is a sum of one unimodal piece per
  // framing, and the grid keeps the search from settling on a lesser bump of that sum.
  const top = Math.max(low, Math.min(high, highestLowerRate(c)));
  let best = 0;
  let bestScore = Number.NEGATIVE_INFINITY;
  const at = (i: number): number => low + ((top - low) * i) / BAND_GRID;
  for (let i = 0; i <= BAND_GRID; i++) {
    const value = score(at(i));
    if (value > bestScore) {
      bestScore = value;
      best = i;
    }
  }
  const from = at(Math.max(0, best - 1));
  const to = at(Math.min(BAND_GRID, best + 1));
  b = Number.NaN;
  const a = to > from ? argmax(score, from, to) : from;
  b = partnerAbove(a, c);
  return rates.map((p, f) => {
    const q = Math.min(b, Math.max(a, p));
    if (q !== p) return q;
    // A framing inside the band whose counts cannot tell it from an edge goes to that edge (see above).
    const xf = x[f] as number;
    const nf = n[f] as number;
    const own = logLikelihood(xf, nf, p);
    const toLower = 2 * (own - logLikelihood(xf, nf, a));
    const toUpper = 2 * (own - logLikelihood(xf, nf, b));
    if (Math.min(toLower, toUpper) > EDGE_DEVIANCE) return p;
    return toLower <= toUpper ? a : b;
  });
}
/** Points of the coarse grid on which `clippedRates` places its band before Brent's search. */
const BAND_GRID = 16;
/**
 * A framing inside the band goes to its nearer edge when the edge lies within its own one-standard-error
 * likelihood interval (twice the log-likelihood ratio at most 1): the configuration least favourable to
 * the upper end among those the counts do not argue against. The band alone left the framings observed
 * inside it there although they were as likely at the edge, and 6 framings at .2 and 5 at .8 (n 300)
 * still missed above in 5.5% of records, against 3.6% with this rule; spread framings (.3 … .7) keep
 * nearly all their places (their upper end 4% further out on average).
 */
const EDGE_DEVIANCE = 1;

/**
 * Where an increasing function g crosses 0 between `a` and `b` (g(a) ≤ 0 < g(b)): the Illinois variant
 * of regula falsi, which the smooth tails (nearly linear on the Φ⁻¹ scale) let converge in a handful of
 * evaluations, bisecting every fourth step so that a stalled side cannot hold it up. Returns the final
 * bracket [lo, hi], or [r, r] at an r where |g| is within RESOLUTION.
 */
function crossing(g: (r: number) => number, a: Point, b: Point): [number, number] {
  let lo = a.r;
  let hi = b.r;
  let gLo = a.g;
  let gHi = b.g;
  let side = 0;
  // Converged when the bracket is narrow on the scale D = √(1 − R), on which the tails move about
  // linearly: near R = 1 a bracket of fixed width in R would be as wide as the whole interval.
  const width = (): number => Math.sqrt(1 - lo) - Math.sqrt(1 - hi);
  for (let i = 0; i < MAX_EVALUATIONS && width() > TOLERANCE; i++) {
    let mid = lo - (gLo * (hi - lo)) / (gHi - gLo);
    if (!(mid > lo + TOLERANCE / 4 && mid < hi - TOLERANCE / 4) || i % 4 === 3) mid = (lo + hi) / 2;
    const gm = g(mid);
    if (Math.abs(gm) <= RESOLUTION) return [mid, mid];
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
export interface Point {
  readonly r: number;
  readonly g: number;
}

/**
 * One end of the interval: where g crosses 0 between `near` (the estimate, evaluated) and `far` (a
 * bound whose sign is known), searched from `guess` (the bootstrap's end: close, and any value is safe).
 * The secant through the estimate and the guess predicts the crossing (the tails are nearly linear on
 * the Φ⁻¹ scale); a step a quarter beyond it usually brackets it tightly, else the step doubles until it
 * does (steps of the guess's own distance when the secant points the wrong way). Then `crossing` on that
 * bracket. `side`: which end of the final bracket is the interval's (the one inside it).
 */
export function intervalEnd(
  g: (r: number) => number,
  near: Point,
  far: Point,
  guess: number,
  side: 0 | 1,
): number {
  const start = Math.min(1, Math.max(0, guess));
  let inner = near;
  let outer = far;
  const between = (r: number): boolean => (r - inner.r) * (outer.r - r) > 0;
  if (start !== near.r && between(start)) {
    const first = { r: start, g: g(start) };
    if (Math.abs(first.g) <= RESOLUTION) return first.r;
    const outward = first.g <= 0 !== far.g <= 0; // still on near's side: the crossing is further out
    if (outward) inner = first;
    else outer = first;
    const direction = Math.sign(far.r - near.r) * (outward ? 1 : -1);
    const predicted = first.r - (first.g * (first.r - near.r)) / (first.g - near.g);
    const secantStep = 1.25 * (predicted - first.r);
    let step =
      Number.isFinite(secantStep) && secantStep * direction > 0
        ? secantStep
        : Math.abs(start - near.r) * direction;
    for (let r = first.r + step; between(r); r = first.r + step) {
      const point = { r, g: g(r) };
      const farSide = point.g <= 0 === far.g <= 0;
      if (farSide) outer = point;
      else inner = point;
      if (farSide === outward) break;
      step *= 2;
    }
  }
  const [a, b] = inner.r < outer.r ? [inner, outer] : [outer, inner];
  return crossing(g, a, b)[side];
}

/**
 * The design effect of each framing's sessions (Kish 1965): deff_f = 1 + (m̃_f − 1)·ρ̂, with m̃_f = Σm²/Σm
 * the framing's own size-weighted session length and ρ̂ the intra-session correlation, estimated once from
 * every framing's sessions (the one-way ANOVA estimator, each framing about its own rate, clipped to
 * [0, 1]). Per framing, because framings may have different session designs (sessions of one decision
 * in one, long sessions in another): one pooled effect would shrink the one-decision framing as if its
 * decisions were correlated, and widen the interval for nothing. Where ρ̂ cannot be estimated (no framing
 * with two sessions, or no session of two decisions) it is taken as 0, as for decisions without sessions.
 */
export function designEffects(framings: readonly InversionFraming[]): number[] {
  let between = 0; // Σ m_s (p_s − p_f)²
  let within = 0; // Σ x_s (m_s − x_s) / m_s
  let sessions = 0;
  let decisions = 0;
  let squaredSizes = 0; // Σ_f Σ_s m_s² / n_f
  let groups = 0;
  const lengths = framings.map((f) => {
    if (f.sessions === undefined || f.sessions.x.length === 0) return 1;
    const p = f.x / f.n;
    let sizes = 0;
    let squares = 0;
    const { x, n, weight } = f.sessions;
    for (let i = 0; i < x.length; i++) {
      const sx = x[i] as number;
      const sn = n[i] as number;
      const w = weight[i] as number;
      between += w * sn * (sx / sn - p) ** 2;
      within += (w * sx * (sn - sx)) / sn;
      sessions += w;
      sizes += w * sn;
      squares += w * sn * sn;
    }
    decisions += sizes;
    squaredSizes += squares / sizes;
    groups++;
    return squares / sizes;
  });
  return kishDesignEffects(lengths, { between, within, sessions, groups, decisions, squaredSizes });
}

/** The one-way ANOVA sums over every framing's sessions, each framing about its own rates. */
export interface AnovaSums {
  readonly between: number;
  readonly within: number;
  readonly sessions: number;
  /** Framings with sessions. */
  readonly groups: number;
  readonly decisions: number;
  /** Σ_f Σ_s m_s² / n_f. */
  readonly squaredSizes: number;
}

/**
 * deff_f = 1 + (m̃_f − 1)·ρ̂ for each framing's size-weighted session length m̃_f, with ρ̂ the one-way ANOVA
 * estimator from the sums, clipped to [0, 1]; 0 where it cannot be estimated. Two actions
 * (`designEffects`) and more (multi-action-inversion.ts) share it, so that they agree on two-action data.
 */
export function kishDesignEffects(lengths: readonly number[], sums: AnovaSums): number[] {
  const { between, within, sessions, groups, decisions, squaredSizes } = sums;
  let rho = 0;
  if (sessions > groups && decisions > sessions) {
    const msb = between / (sessions - groups);
    const msw = within / (decisions - sessions);
    const m0 = (decisions - squaredSizes) / (sessions - groups);
    const denominator = msb + (m0 - 1) * msw;
    if (denominator > 0) rho = Math.min(1, Math.max(0, (msb - msw) / denominator));
  }
  return lengths.map((m) => 1 + (m - 1) * rho);
}

/**
 * The test-inversion interval of R (before attenuation) for one two-action game, end by end: the lower
 * end needs only the data (and a place to start), so it can be placed while the permutation test is
 * still running; the upper end needs that test's verdict.
 */
export class RobustnessInversion {
  private readonly alpha: number;
  private readonly x: number[];
  private readonly n: number[];
  readonly estimate: number;
  private readonly tails: ExtremePairTails;
  private readonly rates: number[];
  /** The lower end's second configuration (`onBoundary`), or null where no framing chose one action only. */
  private readonly boundary: { readonly rates: number[]; readonly priors: number[] } | null;

  constructor(framings: readonly InversionFraming[], confidence: number) {
    this.alpha = 1 - confidence;
    this.x = framings.map((f) => f.x);
    this.n = framings.map((f) => f.n);
    this.estimate = robustnessOf(framings.map((f) => f.x / f.n));
    const deff = designEffects(framings);
    const shared = sharedSessionFactor(framings);
    // The framings' binomial sizes: the decisions a framing is worth once its sessions' correlation is
    // counted, and the covariance between framings of sessions that decided in several of them.
    const size = this.n.map((m, f) => Math.max(1, Math.round(m / ((deff[f] as number) * shared))));
    this.tails = new ExtremePairTails(size, (1 - this.estimate) * LN2);
    this.rates = framings.map((f) => smoothed(f.x, f.n));
    this.boundary = onBoundary(this.x, this.n);
  }

  /**
   * The lower end, searched from `guess` (the bootstrap's: close, and any value is safe). Each end is
   * searched on the normal-quantile scale of its tail, z = Φ⁻¹(P), where a tail of a nearly normal
   * statistic moves almost linearly in r, so regula falsi lands in a few steps (on P itself, a sigmoid,
   * it crawled); the zero is the same, Φ⁻¹ being increasing.
   *
   * P_r(R* ≥ R̂) grows with r; the end is the largest r in [0, R̂] where it is still ≤ α/2. Where some
   * framing chose one action every time, P_r is the larger of the tails at two configurations with
   * R = r that the counts support equally well (see `onBoundary`). When even r = R̂ gives less (R̂ = 1
   * from counts that tie exactly between both actions, an event rarer than α/2 at large n under any r,
   * R = 1 included) the test cannot place the end: NaN says so, and the caller keeps the bootstrap's.
   */
  lowerEnd(guess: number): number {
    const { x, n, rates, tails, estimate, boundary } = this;
    const target = this.alpha / 2;
    const aboveAt = (r: number): number => {
      const smoothedTail = tails.at(stretchedRates(x, n, rates, r)).above;
      if (boundary === null) return smoothedTail;
      return Math.max(smoothedTail, tails.at(stretchedRates(x, n, boundary.rates, r, boundary.priors)).above);
    };
    const above = (r: number): number => probit(aboveAt(r)) - probit(target);
    const atEstimate = aboveAt(estimate);
    if (!(atEstimate > target)) return Number.NaN;
    // At r = 0 the extremes are 0 and 1, so no record reaches R̂ > 0: P(R* ≥ R̂) = 0 there.
    const near = { r: estimate, g: probit(atEstimate) - probit(target) };
    const lower = intervalEnd(above, near, { r: 0, g: probit(0) - probit(target) }, guess, 0);
    return Math.min(lower, estimate);
  }

  /**
   * The upper end, searched from `guess`; `rejectsInvariance` is the permutation test's verdict at
   * α = 1 − confidence. P_r(R* ≤ R̂) falls as r grows; the end is the smallest r in [R̂, 1] where it is
   * ≤ α/2, and 1 when the test does not reject.
   */
  upperEnd(rejectsInvariance: boolean, guess: number): number {
    const { x, n, rates, tails, estimate, alpha } = this;
    if (!rejectsInvariance) return 1;
    return upperEndFromTail((r) => tails.at(clippedRates(x, n, rates, r)).below, estimate, alpha, guess);
  }
}

/**
 * The lower end's configuration for framings that chose one action every time: such a framing keeps its
 * maximum-likelihood rate, 0 or 1 (no pseudo-decisions: `stretchedRates` with prior 0 for it, ½ for the
 * others), where the Jeffreys rate (x + ½)/(n + 1) puts it half a decision inside. The lower end asks how
 * probable R* ≥ R̂ — framings at least as close as observed — is when R = r, and a framing moved inside
 * varies, which the record gives no evidence of: each such framing lands on its boundary with probability
 * ((n + ½)/(n + 1))^n ≈ e^(−½) instead of about 1, so with K of them a record of K framings that all
 * chose one action was a ~e^(−K/2) event at R = R̂ (below α/2 from K = 7 on, at any n): the test rejected
 * the estimate itself and the bootstrap's end stood in, at R ≥ .98 for 11 such framings of 10 decisions
 * (40% coverage with one of them at .95), and the other records of such an agent were squeezed the same
 * way. With the framings on their boundary the all-alike record is certain at R = 1, and at R = r < 1
 * the configuration is the least favourable one for it — one framing at the rate a whose JSD to the
 * boundary is (1 − r)·ln 2, every other on the boundary — so its lower end is where a^n = α (mid-p),
 * whatever the number of framings: more framings cannot make one deviant more visible. The caller takes
 * the larger tail of the two configurations (a p-value over a composite null is its largest over the
 * nuisance rates, and both fit the counts), so no lower end rises. Null where no framing is on a
 * boundary: the two configurations are then the same.
 */
function onBoundary(
  x: readonly number[],
  n: readonly number[],
): { rates: number[]; priors: number[] } | null {
  const at = (f: number): boolean => x[f] === 0 || x[f] === n[f];
  if (!x.some((_, f) => at(f))) return null;
  return {
    // The ends of the rates `stretchedRates` searches (1e-9 up to PARTNER_CAP), where every log is finite.
    rates: x.map((c, f) => (!at(f) ? smoothed(c, n[f] as number) : c === 0 ? 1e-9 : PARTNER_CAP)),
    priors: x.map((_, f) => (at(f) ? 0 : 0.5)),
  };
}

/**
 * The upper end of R's interval once the invariance test has rejected: where P_r(R* ≤ R̂), the lower tail
 * at the configuration of R = r, falls to α/2. The permutation test rejected R = 1 at α; when the tail at
 * (nearly) R = 1 is still above α/2, the end is placed at level α, the test's own, so that it falls below 1
 * as the verdict says. Two actions and more (multi-action-inversion.ts) share this rule.
 */
export function upperEndFromTail(
  belowAt: (r: number) => number,
  estimate: number,
  alpha: number,
  guess: number,
): number {
  const atOne = belowAt(1);
  const level = atOne > alpha / 2 ? alpha : alpha / 2;
  const below = (r: number): number => probit(level) - probit(belowAt(r));
  const atR = belowAt(estimate);
  let upper = 1;
  if (atR < level) upper = estimate;
  else if (atOne < level) {
    const near = { r: estimate, g: probit(level) - probit(atR) };
    upper = intervalEnd(below, near, { r: 1, g: probit(level) - probit(atOne) }, guess, 1);
  }
  return Math.max(upper, estimate);
}
