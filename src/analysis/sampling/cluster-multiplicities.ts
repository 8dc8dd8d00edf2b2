// How often each of T distinct cluster types is drawn when S clusters are resampled with replacement
// (SPEC §4 cluster bootstrap). Drawing S cluster indices uniformly and counting, per type, how
// many landed on its clusters gives multiplicities m ~ Multinomial(S; w₁/S, …, w_T/S), where w_t is the
// number of clusters of type t (clusters with identical counts, interchangeable in every statistic). Two
// exact ways to draw m, chosen by cost:
//
// - "direct": S uniforms, cluster s = ⌊u·S⌋ mapped to its type: the draws of the per-cluster bootstrap,
//   uniform for uniform, so a record whose clusters are all distinct gives the same intervals as before;
// - "multinomial": T − 1 conditional binomials m_t ~ Binomial(S − Σ_{i<t} m_i, w_t / Σ_{i≥t} w_i), each by
//   inversion of its CDF: for a small mean by walking up the pmf from 0 (a few steps, no memory), else
//   through a cached table (one per type and remaining size) that covers all but a mass far below the
//   2⁻³² resolution of the uniforms. Cost T per replicate instead of S. (Tables for every type and
//   remaining size held 1 GB at 1M decisions, sessions of many types in every cell: hence the walk.)
import type { UniformSource } from "./fast-rng.js";
import { type GuideTable, guideIndex, guideTable, WINDOW_EXTRA, WINDOW_SD } from "./guide-table.js";

/** Multinomial mode once it needs this many times fewer draws than drawing every cluster. */
const COLLAPSE_GAIN = 4;

export interface MultiplicitySampler {
  readonly types: number;
  readonly clusters: number;
  readonly mode: "direct" | "multinomial";
  /** direct: type of cluster s (clusters listed type by type, in type order). */
  readonly typeOf: Int32Array;
  /** multinomial: conditional probability of type t given the types before it were drawn. */
  readonly conditional: Float64Array;
  /**
   * multinomial: per type t, its tables by remaining size, for the types that needed one. Made when
   * first needed: an empty map per type up front held ~40 MB at a million decisions (273k types of
   * short sessions spanning cells), and direct mode, or a walk, never needs one.
   */
  readonly tables: Map<number, Map<number, GuideTable>>;
}

/** `weights[t]` = how many clusters share type t (positive integers). */
export function createMultiplicitySampler(weights: ArrayLike<number>): MultiplicitySampler {
  const types = weights.length;
  let clusters = 0;
  for (let t = 0; t < types; t++) clusters += weights[t] as number;
  const multinomial = types * COLLAPSE_GAIN < clusters;
  const typeOf = new Int32Array(multinomial ? 0 : clusters);
  if (!multinomial) {
    let s = 0;
    for (let t = 0; t < types; t++) for (let i = 0; i < (weights[t] as number); i++) typeOf[s++] = t;
  }
  const conditional = new Float64Array(Math.max(0, types - 1));
  let rest = clusters;
  for (let t = 0; t < types - 1; t++) {
    const w = weights[t] as number;
    conditional[t] = rest > 0 ? Math.min(1, w / rest) : 0;
    rest -= w;
  }
  return {
    types,
    clusters,
    mode: multinomial ? "multinomial" : "direct",
    typeOf,
    conditional,
    tables: new Map(),
  };
}

let uniformBlock = new Float64Array(0);

/** One replicate's multiplicities into `out[0..T)`. */
export function drawMultiplicities(sampler: MultiplicitySampler, rng: UniformSource, out: Int32Array): void {
  const { types, clusters } = sampler;
  out.fill(0, 0, types);
  if (sampler.mode === "direct") {
    const { typeOf } = sampler;
    // One block of uniforms per replicate: the same stream as one `next()` per cluster.
    if (uniformBlock.length < clusters) uniformBlock = new Float64Array(clusters);
    const uniforms = uniformBlock;
    rng.fill(uniforms, clusters);
    for (let s = 0; s < clusters; s++) {
      const t = typeOf[((uniforms[s] as number) * clusters) | 0] as number;
      out[t] = (out[t] as number) + 1;
    }
    return;
  }
  let remaining = clusters;
  for (let t = 0; t < types - 1 && remaining > 0; t++) {
    const p = sampler.conditional[t] as number;
    let x = 0;
    if (p >= 1) x = remaining;
    else if (p > 0 && remaining * p <= WALK_MEAN) x = binomialByWalk(remaining, p, rng.next());
    else if (p > 0) {
      let cache = sampler.tables.get(t);
      if (cache === undefined) {
        cache = new Map();
        sampler.tables.set(t, cache);
      }
      let table = cache.get(remaining);
      if (table === undefined) {
        table = windowedBinomial(remaining, p);
        cache.set(remaining, table);
      }
      x = table.lo + guideIndex(table, rng.next());
    }
    out[t] = x;
    remaining -= x;
  }
  if (remaining > 0) out[types - 1] = (out[types - 1] as number) + remaining;
}

/** Binomials with at most this mean are drawn by walking their pmf from 0 (≈ mean + 1 steps), not a table. */
const WALK_MEAN = 24;

/**
 * The smallest x with P(X ≤ x) > u for X ~ Binomial(n, p): the same inversion as a table's, its pmf
 * from P(0) = (1 − p)^n by the ratio P(x+1)/P(x) = (n−x)/(x+1)·p/(1−p). With the mean at most
 * WALK_MEAN, P(0) ≥ e^(−WALK_MEAN/(1−p)) stays far above underflow unless p is within e^−700 of 1,
 * where every draw is n anyway (the walk ends there).
 */
export function binomialByWalk(n: number, p: number, u: number): number {
  const odds = p / (1 - p);
  let pmf = Math.exp(n * Math.log1p(-p));
  let cdf = pmf;
  let x = 0;
  while (cdf <= u && x < n) {
    pmf *= ((n - x) / (x + 1)) * odds;
    x++;
    cdf += pmf;
  }
  return x;
}

/** The guide-table sampler of Binomial(n, p) over the window around its mean that holds all but < 1e-30. */
function windowedBinomial(n: number, p: number): GuideTable {
  const mean = n * p;
  const sd = Math.sqrt(n * p * (1 - p));
  const lo = Math.max(0, Math.floor(mean - WINDOW_SD * sd - WINDOW_EXTRA));
  const hi = Math.min(n, Math.ceil(mean + WINDOW_SD * sd + WINDOW_EXTRA));
  const mode = Math.min(hi, Math.max(lo, Math.floor((n + 1) * p)));
  // Relative masses from the mode outwards by the ratio P(x+1)/P(x) = (n−x)/(x+1)·p/(1−p): no logs.
  const mass = new Float64Array(hi - lo + 1);
  const odds = p / (1 - p);
  mass[mode - lo] = 1;
  for (let x = mode; x < hi; x++) mass[x + 1 - lo] = (mass[x - lo] as number) * ((n - x) / (x + 1)) * odds;
  for (let x = mode; x > lo; x--) mass[x - 1 - lo] = ((mass[x - lo] as number) * (x / (n - x + 1))) / odds;
  return guideTable(lo, mass);
}

/** Uniforms drawn per block in `drawClusterSums` (a block of replicates at a time). */
const SUM_BLOCK = 1 << 16;

/**
 * `replicates` draws of the summed counts of S clusters resampled with replacement: replicate r gets
 * Σ_t m_t·table[t·k ..] at `out[r·k ..]` — exactly what `drawMultiplicities` followed by that sum gives,
 * replicate for replicate. In direct mode each drawn cluster's counts are added as it is drawn, and the
 * uniforms of a block of replicates come from one `fill` (the same stream, in the same order).
 */
export function drawClusterSums(
  sampler: MultiplicitySampler,
  table: Int32Array,
  k: number,
  rng: UniformSource,
  replicates: number,
  out: Int32Array,
): void {
  out.fill(0, 0, replicates * k);
  const { types, clusters } = sampler;
  if (sampler.mode === "direct") {
    if (clusters === 0) return;
    const { typeOf } = sampler;
    const vectors = new Int32Array(clusters * k); // cluster s's counts: its type's row
    for (let s = 0; s < clusters; s++) {
      const row = (typeOf[s] as number) * k;
      vectors.set(table.subarray(row, row + k), s * k);
    }
    const perBlock = Math.max(1, Math.floor(SUM_BLOCK / clusters));
    if (uniformBlock.length < perBlock * clusters) uniformBlock = new Float64Array(perBlock * clusters);
    const uniforms = uniformBlock;
    for (let first = 0; first < replicates; first += perBlock) {
      const count = Math.min(perBlock, replicates - first);
      rng.fill(uniforms, count * clusters);
      for (let i = 0; i < count; i++) {
        const from = i * clusters;
        const at = (first + i) * k;
        if (k === 2) {
          let a = 0;
          let b = 0;
          for (let s = 0; s < clusters; s++) {
            const row = 2 * (((uniforms[from + s] as number) * clusters) | 0);
            a += vectors[row] as number;
            b += vectors[row + 1] as number;
          }
          out[at] = a;
          out[at + 1] = b;
        } else {
          for (let s = 0; s < clusters; s++) {
            const row = k * (((uniforms[from + s] as number) * clusters) | 0);
            for (let j = 0; j < k; j++) out[at + j] = (out[at + j] as number) + (vectors[row + j] as number);
          }
        }
      }
    }
    return;
  }
  const drawn = new Int32Array(types);
  for (let r = 0; r < replicates; r++) {
    drawMultiplicities(sampler, rng, drawn);
    const at = r * k;
    for (let t = 0; t < types; t++) {
      const m = drawn[t] as number;
      if (m === 0) continue;
      for (let j = 0; j < k; j++) out[at + j] = (out[at + j] as number) + m * (table[t * k + j] as number);
    }
  }
}
