import { opponentLabel } from "../../domain/opponent-label.js";
import { type BootstrapOptions, bootstrapSettings } from "../sampling/bootstrap-options.js";
import { normalQuantile } from "../sampling/normal-quantile.js";
import { variance } from "../sampling/replicate-variance.js";
import { normalUpperTail } from "../story-labels/normal-tail.js";
import { type ComparedPair, type GroupRank, holmAdjusted, withOwnIntervals } from "./compare-groups.js";
import type { CellRef } from "./comparison-rows.js";
import { bootstrapDifference, type Difference, welchWidened } from "./pair-differences.js";
import { ranksFromOrder } from "./rank-intervals.js";
import {
  type ConditionReplicates,
  conditionKey,
  REPEATED_MEASURES,
  type RepeatedCondition,
  type RepeatedMatchRow,
  type RepeatedMeasure,
  type RepeatedUnit,
  repeatedReplicates,
} from "./repeated-replicates.js";

export interface RepeatedComparison {
  readonly groups: string[];
  readonly units: { group: string; unit: RepeatedUnit; matches: number }[];
  readonly pairs: ComparedPair[];
  readonly ranks: GroupRank[];
  /** The conditions every group played (per measure): the ranks are computed on them. */
  readonly ranked_conditions: Partial<Record<RepeatedMeasure, CellRef[]>>;
  readonly notes: string[];
  readonly skipped: { measure: RepeatedMeasure; reason: string }[];
}

export const REPEATED_COMPARISON_METHOD =
  "Repeated play (total points, cooperation rate, comprehension m of SPEC §6 under the match rule at t = 0.9): a group's value on a set of (game, framing, opponent) conditions is the mean over them of its mean per match; the matches of each condition are resampled (sessions across conditions when a session played several matches), by schedule position and jointly for groups that played the same positions of a study (paired), independently otherwise; each condition's replicate means spread by √(n/(n − 1)). Differences as for the shift (bias-corrected percentile interval, p-value with the normal floor), each widened to at least Welch's t interval and its t tail (a mean of a few matches; ν halfway between Satterthwaite's and n_min − 1, n − 1 when paired) and, for comprehension m, to at least the normal interval with each side's matches smoothed by half a pseudo-match at each end of m's range [1, N + 1]; Holm within each measure; rank intervals from the same pairwise intervals at the Bonferroni level 1 − (1 − confidence)/pairs, on the conditions each pair (ranks: every group) played; for comprehension m, rank 1 is the smallest m (the earliest comprehension), for points and cooperation the largest value.";

/**
 * Pairwise comparisons of groups on repeated play: for each measure and pair, a − b over the conditions
 * both played (that define the measure), its bootstrap interval, p-value and Holm-adjusted p within the
 * measure; ranks on the conditions every group played. A pair that shares no condition is left out of
 * the family, and named in the notes; a measure no pair shares is listed as skipped.
 */
export function compareRepeated(
  rows: readonly RepeatedMatchRow[],
  options: BootstrapOptions,
): RepeatedComparison {
  const { bootstrap, seed, confidence } = bootstrapSettings(options);
  const byGroup = new Map<string, RepeatedMatchRow[]>();
  for (const r of rows) byGroup.set(r.group, [...(byGroup.get(r.group) ?? []), r]);
  const groups = [...byGroup.keys()].sort();
  const drawn = groups.map((g) => repeatedReplicates(g, byGroup.get(g) ?? [], bootstrap, seed));
  const pairs: ComparedPair[] = [];
  const ranks: GroupRank[] = [];
  const notes: string[] = [];
  const skipped: RepeatedComparison["skipped"] = [];
  const ranked_conditions: RepeatedComparison["ranked_conditions"] = {};
  const played = (g: number, measure: RepeatedMeasure) =>
    [...(drawn[g]?.conditions.values() ?? [])].filter((c) => c.point[measure] !== null);
  // Only the conditions whose spread between matches can be estimated enter a pair or a rank.
  const defining = (g: number, measure: RepeatedMeasure) =>
    played(g, measure).filter((c) => c.units >= MIN_UNITS);
  const thin = groups.flatMap((group, g) =>
    [...(drawn[g]?.conditions.values() ?? [])]
      .filter((c) => c.units < MIN_UNITS)
      .map((c) => ({ group, condition: c, unit: drawn[g]?.unit ?? "match" })),
  );
  if (thin.length > 0) notes.push(thinNote(thin));

  for (const measure of REPEATED_MEASURES) {
    const family: ComparedPair[] = [];
    const unshared: string[] = [];
    for (let i = 0; i < groups.length; i++) {
      for (let j = i + 1; j < groups.length; j++) {
        const mine = defining(i, measure);
        const theirs = new Map(defining(j, measure).map((c) => [conditionKey(c.condition), c]));
        const shared = mine.filter((c) => theirs.has(conditionKey(c.condition)));
        if (shared.length === 0) {
          // A pair that played a condition in common, too few times, is accounted for by the note on thin conditions.
          const playedByJ = new Set(played(j, measure).map((c) => conditionKey(c.condition)));
          const sharedAtAll = played(i, measure).some((c) => playedByJ.has(conditionKey(c.condition)));
          if (mine.length > 0 && theirs.size > 0 && !sharedAtAll)
            unshared.push(`'${groups[i]}' and '${groups[j]}'`);
          continue;
        }
        const others = shared.map((c) => theirs.get(conditionKey(c.condition)) as ConditionReplicates);
        const { difference, paired } = differenceOf(measure, shared, others, bootstrap, confidence);
        const used = shared.map((c) => c.condition).sort(byCondition);
        const usedKeys = new Set(used.map(conditionKey));
        const leftOut = new Map<string, RepeatedCondition>();
        for (const g of [i, j])
          for (const c of drawn[g]?.conditions.values() ?? [])
            if (!usedKeys.has(conditionKey(c.condition))) leftOut.set(conditionKey(c.condition), c.condition);
        family.push({
          measure,
          a: groups[i] as string,
          b: groups[j] as string,
          difference: { estimate: difference.estimate, ci: difference.ci },
          p_value: difference.p_value,
          p_adjusted: difference.p_value,
          paired,
          cells_used: used.map(cell),
          cells_left_out: [...leftOut.values()].sort(byCondition).map(cell),
        });
      }
    }
    if (family.length === 0) {
      skipped.push({ measure, reason: noSharedReason(measure, groups, drawn, played, thin) });
      continue;
    }
    pairs.push(...holmAdjusted(family));
    if (unshared.length > 0)
      notes.push(
        `${nameOf(measure)}: ${unshared.join(", ")} played no repeated condition in common, so they are not compared.`,
      );
    // Ranks on the conditions every group played, among the groups with a condition the ranks can rest
    // on (a group that played every condition of the measure too few times is named in the note instead).
    const rankable = groups
      .map((_, g) => g)
      .filter((g) => played(g, measure).length === 0 || defining(g, measure).length > 0);
    const everyone = defining(rankable[0] as number, measure).filter((c) =>
      rankable.every((g) =>
        defining(g, measure).some((o) => conditionKey(o.condition) === conditionKey(c.condition)),
      ),
    );
    if (everyone.length === 0) {
      notes.push(
        `${nameOf(measure)}: no repeated condition was played by every group${rankable.length < groups.length ? " (with 2 matches or more)" : ""}, so no ranks are given.`,
      );
      continue;
    }
    const keys = everyone.map((c) => conditionKey(c.condition));
    const values = rankable.map((g) =>
      meanOf(
        keys.map((k) => drawn[g]?.conditions.get(k) as ConditionReplicates),
        measure,
        bootstrap,
      ),
    );
    ranked_conditions[measure] = everyone
      .map((c) => c.condition)
      .sort(byCondition)
      .map(cell);
    const ranked = keys.map((k) => rankable.map((g) => drawn[g]?.conditions.get(k) as ConditionReplicates));
    const rankedGroups = rankable.map((g) => groups[g] as string);
    ranks.push(...rankOf(measure, rankedGroups, values, ranked, bootstrap, confidence));
  }
  return {
    groups,
    units: groups.map((group, g) => ({
      group,
      unit: drawn[g]?.unit ?? "match",
      matches: byGroup.get(group)?.length ?? 0,
    })),
    pairs,
    ranks,
    ranked_conditions,
    notes,
    skipped,
  };
}

/**
 * Comprehension m's difference made at least as wide as d̂ ± z·se, se from each side's variance of its
 * mean at least that of its matches smoothed at both ends of m's range (smoothedMeanVariance), and its
 * p-value at least 2·Φ(−|d̂|/se). On the grid (bench/coverage/compare-repeated-coverage.ts) Welch's
 * interval alone covered 83.5% with 3 matches against 30 and 75.5% where one side nearly always
 * comprehends at round 1 (its 5 matches all m = 1 in 72% of studies, a sample variance of 0); the
 * normal quantile, not t, because the pseudo-values already stand for the matches not seen (t with a
 * few degrees of freedom on top gave intervals wider than m's range).
 */
function smoothedWidened(
  difference: Difference,
  bootstrapSe: number,
  varianceA: number,
  varianceB: number,
  confidence: number,
): Difference {
  const se = Math.max(bootstrapSe, Math.sqrt(varianceA + varianceB));
  if (!(se > 0)) return difference;
  const z = normalQuantile((1 + confidence) / 2);
  const d = difference.estimate;
  return {
    estimate: d,
    ci: [Math.min(difference.ci[0], d - z * se), Math.max(difference.ci[1], d + z * se)],
    p_value: Math.min(1, Math.max(difference.p_value, 2 * normalUpperTail(Math.abs(d) / se))),
  };
}

/** The smoothed variance of a group's mean m over these conditions (a mean of independent means). */
const smoothedVarianceOf = (conditions: readonly ConditionReplicates[]) =>
  conditions.reduce((s, c) => s + c.mSmoothedVariance, 0) / conditions.length ** 2;

/** The fewest matches any of these conditions holds. */
const fewest = (conditions: readonly ConditionReplicates[]) => Math.min(...conditions.map((c) => c.matches));

/** A group's mean over conditions of its per-condition mean, point and replicates. */
function meanOf(
  conditions: readonly ConditionReplicates[],
  measure: RepeatedMeasure,
  bootstrap: number,
): { point: number; star: Float64Array } {
  const star = new Float64Array(bootstrap);
  let point = 0;
  for (const c of conditions) {
    point += c.point[measure] as number;
    const values = c.star[measure] as Float64Array;
    for (let b = 0; b < bootstrap; b++) star[b] = (star[b] as number) + (values[b] as number);
  }
  for (let b = 0; b < bootstrap; b++) star[b] = (star[b] as number) / conditions.length;
  return { point: point / conditions.length, star };
}

/**
 * Ranks with rank 1 the best: the highest points or cooperation, the smallest comprehension m. A group is
 * surely above another when their difference's interval — built as each pair's (differenceOf: Welch's
 * widening, m's smoothing), at the level 1 − (1 − confidence)/pairs — leaves 0 out: by Bonferroni every
 * pair's interval holds at once with probability ≥ confidence, so every true rank lies in its interval.
 * The max-type bootstrap that ranks R uses the replicates alone, and a mean of a few matches has too
 * narrow a bootstrap: over 5 equal groups of 6 matches it held every true rank in 79–83% of studies.
 * Each group's own interval is its replicates' percentile interval, clamped to the measure's range.
 */
function rankOf(
  measure: RepeatedMeasure,
  groups: readonly string[],
  values: readonly { point: number; star: Float64Array }[],
  conditions: readonly (readonly ConditionReplicates[])[],
  bootstrap: number,
  confidence: number,
): GroupRank[] {
  const G = groups.length;
  const level = 1 - (1 - confidence) / Math.max(1, (G * (G - 1)) / 2);
  // Rank 1 is the highest value; m is ranked as −m (the smallest m first) and read back.
  const sign = measure === "comprehension_m" ? -1 : 1;
  const better = groups.map(() => new Array<boolean>(G).fill(false));
  const column = (g: number) => conditions.map((c) => c[g] as ConditionReplicates);
  for (let j = 0; j < G; j++) {
    for (let k = j + 1; k < G; k++) {
      const { difference } = differenceOf(measure, column(j), column(k), bootstrap, level);
      const [lo, hi] = difference.ci.map((x) => sign * x).sort((x, y) => x - y) as [number, number];
      if (lo > 0) (better[j] as boolean[])[k] = true;
      if (hi < 0) (better[k] as boolean[])[j] = true;
    }
  }
  const signed = values.map((v) => ({ point: sign * v.point, star: v.star.map((x) => sign * x) }));
  const ranked = ranksFromOrder(
    groups,
    signed.map((v) => v.point),
    better,
  );
  const range: [number, number] =
    measure === "cooperation"
      ? [0, 1]
      : measure === "comprehension_m"
        ? [Number.NEGATIVE_INFINITY, -1]
        : [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY];
  const own = withOwnIntervals(measure, ranked, signed, confidence, range);
  return sign === 1
    ? own
    : own.map((r) => ({ ...r, estimate: -r.estimate, ci: [-r.ci[1], -r.ci[0]] as [number, number] }));
}

/**
 * a − b over matched conditions (a's and b's of the same condition, in the same order): the
 * bias-corrected bootstrap interval widened to Welch's t, and for m to the smoothed normal interval.
 */
function differenceOf(
  measure: RepeatedMeasure,
  shared: readonly ConditionReplicates[],
  others: readonly ConditionReplicates[],
  bootstrap: number,
  confidence: number,
): { difference: Difference; paired: boolean } {
  const a = meanOf(shared, measure, bootstrap);
  const b = meanOf(others, measure, bootstrap);
  const star = new Float64Array(bootstrap);
  for (let r = 0; r < bootstrap; r++) star[r] = (a.star[r] as number) - (b.star[r] as number);
  const paired = shared.every(
    (c, k) => c.positions !== null && c.positions.join("|") === others[k]?.positions?.join("|"),
  );
  const welch = welchWidened(
    bootstrapDifference(a.point - b.point, star, confidence, { normalFloor: true }),
    star,
    { variance: variance(a.star), units: fewest(shared) },
    { variance: variance(b.star), units: fewest(others) },
    paired,
    confidence,
  );
  const difference =
    measure === "comprehension_m"
      ? smoothedWidened(
          welch,
          Math.sqrt(variance(star)),
          Math.max(variance(a.star), smoothedVarianceOf(shared)),
          Math.max(variance(b.star), smoothedVarianceOf(others)),
          confidence,
        )
      : welch;
  return { difference, paired };
}

/**
 * A condition a group played in fewer units than this has no spread between matches to estimate: every
 * bootstrap replicate repeats its one mean, Welch's widening has no variance to widen by, and a pair of
 * single matches that differ by one round's choice came out as 2.000 [2.000, 2.000], p = 0.001.
 */
const MIN_UNITS = 2;

interface ThinCondition {
  group: string;
  condition: ConditionReplicates;
  unit: RepeatedUnit;
}

/** The sentence naming every group's conditions played too few times, and how many matches each holds. */
function thinNote(thin: readonly ThinCondition[]): string {
  const sessions = thin.some((t) => t.unit === "session" && t.condition.matches > t.condition.units);
  return `Repeated play: a condition a group played in fewer than ${MIN_UNITS} matches${sessions ? " (or in one session, where sessions are resampled)" : ""} has no spread between matches to estimate, so no interval, p-value or rank rests on it (it is left out of every pair and rank): ${thinList(thin)}.`;
}

function thinList(thin: readonly ThinCondition[]): string {
  return thin
    .map(({ group, condition: c, unit }) => {
      const matches = `${c.matches} match${c.matches === 1 ? "" : "es"}`;
      const where = unit === "session" && c.matches > c.units ? ` in ${c.units} session` : "";
      return `'${group}' ${matches}${where} of ${describe(c.condition)}`;
    })
    .join(", ");
}

function noSharedReason(
  measure: RepeatedMeasure,
  groups: readonly string[],
  drawn: readonly { conditions: Map<string, ConditionReplicates> }[],
  played: (g: number, measure: RepeatedMeasure) => ConditionReplicates[],
  thin: readonly ThinCondition[],
): string {
  const name = nameOf(measure);
  if (groups.length < 2)
    return `${name} needs finished repeated matches of at least two groups; ${groups.length === 0 ? "there are none" : `only '${groups[0]}' has some`}.`;
  if (measure === "cooperation" && groups.filter((_, g) => played(g, measure).length > 0).length < 2)
    return "Cooperation needs repeated matches of a game with a cooperative action by at least two groups.";
  const keysOf = (g: number) => new Set(played(g, measure).map((c) => conditionKey(c.condition)));
  const sharedAtAll = groups.some((_, i) =>
    groups.some((_, j) => j > i && [...keysOf(i)].some((k) => keysOf(j).has(k))),
  );
  if (sharedAtAll) {
    const defined = thin.filter((t) => t.condition.point[measure] !== null);
    return `${name} needs a condition two groups each played in ${MIN_UNITS} matches or more (one match has no spread between matches to estimate): ${thinList(defined)}.`;
  }
  const whatEach = groups
    .map(
      (g, i) =>
        `'${g}' played ${[...(drawn[i]?.conditions.values() ?? [])].map((c) => describe(c.condition)).join(", ")}`,
    )
    .join("; ");
  return `No two groups played a repeated condition (game, framing, opponent) in common: ${whatEach}.`;
}

const nameOf = (measure: RepeatedMeasure) =>
  measure === "points" ? "Points" : measure === "cooperation" ? "Cooperation" : "Comprehension m";

const describe = (c: RepeatedCondition) =>
  `${c.game}/${c.framing} vs ${opponentLabel(c.opponent, c.opponent_params)}`;

/** A condition as a cell of the contract (the opponent beside the game and framing, its params if any). */
const cell = (c: RepeatedCondition): CellRef => ({
  game: c.game,
  framing: c.framing,
  opponent: c.opponent,
  ...(Object.keys(c.opponent_params).length > 0 ? { opponent_params: { ...c.opponent_params } } : {}),
});

const byCondition = (x: RepeatedCondition, y: RepeatedCondition) => {
  const a = conditionKey(x);
  const b = conditionKey(y);
  return a < b ? -1 : a > b ? 1 : 0;
};
