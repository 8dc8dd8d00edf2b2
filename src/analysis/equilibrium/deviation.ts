// How far a cell's play sits from equilibrium (SPEC §5): distance from the player's empirical
// distribution π̂ (as the row player) to the nearest equilibrium strategy, and how much an opponent who
// knows π̂ could gain over that equilibrium. For payoff counterfactuals the same numbers are reported
// against the base game too: play that stays nearer the base game's equilibrium than the variant's is
// the "template persistence" signature.

import { jensenShannon } from "../../domain/divergence.js";
import type { Distribution, StageGame } from "../../domain/types.js";
import {
  EQUILIBRIUM_TOLERANCE,
  type Equilibrium,
  nashEquilibria,
  toDistribution,
  toVector,
} from "../../game-theory/equilibria.js";
import { equilibriumComponents, nearestInHull } from "../../game-theory/equilibrium-set.js";
import {
  jsdNearestOnSegment,
  pointOnSegment,
  totalVariationNearestOnSegment,
} from "../../game-theory/segment-nearest.js";

export interface Exploitability {
  /** max_j Σ_i π̂(i)·u2(i, j): what a best-responding column player earns against π̂. */
  readonly opponent_best_response_payoff: number;
  /** The column player's payoff at the nearest equilibrium (point of the equilibrium set). */
  readonly opponent_equilibrium_payoff: number;
  /** Best-response payoff minus equilibrium payoff, signed: negative when π̂ leaves the opponent worse off. */
  readonly best_response_gain: number;
  /**
   * max(0, best_response_gain): what an opponent who knows π̂ gains over its equilibrium value, in payoff
   * units. Never negative: play that leaves every reply worse than equilibrium (Harmony, all-defect:
   * 3 − 10 = −7) cannot be exploited, it is exploitability 0. A gain within rounding of 0 (at most 1e-9 of
   * the opponent's payoff range) is 0 too.
   */
  readonly raw: number;
  /**
   * `raw / (max u2 − min u2)`: divided by the range of the opponent's payoffs, the units `raw` is in (the
   * row player's range would mix units in an asymmetric game); null when the opponent's payoffs are all
   * equal.
   */
  readonly normalized: number | null;
  /**
   * `raw` against every equilibrium point tied nearest π̂ (equal total variation and JSD), ascending and
   * distinct; one value when the nearest point is unique. `raw` is the smallest of them (TIE_RULE). A
   * stretch of a segment tied all along is scored at its two ends: the opponent's payoff is linear along
   * it, so they hold its smallest and largest value.
   */
  readonly tied_values: readonly number[];
}

/** How the reported point is chosen among equally near ones: stated in every result that has a tie. */
export const TIE_RULE =
  "Several equilibrium points are equally near π̂ (equal total variation and JSD): exploitability is the smallest of their values (what π̂ concedes against whichever of them is taken as the reference; all are in tied_values, a segment of tied points by its two ends), and equilibrium_strategy is the point it was measured at (of several giving it, the one with most weight on the earliest action).";

export interface EquilibriumDeviation {
  readonly distribution: Distribution;
  readonly nearest_equilibrium: Equilibrium;
  /**
   * The point π̂ is compared with: the row strategy of the equilibrium set nearest π̂ in total variation,
   * of equally near ones the nearest in JSD. In a nondegenerate game the row strategy of
   * `nearest_equilibrium`; in a degenerate one a point of the convex hull of a component's extreme row
   * strategies (`nearest_equilibrium` is then that component's extreme equilibrium nearest this point).
   * Exploitability is measured here.
   */
  readonly equilibrium_strategy: Distribution;
  /** Total variation to `equilibrium_strategy`: the smallest over the equilibrium set. */
  readonly total_variation: number;
  /**
   * Jensen–Shannon divergence (natural log), the smallest over the equilibrium set; in a degenerate game it
   * can be attained away from `equilibrium_strategy`, at `jsd_strategy`.
   */
  readonly jsd: number;
  /** Where `jsd` is attained: `equilibrium_strategy` whenever that point is as near in JSD as any. */
  readonly jsd_strategy: Distribution;
  readonly exploitability: Exploitability;
  /**
   * How many distinct equilibrium points are tied nearest π̂ (1 when the nearest is unique); a segment
   * of them counts as its two ends.
   */
  readonly tied_points: number;
  /** TIE_RULE when tied_points > 1, else null. */
  readonly tie_rule: string | null;
  readonly degenerate: boolean;
  readonly note: string | null;
}

export interface CounterfactualDeviation {
  readonly variant: EquilibriumDeviation;
  readonly base: EquilibriumDeviation;
  /** True when π̂ is strictly nearer (total variation) the base game's equilibria than the variant's. */
  readonly template_persistence: boolean;
}

/** One candidate point of the equilibrium set: the row strategy, and the extreme equilibrium it stands for. */
interface Candidate {
  readonly equilibrium: Equilibrium;
  readonly point: number[];
  readonly totalVariation: number;
  readonly jsd: number;
}

/** A point of the equilibrium set nearest π̂ in JSD alone, and that divergence. */
interface JsdNearest {
  readonly point: number[];
  readonly jsd: number;
}

interface ScoredSet {
  /** Points that may be nearest π̂ (total variation first, then JSD), each with its anchor equilibrium. */
  readonly candidates: Candidate[];
  /** The points nearest π̂ in JSD alone, one per extreme equilibrium and per segment. */
  readonly jsdNearest: JsdNearest[];
  /** Set when a component is more than a segment, where the JSD is measured along its edges only. */
  readonly approximate: boolean;
}

/**
 * The candidate points: each extreme equilibrium's row strategy; in a degenerate game also, per component
 * (maximal Nash subset), the points of the hull of its row strategies nearest π̂. A component's hull is a
 * point or a segment in every game of the shipped catalog, and there the nearest points are exact: the
 * stretch of the segment nearest in total variation, and on it the point nearest in JSD (both ends when
 * JSD is the same all along it, which makes the whole stretch a tie). A hull of three or more row
 * strategies is searched at its nearest point in total variation and along the segments between its
 * extreme row strategies: the total variation is exact, the JSD an upper bound.
 */
function scoredSet(
  game: StageGame,
  p: readonly number[],
  equilibria: readonly Equilibrium[],
  degenerate: boolean,
): ScoredSet {
  const extreme = equilibria.map((equilibrium) => {
    const q = toVector(game, equilibrium.row);
    return { equilibrium, point: q, totalVariation: totalVariation(p, q), jsd: jensenShannon(p, q) };
  });
  const jsdNearest: JsdNearest[] = extreme.map(({ point, jsd }) => ({ point, jsd }));
  if (!degenerate) return { candidates: extreme, jsdNearest, approximate: false };
  const candidates: Candidate[] = [...extreme];
  let approximate = false;
  for (const component of equilibriumComponents(equilibria, (d) => toVector(game, d))) {
    const members = component.equilibria.map((i) => extreme[i] as Candidate);
    // Every row strategy of the component is in equilibrium with every column strategy of it, so any of its
    // extreme equilibria gives the opponent's payoff at a point of the hull: the one nearest the point.
    const anchored = (point: number[]): Candidate => {
      const anchor = members.reduce((a, b) =>
        totalVariation(point, b.point) < totalVariation(point, a.point) ? b : a,
      );
      return {
        equilibrium: anchor.equilibrium,
        point,
        totalVariation: totalVariation(p, point),
        jsd: jensenShannon(p, point),
      };
    };
    const rows = component.rows;
    if (rows.length > 2) {
      approximate = true;
      const hullPoint = anchored(nearestInHull(p, rows).point);
      candidates.push(hullPoint);
      jsdNearest.push({ point: hullPoint.point, jsd: hullPoint.jsd });
    }
    // The segments between extreme row strategies only refine an upper bound of the JSD, at a cost
    // quadratic in their number: a game whose row player is indifferent has components of thirty.
    if (rows.length > MAX_SEGMENT_SEARCH_ROWS) continue;
    for (let i = 0; i < rows.length; i++) {
      for (let j = i + 1; j < rows.length; j++) {
        const a = rows[i] as readonly number[];
        const b = rows[j] as readonly number[];
        const { lo, hi } = totalVariationNearestOnSegment(p, a, b);
        const nearest = jsdNearestOnSegment(p, a, b, lo, hi);
        for (const t of nearest === "flat" ? [lo, hi] : [nearest])
          candidates.push(anchored(pointOnSegment(a, b, t)));
        const anywhere = jsdNearestOnSegment(p, a, b, 0, 1);
        const point = pointOnSegment(a, b, anywhere === "flat" ? 0 : anywhere);
        jsdNearest.push({ point, jsd: jensenShannon(p, point) });
      }
    }
  }
  return { candidates, jsdNearest, approximate };
}

/** Components with more extreme row strategies than this are not searched along their edges. */
const MAX_SEGMENT_SEARCH_ROWS = 8;

const solved = new WeakMap<StageGame, ReturnType<typeof nashEquilibria>>();

/**
 * The game's equilibria, solved once per stage game object: a bootstrap measures thousands of replicate
 * distributions against the same game, and solving it is most of a measurement's cost.
 */
function equilibriaOf(game: StageGame): ReturnType<typeof nashEquilibria> {
  let found = solved.get(game);
  if (found === undefined) {
    found = nashEquilibria(game);
    solved.set(game, found);
  }
  return found;
}

const APPROXIMATE_NOTE =
  "An equilibrium component here holds three or more extreme row strategies: its nearest point in total variation is exact, but the JSD is the smallest found at that point, at its extreme row strategies and (for at most 8 of them) along the segments between them, an upper bound of the divergence to the set.";

/**
 * Distance from π̂ to the row player's equilibrium set and the exploitability of π̂ relative to the
 * nearest point's equilibrium value. The nearest point is the nearest in total variation; where a stretch
 * of points (a degenerate game's segment) or several extreme equilibria are equally near, the nearest of
 * them in JSD. Points still tied are all scored and the result follows TIE_RULE, so it never depends on the
 * order equilibria are listed in. `total_variation` is the distance to that point, the smallest over the
 * set; `jsd` is the smallest JSD over the set, which may be attained at another point (`jsd_strategy`).
 * In a degenerate game the set is the union of the convex hulls of the components, not only the extreme
 * equilibria.
 */
export function equilibriumDeviation(game: StageGame, distribution: Distribution): EquilibriumDeviation {
  const p = validatedVector(game, distribution);
  const { equilibria, degenerate, note } = equilibriaOf(game);
  const scored = scoredSet(game, p, equilibria, degenerate);
  const bestResponsePayoff = Math.max(
    ...game.actions.map((_, j) => p.reduce((sum, pi, i) => sum + pi * (game.u2[i]?.[j] as number), 0)),
  );
  const measured = nearestCandidates(scored.candidates).map((candidate) => ({
    candidate,
    gain: bestResponsePayoff - opponentPayoffAt(game, candidate),
  }));
  const distinct = distinctPoints(measured);
  const chosen = distinct.reduce((best, m) =>
    m.gain < best.gain - EQUILIBRIUM_TOLERANCE ||
    (Math.abs(m.gain - best.gain) <= EQUILIBRIUM_TOLERANCE &&
      lexicographicallyBefore(m.candidate.point, best.candidate.point))
      ? m
      : best,
  );
  const nearest = chosen.candidate;
  const range = opponentPayoffRange(game);
  const gain = chosen.gain;
  const raw = exploitableGain(gain, range);
  const jsdNearest = smallestJsd(scored.jsdNearest, nearest);
  return {
    distribution,
    nearest_equilibrium: nearest.equilibrium,
    equilibrium_strategy: toDistribution(game, nearest.point),
    total_variation: nearest.totalVariation,
    jsd: jsdNearest.jsd,
    jsd_strategy: toDistribution(game, jsdNearest.point),
    exploitability: {
      opponent_best_response_payoff: bestResponsePayoff,
      opponent_equilibrium_payoff: bestResponsePayoff - gain,
      best_response_gain: gain,
      raw,
      normalized: range > 0 ? raw / range : null,
      tied_values: distinctValues(distinct.map((m) => exploitableGain(m.gain, range))),
    },
    tied_points: distinct.length,
    tie_rule: distinct.length > 1 ? TIE_RULE : null,
    degenerate,
    note: scored.approximate ? `${note ?? ""} ${APPROXIMATE_NOTE}`.trim() : note,
  };
}

/**
 * The point of the set nearest π̂ in JSD: the reported point when it is as near as any (so the two
 * distances name one point whenever they can), else the nearest, the earliest-weighted of equals.
 */
function smallestJsd(found: readonly JsdNearest[], nearest: Candidate): JsdNearest {
  const least = Math.min(nearest.jsd, ...found.map((f) => f.jsd));
  if (nearest.jsd <= least + EQUILIBRIUM_TOLERANCE) return { point: nearest.point, jsd: least };
  const tied = found.filter((f) => f.jsd <= least + EQUILIBRIUM_TOLERANCE);
  const first = tied.reduce((a, b) => (lexicographicallyBefore(b.point, a.point) ? b : a));
  return { point: first.point, jsd: least };
}

const evaluators = new WeakMap<StageGame, (p: readonly number[]) => number | null>();

/**
 * `equilibriumDeviation(game, π̂).exploitability.normalized` as a function of π̂ in action order, for the
 * thousands of replicate distributions a bootstrap measures against one game: the same number (the same
 * operations in the same order), with what depends on the game alone computed once. In a nondegenerate
 * game the candidates are the extreme equilibria's row strategies, so their points and the opponent's
 * payoff at each are fixed, and a JSD is computed only for candidates tied on total variation (the only
 * ones whose JSD the choice reads). A degenerate game's candidates depend on π̂: it is measured in full.
 */
export function exploitabilityOf(game: StageGame): (p: readonly number[]) => number | null {
  let evaluate = evaluators.get(game);
  if (evaluate === undefined) {
    evaluate = exploitabilityEvaluator(game);
    evaluators.set(game, evaluate);
  }
  return evaluate;
}

function exploitabilityEvaluator(game: StageGame): (p: readonly number[]) => number | null {
  const { equilibria, degenerate } = equilibriaOf(game);
  if (degenerate) return (p) => equilibriumDeviation(game, toDistribution(game, p)).exploitability.normalized;
  const extreme = equilibria.map((equilibrium) => {
    const point = toVector(game, equilibrium.row);
    const candidate: Candidate = { equilibrium, point, totalVariation: 0, jsd: 0 };
    return { point, opponentPayoff: opponentPayoffAt(game, candidate), equilibrium };
  });
  const range = opponentPayoffRange(game);
  const actions = game.actions.length;
  const tvs = new Float64Array(extreme.length);
  return (p) => {
    let sum = 0;
    for (let i = 0; i < actions; i++) {
      const probability = p[i] as number;
      if (!(probability >= 0)) {
        throw new Error(
          `The probability of "${game.actions[i]}" is ${probability}; probabilities must be non-negative.`,
        );
      }
      sum += probability;
    }
    if (Math.abs(sum - 1) > EQUILIBRIUM_TOLERANCE) {
      throw new Error(`The distribution's probabilities sum to ${sum}; they must sum to 1.`);
    }
    let minTv = Number.POSITIVE_INFINITY;
    for (let e = 0; e < extreme.length; e++) {
      const q = (extreme[e] as (typeof extreme)[number]).point;
      let distance = 0;
      for (let i = 0; i < actions; i++) distance += Math.abs((p[i] as number) - (q[i] as number));
      const tv = distance / 2;
      tvs[e] = tv;
      minTv = Math.min(minTv, tv);
    }
    let bestResponsePayoff = Number.NEGATIVE_INFINITY;
    for (let j = 0; j < actions; j++) {
      let payoff = 0;
      for (let i = 0; i < actions; i++) payoff += (p[i] as number) * (game.u2[i]?.[j] as number);
      bestResponsePayoff = Math.max(bestResponsePayoff, payoff);
    }
    const byTv: { candidate: Candidate; opponentPayoff: number }[] = [];
    for (let e = 0; e < extreme.length; e++) {
      // Kept exactly when nearestCandidates keeps it (a NaN distance is never near).
      if (!(Math.abs((tvs[e] as number) - minTv) <= EQUILIBRIUM_TOLERANCE)) continue;
      const { equilibrium, point, opponentPayoff } = extreme[e] as (typeof extreme)[number];
      const jsd = jensenShannon(p, point);
      byTv.push({ candidate: { equilibrium, point, totalVariation: tvs[e] as number, jsd }, opponentPayoff });
    }
    // One candidate nearest (the usual case): it is the choice, unless a number it is judged by is not a
    // number (nearestCandidates and distinctPoints then keep none, and the choice fails below as there).
    if (byTv.length === 1) {
      const { candidate, opponentPayoff } = byTv[0] as (typeof byTv)[number];
      const gain = bestResponsePayoff - opponentPayoff;
      const near = (x: number) => Math.abs(x - x) <= EQUILIBRIUM_TOLERANCE;
      if (near(candidate.jsd) && near(gain) && candidate.point.every(near)) {
        const raw = exploitableGain(gain, range);
        return range > 0 ? raw / range : null;
      }
    }
    const minJsd = Math.min(...byTv.map((c) => c.candidate.jsd));
    const measured = byTv
      .filter((c) => Math.abs(c.candidate.jsd - minJsd) <= EQUILIBRIUM_TOLERANCE)
      .map(({ candidate, opponentPayoff }) => ({ candidate, gain: bestResponsePayoff - opponentPayoff }));
    const chosen = distinctPoints(measured).reduce((best, m) =>
      m.gain < best.gain - EQUILIBRIUM_TOLERANCE ||
      (Math.abs(m.gain - best.gain) <= EQUILIBRIUM_TOLERANCE &&
        lexicographicallyBefore(m.candidate.point, best.candidate.point))
        ? m
        : best,
    );
    const raw = exploitableGain(chosen.gain, range);
    return range > 0 ? raw / range : null;
  };
}

/**
 * max(0, gain), with a gain within rounding of 0 (at most EQUILIBRIUM_TOLERANCE of the opponent's payoff
 * range) taken as 0: play at an equilibrium point computed through a linear programme or a segment can
 * leave 1e-15 there, and compare then ranked two groups of exploitability 0.000 apart with p 0.007.
 */
function exploitableGain(gain: number, range: number): number {
  // A NaN stays NaN: it is a defect upstream, not a zero.
  return gain > EQUILIBRIUM_TOLERANCE * range || Number.isNaN(gain) ? gain : 0;
}

/** Every candidate as near π̂ as the nearest one: total variation first, then JSD, both within tolerance. */
function nearestCandidates(scored: readonly Candidate[]): Candidate[] {
  const near = (a: number, b: number): boolean => Math.abs(a - b) <= EQUILIBRIUM_TOLERANCE;
  const minTv = Math.min(...scored.map((c) => c.totalVariation));
  const byTv = scored.filter((c) => near(c.totalVariation, minTv));
  const minJsd = Math.min(...byTv.map((c) => c.jsd));
  return byTv.filter((c) => near(c.jsd, minJsd));
}

/** The column player's payoff at (the candidate's point, its anchor equilibrium's column strategy). */
function opponentPayoffAt(game: StageGame, candidate: Candidate): number {
  const y = toVector(game, candidate.equilibrium.column);
  return candidate.point.reduce(
    (sum, xi, i) => sum + xi * y.reduce((s, yj, j) => s + yj * (game.u2[i]?.[j] as number), 0),
    0,
  );
}

/** One entry per distinct (point, gain): an extreme equilibrium and its component's hull point can coincide. */
function distinctPoints<T extends { candidate: Candidate; gain: number }>(measured: readonly T[]): T[] {
  const same = (a: T, b: T): boolean =>
    Math.abs(a.gain - b.gain) <= EQUILIBRIUM_TOLERANCE &&
    a.candidate.point.every(
      (x, i) => Math.abs(x - (b.candidate.point[i] as number)) <= EQUILIBRIUM_TOLERANCE,
    );
  return measured.filter((m, i) => measured.findIndex((o) => same(o, m)) === i);
}

function distinctValues(values: readonly number[]): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.filter((v, i) => i === 0 || v - (sorted[i - 1] as number) > EQUILIBRIUM_TOLERANCE);
}

/** Points compared in action order, so the chosen one does not depend on how equilibria were listed. */
function lexicographicallyBefore(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const d = (a[i] as number) - (b[i] as number);
    if (Math.abs(d) > EQUILIBRIUM_TOLERANCE) return d > 0;
  }
  return false;
}

/** The deviation of π̂ from a payoff counterfactual's equilibria and from its base game's, side by side. */
export function counterfactualDeviation(
  variant: StageGame,
  base: StageGame,
  distribution: Distribution,
): CounterfactualDeviation {
  if (variant.actions.join("\n") !== base.actions.join("\n")) {
    throw new Error(
      `A payoff counterfactual keeps the base game's actions (${base.actions.join(", ")}), but the variant has ${variant.actions.join(", ")}.`,
    );
  }
  const variantDeviation = equilibriumDeviation(variant, distribution);
  const baseDeviation = equilibriumDeviation(base, distribution);
  return {
    variant: variantDeviation,
    base: baseDeviation,
    template_persistence:
      baseDeviation.total_variation < variantDeviation.total_variation - EQUILIBRIUM_TOLERANCE,
  };
}

/**
 * The largest normalised exploitability any play can have in the game (an upper bound of it, attained in
 * the prisoner's dilemma family): an opponent's best reply earns at most max u2, and the payoff it is
 * measured against is at least the smallest the opponent earns at an equilibrium (along a component it is
 * linear, so an extreme equilibrium's). In the prisoner's dilemma (10 − 3)/8 = 0.875, reached by
 * all-cooperate. Null when the opponent's payoffs are all equal (exploitability is undefined).
 */
export function exploitabilityBound(game: StageGame): number | null {
  const range = opponentPayoffRange(game);
  if (!(range > 0)) return null;
  const best = Math.max(...game.u2.flat());
  const least = Math.min(...equilibriaOf(game).equilibria.map((e) => e.payoffs.column));
  return Math.min(1, Math.max(0, (best - least) / range));
}

/**
 * The spread of the column player's payoffs: exploitability is a gain of the column player, so it is
 * normalised in the column player's units. In a symmetric game u2 is u1 transposed and the range is u1's.
 */
function opponentPayoffRange(game: StageGame): number {
  const payoffs = game.u2.flat();
  return Math.max(...payoffs) - Math.min(...payoffs);
}

/** Total variation distance ½ Σ |p − q|. */
export function totalVariation(p: readonly number[], q: readonly number[]): number {
  return p.reduce((sum, pi, i) => sum + Math.abs(pi - (q[i] as number)), 0) / 2;
}

function validatedVector(game: StageGame, distribution: Distribution): number[] {
  for (const [action, probability] of Object.entries(distribution)) {
    if (!game.actions.includes(action)) {
      throw new Error(`Action "${action}" is not in this game; its actions are ${game.actions.join(", ")}.`);
    }
    if (!(probability >= 0)) {
      throw new Error(
        `The probability of "${action}" is ${probability}; probabilities must be non-negative.`,
      );
    }
  }
  const p = toVector(game, distribution);
  const sum = p.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > EQUILIBRIUM_TOLERANCE) {
    throw new Error(`The distribution's probabilities sum to ${sum}; they must sum to 1.`);
  }
  return p;
}
