import { bernoulliJsd, jensenShannon } from "../divergence.js";
import { logMaximumLikelihood } from "./invariance-e-process.js";

/**
 * An interval for R that is valid under continuous monitoring (a confidence sequence), for the R of a
 * game whose trials may have been stopped by a rule that looked at them — where the fixed-n interval of
 * the analysis is not valid (a stop is likelier when the sample exaggerates the effect).
 *
 * Each cell (framing × stratum) with counts x over k actions gets the set
 *
 *   C = { p : KT(x) / L(p; x) < m/α }  =  { p : n·KL(p̂ ‖ p) < log(m/α) + log L(p̂; x) − log KT(x) }
 *
 * KT(x)/L(p; x) is a mixture of likelihood ratios against the true p, a nonnegative martingale of mean 1,
 * so by Ville's inequality the true p leaves C at some time with probability ≤ α/m; over the m cells of
 * the game (Bonferroni) every true p stays in its set at every time with probability ≥ 1 − α. R is then
 * bounded over those sets. The sets are reduced to intervals for the probability of each subset S of
 * actions (n·kl(p̂_S ‖ p_S) ≤ n·KL(p̂ ‖ p) by data processing), which keeps the bounds valid and simple:
 *
 * - a framing's pooled distribution (strata weighted by their counts, as the analysis pools them) has
 *   the weighted intervals of its strata;
 * - the lower end of R: the largest JSD of any pair over the box of single-action intervals (a convex
 *   function's maximum over a polytope is at a vertex: every vertex pair is tried);
 * - the upper end of R: the largest over pairs and subsets S of the two-action JSD between the S
 *   intervals' gap (0 when they overlap) — a lower bound on the pair's JSD, by data processing.
 *
 * Both ends are exact for two actions. The point estimate R̂ always lies inside (p̂ is in every set).
 */
export interface CellCounts {
  readonly framing: string;
  /** Choices per action (k entries). */
  readonly counts: readonly number[];
  /** log KT(x): the Krichevsky–Trofimov (Dirichlet(½)) probability of the cell's choices. */
  readonly logMixture: number;
}

export interface AnytimeRInterval {
  readonly lower: number;
  readonly upper: number;
  readonly width: number;
}

/**
 * The interval at level 1 − alpha, from the cells of the game with choices so far. `framings`: every
 * framing of the game (one without a choice yet leaves R unknown: [0, 1]); `designedCells` is the m of
 * the Bonferroni split, fixed by the design, never by the data.
 */
export function anytimeRInterval(
  cells: readonly CellCounts[],
  framings: readonly string[],
  actions: number,
  alpha: number,
  designedCells: number,
): AnytimeRInterval {
  if (!(alpha > 0 && alpha < 1)) throw new Error(`alpha ${alpha} is outside (0, 1).`);
  // One framing has no pair to differ: R is 1 by definition (as the analysis has it), known exactly.
  if (framings.length < 2) return { lower: 1, upper: 1, width: 0 };
  const m = Math.max(designedCells, cells.length, 1);
  const subsets = subsetsOf(actions);
  // Per framing: the pooled interval of every subset probability (subset masks, singletons among them).
  const bounds = framings.map((framing) => {
    const own = cells.filter((c) => c.framing === framing);
    const n = own.reduce((sum, c) => sum + total(c.counts), 0);
    const lower = new Map<number, number>();
    const upper = new Map<number, number>();
    for (const mask of subsets) {
      let lo = 0;
      let hi = 0;
      for (const cell of own) {
        const size = total(cell.counts);
        if (size === 0) continue;
        const radius = Math.log(m / alpha) + logMaximumLikelihood(cell.counts) - cell.logMixture;
        const [l, u] = klInterval(subsetCount(cell.counts, mask), size, radius);
        lo += (size / n) * l;
        hi += (size / n) * u;
      }
      lower.set(mask, n === 0 ? 0 : lo);
      upper.set(mask, n === 0 ? 1 : hi);
    }
    return { lower, upper };
  });
  let largest = 0;
  let smallest = 0;
  const vertices = bounds.map(({ lower, upper }) =>
    boxVertices(
      Array.from({ length: actions }, (_, a) => lower.get(1 << a) as number),
      Array.from({ length: actions }, (_, a) => upper.get(1 << a) as number),
    ),
  );
  for (let f = 0; f < bounds.length; f++) {
    for (let g = f + 1; g < bounds.length; g++) {
      for (const p of vertices[f] as number[][]) {
        for (const q of vertices[g] as number[][]) largest = Math.max(largest, jensenShannon(p, q));
      }
      const bf = bounds[f] as (typeof bounds)[number];
      const bg = bounds[g] as (typeof bounds)[number];
      for (const mask of subsets) {
        const [lf, uf, lg, ug] = [bf.lower, bf.upper, bg.lower, bg.upper].map((b) => b.get(mask) as number);
        if ((uf as number) < (lg as number))
          smallest = Math.max(smallest, bernoulliJsd(uf as number, lg as number));
        if ((ug as number) < (lf as number))
          smallest = Math.max(smallest, bernoulliJsd(ug as number, lf as number));
      }
    }
  }
  const lower = Math.max(0, 1 - largest / Math.LN2);
  const upper = Math.min(1, Math.max(lower, 1 - smallest / Math.LN2));
  return { lower, upper, width: upper - lower };
}

const total = (counts: readonly number[]): number => counts.reduce((a, b) => a + b, 0);

/** Every subset of the actions up to complement (those holding action 0), all but the full set. */
function subsetsOf(actions: number): number[] {
  const masks: number[] = [];
  for (let mask = 1; mask < 1 << actions; mask += 2) if (mask !== (1 << actions) - 1) masks.push(mask);
  // Singletons of the other actions too: the box of single-action intervals needs every one.
  for (let a = 1; a < actions; a++) if (!masks.includes(1 << a)) masks.push(1 << a);
  return masks;
}

function subsetCount(counts: readonly number[], mask: number): number {
  let c = 0;
  counts.forEach((x, a) => {
    if (mask & (1 << a)) c += x;
  });
  return c;
}

/** n·kl(q̂ ‖ q), the binary divergence, 0·log 0 = 0. */
function scaledKl(c: number, n: number, q: number): number {
  const h = c / n;
  let kl = 0;
  if (c > 0) kl += h * Math.log(h / q);
  if (c < n) kl += (1 - h) * Math.log((1 - h) / (1 - q));
  return n * kl;
}

/** {q : n·kl(c/n ‖ q) ≤ radius}, by bisection on each side of c/n. */
function klInterval(c: number, n: number, radius: number): [number, number] {
  const h = c / n;
  const side = (far: number): number => {
    if (scaledKl(c, n, far) <= radius) return far;
    let inside = h;
    let outside = far;
    for (let i = 0; i < 60; i++) {
      const mid = (inside + outside) / 2;
      if (scaledKl(c, n, mid) <= radius) inside = mid;
      else outside = mid;
    }
    return outside;
  };
  return [side(0), side(1)];
}

/**
 * The vertices of {p in the simplex : lower ≤ p ≤ upper}: at most one coordinate strictly inside its
 * bounds, the rest at a bound, summing to 1.
 */
function boxVertices(lower: readonly number[], upper: readonly number[]): number[][] {
  const k = lower.length;
  const vertices: number[][] = [];
  for (let free = 0; free < k; free++) {
    for (let pattern = 0; pattern < 1 << (k - 1); pattern++) {
      const p = new Array<number>(k).fill(0);
      let sum = 0;
      let bit = 0;
      for (let a = 0; a < k; a++) {
        if (a === free) continue;
        p[a] = pattern & (1 << bit++) ? (upper[a] as number) : (lower[a] as number);
        sum += p[a] as number;
      }
      const rest = 1 - sum;
      if (rest < (lower[free] as number) - 1e-12 || rest > (upper[free] as number) + 1e-12) continue;
      p[free] = Math.min(Math.max(rest, 0), 1);
      vertices.push(p);
    }
  }
  return vertices;
}
