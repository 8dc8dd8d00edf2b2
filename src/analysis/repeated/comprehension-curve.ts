// The comprehension curve behind m (SPEC §6): for every round i, the share of successful rounds from i to
// the end, (Σ_{j≥i} s_j)/(N − i + 1). m is the first i where the curve reaches the threshold; the report
// charts the whole curve, averaged over the matches of a cell, so a reader sees how play settles.

import type { ActionId, StageGame } from "../../domain/types.js";
import { normalQuantile } from "../sampling/normal-quantile.js";
import type { InvalidRoundScoring } from "./invalid-round-scoring.js";
import { type ComprehensionRule, type MatchTranscript, roundSucceeded } from "./repeated-metrics.js";

/** Suffix success shares of one match, index i − 1 for round i. */
export function comprehensionCurve(
  transcript: MatchTranscript,
  game: StageGame,
  rule: ComprehensionRule,
  invalidRounds: InvalidRoundScoring = "loss",
  cooperativeAction: ActionId | null = null,
): number[] {
  const successes = transcript.rounds.map((round) =>
    roundSucceeded(round, game, rule, invalidRounds, cooperativeAction),
  );
  const curve: number[] = new Array(successes.length);
  let suffix = 0;
  for (let i = successes.length; i >= 1; i--) {
    if (successes[i - 1]) suffix++;
    curve[i - 1] = suffix / (successes.length - i + 1);
  }
  return curve;
}

/** The round-by-round mean of curves of equal length (the matches of one cell share the game's N). */
export function meanCurve(curves: readonly (readonly number[])[]): number[] {
  const first = curves[0];
  if (first === undefined)
    throw new Error("Averaging comprehension curves needs at least one curve; got none.");
  if (curves.some((c) => c.length !== first.length)) {
    throw new Error(
      `Comprehension curves of one cell must share a length; got ${curves.map((c) => c.length).join(", ")}.`,
    );
  }
  return first.map((_, i) => curves.reduce((sum, c) => sum + (c[i] as number), 0) / curves.length);
}

/**
 * A pointwise interval for the cell's mean curve, round by round: mean ± z·s/√n over the n matches (normal
 * approximation, s the sample standard deviation), clipped to [0, 1]. Null with fewer than two matches:
 * one match has no spread to show.
 */
export function curveBand(
  curves: readonly (readonly number[])[],
  confidence = 0.95,
): [number, number][] | null {
  if (curves.length < 2) return null;
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const n = curves.length;
  return meanCurve(curves).map((mean, i) => {
    const variance = curves.reduce((sum, c) => sum + ((c[i] as number) - mean) ** 2, 0) / (n - 1);
    const half = (z * Math.sqrt(variance)) / Math.sqrt(n);
    return [Math.max(0, mean - half), Math.min(1, mean + half)];
  });
}
