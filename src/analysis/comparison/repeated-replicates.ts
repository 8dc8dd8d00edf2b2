import { canonicalJson } from "../../domain/canonical-json.js";
import { createBootstrapRng } from "../sampling/fast-rng.js";
import { spread } from "./group-replicates.js";

/** The repeated-play measures a comparison holds (SPEC §6, per match; a group's value is a mean of matches). */
export const REPEATED_MEASURES = ["points", "cooperation", "comprehension_m"] as const;
export type RepeatedMeasure = (typeof REPEATED_MEASURES)[number];

/** One finished repeated match of one group, with its SPEC §6 metrics. */
export interface RepeatedMatchRow {
  readonly group: string;
  readonly game: string;
  readonly framing: string;
  readonly opponent: string;
  /** The params the match gave the opponent ({} for none). */
  readonly opponent_params: Readonly<Record<string, unknown>>;
  /**
   * What is resampled whole: the session the match was played in when that session played several matches
   * (their play is not independent), else the match itself.
   */
  readonly unit: string;
  /** Where the match sits in a study's schedule (see ComparisonRow.position), else null. */
  readonly position: string | null;
  readonly points: number;
  /** Null in a game without a cooperative action. */
  readonly cooperation: number | null;
  readonly comprehension_m: number;
  /** The match's rounds N: comprehension m lies in [1, N + 1] (N + 1: never comprehended). */
  readonly rounds: number;
}

/** A condition of repeated play: the game, the framing and the opponent with its params. */
export interface RepeatedCondition {
  readonly game: string;
  readonly framing: string;
  readonly opponent: string;
  readonly opponent_params: Readonly<Record<string, unknown>>;
}

/**
 * One opponent id with other params is another condition (pattern of rock alone and of scissors alone).
 * An opponent without params keeps the key it had before params were part of it: the key names the
 * condition's bootstrap stream, and the same record must draw the same replicates.
 */
export const conditionKey = (c: RepeatedCondition): string =>
  Object.keys(c.opponent_params).length === 0
    ? JSON.stringify([c.game, c.framing, c.opponent])
    : JSON.stringify([c.game, c.framing, c.opponent, canonicalJson(c.opponent_params)]);

/** One condition of one group: each measure's mean over its matches, and that mean in every replicate. */
export interface ConditionReplicates {
  readonly condition: RepeatedCondition;
  readonly matches: number;
  /**
   * The units the bootstrap draws this condition's matches in: its matches, or the sessions holding them
   * when sessions are resampled. With one, every replicate repeats the observed mean.
   */
  readonly units: number;
  /** The schedule positions (sorted) when every match of the condition has one and was drawn by it. */
  readonly positions: readonly string[] | null;
  /** Null for a measure the condition does not define (cooperation outside the PD family). */
  readonly point: Record<RepeatedMeasure, number | null>;
  readonly star: Record<RepeatedMeasure, Float64Array | null>;
  /** The variance of the condition's mean m from its matches smoothed at both ends of m's range. */
  readonly mSmoothedVariance: number;
}

export type RepeatedUnit = "match" | "session" | "trial";

/**
 * The bootstrap of one group's repeated play. Matches are the clustering unit (SPEC §6), sessions when a
 * session played several (and there are two or more sessions): then the sessions are drawn with replacement across all conditions at once (one
 * block); otherwise the matches of each condition are drawn within it, by schedule position when every
 * match has one, from a stream named by the condition and its positions, so that two groups that played
 * the same positions draw the same ones in every replicate (paired), and from a stream of the group's own
 * otherwise (independent). A replicate that drew no match of a condition keeps its observed mean there.
 * Each condition's replicate means are spread about their mean by √(n/(n − 1)), n its units (Efron's
 * correction of the bootstrap variance of a mean, as for R).
 */
export function repeatedReplicates(
  group: string,
  rows: readonly RepeatedMatchRow[],
  bootstrap: number,
  seed: number,
): { unit: RepeatedUnit; conditions: Map<string, ConditionReplicates> } {
  const keys = [...new Set(rows.map((r) => conditionKey(r)))].sort();
  const index = new Map(keys.map((k, i) => [k, i]));
  const C = keys.length;
  const M = REPEATED_MEASURES.length;
  const value = (r: RepeatedMatchRow, m: number): number | null =>
    m === 0 ? r.points : m === 1 ? r.cooperation : r.comprehension_m;
  const byUnit = new Map<string, RepeatedMatchRow[]>();
  for (const r of rows) byUnit.set(r.unit, [...(byUnit.get(r.unit) ?? []), r]);
  // Sessions are the unit when there are at least two (one session alone has no spread to resample).
  const clustered = byUnit.size >= 2 && [...byUnit.values()].some((u) => u.length > 1);

  // A unit as the (condition, per-measure value) entries it adds to a replicate, in an order of their own
  // (condition, then values): a session's matches arrive in the order of their random ids, and the order
  // of a unit's entries places the unit among the others.
  type Unit = { c: number; values: (number | null)[] }[];
  const unitOf = (members: readonly RepeatedMatchRow[]): Unit =>
    members
      .map((r) => ({
        c: index.get(conditionKey(r)) as number,
        values: REPEATED_MEASURES.map((_, m) => value(r, m)),
      }))
      .map((e) => ({ e, key: JSON.stringify(e.values) }))
      .sort((x, y) => x.e.c - y.e.c || (x.key < y.key ? -1 : x.key > y.key ? 1 : 0))
      .map(({ e }) => e);
  const strata: { units: Unit[]; stream: string }[] = [];
  const positions: (string[] | null)[] = keys.map(() => null);
  const unitsPerCondition = new Int32Array(C);
  let unit: RepeatedUnit = "match";
  if (clustered) {
    unit = "session";
    // Units in a stable order (by content): unit ids are random, and the draws go by position.
    const units = [...byUnit.values()]
      .map(unitOf)
      .sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
    strata.push({ units, stream: `${group}:repeated-sessions` });
    for (const u of units) for (const c of new Set(u.map((e) => e.c))) unitsPerCondition[c]++;
  } else {
    keys.forEach((key, c) => {
      const members = rows.filter((r) => conditionKey(r) === key);
      unitsPerCondition[c] = members.length;
      const placed = members.map((r) => r.position);
      if (placed.every((p): p is string => p !== null) && new Set(placed).size === placed.length) {
        unit = "trial";
        const sorted = [...members].sort((x, y) =>
          (x.position as string) < (y.position as string) ? -1 : 1,
        );
        positions[c] = sorted.map((r) => r.position as string);
        strata.push({
          units: sorted.map((r) => unitOf([r])),
          stream: `repeated-schedule:${key}:${(positions[c] as string[]).join("|")}`,
        });
      } else {
        const units = members.map((r) => unitOf([r]));
        units.sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
        strata.push({ units, stream: `${group}:repeated:${key}` });
      }
    });
  }

  // Observed means, and which measures each condition defines.
  const sums = new Float64Array(C * M);
  const counts = new Float64Array(C * M);
  const add = (u: Unit) => {
    for (const e of u) {
      e.values.forEach((v, m) => {
        if (v === null) return;
        sums[e.c * M + m] = (sums[e.c * M + m] as number) + v;
        counts[e.c * M + m] = (counts[e.c * M + m] as number) + 1;
      });
    }
  };
  for (const s of strata) for (const u of s.units) add(u);
  const point = Array.from(sums, (x, i) => ((counts[i] as number) > 0 ? x / (counts[i] as number) : null));
  const star = point.map((p) => (p === null ? null : new Float64Array(bootstrap)));
  const rngs = strata.map((s) => createBootstrapRng(`${seed}:${s.stream}`));
  for (let b = 0; b < bootstrap; b++) {
    sums.fill(0);
    counts.fill(0);
    strata.forEach((s, i) => {
      const rng = rngs[i] as ReturnType<typeof createBootstrapRng>;
      for (let d = 0; d < s.units.length; d++) add(s.units[Math.floor(rng.next() * s.units.length)] as Unit);
    });
    star.forEach((values, i) => {
      if (values === null) return;
      const n = counts[i] as number;
      values[b] = n > 0 ? (sums[i] as number) / n : (point[i] as number);
    });
  }
  star.forEach((values, i) => {
    const n = unitsPerCondition[Math.floor(i / M)] as number;
    if (values !== null && n >= 2) spread(values, Math.sqrt(n / (n - 1)));
  });

  const members = (key: string) => rows.filter((r) => conditionKey(r) === key);
  const conditions = new Map<string, ConditionReplicates>();
  keys.forEach((key, c) => {
    const { game, framing, opponent, opponent_params } = members(key)[0] as RepeatedMatchRow;
    const measure = <T>(of: (i: number) => T) =>
      Object.fromEntries(REPEATED_MEASURES.map((m, k) => [m, of(c * M + k)])) as Record<RepeatedMeasure, T>;
    conditions.set(key, {
      condition: { game, framing, opponent, opponent_params },
      matches: rows.filter((r) => conditionKey(r) === key).length,
      units: unitsPerCondition[c] as number,
      positions: positions[c] ?? null,
      point: measure((i) => point[i] ?? null),
      star: measure((i) => star[i] ?? null),
      mSmoothedVariance: smoothedMeanVariance(
        members(key).map((r) => r.comprehension_m),
        1,
        Math.max(...members(key).map((r) => r.rounds)) + 1,
      ),
    });
  });
  return { unit, conditions };
}

/**
 * The variance of the mean of `values` (each in [lo, hi]) with half a pseudo-value at each end of the
 * range added, the add-½ smoothing of a binary cell carried over to a bounded count: the smoothed mean
 * μ̃ = (Σx + (lo + hi)/2)/(n + 1), the smoothed variance s̃² = (Σ(x − μ̃)² + ((lo − μ̃)² + (hi − μ̃)²)/2)/n
 * (n + 1 values' worth, less one), and s̃²/n. Comprehension m has point masses at both ends (m = 1,
 * comprehension from the start; N + 1, never) and a long tail between: three or five matches that all
 * show m = 1, or all 15–17, have a sample variance near 0 that says nothing about the tail they missed.
 * With many matches the two pseudo-values weigh nothing.
 */
export function smoothedMeanVariance(values: readonly number[], lo: number, hi: number): number {
  const n = values.length;
  if (n === 0) return 0;
  const mean = (values.reduce((s, x) => s + x, 0) + (lo + hi) / 2) / (n + 1);
  const squares = values.reduce((s, x) => s + (x - mean) ** 2, 0) + ((lo - mean) ** 2 + (hi - mean) ** 2) / 2;
  return squares / n / n;
}
