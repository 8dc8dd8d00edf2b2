// The fast path of the session-design null (session-design-null.ts) for a (player, game) of many sessions.
// A null record of the exact path redraws every session of framing f as a Dirichlet-multinomial at the
// pooled rates π with intra-session correlation ρ̂, and keeps of framing f only its counts X_f and
// Q_f = Σ_s Σ_a x_sa²/m_s (what the statistic and the studentizing ρ̂* read). Both are sums of independent
// sessions, so (X_f without its last action, Q_f) is close to the multivariate normal with the exact
// null's mean and covariance, which are sums over f's sessions of each session's moments; those follow in
// closed form from the Dirichlet-multinomial's factorial moments (Mosimann 1962):
//   E[Π_a x_a^(r_a)] = m^(R) · Π_a Π_{i<r_a} (π_a(1 − ρ) + iρ) / Π_{i<R} ((1 − ρ) + iρ),   R = Σ_a r_a,
// x^(r) the falling factorial (ρ = 0: the multinomial's m^(R)·Π π_a^r_a), and raw moments up to the fourth
// (Var Q needs E[x_a² x_b²]) from them by Stirling numbers of the second kind. Each replicate then draws k
// normals per framing (framings are independent under this null) instead of one draw per session; the
// counts are rounded and clamped to the framing's decisions, Q_f to the range the exact sums can take.
import type { UniformSource } from "../sampling/fast-rng.js";
import { type ClusterSumMethod, choleskyFactor } from "../sampling/normal-cluster-sums.js";
import { blockUniforms, fillNormalPairs } from "../sampling/normal-pairs.js";

/**
 * Sessions every framing needs before "auto" draws the normal approximation. Higher than the bootstrap's
 * threshold: the test reads the extremes of up to 11 framings' rates, far in each framing's tail, where
 * the sum of 50–80 clustered sessions was still visibly not normal (the approximation rejected 1–3 points
 * less often than the exact null; bench/coverage/session-design-size.ts).
 */
export const DESIGN_NORMAL_MIN_SESSIONS = 200;

/** Whether framings of `sessions[f]` sessions draw the normal approximation ("normal": forced, from two sessions). */
export function drawsNormalDesign(method: ClusterSumMethod, sessions: readonly number[]): boolean {
  if (method === "exact") return false;
  if (method === "normal") return sessions.reduce((s, x) => s + x, 0) >= 2;
  return Math.min(...sessions) >= DESIGN_NORMAL_MIN_SESSIONS;
}

/**
 * E[Π_a x_a^(r_a)] of one session of m decisions, x ~ Dirichlet-multinomial(m; π, ρ): the closed form
 * above (`r` the falling-factorial orders per action).
 */
export function factorialMoment(
  m: number,
  pooled: readonly number[],
  rho: number,
  r: readonly number[],
): number {
  const R = r.reduce((s, x) => s + x, 0);
  let value = 1;
  for (let i = 0; i < R; i++) value *= (m - i) / (1 - rho + i * rho);
  r.forEach((order, a) => {
    for (let i = 0; i < order; i++) value *= (pooled[a] as number) * (1 - rho) + i * rho;
  });
  return value;
}

/** S(n, j), Stirling numbers of the second kind for n ≤ 4: x^n = Σ_j S(n, j)·x^(j). */
const STIRLING: readonly (readonly number[])[] = [[1], [0, 1], [0, 1, 1], [0, 1, 3, 1], [0, 1, 7, 6, 1]];

/** E[Π_a x_a^e_a] (Σ e_a ≤ 4) of one session: each power expanded into falling factorials. */
export function rawMoment(m: number, pooled: readonly number[], rho: number, e: readonly number[]): number {
  let total = 0;
  const orders = e.map(() => 0);
  const expand = (a: number, coefficient: number): void => {
    if (a === e.length) {
      total += coefficient * factorialMoment(m, pooled, rho, orders);
      return;
    }
    const row = STIRLING[e[a] as number] as readonly number[];
    row.forEach((s, j) => {
      if (s === 0) return;
      orders[a] = j;
      expand(a + 1, coefficient * s);
    });
    orders[a] = 0;
  };
  expand(0, 1);
  return total;
}

/**
 * One session's mean and covariance of (x_0, …, x_{k−2}, q), q = Σ_a x_a²/m: `mean` has k entries,
 * `covariance` k × k (full, row-major).
 */
export function sessionMoments(
  m: number,
  pooled: readonly number[],
  rho: number,
): { mean: Float64Array; covariance: Float64Array } {
  const k = pooled.length;
  const e = (...powers: [number, number][]): number[] => {
    const exponents = pooled.map(() => 0);
    for (const [a, p] of powers) exponents[a] = (exponents[a] as number) + p;
    return exponents;
  };
  const E = (...powers: [number, number][]): number => rawMoment(m, pooled, rho, e(...powers));
  const mean = new Float64Array(k);
  const second = new Float64Array(k * k); // E[v_i v_j]
  const q = k - 1;
  for (let a = 0; a < q; a++) mean[a] = E([a, 1]);
  for (let c = 0; c < k; c++) mean[q] = (mean[q] as number) + E([c, 2]) / m;
  for (let a = 0; a < q; a++) {
    for (let b = 0; b <= a; b++) second[a * k + b] = E([a, 1], [b, 1]);
    let withQ = 0;
    for (let c = 0; c < k; c++) withQ += E([a, 1], [c, 2]) / m;
    second[q * k + a] = withQ;
  }
  let qq = 0;
  for (let c = 0; c < k; c++) for (let d = 0; d < k; d++) qq += E([c, 2], [d, 2]) / (m * m);
  second[q * k + q] = qq;
  const covariance = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      const value = (second[i * k + j] as number) - (mean[i] as number) * (mean[j] as number);
      covariance[i * k + j] = value;
      covariance[j * k + i] = value;
    }
  }
  return { mean, covariance };
}

/**
 * The normal approximation of the session-design null: per framing f (its session lengths `lengths[f]`),
 * replicate r's counts at out[f][r·k ..] and its Σ x²/m at squares[f][r], as the exact path writes them.
 */
export function drawNormalSessionDesign(
  lengths: readonly (readonly number[])[],
  pooled: readonly number[],
  rho: number,
  replicates: number,
  rng: UniformSource,
  out: Int32Array[],
  squares: Float64Array[],
): void {
  const k = pooled.length;
  const byLength = new Map<number, { mean: Float64Array; covariance: Float64Array }>();
  const framings = lengths.map((design) => {
    const mean = new Float64Array(k);
    const covariance = new Float64Array(k * k);
    const sessions = new Map<number, number>();
    for (const m of design) sessions.set(m, (sessions.get(m) ?? 0) + 1);
    for (const [m, count] of sessions) {
      let moments = byLength.get(m);
      if (moments === undefined) {
        moments = sessionMoments(m, pooled, rho);
        byLength.set(m, moments);
      }
      for (let i = 0; i < k; i++) mean[i] = (mean[i] as number) + count * (moments.mean[i] as number);
      for (let i = 0; i < k * k; i++)
        covariance[i] = (covariance[i] as number) + count * (moments.covariance[i] as number);
    }
    const n = design.reduce((s, m) => s + m, 0);
    return { mean, L: choleskyFactor(covariance, k), n };
  });
  const normals = new Float64Array(k + 1);
  const nextUniform = blockUniforms(rng);
  for (let r = 0; r < replicates; r++) {
    framings.forEach(({ mean, L, n }, f) => {
      fillNormalPairs(normals, k, nextUniform);
      const target = out[f] as Int32Array;
      let left = n;
      let sumSquares = 0;
      let q = 0;
      for (let i = 0; i < k; i++) {
        let x = mean[i] as number;
        for (let j = 0; j <= i; j++) x += (L[i * k + j] as number) * (normals[j] as number);
        if (i < k - 1) {
          const count = Math.min(left, x > 0.5 ? Math.round(x) : 0);
          target[r * k + i] = count;
          left -= count;
          sumSquares += count * count;
        } else q = x;
      }
      target[r * k + k - 1] = left;
      sumSquares += left * left;
      // The exact sums keep Σ x²/m between the counts' Σ X²/n (every session at its framing's rates) and n
      // (every session of one action).
      (squares[f] as Float64Array)[r] = n > 0 ? Math.min(n, Math.max(sumSquares / n, q)) : 0;
    });
  }
}
