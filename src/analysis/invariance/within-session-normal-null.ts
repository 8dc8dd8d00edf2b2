// The fast path of the within-session permutation null (within-session-permutation.ts) for a (player,
// game) of many sessions. Each replicate of the exact null is a sum of independent pieces — every spanning
// session's framing × action table redrawn with its margins (a multivariate hypergeometric table), and
// every length stratum's sessions shuffled over its framing slots (sampling without replacement) — so the
// framings' counts are close to the multivariate normal with the exact null's mean and covariance, which
// are known in closed form (below). Each replicate draws that normal for the first k − 1 actions of every
// framing (a framing's total is fixed by the permutation, so the last action is what is left), rounded and
// clamped to [0, framing total]. Cost F²(k − 1)² per replicate instead of one draw per session.
import type { UniformSource } from "../sampling/fast-rng.js";
import { choleskyFactor, drawNormalCounts } from "../sampling/normal-cluster-sums.js";

/** The spanning sessions that move: session m's framing totals at rows[m·F ..), action totals at columns[m·k ..), `weights[m]` of it. */
export interface MovingSessions {
  readonly rows: Int32Array;
  readonly columns: Int32Array;
  readonly weights: Float64Array;
}

/** A length stratum: session i's counts at vectors[i·k ..), and the framing of each slot. */
export interface ShuffledStratum {
  readonly vectors: Int32Array;
  readonly framings: Int32Array;
}

/**
 * `replicates` draws per framing (replicate r's counts at r·k), the null's normal approximation:
 * `fixed` (F·k counts that never move) plus the moving sessions' and strata's parts.
 */
export function drawNormalWithinSessionNull(
  F: number,
  k: number,
  fixed: Int32Array,
  moving: MovingSessions,
  strata: readonly ShuffledStratum[],
  replicates: number,
  rng: UniformSource,
): Int32Array[] {
  const free = k - 1;
  const dims = F * free;
  const at = (f: number, a: number): number => f * free + a;
  const mean = new Float64Array(dims);
  const covariance = new Float64Array(dims * dims); // lower triangle
  const add = (i: number, j: number, value: number): void => {
    const [hi, lo] = i >= j ? [i, j] : [j, i];
    covariance[hi * dims + lo] = (covariance[hi * dims + lo] as number) + value;
  };
  const totals = new Float64Array(F);
  for (let f = 0; f < F; f++) {
    for (let a = 0; a < k; a++) totals[f] = (totals[f] as number) + (fixed[f * k + a] as number);
    for (let a = 0; a < free; a++) mean[at(f, a)] = fixed[f * k + a] as number;
  }
  // A table with margins r (framings) and c (actions), n decisions, labels permuted: the count of action
  // a in framing f has mean r_f·c_a/n and Cov(X_fa, X_gb) = r_f(n·δ_fg − r_g)·c_a(n·δ_ab − c_b) / (n²(n − 1)).
  for (let m = 0; m < moving.weights.length; m++) {
    const rows = moving.rows.subarray(m * F, (m + 1) * F);
    const columns = moving.columns.subarray(m * k, (m + 1) * k);
    const weight = moving.weights[m] as number;
    let n = 0;
    for (const x of rows) n += x;
    for (let f = 0; f < F; f++) totals[f] = (totals[f] as number) + weight * (rows[f] as number);
    const scale = weight / (n * n * (n - 1));
    for (let f = 0; f < F; f++) {
      const rf = rows[f] as number;
      if (rf === 0) continue;
      for (let a = 0; a < free; a++) {
        mean[at(f, a)] = (mean[at(f, a)] as number) + (weight * rf * (columns[a] as number)) / n;
        for (let g = 0; g <= f; g++) {
          const rg = rows[g] as number;
          if (rg === 0) continue;
          const framingPart = rf * ((f === g ? n : 0) - rg);
          for (let b = 0; b < (g === f ? a + 1 : free); b++) {
            const ca = columns[a] as number;
            const actionPart = ca * ((a === b ? n : 0) - (columns[b] as number));
            add(at(f, a), at(g, b), scale * framingPart * actionPart);
          }
        }
      }
    }
  }
  // N sessions shuffled over slots, m_f of them framing f's: S_f has mean m_f·v̄ and
  // Cov(S_f, S_g) = C·N/(N − 1)·(δ_fg·m_f − m_f·m_g/N), C the sessions' covariance (divided by N).
  for (const { vectors, framings } of strata) {
    const N = framings.length;
    const slots = new Float64Array(F);
    for (const f of framings) slots[f] = (slots[f] as number) + 1;
    const average = new Float64Array(k);
    for (let i = 0; i < N; i++)
      for (let a = 0; a < k; a++) average[a] = (average[a] as number) + (vectors[i * k + a] as number) / N;
    const C = new Float64Array(k * k);
    for (let i = 0; i < N; i++)
      for (let a = 0; a < k; a++)
        for (let b = 0; b < k; b++)
          C[a * k + b] =
            (C[a * k + b] as number) +
            (((vectors[i * k + a] as number) - (average[a] as number)) *
              ((vectors[i * k + b] as number) - (average[b] as number))) /
              N;
    for (let f = 0; f < F; f++) {
      const mf = slots[f] as number;
      if (mf === 0) continue;
      for (let a = 0; a < k; a++) totals[f] = (totals[f] as number) + mf * (average[a] as number);
      for (let a = 0; a < free; a++) {
        mean[at(f, a)] = (mean[at(f, a)] as number) + mf * (average[a] as number);
        for (let g = 0; g <= f; g++) {
          const mg = slots[g] as number;
          if (mg === 0) continue;
          const framingPart = ((f === g ? mf : 0) - (mf * mg) / N) * (N / (N - 1));
          for (let b = 0; b < (g === f ? a + 1 : free); b++)
            add(at(f, a), at(g, b), (C[a * k + b] as number) * framingPart);
        }
      }
    }
  }
  const draws = new Int32Array(replicates * dims);
  drawNormalCounts(mean, choleskyFactor(covariance, dims), rng, replicates, draws);
  const out = Array.from({ length: F }, () => new Int32Array(replicates * k));
  for (let r = 0; r < replicates; r++) {
    for (let f = 0; f < F; f++) {
      const total = Math.round(totals[f] as number);
      const target = out[f] as Int32Array;
      let left = total;
      for (let a = 0; a < free; a++) {
        const x = Math.min(left, draws[r * dims + at(f, a)] as number);
        target[r * k + a] = x;
        left -= x;
      }
      target[r * k + free] = left;
    }
  }
  return out;
}
