// The fast path of the cluster bootstrap for a resampling unit with many sessions (a cell whose sessions
// stay in it, or a player whose sessions span its cells). A replicate of the exact bootstrap is the sum of
// S sessions drawn with replacement, each a vector of counts over the unit's cells × actions; by the
// central limit theorem that sum is close to the multivariate normal with mean S·m̄ and covariance S·Σ̂,
// m̄ and Σ̂ the mean and (population) covariance of the unit's S session vectors: exactly the mean and
// covariance of the exact bootstrap's sum. So each replicate draws that normal (one Cholesky factor per
// unit, then `dims` standard normals and a triangular product) and rounds every count to the nearest
// non-negative integer, instead of drawing S sessions. An action no session chose has no variance and
// stays 0, as in the exact bootstrap. Its cost is dims² per replicate whatever S is, and the unit needs
// only the sums and cross-products of its session vectors, not the sessions.
//
// Used where the sum is nearly normal (the thresholds below, or `SAME_GAME_CLUSTER_SUMS`), never for
// records without sessions: those (the published Table 3 among them) keep their exact draws.
import type { UniformSource } from "./fast-rng.js";
import { blockUniforms, fillNormalPairs } from "./normal-pairs.js";

/** How a unit's session sums are drawn: "auto" (normal where the thresholds below hold), or forced. */
export type ClusterSumMethod = "auto" | "exact" | "normal";
export const CLUSTER_SUM_METHODS: readonly ClusterSumMethod[] = ["auto", "exact", "normal"];

/** Sessions a unit needs before "auto" draws its sums from the normal approximation. */
export const NORMAL_MIN_SESSIONS = 200;
/** …and sessions with decisions in each of its cells (a cell's count is a sum over those alone). */
export const NORMAL_MIN_CELL_SESSIONS = 50;

/** `SAME_GAME_CLUSTER_SUMS` (auto, exact or normal; default auto), the coverage grid's switch. */
export function clusterSumMethodFromEnv(env: NodeJS.ProcessEnv = process.env): ClusterSumMethod {
  const value = (env.SAME_GAME_CLUSTER_SUMS ?? "auto").trim().toLowerCase() || "auto";
  if (!CLUSTER_SUM_METHODS.includes(value as ClusterSumMethod)) {
    throw new Error(
      `SAME_GAME_CLUSTER_SUMS=${value} is invalid; valid values: ${CLUSTER_SUM_METHODS.join(", ")}.`,
    );
  }
  return value as ClusterSumMethod;
}

/**
 * Whether a unit of `sessions` sessions, the sparsest of its cells reached by `fewestInCell` of them,
 * draws the normal approximation. A forced "normal" still needs two sessions (one has no covariance).
 */
export function drawsNormalSums(method: ClusterSumMethod, sessions: number, fewestInCell: number): boolean {
  if (method === "exact") return false;
  if (method === "normal") return sessions >= 2;
  return sessions >= NORMAL_MIN_SESSIONS && fewestInCell >= NORMAL_MIN_CELL_SESSIONS;
}

/** Σ w·v and Σ w·v·vᵀ (lower triangle) of a unit's session vectors v, each with weight w (sessions it stands for). */
export class SessionMoments {
  readonly sum: Float64Array;
  /** cross[i·dims + j] for j ≤ i. */
  readonly cross: Float64Array;
  sessions = 0;

  constructor(readonly dims: number) {
    this.sum = new Float64Array(dims);
    this.cross = new Float64Array(dims * dims);
  }

  /** One session type: its non-zero counts `value[e]` at `position[e]`, e in [from, to), standing for `weight` sessions. */
  add(position: ArrayLike<number>, value: ArrayLike<number>, from: number, to: number, weight: number): void {
    const { sum, cross, dims } = this;
    this.sessions += weight;
    for (let e = from; e < to; e++) {
      const i = position[e] as number;
      const vi = (value[e] as number) * weight;
      sum[i] = (sum[i] as number) + vi;
      for (let f = from; f < to; f++) {
        const j = position[f] as number;
        if (j <= i) cross[i * dims + j] = (cross[i * dims + j] as number) + vi * (value[f] as number);
      }
    }
  }
}

/** Below this share of the largest variance a pivot counts as zero: that direction has no variance of its own. */
const PIVOT_TOLERANCE = 1e-12;

/** The covariance S·Σ̂ = Σ w·v·vᵀ − (Σ w·v)(Σ w·v)ᵀ/S of the sum of S resampled sessions (lower triangle, row-major). */
export function sumCovariance(moments: SessionMoments): Float64Array {
  const { dims, sum, cross, sessions } = moments;
  const covariance = new Float64Array(dims * dims);
  for (let i = 0; i < dims; i++)
    for (let j = 0; j <= i; j++)
      covariance[i * dims + j] =
        (cross[i * dims + j] as number) - ((sum[i] as number) * (sum[j] as number)) / sessions;
  return covariance;
}

/**
 * The lower Cholesky factor L of a covariance matrix given by its lower triangle (row-major, dims × dims).
 * A direction without variance of its own (an action never chosen, or a count fixed by others) gets a
 * zero column.
 */
export function choleskyFactor(covariance: Float64Array, dims: number): Float64Array {
  const L = new Float64Array(dims * dims);
  let largest = 0;
  for (let i = 0; i < dims; i++) largest = Math.max(largest, covariance[i * dims + i] as number);
  const tolerance = largest * PIVOT_TOLERANCE;
  for (let j = 0; j < dims; j++) {
    for (let i = j; i < dims; i++) {
      let value = covariance[i * dims + j] as number;
      for (let p = 0; p < j; p++) value -= (L[i * dims + p] as number) * (L[j * dims + p] as number);
      if (i === j) {
        if (value <= tolerance) break; // the column stays zero
        L[j * dims + j] = Math.sqrt(value);
      } else L[i * dims + j] = value / (L[j * dims + j] as number);
    }
  }
  return L;
}

/** The lower Cholesky factor of S·Σ̂ (see `sumCovariance`). */
export function sumCovarianceFactor(moments: SessionMoments): Float64Array {
  return choleskyFactor(sumCovariance(moments), moments.dims);
}

/**
 * `replicates` draws of a unit's summed counts: replicate r's `dims` counts at `out[r·dims ..]`, each
 * round(S·m̄ + L·z) clamped at 0, z standard normal (Box–Muller from the stream's uniforms, in order).
 * With `nonEmpty` (a single cell: every session drawn has decisions in it, so no exact replicate is
 * empty) a replicate whose counts all round to 0 is drawn again.
 */
export function drawNormalClusterSums(
  moments: SessionMoments,
  rng: UniformSource,
  replicates: number,
  out: Int32Array,
  nonEmpty = false,
): void {
  drawNormalCounts(moments.sum, sumCovarianceFactor(moments), rng, replicates, out, nonEmpty);
}

/**
 * `replicates` draws of round(mean + L·z) clamped at 0, `mean.length` counts each, at `out[r·dims ..]`
 * (see `drawNormalClusterSums`).
 */
export function drawNormalCounts(
  mean: Float64Array,
  L: Float64Array,
  rng: UniformSource,
  replicates: number,
  out: Int32Array,
  nonEmpty = false,
): void {
  const dims = mean.length;
  // Only the columns with variance take part in the product: row i's factors on them (those at or left of
  // the diagonal) packed side by side, so the product walks one flat array in the same order.
  const live: number[] = [];
  for (let j = 0; j < dims; j++) if ((L[j * dims + j] as number) > 0) live.push(j);
  const rowStart = new Int32Array(dims + 1);
  for (let i = 0; i < dims; i++) {
    let used = 0;
    while (used < live.length && (live[used] as number) <= i) used++;
    rowStart[i + 1] = (rowStart[i] as number) + used;
  }
  const packed = new Float64Array(rowStart[dims] as number);
  for (let i = 0; i < dims; i++) {
    const from = rowStart[i] as number;
    for (let c = 0; c < (rowStart[i + 1] as number) - from; c++) {
      packed[from + c] = L[i * dims + (live[c] as number)] as number;
    }
  }
  const normals = new Float64Array(dims + 1); // a pair at a time
  const nextUniform = blockUniforms(rng);
  let r = 0;
  if (!nonEmpty) {
    // Four replicates at a time: their normals drawn one replicate after another (the same uniforms in
    // the same order), then each row's four sums side by side, each added up in the same order as alone,
    // so the same counts; the four independent sums keep the processor busy where one waits on each add.
    const quad = new Float64Array(4 * (dims + 1));
    const stride = dims + 1;
    for (; r + 4 <= replicates; r += 4) {
      for (let q = 0; q < 4; q++) {
        fillNormalPairs(normals, live.length, nextUniform);
        quad.set(normals, q * stride);
      }
      for (let i = 0; i < dims; i++) {
        const m = mean[i] as number;
        let x0 = m;
        let x1 = m;
        let x2 = m;
        let x3 = m;
        const end = rowStart[i + 1] as number;
        for (let e = rowStart[i] as number, c = 0; e < end; e++, c++) {
          const p = packed[e] as number;
          x0 += p * (quad[c] as number);
          x1 += p * (quad[stride + c] as number);
          x2 += p * (quad[2 * stride + c] as number);
          x3 += p * (quad[3 * stride + c] as number);
        }
        const at = r * dims + i;
        out[at] = x0 > 0.5 ? Math.round(x0) : 0;
        out[at + dims] = x1 > 0.5 ? Math.round(x1) : 0;
        out[at + 2 * dims] = x2 > 0.5 ? Math.round(x2) : 0;
        out[at + 3 * dims] = x3 > 0.5 ? Math.round(x3) : 0;
      }
    }
  }
  for (; r < replicates; r++) {
    let total = 0;
    do {
      total = drawOne(r * dims);
    } while (nonEmpty && total === 0);
  }

  function drawOne(at: number): number {
    fillNormalPairs(normals, live.length, nextUniform);
    let total = 0;
    for (let i = 0; i < dims; i++) {
      let x = mean[i] as number;
      const end = rowStart[i + 1] as number;
      for (let e = rowStart[i] as number, c = 0; e < end; e++, c++) {
        x += (packed[e] as number) * (normals[c] as number);
      }
      const count = x > 0.5 ? Math.round(x) : 0;
      out[at + i] = count;
      total += count;
    }
    return total;
  }
}
