import { type BinomialSampler, createBinomialSampler, drawBinomial } from "./binomial-sampler.js";
import type { UniformSource } from "./fast-rng.js";

/**
 * An exact Multinomial(n, π) sampler by sequential conditional binomials: action j receives
 * Binomial(n − Σ_{i<j} x_i, π_j / Σ_{i≥j} π_i) and the last action the remainder. The binomial tables
 * depend on the remaining n, so they are built on first use and cached per (action, remaining n).
 */
export interface MultinomialSampler {
  readonly n: number;
  readonly conditional: Float64Array;
  readonly tables: Map<number, BinomialSampler>[];
}

export function createMultinomialSampler(n: number, probabilities: ArrayLike<number>): MultinomialSampler {
  const k = probabilities.length;
  const conditional = new Float64Array(Math.max(0, k - 1));
  let rest = 1;
  for (let j = 0; j < k - 1; j++) {
    const pj = probabilities[j] as number;
    conditional[j] = rest > 0 ? Math.min(1, pj / rest) : 0;
    rest -= pj;
  }
  return { n, conditional, tables: Array.from({ length: k - 1 }, () => new Map()) };
}

/** Write one Multinomial draw into `out[offset .. offset + k)`. */
export function drawMultinomial(
  sampler: MultinomialSampler,
  rng: UniformSource,
  out: Int32Array,
  offset: number,
): void {
  let remaining = sampler.n;
  const stages = sampler.conditional.length;
  for (let j = 0; j < stages; j++) {
    let x = 0;
    const p = sampler.conditional[j] as number;
    if (remaining > 0 && p > 0) {
      const cache = sampler.tables[j] as Map<number, BinomialSampler>;
      let table = cache.get(remaining);
      if (table === undefined) {
        table = createBinomialSampler(remaining, p);
        cache.set(remaining, table);
      }
      x = drawBinomial(table, rng);
    }
    out[offset + j] = x;
    remaining -= x;
  }
  out[offset + stages] = remaining;
}
