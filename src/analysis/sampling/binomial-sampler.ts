import type { UniformSource } from "./fast-rng.js";

/**
 * An exact Binomial(n, p) sampler by inversion of the cumulative distribution, with a guide table
 * (Chen & Asau's "cutpoint" method): with S = GUIDE_SLOTS_PER_VALUE·(n+1) slots, `guide[j]` is the
 * smallest x with F(x) > j/S, so a uniform u starts its search at `guide[⌊u·S⌋]` and almost always stops
 * there (a binary search would need ⌈log2(n+1)⌉ unpredictable steps). The probabilities are the exact binomial ones (to double precision): no normal or Poisson
 * approximation and no n Bernoulli draws.
 */
export interface BinomialSampler {
  readonly n: number;
  readonly slots: number;
  readonly cdf: Float64Array;
  readonly guide: Int32Array;
}

/**
 * More slots than values make a slot straddle a jump of F rarely, so the search loop's branch is almost
 * always predicted; measured on the benchmark case, 4 slots per value drew ~12% faster than 1.
 */
const GUIDE_SLOTS_PER_VALUE = 4;

export function createBinomialSampler(n: number, p: number): BinomialSampler {
  const cdf = binomialCdf(n, p);
  const slots = GUIDE_SLOTS_PER_VALUE * (n + 1);
  const guide = new Int32Array(slots);
  let x = 0;
  for (let j = 0; j < slots; j++) {
    while ((cdf[x] as number) <= j / slots) x++;
    guide[j] = x;
  }
  return { n, slots, cdf, guide };
}

/** One Binomial(n, p) draw. */
export function drawBinomial(sampler: BinomialSampler, rng: UniformSource): number {
  const u = rng.next();
  const { cdf } = sampler;
  let x = sampler.guide[(u * sampler.slots) | 0] as number;
  while ((cdf[x] as number) <= u) x++;
  return x;
}

/**
 * `count` draws into `out[0 .. count)`, from one block of uniforms (the stream `drawBinomial` would read
 * one by one): the innermost loop of every analysis, kept free of calls.
 */
export function drawBinomials(
  sampler: BinomialSampler,
  rng: UniformSource,
  count: number,
  out: Float64Array,
): void {
  const { slots, cdf, guide } = sampler;
  rng.fill(out, count);
  for (let r = 0; r < count; r++) {
    const u = out[r] as number;
    let x = guide[(u * slots) | 0] as number;
    while ((cdf[x] as number) <= u) x++;
    out[r] = x;
  }
}

/**
 * F(x) = P(X ≤ x) for X ~ Binomial(n, p), x = 0..n. The probability mass is built in log space from the
 * ratio P(x+1)/P(x) = (n−x)/(x+1) · p/(1−p) and normalised by its maximum, so large n never underflows;
 * F(n) is set to exactly 1 so every u ∈ [0, 1) finds a value.
 */
function binomialCdf(n: number, p: number): Float64Array {
  const cdf = new Float64Array(n + 1);
  if (p <= 0) {
    cdf.fill(1);
    return cdf;
  }
  if (p >= 1) {
    cdf[n] = 1;
    return cdf;
  }
  const logOdds = Math.log(p) - Math.log1p(-p);
  let logMass = 0;
  let maxLogMass = 0;
  cdf[0] = 0;
  for (let x = 0; x < n; x++) {
    logMass += Math.log((n - x) / (x + 1)) + logOdds;
    cdf[x + 1] = logMass;
    if (logMass > maxLogMass) maxLogMass = logMass;
  }
  let total = 0;
  for (let x = 0; x <= n; x++) {
    total += Math.exp((cdf[x] as number) - maxLogMass);
    cdf[x] = total;
  }
  for (let x = 0; x < n; x++) cdf[x] = Math.min(1, (cdf[x] as number) / total);
  cdf[n] = 1;
  return cdf;
}
