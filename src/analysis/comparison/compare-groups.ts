import type { ActionId } from "../../domain/types.js";
import { holm } from "../multiple-testing/holm.js";
import { reportProgress } from "../progress/analysis-progress.js";
import { correlationFactor, type MeanDistances, meanDistances } from "../robustness/mean-interval.js";
import { type BootstrapOptions, bootstrapSettings } from "../sampling/bootstrap-options.js";
import {
  type ClusterSumMethod,
  clusterSumMethodFromEnv,
  NORMAL_MIN_CELL_SESSIONS,
  NORMAL_MIN_SESSIONS,
} from "../sampling/normal-cluster-sums.js";
import { normalQuantile } from "../sampling/normal-quantile.js";
import { percentileInterval } from "../sampling/percentile.js";
import { variance } from "../sampling/replicate-variance.js";
import { COMPARISON_MEASURES, type ComparisonMeasure } from "./comparison-measures.js";
import { type CellRef, type ComparisonInput, type ComparisonRow, cellKey } from "./comparison-rows.js";
import { gameInterval } from "./group-game-intervals.js";
import { completeGames, type GameReplicates, groupReplicates } from "./group-replicates.js";
import { type ComparisonUnit, type GroupSample, groupSample, groupSampleOfTallies } from "./group-samples.js";
import { lookAlikeGroupsNote } from "./look-alike-groups-note.js";
import {
  agreeingWithP,
  bootstrapDifference,
  boundaryWidened,
  capWidened,
  moverInterval,
  moverWidened,
  welchWidened,
} from "./pair-differences.js";
import {
  POOLED_BOUNDS,
  type PooledMeasure,
  type PooledModel,
  type PooledReplicates,
} from "./pooled-measures.js";
import { pooledFurther } from "./pooled-rank-widenings.js";
import { type FurtherInterval, type RankedGroup, rankIntervals } from "./rank-intervals.js";
import { sessionCellsByDecisionNote } from "./session-cells-by-decision-note.js";
import { type ShiftCells, sessionShiftWidened } from "./shift-cluster-widening.js";
import { unrankedGamesNote } from "./unranked-games-note.js";

export { COMPARISON_MEASURES, type ComparisonMeasure };

export interface CompareOptions extends BootstrapOptions {
  /** The framings compared; [0] and [1] are the planned pair of the shift. At least two. */
  readonly framings: readonly string[];
  readonly actionsOf: (game: string) => readonly ActionId[];
  readonly cooperativeAction: (game: string) => ActionId | null;
  /** The games' payoffs for λ and exploitability; without it those measures are not compared. */
  readonly pooled?: PooledModel;
  /**
   * How a group's blocks of sessions are drawn: "auto" (default, from SAME_GAME_CLUSTER_SUMS) draws a
   * block of many sessions from the normal approximation of its sums (group-replicates.ts), "exact" every
   * session, "normal" every block of at least two sessions from the approximation.
   */
  readonly clusterSums?: ClusterSumMethod;
}

export interface ComparedPair {
  readonly measure: ComparisonMeasure;
  readonly a: string;
  readonly b: string;
  /** a − b over the cells both played. */
  readonly difference: { readonly estimate: number; readonly ci: [number, number] };
  readonly p_value: number;
  /** Holm over the pairs of the same measure (the family). */
  readonly p_adjusted: number;
  /** True when every cell used was resampled position by position for both (the same schedule). */
  readonly paired: boolean;
  readonly cells_used: CellRef[];
  readonly cells_left_out: CellRef[];
}

export interface GroupRank {
  readonly measure: ComparisonMeasure;
  readonly group: string;
  readonly estimate: number;
  /**
   * The group's own interval of the measure: the percentile interval of its replicates, widened to hold the
   * estimate; for R also its test-inversion interval over the ranked games.
   */
  readonly ci: [number, number];
  readonly rank: { readonly estimate: number; readonly ci: [number, number] };
  readonly tied_group: number;
}

export interface ComparisonGroup {
  readonly group: string;
  readonly unit: ComparisonUnit;
  readonly cells: number;
  readonly decisions: number;
}

export interface ComparisonResult {
  readonly confidence: number;
  readonly bootstrap: number;
  readonly seed: number;
  readonly framings: readonly string[];
  readonly groups: string[];
  readonly group_details: ComparisonGroup[];
  readonly pairs: ComparedPair[];
  readonly ranks: GroupRank[];
  /** The games every group played under every framing: the cells the ranks are computed on. */
  readonly ranked_games: string[];
  readonly family: string;
  readonly method: string;
  readonly notes: string[];
  /** λ or exploitability when they could not be compared, with the reason. */
  readonly skipped: { measure: PooledMeasure; reason: string }[];
}

export const COMPARISON_METHOD =
  "Bootstrap over each group's own resampling unit (MCP sessions that made several decisions; otherwise single decisions, or schedule positions of a study), drawn jointly for groups that played the same positions of a cell (paired) and independently otherwise; a cell where every decision made one action is drawn from its add-½ smoothed distribution. Differences a − b: bias-corrected percentile bootstrap interval (the percentile interval moved by mean(d*) − d̂) and the matching two-sided bootstrap p-value — for R the union with the plain percentile interval and with the MOVER combination of the two groups' test-inversion intervals of R (each game's interval as the robustness analysis places it, combined over games in quadrature with κ for sessions shared between games, the groups combined in quadrature with the correlation of their replicates where paired; its p the normal tail of d̂ over the distance on the side of 0 read as z standard errors), the largest p, for the shift, λ and exploitability p at least the normal tail and the interval at least the normal interval d̂ ± z·sd(d*), for exploitability widened to at least Welch's t interval over the units resampled (ν halfway between Satterthwaite's and n_min − 1), for the shift, where either group is resampled by session, widened to at least Welch's t interval over the units resampled (each side's ν by Satterthwaite over its blocks of sessions or decisions, the pair's ν a quarter of the way from the fewer side's to Satterthwaite's), for λ widened to hold 0 (p at least 2·min of the two groups' shares of replicates at λ = 0) when neither group rejects λ = 0 at half the level, and to the plain percentile interval (p at least its tail) when either group's share of replicates at the cap λ = 20 exceeds half the level; last, an interval that leaves 0 out beside p above 1 − confidence is extended to 0, so that it leaves 0 out only where p ≤ 1 − confidence; Holm within each measure. A cell fewer than two sessions decided in is drawn by decision, as if its decisions were independent, and a note names it. Ranks: simultaneous intervals for all pairwise differences of R on the games every group played — each pair's bias-corrected percentile interval at a level widened by the max-type bootstrap (the most extreme pair per replicate) so that all hold at once, for R united with the plain percentile interval and the MOVER interval of the two groups' test-inversion intervals at that level — and the rank sets they imply (Mogstad, Romano, Shaikh & Wilhelm 2024); a tier holds the groups not surely below its best. λ (the logit response fitted by maximum likelihood over every cell, each replicate's fit warm-started at the estimate) and exploitability (the mean over cells of what a best-responding opponent gains over the nearest equilibrium, in units of the opponent's payoff range) are compared on the games every group played under every framing, from the same replicates, with ranks the same way (rank 1 = the highest λ, the lowest exploitability; groups that do not reject λ = 0 at (1 − confidence)/groups are not ranked apart from one another; a pair of exploitability is ranked apart only where Welch's t interval at the simultaneous level leaves 0 out too, of λ only where the normal interval does, and the plain percentile interval too where a group's share at the cap exceeds (1 − confidence)/groups).";

/** Thrown when two groups played no (game, framing) cell in common: there is nothing to compare. */
export class NoSharedCells extends Error {}

/**
 * Pairwise comparisons of groups (players, styles, clients, models) on R and the planned shift over the
 * cells each pair shares, with Holm-adjusted p-values and simultaneous rank intervals of R. R of a group
 * over a set of games is the mean of its game-level R (SPEC §4, player level), the shift the mean Δ_C.
 */
export function compareGroups(input: ComparisonInput, options: CompareOptions): ComparisonResult {
  const { bootstrap, seed, confidence } = bootstrapSettings(options);
  const { framings } = options;
  if (framings.length < 2 || new Set(framings).size !== framings.length) {
    throw new Error(
      `A comparison needs at least two distinct framings; got ${framings.join(", ") || "none"}.`,
    );
  }
  const sampled = groupSamples(input, options.actionsOf);
  const groups = sampled.groups;
  if (groups.length < 2) {
    throw new NoSharedCells(
      `A comparison needs at least two groups; the record has ${groups.length === 0 ? "none" : `only '${groups[0]}'`}.`,
    );
  }
  const samples = sampled.samples();
  const complete = samples.map((s) => new Set(completeGames(s, framings).map((c) => c.game)));
  // Refuse before any bootstrap: every pair must share at least one game played under every framing.
  for (let i = 0; i < groups.length; i++) {
    for (let j = i + 1; j < groups.length; j++) {
      const shared = [...(complete[i] as Set<string>)].filter((g) => (complete[j] as Set<string>).has(g));
      if (shared.length === 0)
        throw new NoSharedCells(
          noSharedMessage(
            samples[i] as GroupSample,
            samples[j] as GroupSample,
            framings,
            complete[i] as Set<string>,
            complete[j] as Set<string>,
          ),
        );
    }
  }
  // The games every group played under every framing: ranks, λ and exploitability are computed on them.
  const rankedGames = [...(complete[0] as Set<string>)].filter((g) => complete.every((c) => c.has(g))).sort();
  const pooledModel = options.pooled;
  const clusterSums = options.clusterSums ?? clusterSumMethodFromEnv();
  // Progress (and where a cancelled comparison stops): each group's replicates, each pair of each measure,
  // each measure's ranks — the steps that take the time, seconds each at 100,000 decisions.
  const bootstrapStage = `bootstrap (${bootstrap.toLocaleString("en-US")} replicates)`;
  reportProgress(bootstrapStage, 0, groups.length, "group");
  const drawn = samples.map((s, g) => {
    const made = groupReplicates(
      s,
      framings,
      options.cooperativeAction,
      options.actionsOf,
      bootstrap,
      seed,
      pooledModel && rankedGames.length > 0 ? { games: rankedGames, model: pooledModel } : undefined,
      clusterSums,
    );
    reportProgress(bootstrapStage, g + 1, groups.length, "group");
    return made;
  });
  const pairCount = (groups.length * (groups.length - 1)) / 2;
  const replicates = drawn.map((d) => d.games);
  const approximated = groups.filter((_, g) => (drawn[g]?.normalBlocks ?? 0) > 0);

  const pairs: ComparedPair[] = [];
  const notes: string[] = [];
  // A group's mean over a set of games, once per (group, games, measure): most pairs share every game.
  const means = new Map<string, { point: number; star: Float64Array }>();
  const mean = (g: number, games: readonly string[], measure: "R" | "shift") => {
    const key = JSON.stringify([g, measure, games]);
    let m = means.get(key);
    if (m === undefined) {
      m = meanOver(replicates[g] as Map<string, GameReplicates>, games, measure, bootstrap);
      means.set(key, m);
    }
    return m;
  };
  // A group's test-inversion interval of R per game, and the MOVER distances of its mean over a set of
  // games, once per (group, games), at the comparison's level.
  const intervals = new Map<string, ReturnType<typeof gameInterval>>();
  const gameCells = samples.map((s) => new Map(completeGames(s, framings).map((c) => [c.game, c.cells])));
  const distances = new Map<string, MeanDistances>();
  const distancesOf = (g: number, games: readonly string[], level = confidence): MeanDistances => {
    const key = JSON.stringify([g, games]);
    let found = distances.get(key);
    if (found === undefined) {
      const own = replicates[g] as Map<string, GameReplicates>;
      const perGame = games.map((game) => {
        const at = JSON.stringify([g, game]);
        let interval = intervals.get(at);
        if (interval === undefined) {
          const cells = gameCells[g]?.get(game) as number[];
          interval = gameInterval(
            samples[g] as GroupSample,
            cells,
            own.get(game) as GameReplicates,
            confidence,
          );
          intervals.set(at, interval);
        }
        return interval;
      });
      const rows = games.map((game) => (own.get(game) as GameReplicates).RStar);
      found = meanDistances(perGame, correlationFactor(mean(g, games, "R").star, rows));
      distances.set(key, found);
    }
    if (level === confidence) return found;
    // At another level (the ranks' simultaneous one) the distances are scaled as MOVER reads them, z
    // standard errors each: an inversion of a game of three or more actions costs about half a second,
    // and placing every group's again at that level doubled what compare spent on them.
    const scale = normalQuantile(1 - (1 - level) / 2) / normalQuantile(1 - (1 - confidence) / 2);
    return { estimate: found.estimate, below: found.below * scale, above: found.above * scale };
  };
  /** Group g's shift cells of each game (the planned pair's two framings) and its cooperative action. */
  const shiftCells = (g: number, games: readonly string[]): ShiftCells[] =>
    games.map((game) => {
      const [first, second] = (gameCells[g] as Map<string, number[]>).get(game) as number[];
      return {
        first: first as number,
        second: second as number,
        cooperative: options.actionsOf(game).indexOf(options.cooperativeAction(game) as string),
      };
    });
  /** Groups i and j on one measure: a − b over the cells used, its interval and unadjusted p. */
  const pair = (
    measure: "R" | "shift" | PooledMeasure,
    i: number,
    j: number,
    a: { point: number; star: Float64Array; bounds?: readonly [number, number]; shareAtCap?: number },
    b: { point: number; star: Float64Array; bounds?: readonly [number, number]; shareAtCap?: number },
    used: CellRef[],
    games: readonly string[],
  ): ComparedPair => {
    const star = new Float64Array(bootstrap);
    for (let r = 0; r < bootstrap; r++) star[r] = (a.star[r] as number) - (b.star[r] as number);
    // R keeps its bootstrap tail and takes the union with the plain percentile interval; the other
    // measures' p is floored by the normal tail (pair-differences.ts).
    const bootstrapped = bootstrapDifference(a.point - b.point, star, confidence, {
      normalFloor: measure !== "R",
      percentileUnion: measure === "R",
    });
    const [x, y] = [samples[i], samples[j]] as [GroupSample, GroupSample];
    const paired = used.every((c) => pairedCell(x, y, c));
    // R: at least as wide as the MOVER interval of the two groups' test-inversion intervals (the bias
    // of crowded framings); exploitability: at least as wide as Welch's t interval over the units its
    // cells resample; the shift of groups drawn by session: at least Welch's over their sessions.
    const difference =
      measure === "R"
        ? moverWidened(
            bootstrapped,
            distancesOf(i, games),
            distancesOf(j, games),
            paired ? correlation(a.star, b.star) : 0,
            confidence,
          )
        : measure === "exploitability"
          ? welchWidened(
              bootstrapped,
              star,
              { variance: variance(a.star), units: drawn[i]?.pooledUnits ?? 0 },
              { variance: variance(b.star), units: drawn[j]?.pooledUnits ?? 0 },
              paired,
              confidence,
            )
          : measure === "shift" && (x.unit === "session" || y.unit === "session")
            ? sessionShiftWidened(
                bootstrapped,
                star,
                { star: a.star, sample: x, games: shiftCells(i, games) },
                { star: b.star, sample: y, games: shiftCells(j, games) },
                confidence,
              )
            : measure === "lambda"
              ? capWidened(bootstrapped, star, a.shareAtCap ?? 0, b.shareAtCap ?? 0, confidence)
              : bootstrapped;
    // The widenings above know nothing of the measure's range: a − b of a value in [loA, hiA] and one in
    // [loB, hiB] lies in [loA − hiB, hiA − loB] (R: [−1, 1]; exploitability: the games' own bound, which
    // may be well below 1), however wide the combined distances.
    const [lo, hi] = VALUE_RANGE[measure];
    const [loA, hiA] = a.bounds ?? [lo, hi];
    const [loB, hiB] = b.bounds ?? [lo, hi];
    // (Both ranges hold 0, so the clamp never leaves out a 0 the interval held.) Last, an interval that
    // leaves 0 out beside a p above 1 − confidence is extended to 0 (pair-differences.ts).
    const agreed = agreeingWithP(
      {
        estimate: difference.estimate,
        ci: [Math.max(loA - hiB, difference.ci[0]), Math.min(hiA - loB, difference.ci[1])],
        p_value: difference.p_value,
      },
      confidence,
    );
    return {
      measure,
      a: groups[i] as string,
      b: groups[j] as string,
      difference: { estimate: agreed.estimate, ci: agreed.ci },
      p_value: agreed.p_value,
      p_adjusted: agreed.p_value,
      paired,
      cells_used: used,
      cells_left_out: leftOutOf(x, y, used),
    };
  };
  for (const measure of ["R", "shift"] as const) {
    const family: ComparedPair[] = [];
    const stage = `differences of ${measure}`;
    let done = 0;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        reportProgress(stage, done++, pairCount, "pair");
        const shared = [...(complete[i] as Set<string>)]
          .filter((g) => (complete[j] as Set<string>).has(g))
          .sort();
        const games = measure === "R" ? shared : shared.filter((g) => replicates[i]?.get(g)?.shift !== null);
        if (games.length === 0) continue;
        const used = games.flatMap((game) => framings.map((framing) => ({ game, framing })));
        family.push(pair(measure, i, j, mean(i, games, measure), mean(j, games, measure), used, games));
      }
    }
    reportProgress(stage, pairCount, pairCount, "pair");
    pairs.push(...holmAdjusted(family));
  }

  if (approximated.length > 0) {
    notes.push(
      `${approximated.join(", ")}: each block of at least ${NORMAL_MIN_SESSIONS} sessions (at least ${NORMAL_MIN_CELL_SESSIONS} in each of its cells) drew its replicates' summed counts from their normal approximation (the exact bootstrap's mean and covariance) instead of drawing every session.`,
    );
  }
  const byDecision = sessionCellsByDecisionNote(samples);
  if (byDecision !== null) notes.push(byDecision);
  const unranked = unrankedGamesNote(groups, complete, rankedGames);
  if (unranked !== null) notes.push(unranked);
  const lookAlike = lookAlikeGroupsNote(groups);
  if (lookAlike !== null) notes.push(lookAlike);
  const ranks: GroupRank[] = [];
  const skipped: { measure: PooledMeasure; reason: string }[] = [];
  if (rankedGames.length === 0) {
    notes.push(
      "No game was played under every framing by every group, so no ranks are given; each pair is still compared on the cells it shares.",
    );
  } else {
    reportProgress("ranks of R", 0, 1, "step");
    ranks.push(
      ...rankMeasure(
        "R",
        groups,
        groups.map((_, g) => mean(g, rankedGames, "R")),
        confidence,
        VALUE_RANGE.R,
        undefined,
        // Two groups are ranked apart only where the pair's own widenings of R, at the simultaneous level,
        // leave 0 out too, as they must for the pair's interval: the MOVER interval of their
        // test-inversion intervals (the bias of crowded framings) and the plain percentile interval of
        // the difference. Without the latter, a group of a few decisions at R = 0, whose replicates lie
        // far above it, was ranked surely below one at R = 1 by the bias-corrected interval alone, while
        // the pair's own 95% interval held 0 (p = 0.21).
        (j, k, level, [plainLo, plainHi]) => {
          const [a, b] = [mean(j, rankedGames, "R"), mean(k, rankedGames, "R")];
          const used = rankedGames.flatMap((game) => framings.map((framing) => ({ game, framing })));
          const [x, y] = [samples[j], samples[k]] as [GroupSample, GroupSample];
          const paired = used.every((c) => pairedCell(x, y, c));
          const [moverLo, moverHi] = moverInterval(
            a.point - b.point,
            distancesOf(j, rankedGames, level),
            distancesOf(k, rankedGames, level),
            paired ? correlation(a.star, b.star) : 0,
          );
          return [Math.min(moverLo, plainLo), Math.max(moverHi, plainHi)];
        },
      ).map((rank) => {
        // A group's own interval of R also holds its test-inversion interval over the ranked games (MOVER
        // over games, as the robustness analysis's player-level R), which knows the bias the percentile
        // interval of its replicates cannot.
        const g = groups.indexOf(rank.group);
        const { below, above } = distancesOf(g, rankedGames);
        const ci: [number, number] = [
          Math.max(0, Math.min(rank.ci[0], rank.estimate - below)),
          Math.min(1, Math.max(rank.ci[1], rank.estimate + above)),
        ];
        return { ...rank, ci };
      }),
    );
    reportProgress("ranks of R", 1, 1, "step");
  }
  for (const measure of ["lambda", "exploitability"] as const) {
    const reason = pooledReason(
      measure,
      pooledModel !== undefined,
      rankedGames,
      drawn.map((d) => d.pooled),
    );
    if (reason !== null) {
      skipped.push({ measure, reason });
      continue;
    }
    const values = drawn.map((d) => d.pooled.find((p) => p.measure === measure) as PooledReplicates);
    const used = rankedGames.flatMap((game) => framings.map((framing) => ({ game, framing })));
    const family: ComparedPair[] = [];
    const stage = `differences and ranks of ${measure === "lambda" ? "λ" : measure}`;
    let done = 0;
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        reportProgress(stage, done++, pairCount + 1, "pair");
        const [a, b] = [values[i], values[j]] as [PooledReplicates, PooledReplicates];
        const compared = pair(measure, i, j, a, b, used, rankedGames);
        family.push(
          measure === "lambda" ? atLambdaZero(compared, a.shareAtZero, b.shareAtZero, confidence) : compared,
        );
      }
    }
    reportProgress(stage, pairCount, pairCount + 1, "pair");
    pairs.push(...holmAdjusted(family));
    // λ: groups that do not reject λ = 0 at (1 − confidence)/groups (Bonferroni, so that every group
    // truly at 0 passes at once with probability ≥ confidence) may all sit at the bound: none of them is
    // ranked surely above another.
    const atBound =
      measure === "lambda"
        ? values.map((v) => (v.shareAtZero ?? 0) > (1 - confidence) / groups.length)
        : undefined;
    // Ranked apart only where the pair's own widenings (Welch's t, the normal interval, λ at its cap) would
    // part the two as well.
    const further = pooledFurther(
      measure,
      values,
      drawn.map((d) => d.pooledUnits),
      (j, k) => used.every((c) => pairedCell(samples[j] as GroupSample, samples[k] as GroupSample, c)),
      confidence,
    );
    ranks.push(...rankMeasure(measure, groups, values, confidence, VALUE_RANGE[measure], atBound, further));
    reportProgress(stage, pairCount + 1, pairCount + 1, "pair");
  }
  return {
    confidence,
    bootstrap,
    seed,
    framings,
    groups,
    group_details: samples.map((s) => ({
      group: s.group,
      unit: s.unit,
      cells: s.cells.length,
      decisions: s.decisions,
    })),
    pairs,
    ranks,
    ranked_games: rankedGames,
    family: `For each measure, the ${(groups.length * (groups.length - 1)) / 2} pairs of the ${groups.length} groups (pairs with no shared cell for the measure are not in it); Holm's step-down adjustment within it. R and the shift use the games each pair shares; λ and exploitability the games every group shares.`,
    method: COMPARISON_METHOD,
    notes,
    skipped,
  };
}

/** The groups, sorted, and their samples (made when asked: a comparison of fewer than two is refused first). */
function groupSamples(
  input: ComparisonInput,
  actionsOf: (game: string) => readonly ActionId[],
): { groups: string[]; samples: () => GroupSample[] } {
  if ("tallies" in input) {
    const tallies = [...input.tallies].sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : 0));
    return {
      groups: tallies.map((t) => t.group),
      samples: () => tallies.map((t) => groupSampleOfTallies(t, actionsOf)),
    };
  }
  const byGroup = new Map<string, ComparisonRow[]>();
  for (const row of input) {
    const list = byGroup.get(row.group);
    if (list) list.push(row);
    else byGroup.set(row.group, [row]);
  }
  const groups = [...byGroup.keys()].sort();
  return { groups, samples: () => groups.map((g) => groupSample(g, byGroup.get(g) ?? [], actionsOf)) };
}

/** The range of each measure's values (a group's R, mean shift, λ, exploitability). */
const VALUE_RANGE: Record<"R" | "shift" | PooledMeasure, [number, number]> = {
  R: [0, 1],
  shift: [-1, 1],
  ...POOLED_BOUNDS,
};

/** A λ pair widened to hold 0 when both groups may sit at λ = 0 (pair-differences.ts). */
function atLambdaZero(
  compared: ComparedPair,
  shareA: number | undefined,
  shareB: number | undefined,
  confidence: number,
): ComparedPair {
  const widened = boundaryWidened(
    { estimate: compared.difference.estimate, ci: compared.difference.ci, p_value: compared.p_value },
    shareA ?? 0,
    shareB ?? 0,
    confidence,
  );
  return {
    ...compared,
    difference: { estimate: widened.estimate, ci: widened.ci },
    p_value: widened.p_value,
    p_adjusted: widened.p_value,
  };
}

/** A measure's family with Holm's adjusted p-values. */
export function holmAdjusted(family: readonly ComparedPair[]): ComparedPair[] {
  const adjusted = holm(family.map((p) => p.p_value));
  return family.map((p, k) => ({ ...p, p_adjusted: adjusted[k] as number }));
}

/**
 * Ranks of one measure with rank 1 the best — the highest R and λ, the lowest exploitability (the play a
 * best-responding opponent gains least from; ranked as −exploitability and read back) — with each
 * group's own interval: the percentile interval of its replicates, widened to hold the estimate (at R = 1
 * every replicate lies below it; SPEC §4 checks say so rather than hide it) and clamped to the measure's
 * range, which the spread replicates (group-replicates.ts) may step outside. `atBound` marks groups that
 * may sit at the measure's bound together (λ = 0): no two of them are ranked apart.
 */
export function rankMeasure(
  measure: ComparisonMeasure,
  groups: readonly string[],
  values: readonly { point: number; star: Float64Array }[],
  confidence: number,
  [min, max]: [number, number],
  atBound?: readonly boolean[],
  further?: FurtherInterval,
): GroupRank[] {
  const sign = measure === "exploitability" ? -1 : 1;
  const signed = values.map((v) => ({ point: sign * v.point, star: v.star.map((x) => sign * x) }));
  const ranked = rankIntervals(
    groups,
    signed.map((m) => m.point),
    signed.map((m) => m.star),
    confidence,
    atBound,
    further,
  );
  const range: [number, number] = sign === 1 ? [min, max] : [-max, -min];
  const own = withOwnIntervals(measure, ranked, signed, confidence, range);
  return sign === 1
    ? own
    : own.map((r) => ({ ...r, estimate: -r.estimate, ci: [-r.ci[1], -r.ci[0]] as [number, number] }));
}

/**
 * Each ranked group's own interval: the percentile interval of its replicates, widened to hold the
 * estimate and clamped to the measure's range; sorted by rank.
 */
export function withOwnIntervals(
  measure: ComparisonMeasure,
  ranked: readonly RankedGroup[],
  values: readonly { point: number; star: Float64Array }[],
  confidence: number,
  [min, max]: [number, number],
): GroupRank[] {
  return ranked
    .map((r, g) => {
      const own = values[g] as { point: number; star: Float64Array };
      const [lo, hi] = percentileInterval(Float64Array.from(own.star), confidence);
      const ci: [number, number] = [
        Math.max(min, Math.min(lo, own.point)),
        Math.min(max, Math.max(hi, own.point)),
      ];
      return { measure, group: r.group, estimate: r.estimate, ci, rank: r.rank, tied_group: r.tied_group };
    })
    .sort((x, y) => x.rank.estimate - y.rank.estimate || (x.group < y.group ? -1 : 1));
}

/** Why a pooled measure cannot be compared, or null when every group has it on the ranked games. */
function pooledReason(
  measure: PooledMeasure,
  modelled: boolean,
  rankedGames: readonly string[],
  pooled: readonly PooledReplicates[][],
): string | null {
  const name = measure === "lambda" ? "λ" : "Exploitability";
  if (!modelled) return `${name} needs the games' payoffs, which this comparison was not given.`;
  if (rankedGames.length === 0)
    return `${name} is compared on the games every group played under every framing, and there are none.`;
  if (pooled.some((p) => !p.some((x) => x.measure === measure)))
    return measure === "lambda"
      ? "λ needs a two-action game with a cooperative action whose payoffs make cooperating and defecting differ against a neutral belief (Δu_G ≠ 0); no game every group played has one."
      : "Exploitability is undefined in every game every group played (all payoffs equal).";
  return null;
}

/** The cells either group played that a pair's comparison does not use. */
function leftOutOf(a: GroupSample, b: GroupSample, used: readonly CellRef[]): CellRef[] {
  const usedKeys = new Set(used.map((c) => cellKey(c.game, c.framing)));
  const leftOut = new Map<string, CellRef>();
  for (const s of [a, b]) {
    for (const c of s.cells) {
      const key = cellKey(c.game, c.framing);
      if (!usedKeys.has(key)) leftOut.set(key, { game: c.game, framing: c.framing });
    }
  }
  return [...leftOut.values()].sort(byCell);
}

function meanOver(
  replicates: Map<string, GameReplicates>,
  games: readonly string[],
  measure: "R" | "shift",
  bootstrap: number,
): { point: number; star: Float64Array } {
  const star = new Float64Array(bootstrap);
  let point = 0;
  for (const game of games) {
    const g = replicates.get(game) as GameReplicates;
    const values = measure === "R" ? g.RStar : (g.shiftStar as Float64Array);
    point += measure === "R" ? g.R : (g.shift as number);
    for (let b = 0; b < bootstrap; b++) star[b] = (star[b] as number) + (values[b] as number);
  }
  for (let b = 0; b < bootstrap; b++) star[b] = (star[b] as number) / games.length;
  return { point: point / games.length, star };
}

function pairedCell(a: GroupSample, b: GroupSample, cell: CellRef): boolean {
  const key = cellKey(cell.game, cell.framing);
  const x = a.cells[a.cellIndex.get(key) ?? -1]?.positions;
  const y = b.cells[b.cellIndex.get(key) ?? -1]?.positions;
  return a.unit === "trial" && b.unit === "trial" && x != null && y != null && x.join("|") === y.join("|");
}

const byCell = (x: CellRef, y: CellRef) =>
  x.game < y.game ? -1 : x.game > y.game ? 1 : x.framing < y.framing ? -1 : x.framing > y.framing ? 1 : 0;

function noSharedMessage(
  a: GroupSample,
  b: GroupSample,
  framings: readonly string[],
  completeA: Set<string>,
  completeB: Set<string>,
): string {
  const describe = (s: GroupSample, complete: Set<string>) =>
    complete.size > 0
      ? `'${s.group}' played ${[...complete].sort().join(", ")} under all of them`
      : `'${s.group}' played no game under all of them (its cells: ${s.cells.map((c) => `${c.game}/${c.framing}`).join(", ")})`;
  return `Groups '${a.group}' and '${b.group}' share no game played under every framing of ${framings.join(", ")}: ${describe(a, completeA)}; ${describe(b, completeB)}. Narrow the groups (--players) or the framings (--framings).`;
}

/** Pearson's correlation of two groups' replicates (0 when either does not vary). */
function correlation(a: Float64Array, b: Float64Array): number {
  const B = a.length;
  let ma = 0;
  let mb = 0;
  for (let r = 0; r < B; r++) {
    ma += a[r] as number;
    mb += b[r] as number;
  }
  ma /= B;
  mb /= B;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let r = 0; r < B; r++) {
    const x = (a[r] as number) - ma;
    const y = (b[r] as number) - mb;
    sab += x * y;
    saa += x * x;
    sbb += y * y;
  }
  return saa > 0 && sbb > 0 ? sab / Math.sqrt(saa * sbb) : 0;
}
