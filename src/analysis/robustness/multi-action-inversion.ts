// The R interval of a game with three or more actions by test inversion, the k-action counterpart of
// robustness-inversion.ts: the interval is every r for which the observed R̂ is not surprising when the
// true R is r (Casella & Berger 2002, §9.2),
//
//   lower end: the r ≤ R̂ at which P_r(R* ≥ R̂) = α/2 (the larger tail of the tilt path's configuration
//              and, where framings chose one action every time, one that keeps them on it: `vertexPath`);
//   upper end: the r ≥ R̂ at which P_r(R* ≤ R̂) = α/2, and 1 when the permutation test of invariance
//              does not reject at α (the same rule, and the same level fallback, as two actions);
//
// with P_r the framings' multinomials at a configuration with R = r. For the lower end it lies on the
// exponential-tilt path through the Jeffreys-smoothed rates, p_f(t) ∝ pooled^(1−t)·p̂_f^t: t = 0 is
// invariance (every framing at the pooled distribution), t = 1 the smoothed record, t > 1 pulls the
// framings further apart. For the upper end only the framings beyond a JSD radius of the pooled
// distribution are pulled in, along their own tilt paths (`RadiusClipPath`). For two
// actions this is the logit path of the two-action upper end; on k actions it keeps every framing inside
// the simplex with every action possible, so a framing that chose one action can still vary — what the
// bootstrap of a deterministic framing cannot (the bootstrap interval missed 6.0% below at (1, 0, 0) vs
// (.9, .05, .05), n 50, and 9.5% above at (.6, .3, .1) vs (.2, .3, .5), n 5, where records that reject
// invariance are framings that each chose one action and every bootstrap replicate repeats them).
//
// Tails are mid-p (a tie counts one half). They are exact — summed over every outcome of every framing —
// where the framings' outcomes are few (tiny cells: the discrete rows), and otherwise estimated from a
// fixed set of simulated records whose uniforms are drawn once (common random numbers: each record's
// counts move monotonically with the rates, so the tail is a stable step function of r and the interval
// the same on every run). Sessions enter by each framing's design effect, as for two actions.
// Where a simulated count's variance reaches NORMAL_VARIANCE (large framings) it is drawn from its
// normal approximation at the same uniform, so a framing of any size costs about the same.
import { entropyTerm, jensenShannon } from "../../domain/divergence.js";
import { createBootstrapRng } from "../sampling/fast-rng.js";
import { normalQuantile } from "../sampling/normal-quantile.js";
import type { Tails } from "./extreme-pair-tails.js";
import {
  intervalEnd,
  kishDesignEffects,
  probit,
  robustnessOf,
  upperEndFromTail,
} from "./robustness-inversion.js";

export const MULTI_ACTION_INVERSION_METHOD =
  "test inversion (three or more actions): lower end where P_r(R* ≥ R̂) = α/2, upper end where P_r(R* ≤ R̂) = α/2 (1 when the permutation test does not reject at α), the framings' multinomials at a configuration with R = r: for the lower end on the exponential-tilt path p_f(t) ∝ pooled^(1−t)·p̂_f^t through the Jeffreys-smoothed rates (with three or more framings, the lower end no higher than the bootstrap's) or, where it gives the larger tail, through the same rates with every framing that chose one action left on that vertex (where every framing chose the same one action: all but the smallest on the vertex, the smallest at the rate a of that action with JSD (1 − r)·ln 2 to it, the tail a^m/2), for the upper end every framing kept within a JSD radius of the pooled distribution (the framings beyond it pulled in along their tilt paths); mid-p tails, exact over every outcome where the framings have at most 20,000 joint outcomes, else from 4,000 simulated records with common random numbers (a simulated count of variance 400 or more from its normal approximation); sessions by each framing's design effect 1 + (m̃_f − 1)ρ̂";

/** One framing of a k-action game: its counts per action and, when known, its sessions' counts. */
export interface MultiActionFraming {
  readonly counts: readonly number[];
  readonly sessions?: readonly { readonly counts: readonly number[]; readonly weight: number }[];
}

const LN2 = Math.LN2;
/** How far R* may sit from R̂ and still count as a tie (the same sums in another order). */
const TIE = 1e-12;
/** Joint outcomes up to which the tails are summed exactly. */
export const EXACT_LIMIT = 20_000;
/** Simulated records per tail evaluation beyond that. */
export const SIMULATED_RECORDS = 4_000;
/**
 * Variance of a simulated count (a binomial of what the earlier actions left) from which it is drawn from
 * its normal approximation instead of an exact CDF table: there the skewness is below 0.05, and an exact
 * table per remaining size (hundreds of sizes, each hundreds of counts long) would make a framing cost
 * what its size is.
 */
const NORMAL_VARIANCE = 400;

/**
 * R = 1 − max over pairs of framings of JSD / ln 2, each framing's own entropy summed once instead of once
 * per pair it is in: the same sums in the same order as `jensenShannon` (so the same number, bit for
 * bit), with k logarithms per pair instead of 3k — the largest share of a simulated tail's time on 11
 * framings. `entropies`: scratch space, one per framing, for callers that evaluate many records.
 */
export function robustnessOfDistributions(
  rates: readonly (readonly number[])[],
  entropies: Float64Array = new Float64Array(rates.length),
): number {
  const F = rates.length;
  for (let f = 0; f < F; f++) {
    const p = rates[f] as readonly number[];
    let h = 0;
    for (let a = 0; a < p.length; a++) h += entropyTerm(p[a] as number);
    entropies[f] = h;
  }
  let max = 0;
  for (let f = 0; f < F; f++) {
    const p = rates[f] as readonly number[];
    for (let g = f + 1; g < F; g++) {
      const q = rates[g] as readonly number[];
      let hm = 0;
      for (let a = 0; a < p.length; a++) hm += entropyTerm(((p[a] as number) + (q[a] as number)) / 2);
      const jsd = Math.min(Math.max(hm - ((entropies[f] as number) + (entropies[g] as number)) / 2, 0), LN2);
      max = Math.max(max, jsd);
    }
  }
  return 1 - max / LN2;
}

/** Jeffreys-smoothed rates (x_a + ½)/(n + k/2): every action possible. */
export function smoothedDistribution(counts: readonly number[]): number[] {
  const n = counts.reduce((s, x) => s + x, 0);
  return counts.map((x) => (x + 0.5) / (n + counts.length / 2));
}

/** Every framing at p_f(t) ∝ pooled^(1−t)·p_f^t (computed on logs, so large t stays finite). */
export function tiltedRates(
  rates: readonly (readonly number[])[],
  pooled: readonly number[],
  t: number,
): number[][] {
  return rates.map((p) => {
    const logs = p.map((q, a) => {
      const base = Math.log(pooled[a] as number);
      return base + t * (Math.log(q) - base);
    });
    const top = Math.max(...logs);
    const weights = logs.map((l) => Math.exp(l - top));
    const sum = weights.reduce((s, w) => s + w, 0);
    return weights.map((w) => w / sum);
  });
}

/** The scan of the tilt path: t from 0 in steps growing by this factor, up to T_MAX. */
const T_FIRST = 1 / 64;
const T_GROWTH = 1.25;
const T_MAX = 2 ** 30;

/**
 * The tilt path of a record, scanned once. R is 1 at t = 0 and falls as the framings move apart, but not
 * always all the way: each framing tends to the vertex of the action with its largest ratio p̂_fa /
 * pooled_a, and framings that share that action (an action none chose has its smoothed mass in every
 * framing, and a small pooled one) come back together. So the configuration at R = r is the path's
 * first crossing of r, and where r lies below the path's lowest R, the configuration there (`minimum`).
 */
export class TiltPath {
  private readonly ts: number[] = [0];
  private readonly rs: number[] = [1];
  /** The lowest R along the path, and where. */
  readonly minimum: number;
  private readonly minimumT: number;

  constructor(
    private readonly rates: readonly (readonly number[])[],
    private readonly pooled: readonly number[],
  ) {
    let min = 1;
    let minT = 0;
    for (let t = T_FIRST; t <= T_MAX; t *= T_GROWTH) {
      const r = this.rAt(t);
      this.ts.push(t);
      this.rs.push(r);
      if (r < min) {
        min = r;
        minT = t;
      }
    }
    this.minimum = min;
    this.minimumT = minT;
  }

  private rAt(t: number): number {
    return robustnessOfDistributions(tiltedRates(this.rates, this.pooled, t));
  }

  /** The framings' rates at the path's first crossing of R = r (its lowest point when it never reaches r). */
  at(r: number): number[][] {
    const { ts, rs } = this;
    if (r >= 1) return tiltedRates(this.rates, this.pooled, 0);
    let i = 1;
    while (i < rs.length && (rs[i] as number) > r) i++;
    if (i === rs.length) return tiltedRates(this.rates, this.pooled, this.minimumT);
    let lo = ts[i - 1] as number;
    let hi = ts[i] as number;
    for (let j = 0; j < 50; j++) {
      const mid = (lo + hi) / 2;
      if (this.rAt(mid) > r) lo = mid;
      else hi = mid;
    }
    return tiltedRates(this.rates, this.pooled, (lo + hi) / 2);
  }
}

/**
 * The upper end's configurations, R from R̂ up to 1: every framing kept within a JSD radius ρ of the pooled
 * distribution — a framing farther out pulled in along its own tilt path to the radius, one inside left
 * where it is. The k-action counterpart of the two-action band (`clippedRates`): only the outer framings
 * move, so framings that crowd an extreme stay crowded there and R* keeps the downward pull of a maximum
 * over many pairs. Tilting every framing toward the pooled distribution spread them instead: three
 * framings at (.6, .3, .1) and three at (.1, .3, .6) were covered in 88% of records of 300 decisions.
 */
export class RadiusClipPath {
  /** Each framing's JSD from the pooled distribution at t = 1 (the smoothed record). */
  private readonly reach: number[];
  private readonly outermost: number;

  constructor(
    private readonly rates: readonly (readonly number[])[],
    private readonly pooled: readonly number[],
  ) {
    this.reach = rates.map((p) => jensenShannon(p, pooled));
    this.outermost = Math.max(...this.reach);
  }

  /** Framing f on its tilt path at JSD `radius` from the pooled distribution (where it is, if nearer). */
  private framingAt(f: number, radius: number): number[] {
    const own = [this.rates[f] as readonly number[]];
    if (radius >= (this.reach[f] as number)) return [...(own[0] as readonly number[])];
    // JSD from the pooled distribution grows along the tilt from t = 0 (the pooled one) to t = 1.
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2;
      const at = tiltedRates(own, this.pooled, mid)[0] as number[];
      if (jensenShannon(at, this.pooled) < radius) lo = mid;
      else hi = mid;
    }
    return tiltedRates(own, this.pooled, (lo + hi) / 2)[0] as number[];
  }

  private configuration(radius: number): number[][] {
    return this.rates.map((_, f) => this.framingAt(f, radius));
  }

  /** The configuration with R = r (r ≥ R̂ of the smoothed rates; the record's own rates at r below it). */
  at(r: number): number[][] {
    if (r >= 1) return this.configuration(0);
    let lo = 0;
    let hi = this.outermost;
    if (robustnessOfDistributions(this.configuration(hi)) >= r) return this.configuration(hi);
    // R falls as the radius grows (the outer framings move apart along their paths): bisection on it.
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2;
      if (robustnessOfDistributions(this.configuration(mid)) > r) lo = mid;
      else hi = mid;
    }
    return this.configuration((lo + hi) / 2);
  }
}

/** The configuration with R = r on the tilt path of these rates (see `TiltPath`). */
export function tiltedConfiguration(
  rates: readonly (readonly number[])[],
  pooled: readonly number[],
  r: number,
): number[][] {
  return new TiltPath(rates, pooled).at(r);
}

/**
 * The design effect of each framing's sessions, deff_f = 1 + (m̃_f − 1)ρ̂ (Kish), with the one-way ANOVA
 * estimator of ρ on k categories: between = ½Σ_s m_s Σ_a (p_sa − p_fa)², within = ½Σ_s (m_s² − Σ_a x_sa²)/m_s.
 * For two actions both sums are those of `designEffects` (robustness-inversion.ts), so the two agree.
 */
export function multiActionDesignEffects(framings: readonly MultiActionFraming[]): number[] {
  let between = 0;
  let within = 0;
  let sessions = 0;
  let decisions = 0;
  let squaredSizes = 0;
  let groups = 0;
  const lengths = framings.map((f) => {
    if (f.sessions === undefined || f.sessions.length === 0) return 1;
    const n = f.counts.reduce((s, x) => s + x, 0);
    const p = f.counts.map((x) => x / n);
    let sizes = 0;
    let squares = 0;
    for (const s of f.sessions) {
      const m = s.counts.reduce((sum, x) => sum + x, 0);
      if (m === 0) continue;
      let spread = 0;
      let same = 0;
      s.counts.forEach((x, a) => {
        spread += (x / m - (p[a] as number)) ** 2;
        same += x * x;
      });
      between += (s.weight * m * spread) / 2;
      within += (s.weight * (m * m - same)) / m / 2;
      sessions += s.weight;
      sizes += s.weight * m;
      squares += s.weight * m * m;
    }
    if (sizes === 0) return 1;
    decisions += sizes;
    squaredSizes += squares / sizes;
    groups++;
    return squares / sizes;
  });
  return kishDesignEffects(lengths, { between, within, sessions, groups, decisions, squaredSizes });
}

/** Every composition of m into k counts (the outcomes of one multinomial framing). */
function compositions(m: number, k: number): number[][] {
  if (k === 1) return [[m]];
  const out: number[][] = [];
  for (let x = 0; x <= m; x++) for (const rest of compositions(m - x, k - 1)) out.push([x, ...rest]);
  return out;
}

const logFactorial = (m: number): number => {
  let s = 0;
  for (let i = 2; i <= m; i++) s += Math.log(i);
  return s;
};

/** The number of outcomes of a multinomial of m over k actions, C(m + k − 1, k − 1) (may be huge). */
function outcomeCount(m: number, k: number): number {
  let c = 1;
  for (let i = 1; i < k; i++) c = (c * (m + i)) / i;
  return c;
}

/**
 * P(R* ≥ R̂) and P(R* ≤ R̂) in mid-p form for independent multinomial framings of the given sizes at
 * given rates: exact over every joint outcome where they number at most EXACT_LIMIT, else estimated
 * from SIMULATED_RECORDS records drawn with the same uniforms at every rate.
 */
export class MultiActionTails {
  private readonly k: number;
  /** Exact: per framing its outcomes' counts and log multinomial coefficients; per joint outcome its side. */
  private readonly outcomes: number[][][] | null = null;
  private readonly coefficients: number[][] = [];
  /** Per joint outcome (framing 0's index varying slowest): +1 above R̂, −1 below, 0 a tie. */
  private readonly sides: Int8Array | null = null;
  private readonly uniforms: Float64Array | null = null;

  constructor(
    private readonly sizes: readonly number[],
    k: number,
    private readonly observed: number,
    seed: string,
  ) {
    this.k = k;
    const joint = sizes.reduce((s, m) => s * outcomeCount(m, k), 1);
    if (joint <= EXACT_LIMIT) {
      const outcomes = sizes.map((m) => compositions(m, k));
      this.outcomes = outcomes;
      this.coefficients = sizes.map((m, f) =>
        (outcomes[f] as number[][]).map((x) => logFactorial(m) - x.reduce((s, v) => s + logFactorial(v), 0)),
      );
      const sides = new Int8Array(joint);
      const index = sizes.map(() => 0);
      for (let j = 0; j < joint; j++) {
        const rates = index.map((i, f) =>
          ((outcomes[f] as number[][])[i] as number[]).map((x) => x / (sizes[f] as number)),
        );
        sides[j] = this.side(robustnessOfDistributions(rates));
        for (let f = sizes.length - 1; f >= 0; f--) {
          index[f] = (index[f] as number) + 1;
          if ((index[f] as number) < (outcomes[f] as number[][]).length) break;
          index[f] = 0;
        }
      }
      this.sides = sides;
    } else {
      const count = SIMULATED_RECORDS * sizes.length * (k - 1);
      this.uniforms = new Float64Array(count);
      createBootstrapRng(seed).fill(this.uniforms, count);
    }
  }

  private normalsOfUniforms: Float64Array | null = null;

  /** Φ⁻¹ of every uniform, computed on first use (only large framings need them). */
  private normals(): Float64Array {
    if (this.normalsOfUniforms === null) {
      this.normalsOfUniforms = (this.uniforms as Float64Array).map((u) => normalQuantile(u));
    }
    return this.normalsOfUniforms;
  }

  private side(r: number): number {
    const { observed } = this;
    return r > observed + TIE ? 1 : r < observed - TIE ? -1 : 0;
  }

  /** Mid-p P(R* ≥ R̂) and P(R* ≤ R̂) when framing f chooses action a at rate `rates[f][a]`. */
  at(rates: readonly (readonly number[])[]): Tails {
    let above = 0;
    let tied = 0;
    let total = 0;
    const add = (side: number, weight: number): void => {
      total += weight;
      if (side > 0) above += weight;
      else if (side === 0) tied += weight;
    };
    if (this.sides !== null && this.outcomes !== null) {
      const probabilities = this.outcomes.map((list, f) =>
        list.map((x, i) => {
          let log = (this.coefficients[f] as number[])[i] as number;
          for (let a = 0; a < x.length; a++) {
            const count = x[a] as number;
            if (count === 0) continue;
            const q = (rates[f] as readonly number[])[a] as number;
            log += q > 0 ? count * Math.log(q) : Number.NEGATIVE_INFINITY;
          }
          return Math.exp(log);
        }),
      );
      const index = this.sizes.map(() => 0);
      for (let j = 0; j < this.sides.length; j++) {
        let weight = 1;
        for (let f = 0; f < index.length; f++)
          weight *= (probabilities[f] as number[])[index[f] as number] as number;
        add(this.sides[j] as number, weight);
        for (let f = index.length - 1; f >= 0; f--) {
          index[f] = (index[f] as number) + 1;
          if ((index[f] as number) < (probabilities[f] as number[]).length) break;
          index[f] = 0;
        }
      }
    } else {
      this.simulate(rates, add);
    }
    const strictly = above / total;
    const ties = tied / total;
    return { above: strictly + ties / 2, below: Math.max(0, 1 - strictly - ties) + ties / 2 };
  }

  /** The simulated records at these rates: each action's count a binomial of what the earlier ones left. */
  private simulate(rates: readonly (readonly number[])[], add: (side: number, weight: number) => void): void {
    const { sizes, k } = this;
    const uniforms = this.uniforms as Float64Array;
    const normals = this.normals();
    const F = sizes.length;
    // Binomial CDFs by (framing, action, remaining decisions), built on first use at these rates.
    const tables = new Map<number, CdfTable>();
    const maxSize = Math.max(...sizes);
    const cdf = (f: number, a: number, m: number, q: number): CdfTable => {
      const key = (f * k + a) * (maxSize + 1) + m;
      let table = tables.get(key);
      if (table === undefined) {
        table = binomialCdf(m, q);
        tables.set(key, table);
      }
      return table;
    };
    const proportions = sizes.map(() => new Array<number>(k).fill(0));
    const entropies = new Float64Array(F);
    for (let r = 0; r < SIMULATED_RECORDS; r++) {
      for (let f = 0; f < F; f++) {
        const p = rates[f] as readonly number[];
        const m = sizes[f] as number;
        const out = proportions[f] as number[];
        let left = m;
        let mass = 1;
        for (let a = 0; a < k - 1; a++) {
          const pa = p[a] as number;
          let x = 0;
          if (left > 0 && pa > 0) {
            const q = Math.min(1, pa / mass);
            const slot = (r * F + f) * (k - 1) + a;
            const variance = left * q * (1 - q);
            if (variance >= NORMAL_VARIANCE) {
              // The normal quantile at the same uniform, to the nearest count (continuity-corrected).
              const z = normals[slot] as number;
              x = Math.min(left, Math.max(0, Math.floor(left * q + z * Math.sqrt(variance) + 0.5)));
            } else {
              const { from, values } = cdf(f, a, left, q);
              const u = uniforms[slot] as number;
              // The smallest count whose CDF reaches u (binary search on the table).
              let lo = 0;
              let hi = values.length - 1;
              while (lo < hi) {
                const mid = (lo + hi) >> 1;
                if ((values[mid] as number) >= u) hi = mid;
                else lo = mid + 1;
              }
              x = from + lo;
            }
          }
          out[a] = x / m;
          left -= x;
          mass = Math.max(0, mass - pa);
        }
        out[k - 1] = left / m;
      }
      add(this.side(robustnessOfDistributions(proportions, entropies)), 1);
    }
  }
}

/**
 * A binomial CDF over the counts that carry its mass: `values[i]` = P(X ≤ from + i); below `from` it is 0
 * (to within 10⁻¹⁸ of the mode's probability per count) and from the last count on it is 1.
 */
export interface CdfTable {
  readonly from: number;
  readonly values: Float64Array;
}

/** How far below the mode's log-probability a count's may fall before the table stops (e^−42 ≈ 6·10⁻¹⁹). */
const TABLE_DEPTH = 42;

/**
 * Binomial(m, q)'s CDF over the counts around its mode whose probability is within e^−42 of the mode's:
 * about 18 standard deviations, so the table is O(√m) long whatever m is (a table over 0..m made large
 * framings cost what their size did). The pmf by the ratio P(j + 1)/P(j) on logs from the mode outward,
 * normalised over the table.
 */
export function binomialCdf(m: number, q: number): CdfTable {
  if (q <= 0 || q >= 1) return { from: q <= 0 ? 0 : m, values: Float64Array.of(1) };
  const odds = Math.log(q / (1 - q));
  const mode = Math.min(m, Math.floor((m + 1) * q));
  // Log-probabilities relative to the mode's, outward until they fall TABLE_DEPTH below it.
  let low = mode;
  let logLow = 0;
  while (low > 0) {
    const next = logLow - Math.log((m - low + 1) / low) - odds;
    if (next < -TABLE_DEPTH) break;
    low--;
    logLow = next;
  }
  const logs: number[] = [logLow];
  let log = logLow;
  for (let j = low; j < m; j++) {
    log += Math.log((m - j) / (j + 1)) + odds;
    if (j + 1 > mode && log < -TABLE_DEPTH) break;
    logs.push(log);
  }
  const values = new Float64Array(logs.length);
  let sum = 0;
  for (let i = 0; i < logs.length; i++) {
    sum += Math.exp(logs[i] as number);
    values[i] = sum;
  }
  for (let i = 0; i < values.length; i++) values[i] = (values[i] as number) / sum;
  values[values.length - 1] = 1;
  return { from: low, values };
}

/** A family of configurations with R = r for the lower end, down to its lowest R: P_r(R* ≥ R̂) along it. */
interface LowerPath {
  readonly minimum: number;
  above(r: number): number;
  /** Every framing chose one and the same action every time (the tilt path cannot move such a record). */
  readonly allOnOneVertex: boolean;
}

/** Mass left on the actions a framing never chose when it is put on its vertex (every log stays finite). */
const OFF_VERTEX = 1e-12;

/**
 * The lower end's configurations for framings that chose one action every time (a vertex of the simplex),
 * the k-action counterpart of `onBoundary` (robustness-inversion.ts): such a framing is left on its
 * vertex, where the Jeffreys rates (x + ½)/(n + k/2) put it inside the simplex and make it vary, which the
 * record gives no evidence of (with K such framings the record of a deterministic agent was a ~e^(−K·(k−1)/4)
 * event at R = R̂, and where every framing chose the same action the tilt path could not move at all: the
 * bootstrap's end stood in, at R ≥ .96 for 6 framings of one decision). Where the record has framings
 * off that vertex, the tilt path through these rates; where every framing sits on the same vertex (the
 * path cannot move), the least favourable configuration for that record: every framing on the vertex
 * but the smallest, at the rate a of the vertex's action whose JSD to the vertex is (1 − r)·ln 2 (for a
 * vertex it depends on a alone, not on how the rest is shared), the rest of its mass shared as the pooled
 * rates share it. Null where no framing sits on a vertex.
 */
function vertexPath(
  counts: readonly (readonly number[])[],
  sizes: readonly number[],
  pooled: readonly number[],
  tails: MultiActionTails,
): LowerPath | null {
  const vertexOf = (c: readonly number[]): number => {
    const chosen = c.flatMap((x, a) => (x > 0 ? [a] : []));
    return chosen.length === 1 ? (chosen[0] as number) : -1;
  };
  const vertices = counts.map(vertexOf);
  if (vertices.every((v) => v < 0)) return null;
  const first = vertices[0] as number;
  if (!vertices.every((v) => v === first)) {
    const k = pooled.length;
    const onVertex = (v: number): number[] =>
      Array.from({ length: k }, (_, a) => (a === v ? 1 - (k - 1) * OFF_VERTEX : OFF_VERTEX));
    const rates = counts.map((c, f) => {
      const v = vertices[f] as number;
      return v >= 0 ? onVertex(v) : smoothedDistribution(c);
    });
    const path = new TiltPath(rates, pooled);
    return { minimum: path.minimum, above: (r) => tails.at(path.at(r)).above, allOnOneVertex: false };
  }
  // Every framing on one vertex: the smallest framing (the one whose deviation shows least) moves off it.
  const deviant = sizes.indexOf(Math.min(...sizes));
  // R of a rate a of the vertex's action beside the vertex is that of two actions at (a, 1): it rises
  // with a, so bisection.
  const rateAt = (r: number): number => {
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 60; i++) {
      const mid = (lo + hi) / 2;
      if (robustnessOf([mid, 1]) < r) lo = mid;
      else hi = mid;
    }
    return (lo + hi) / 2;
  };
  return {
    minimum: 0,
    // R̂ = 1, so R* ≥ R̂ is a tie: every framing on the vertex, certain for all but the deviant (the
    // smallest, its rate a of the vertex's action, the rest of its mass shared as the pooled rates share
    // it), which stays there with probability a^m. Mid-p, half of it; exact where simulated records (11
    // framings are far too many joint outcomes to sum) would move the end by their Monte Carlo error.
    above: (r: number): number => rateAt(r) ** (sizes[deviant] as number) / 2,
    allOnOneVertex: true,
  };
}

/**
 * The test-inversion interval of R (before attenuation) for one game of three or more actions, end by
 * end, like `RobustnessInversion`: the lower end needs the data only, the upper end the test's verdict.
 */
export class MultiActionInversion {
  private readonly alpha: number;
  readonly estimate: number;
  private readonly tails: MultiActionTails;
  private readonly path: TiltPath;
  /** The tilt path falls below R̂ (it has a direction to pull the framings apart). */
  private readonly pathMoves: boolean;
  /** The lower end's second family of configurations (`vertexPath`), or null. */
  private readonly vertex: LowerPath | null;
  private readonly clipPath: RadiusClipPath;
  private readonly framings: number;

  constructor(framings: readonly MultiActionFraming[], confidence: number) {
    this.alpha = 1 - confidence;
    this.framings = framings.length;
    const k = (framings[0] as MultiActionFraming).counts.length;
    const n = framings.map((f) => f.counts.reduce((s, x) => s + x, 0));
    this.estimate = robustnessOfDistributions(
      framings.map((f, i) => f.counts.map((x) => x / (n[i] as number))),
    );
    const deff = multiActionDesignEffects(framings);
    const sizes = n.map((m, f) => Math.max(1, Math.round(m / (deff[f] as number))));
    const seed = `multi-action-inversion:${framings.map((f) => f.counts.join(",")).join("|")}`;
    this.tails = new MultiActionTails(sizes, k, this.estimate, seed);
    const totals = Array.from({ length: k }, (_, a) =>
      framings.reduce((s, f) => s + (f.counts[a] as number), 0),
    );
    const rates = framings.map((f) => smoothedDistribution(f.counts));
    const pooled = smoothedDistribution(totals);
    this.path = new TiltPath(rates, pooled);
    this.pathMoves = this.path.minimum < this.estimate;
    this.vertex = vertexPath(
      framings.map((f) => f.counts),
      sizes,
      pooled,
      this.tails,
    );
    this.clipPath = new RadiusClipPath(rates, pooled);
  }

  /**
   * P_r(R* ≥ R̂): the larger of the tails at the two families' configurations with R = r where the record
   * has framings on a vertex (a p-value over a composite null is its largest over the nuisance rates, and
   * both fit the counts), the tilt path's alone elsewhere.
   */
  private aboveAt(r: number): number {
    const onPath = this.pathMoves ? this.tails.at(this.path.at(r)).above : 0;
    return this.vertex === null ? onPath : Math.max(onPath, this.vertex.above(r));
  }

  /**
   * The lower end, searched from `guess` (the bootstrap's): the largest r in [0, R̂] at which
   * P_r(R* ≥ R̂) ≤ α/2. NaN where neither family can place it — even r = R̂ gives less, or the path never
   * falls below R̂ (framings whose smoothed rates are equal but not on a vertex: no direction to pull
   * them apart) — and the caller keeps the bootstrap's end. Where the tail is still above α/2 at
   * the path's lowest R, every r down to there is accepted and the end is the lower of it and `guess`.
   */
  lowerEnd(guess: number): number {
    const { estimate, path, pathMoves, vertex } = this;
    const target = this.alpha / 2;
    if (!pathMoves && vertex === null) return Number.NaN;
    const minimum = Math.min(pathMoves ? path.minimum : 1, vertex === null ? 1 : vertex.minimum);
    const above = (r: number): number => probit(this.aboveAt(r)) - probit(target);
    const atEstimate = this.aboveAt(estimate);
    if (!(atEstimate > target)) return Number.NaN;
    // With three or more framings the path pulls apart the framings the record shows as extreme, but a
    // small framing observed between them may be the true extreme (the two-action lower end searches
    // every pair for this reason): the bootstrap's lower end, which redraws every framing, is kept
    // where it is lower. Measured: four actions over framings of 30/100/300 missed 6.0% below with the
    // path alone. A record whose framings all chose one and the same action has no framing between
    // others, and its configuration already moves the smallest one: its end stands alone (the
    // bootstrap's was not monotone in the evidence, [0.963, 1] at one decision per framing and
    // [0.424, 1] at three).
    const floor = this.framings >= 3 && vertex?.allOnOneVertex !== true ? guess : 1;
    const near = { r: estimate, g: probit(atEstimate) - probit(target) };
    const far = { r: minimum, g: above(minimum) };
    if (far.g > 0) return Math.min(minimum, floor, estimate);
    const end = intervalEnd(above, near, far, Math.max(guess, minimum), 0);
    return Math.min(end, estimate, floor);
  }

  /** The upper end, searched from `guess`; 1 when the permutation test does not reject at α. */
  upperEnd(rejectsInvariance: boolean, guess: number): number {
    if (!rejectsInvariance) return 1;
    const belowAt = (r: number): number => this.tails.at(this.clipPath.at(r)).below;
    return upperEndFromTail(belowAt, this.estimate, this.alpha, guess);
  }
}
