// How much sessions that span framings narrow the spread of a game's framing contrasts. When one
// session decides in every framing of a game (a live agent's conversation, a session's own propensity
// shared by its decisions everywhere), the framings' rates move together: the variance of a difference
// p̂_a − p̂_b is Var(p̂_a) + Var(p̂_b) − 2 Cov, smaller than the sum the framings' own design effects give
// when they are treated as independent. Left out, it made the test-inversion interval too wide (99.6%
// coverage with 60 sessions of 5 decisions per cell, ρ .3). The factor is the ratio of the two,
// estimated with the cluster-robust (sandwich) variances of the framing rates, every session a cluster:
//
//   c = Σ_pairs Σ_s w_s (e_as − e_bs)² / Σ_pairs Σ_s w_s (e_as² + e_bs²),   e_fs = (x_fs − p̂_f m_fs) / n_f,
//
// and every framing's binomial size in the tails is divided by it (n_f / (deff_f · c)). It is 1 for
// sessions nested in cells (a session in one framing only adds nothing to the covariance).
import type { FramingSessions } from "./framing-sessions.js";

/** A framing as the factor sees it: first-action count, size and sessions (numbered by id). */
export interface SessionFraming {
  readonly x: number;
  readonly n: number;
  readonly sessions?: FramingSessions;
}

/**
 * The smallest factor allowed: an estimated covariance (from few sessions, noisy) may not make a framing
 * worth more than ten times its decisions.
 */
export const SMALLEST_FACTOR = 0.1;

/**
 * Fewer sessions shared between framings than this and the covariance is left out (c = 1, the wider
 * interval): a sandwich variance from a handful of sessions is too noisy to narrow an interval on.
 */
export const FEWEST_SHARED_SESSIONS = 20;

/**
 * c in [SMALLEST_FACTOR, 1]: 1 where no two framings share FEWEST_SHARED_SESSIONS sessions or nothing
 * varies.
 */
export function sharedSessionFactor(framings: readonly SessionFraming[]): number {
  // Every framing's sessions as flat arrays (residual e and weight, by session number), in the order of
  // each number's first listing in the framing, a later listing of the same number replacing its values
  // there: the sums below add the same terms in the same order as walking a map of each framing's
  // sessions, with an array lookup instead of a map's for each session of each pair.
  // slot[f·N + id]: where session id sits in framing f's arrays, −1 where it has no listing there (N: one
  // more than the largest number).
  let N = 0;
  for (const f of framings) {
    const id = f.sessions?.id;
    if (id !== undefined) for (let i = 0; i < id.length; i++) N = Math.max(N, (id[i] as number) + 1);
  }
  const slot = new Int32Array(framings.length * N).fill(-1);
  const residuals = framings.map((f, framing) => {
    if (f.sessions === undefined || f.sessions.id === undefined) return null;
    const { x, n, weight, id: number } = f.sessions;
    const p = f.x / f.n;
    const ids = new Int32Array(x.length);
    const es = new Float64Array(x.length);
    const weights = new Float64Array(x.length);
    let listed = 0;
    for (let i = 0; i < x.length; i++) {
      const id = number[i] as number;
      const e = ((x[i] as number) - p * (n[i] as number)) / f.n;
      const before = slot[framing * N + id] as number;
      if (before < 0) {
        slot[framing * N + id] = listed;
        ids[listed] = id;
        es[listed] = e;
        weights[listed] = weight[i] as number;
        listed++;
      } else {
        es[before] = e;
        weights[before] = weight[i] as number;
      }
    }
    return { ids: ids.subarray(0, listed), es: es.subarray(0, listed), weights: weights.subarray(0, listed) };
  });
  let together = 0;
  let apart = 0;
  let shared = 0; // the fewest sessions any pair of framings shares
  for (let a = 0; a < framings.length; a++) {
    for (let b = a + 1; b < framings.length; b++) {
      const ra = residuals[a];
      const rb = residuals[b];
      if (ra == null || rb == null) {
        shared = 0;
        continue;
      }
      let pairShared = 0;
      for (let i = 0; i < ra.ids.length; i++) {
        const e = ra.es[i] as number;
        const weight = ra.weights[i] as number;
        const other = slot[b * N + (ra.ids[i] as number)] as number;
        if (other >= 0) pairShared += weight;
        const eb = other >= 0 ? (rb.es[other] as number) : 0;
        together += weight * (e - eb) ** 2;
        apart += weight * (e * e + eb * eb);
      }
      for (let i = 0; i < rb.ids.length; i++) {
        if ((slot[a * N + (rb.ids[i] as number)] as number) >= 0) continue;
        const e = rb.es[i] as number;
        const weight = rb.weights[i] as number;
        together += weight * e * e;
        apart += weight * e * e;
      }
      shared = a === 0 && b === 1 ? pairShared : Math.min(shared, pairShared);
    }
  }
  if (shared < FEWEST_SHARED_SESSIONS || !(apart > 0)) return 1;
  return Math.min(1, Math.max(SMALLEST_FACTOR, together / apart));
}
