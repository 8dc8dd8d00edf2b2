// Repeated-play metrics (SPEC §6): per match, then mean and sample standard deviation over the matches
// of one (player, game, variant, framing, opponent).
//
// Invalid rounds. A round in which the player had no valid move (`move: null`) is a failure wherever a
// judgement is made: it is a loss in win/loss/tie, an unsuccessful round for comprehension, and not a
// cooperative round. Rates are shares of all N rounds, except `action_distribution`, which is the
// empirical distribution π̂ over the player's valid moves (SPEC §4), as the equilibrium deviation needs:
// a match without a valid move has none (null), and a cell's mean distribution is over the matches that
// have one, so it sums to 1 (an all-zero vector in its mean would make it sum to less).
// A round in which only the opponent had no valid move (a forfeit in agent-vs-agent play) is judged by
// the recorded payoffs; for comprehension it is a success when x_r ≥ y_r (there is no move to match).
// `invalidRounds: "counterfactual-study"` scores invalid rounds as that study's code does instead
// (invalid-round-scoring.ts).

import type { ActionId, Distribution, StageGame } from "../../domain/types.js";
import {
  type InvalidRoundScoring,
  isInvalidOutcome,
  studyInvalidRoundSucceeded,
} from "./invalid-round-scoring.js";

export interface TranscriptRound {
  /** The evaluated player's canonical action; null when the round ended without a valid move. */
  readonly move: ActionId | null;
  readonly opponent_move: ActionId | null;
  readonly payoff: number;
  readonly opponent_payoff: number;
  /** Every token spent on the round (all attempts); null or absent when unknown. */
  readonly tokens?: number | null;
  /** Replies that could not be parsed before the round was settled. */
  readonly invalid_attempts?: number;
}

export interface MatchTranscript {
  readonly rounds: readonly TranscriptRound[];
}

/** "match": s_r = [x_r ≥ u1(o_r, o_r)]; "beat": s_r = [x_r ≥ y_r]. */
export type ComprehensionRule = "match" | "beat";

export interface ComprehensionOptions {
  readonly rule?: ComprehensionRule;
  /** Share of successful rounds from m on; default 0.9. */
  readonly threshold?: number;
  /** How rounds without a valid move are scored; default "loss". */
  readonly invalidRounds?: InvalidRoundScoring;
}

export interface WinLossTie {
  readonly win: number;
  readonly loss: number;
  readonly tie: number;
}

export interface MatchMetrics {
  readonly rounds: number;
  readonly total_points: number;
  /** Share of rounds with the cooperative action; null when the game has none. */
  readonly cooperation_rate: number | null;
  /** π̂ over the valid moves; null when no move was valid (there is nothing to take shares of). */
  readonly action_distribution: Distribution | null;
  readonly win_loss_tie: WinLossTie;
  /** m of SPEC §6, 1-based; `rounds + 1` means "never". */
  readonly comprehension_round: number;
  readonly comprehension_rule: ComprehensionRule;
  readonly comprehension_threshold: number;
  /** Share of rounds without a valid move (of the player; of either side under "counterfactual-study"). */
  readonly failure_rate: number;
  readonly invalid_attempts: number;
  /** total_points / max_r tokens_r × 1000; null when any round's tokens are unknown. */
  readonly efficiency: number | null;
}

export interface Summary {
  readonly mean: number;
  /** Sample standard deviation (n − 1); null for a single value. */
  readonly sd: number | null;
  /** How many matches the summary is over. */
  readonly n: number;
}

export interface AggregateMatchMetrics {
  readonly matches: number;
  readonly total_points: Summary;
  readonly cooperation_rate: Summary | null;
  /**
   * Per action, over the matches with a valid move (their count is each summary's n, which may be below
   * `matches`); null when no match of the cell has one.
   */
  readonly action_distribution: Record<ActionId, Summary> | null;
  readonly win_loss_tie: { readonly win: Summary; readonly loss: Summary; readonly tie: Summary };
  readonly comprehension_round: Summary;
  readonly failure_rate: Summary;
  readonly invalid_attempts: Summary;
  /** Over the matches whose efficiency is known; null when none is. */
  readonly efficiency: Summary | null;
}

export const DEFAULT_COMPREHENSION_THRESHOLD = 0.9;

/** Metrics of one match. `cooperativeAction` is null for games outside the PD family. */
export function matchMetrics(
  transcript: MatchTranscript,
  game: StageGame,
  cooperativeAction: ActionId | null,
  options: ComprehensionOptions = {},
): MatchMetrics {
  const rule = options.rule ?? "match";
  const threshold = options.threshold ?? DEFAULT_COMPREHENSION_THRESHOLD;
  const invalidRounds = options.invalidRounds ?? "loss";
  if (!(threshold > 0 && threshold <= 1)) {
    throw new Error(`Comprehension threshold ${threshold} is outside (0, 1].`);
  }
  const { rounds } = transcript;
  const n = rounds.length;
  if (n === 0) throw new Error("A match transcript needs at least one round; this one has none.");
  rounds.forEach((round, r) => {
    assertAction(game, round.move, r);
    assertAction(game, round.opponent_move, r);
  });
  if (cooperativeAction !== null) assertAction(game, cooperativeAction, null);

  const valid = rounds.flatMap((round) => (round.move === null ? [] : [round.move]));
  const tokens = rounds.map((round) => round.tokens ?? null);
  const totalPoints = rounds.reduce((sum, round) => sum + round.payoff, 0);
  const maxTokens = tokens.every((t): t is number => t !== null) ? Math.max(...tokens) : null;
  const study = invalidRounds === "counterfactual-study";
  // Under the study's convention a round with a missing move on either side is a 0–0 tie.
  const tie = (round: TranscriptRound) => study && isInvalidOutcome(round);
  const failed = (round: TranscriptRound) => (study ? isInvalidOutcome(round) : round.move === null);

  return {
    rounds: n,
    total_points: totalPoints,
    cooperation_rate:
      cooperativeAction === null
        ? null
        : rounds.filter((round) => round.move === cooperativeAction).length / n,
    action_distribution:
      valid.length === 0
        ? null
        : Object.fromEntries(
            game.actions.map((a) => [a, valid.filter((m) => m === a).length / valid.length]),
          ),
    win_loss_tie: {
      win:
        rounds.filter((round) => !tie(round) && round.move !== null && round.payoff > round.opponent_payoff)
          .length / n,
      loss:
        rounds.filter((round) => !tie(round) && (round.move === null || round.payoff < round.opponent_payoff))
          .length / n,
      tie:
        rounds.filter(
          (round) => tie(round) || (round.move !== null && round.payoff === round.opponent_payoff),
        ).length / n,
    },
    comprehension_round: comprehensionRound(
      rounds.map((round) => roundSucceeded(round, game, rule, invalidRounds, cooperativeAction)),
      threshold,
    ),
    comprehension_rule: rule,
    comprehension_threshold: threshold,
    failure_rate: rounds.filter(failed).length / n,
    invalid_attempts: rounds.reduce((sum, round) => sum + (round.invalid_attempts ?? 0), 0),
    efficiency: maxTokens === null || maxTokens <= 0 ? null : (totalPoints / maxTokens) * 1000,
  };
}

/**
 * m = the smallest 1-based round i with (Σ_{j≥i} s_j)/(N − i + 1) ≥ t, or N + 1 when there is none.
 * The suffix shares are compared with a 1e-12 allowance so that, e.g., 9 of 10 meets t = 0.9 exactly.
 */
export function comprehensionRound(successes: readonly boolean[], threshold: number): number {
  const n = successes.length;
  let suffixSuccesses = 0;
  let m = n + 1;
  // Walk backwards so every suffix share is computed once; the last qualifying i seen is the smallest.
  for (let i = n; i >= 1; i--) {
    if (successes[i - 1]) suffixSuccesses++;
    if (suffixSuccesses / (n - i + 1) >= threshold - 1e-12) m = i;
  }
  return m;
}

/** Means and sample standard deviations of per-match metrics. */
export function aggregateMatchMetrics(matches: readonly MatchMetrics[]): AggregateMatchMetrics {
  if (matches.length === 0)
    throw new Error("Aggregating repeated-play metrics needs at least one match; got none.");
  const distributions = matches.flatMap((m) =>
    m.action_distribution === null ? [] : [m.action_distribution],
  );
  const cooperation = matches.flatMap((m) => (m.cooperation_rate === null ? [] : [m.cooperation_rate]));
  const efficiency = matches.flatMap((m) => (m.efficiency === null ? [] : [m.efficiency]));
  return {
    matches: matches.length,
    total_points: summarize(matches.map((m) => m.total_points)),
    cooperation_rate: cooperation.length === 0 ? null : summarize(cooperation),
    action_distribution:
      distributions.length === 0
        ? null
        : Object.fromEntries(
            Object.keys(distributions[0] as Distribution).map((a) => [
              a,
              summarize(distributions.map((d) => d[a] ?? 0)),
            ]),
          ),
    win_loss_tie: {
      win: summarize(matches.map((m) => m.win_loss_tie.win)),
      loss: summarize(matches.map((m) => m.win_loss_tie.loss)),
      tie: summarize(matches.map((m) => m.win_loss_tie.tie)),
    },
    comprehension_round: summarize(matches.map((m) => m.comprehension_round)),
    failure_rate: summarize(matches.map((m) => m.failure_rate)),
    invalid_attempts: summarize(matches.map((m) => m.invalid_attempts)),
    efficiency: efficiency.length === 0 ? null : summarize(efficiency),
  };
}

/** Mean and sample standard deviation (n − 1). */
export function summarize(values: readonly number[]): Summary {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, sd: null, n };
  const squares = values.reduce((sum, v) => sum + (v - mean) ** 2, 0);
  return { mean, sd: Math.sqrt(squares / (n - 1)), n };
}

/** s_r; `cooperativeAction` (null outside the PD family) only matters under "counterfactual-study". */
export function roundSucceeded(
  round: TranscriptRound,
  game: StageGame,
  rule: ComprehensionRule,
  invalidRounds: InvalidRoundScoring = "loss",
  cooperativeAction: ActionId | null = null,
): boolean {
  if (invalidRounds === "counterfactual-study" && isInvalidOutcome(round)) {
    return studyInvalidRoundSucceeded(round, game, cooperativeAction, (move, opponentMove) =>
      movesSucceed(game, rule, move, opponentMove),
    );
  }
  if (round.move === null) return false;
  if (rule === "beat" || round.opponent_move === null) return round.payoff >= round.opponent_payoff;
  const o = game.actions.indexOf(round.opponent_move);
  return round.payoff >= ((game.u1[o] as readonly number[])[o] as number);
}

/** The rule applied to the payoffs the stage game gives a pair of moves. */
function movesSucceed(game: StageGame, rule: ComprehensionRule, move: ActionId, opponentMove: ActionId) {
  const i = game.actions.indexOf(move);
  const j = game.actions.indexOf(opponentMove);
  const x = (game.u1[i] as readonly number[])[j] as number;
  const bar = rule === "beat" ? (game.u2[i] as readonly number[])[j] : (game.u1[j] as readonly number[])[j];
  return x >= (bar as number);
}

function assertAction(game: StageGame, action: ActionId | null, roundIndex: number | null): void {
  if (action === null || game.actions.includes(action)) return;
  const where = roundIndex === null ? "The cooperative action" : `Round ${roundIndex + 1}`;
  throw new Error(`${where} names action "${action}", which is not one of ${game.actions.join(", ")}.`);
}
