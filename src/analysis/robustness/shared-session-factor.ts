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

/** A session of one framing: its id (shared across the framings it decided in), counts and weight. */
export interface IdentifiedSession {
  readonly id?: string;
  readonly x: number;
  readonly n: number;
  readonly weight: number;
}

/** A framing as the factor sees it: first-action count, size and sessions. */
export interface SessionFraming {
  readonly x: number;
  readonly n: number;
  readonly sessions?: readonly IdentifiedSession[];
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
  const residuals = framings.map((f) => {
    const byId = new Map<string, { e: number; weight: number }>();
    const p = f.x / f.n;
    for (const s of f.sessions ?? []) {
      if (s.id === undefined) return null;
      byId.set(s.id, { e: (s.x - p * s.n) / f.n, weight: s.weight });
    }
    return f.sessions === undefined ? null : byId;
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
      for (const [id, { e, weight }] of ra) {
        const other = rb.get(id);
        if (other !== undefined) pairShared += weight;
        const eb = other?.e ?? 0;
        together += weight * (e - eb) ** 2;
        apart += weight * (e * e + eb * eb);
      }
      for (const [id, { e, weight }] of rb) {
        if (ra.has(id)) continue;
        together += weight * e * e;
        apart += weight * e * e;
      }
      shared = a === 0 && b === 1 ? pairShared : Math.min(shared, pairShared);
    }
  }
  if (shared < FEWEST_SHARED_SESSIONS || !(apart > 0)) return 1;
  return Math.min(1, Math.max(SMALLEST_FACTOR, together / apart));
}
