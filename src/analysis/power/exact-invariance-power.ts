import { jensenShannon } from "../../domain/divergence.js";

// The power of the invariance test for two framings of a two-action game, computed exactly instead of by
// the noncentral χ² approximation (which promised 80% at R = 0.95 and delivered 75%). The analysis's test
// permutes decisions between the framings, so given the total number t of first-action choices it is the
// conditional test: under invariance x₁ is hypergeometric (2n decisions, t first actions, n drawn), and the
// JSD of the two cells grows with |x₁ − t/2| when both framings have n decisions. The test rejects when the
// probability of a split at least that far from even is at most α. Its power at rates (p, q) is the
// binomial probability of the rejected (x₁, x₂).

/** log k! for k = 0 … max. */
function logFactorials(max: number): Float64Array {
  const table = new Float64Array(max + 1);
  for (let k = 2; k <= max; k++) table[k] = (table[k - 1] as number) + Math.log(k);
  return table;
}

/** Binomial(n, p) probabilities of 0 … n (p strictly inside (0, 1), or exactly 0 or 1). */
function binomialPmf(n: number, p: number, logFact: Float64Array): Float64Array {
  const pmf = new Float64Array(n + 1);
  if (p <= 0) pmf[0] = 1;
  else if (p >= 1) pmf[n] = 1;
  else {
    const lp = Math.log(p);
    const lq = Math.log(1 - p);
    for (let x = 0; x <= n; x++) {
      pmf[x] = Math.exp(
        (logFact[n] as number) - (logFact[x] as number) - (logFact[n - x] as number) + x * lp + (n - x) * lq,
      );
    }
  }
  return pmf;
}

/** Probability that the permutation test of invariance rejects at level α, n decisions per framing. */
export function exactInvariancePower(n: number, p: number, q: number, alpha: number): number {
  const logFact = logFactorials(2 * n);
  const first = binomialPmf(n, p, logFact);
  const second = binomialPmf(n, q, logFact);
  // Totals t whose probability is negligible under (p, q) are skipped: they cannot move the power.
  const tiny = 1e-14;
  let power = 0;
  const hyper = new Float64Array(n + 1);
  for (let t = 0; t <= 2 * n; t++) {
    const lo = Math.max(0, t - n);
    const hi = Math.min(n, t);
    let mass = 0;
    for (let x = lo; x <= hi; x++) mass += (first[x] as number) * (second[t - x] as number);
    if (mass < tiny) continue;
    // Hypergeometric P(x₁ = x | t): C(n, x) C(n, t − x) / C(2n, t).
    const logDenominator =
      (logFact[2 * n] as number) - (logFact[t] as number) - (logFact[2 * n - t] as number);
    for (let x = lo; x <= hi; x++) {
      hyper[x] = Math.exp(
        (logFact[n] as number) -
          (logFact[x] as number) -
          (logFact[n - x] as number) +
          (logFact[n] as number) -
          (logFact[t - x] as number) -
          (logFact[n - t + x] as number) -
          logDenominator,
      );
    }
    // Walk the splits from the most uneven inward, a pair (x, t − x) at a time (equally far from even):
    // a pair is rejected while the tail it closes holds at most α.
    let tail = 0;
    for (let a = lo, b = hi; a <= b; a++, b--) {
      tail += a === b ? (hyper[a] as number) : (hyper[a] as number) + (hyper[b] as number);
      if (tail > alpha * (1 + 1e-12)) break;
      power += (first[a] as number) * (second[t - a] as number);
      if (a !== b) power += (first[b] as number) * (second[t - b] as number);
    }
  }
  return Math.min(1, power);
}

/**
 * The other framing's rate q whose two-cell robustness against `baseline` is `trueR`: above the baseline
 * when R can fall that low there, else below it; null when no rate gives so low an R.
 */
export function rateWithRobustness(baseline: number, trueR: number): number | null {
  const r = (q: number) => 1 - jensenShannon([baseline, 1 - baseline], [q, 1 - q]) / Math.LN2;
  const solve = (lo: number, hi: number): number => {
    // r falls monotonically from `baseline` towards the far end; bisect on it.
    let near = lo;
    let far = hi;
    for (let i = 0; i < 100; i++) {
      const mid = (near + far) / 2;
      if (r(mid) > trueR) near = mid;
      else far = mid;
    }
    return (near + far) / 2;
  };
  if (r(1) <= trueR) return solve(baseline, 1);
  if (r(0) <= trueR) return solve(baseline, 0);
  return null;
}

/** Above this many decisions per framing the exact sum is slow and the χ² approximation is accurate. */
export const EXACT_POWER_MAX_TRIALS = 5000;

/**
 * The fewest decisions per framing at which the test's exact power reaches `target`, searched from the
 * approximation's `guess`. Power is not monotone in n on a discrete record, so the answer is the smallest
 * n from which the power stays at or above the target over the next few n. null when the fewest n would
 * exceed EXACT_POWER_MAX_TRIALS.
 */
export function exactTrialsForPower(
  p: number,
  q: number,
  alpha: number,
  target: number,
  guess: number,
): number | null {
  // The exact sum costs O(n²): far above the bound, the approximation answers without one.
  if (guess > EXACT_POWER_MAX_TRIALS) return null;
  const reaches = (n: number) => exactInvariancePower(n, p, q, alpha) >= target;
  let hi = Math.max(2, Math.ceil(guess));
  while (!reaches(hi)) {
    hi = Math.ceil(hi * 1.25) + 1;
    if (hi > EXACT_POWER_MAX_TRIALS) return null;
  }
  let lo = Math.max(1, Math.floor(hi / 1.5));
  if (reaches(lo)) lo = 1;
  // Bisection to the first n that reaches the target, assuming power rises with n ...
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (reaches(mid)) hi = mid;
    else lo = mid;
  }
  // ... then step up past any n just above where the discreteness drops the power below it again.
  const steady = (n: number) => [1, 2, 3].every((k) => reaches(n + k));
  while (!steady(hi) && hi < EXACT_POWER_MAX_TRIALS) hi++;
  return hi;
}
