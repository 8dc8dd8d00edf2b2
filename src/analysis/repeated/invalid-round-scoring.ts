// How a round without a valid move is scored in the repeated-play metrics (SPEC §6). Two conventions:
//
// "loss" (ours, the default): a round in which the evaluated player had no valid move is a loss in
//   win/loss/tie, an unsuccessful round for comprehension, and counts in the failure rate; a round in which
//   only the opponent had none is judged by the recorded payoffs (0 for both).
//
// "counterfactual-study": as the code of the counterfactual study scores it (dimjimitris/llm_gm_thesis at
//   0282079d, chat/rps.py and chat/pd.py `_calculate_points` / `_generate_info`, and the tables of
//   analysis/analysis_3_rps.ipynb and analysis_3_pd.ipynb). A round is invalid there when either side has
//   no valid move (`valid_outcomes`); it scores 0 for both sides, so
//   - win/loss/tie: a tie (the study's rates are the sign of the player's points);
//   - failure rate: the share of invalid rounds of either side (the study's "valid rate" is 1 − this);
//   - comprehension s_r, RPS family (no cooperative action): a success, because the study's flag is
//     [x_r ≥ 0] on the recorded points;
//   - comprehension s_r, PD family: the study's flag is computed from the moves, not the points
//     (`optimal_move`): a missing own move is read as its second action "b", the non-cooperative one, so
//     s_r = [u1(b, o_r) ≥ u1(o_r, o_r)]; a missing opponent move makes the flag None, a failure.
// Total points, cooperation rate, efficiency and π̂ are the same under both (invalid rounds score 0, and the
// study's cooperation share is also over all rounds).

import type { ActionId, StageGame } from "../../domain/types.js";

export const INVALID_ROUND_SCORINGS = ["loss", "counterfactual-study"] as const;
export type InvalidRoundScoring = (typeof INVALID_ROUND_SCORINGS)[number];

/** What scoring an invalid round needs to know about the round. */
export interface ScoredRound {
  readonly move: ActionId | null;
  readonly opponent_move: ActionId | null;
}

/** Invalid under the study's convention: either side had no valid move. */
export function isInvalidOutcome(round: ScoredRound): boolean {
  return round.move === null || round.opponent_move === null;
}

/**
 * The study's comprehension flag for an invalid round (a round with a null move on either side), given how a
 * valid round is judged (`judge`, our rule on the payoffs a pair of moves earns).
 */
export function studyInvalidRoundSucceeded(
  round: ScoredRound,
  game: StageGame,
  cooperativeAction: ActionId | null,
  judge: (move: ActionId, opponentMove: ActionId) => boolean,
): boolean {
  if (cooperativeAction === null) return true;
  if (round.opponent_move === null) return false;
  const move = round.move ?? nonCooperativeAction(game, cooperativeAction);
  return judge(move, round.opponent_move);
}

/** The study's "b": the first listed action that is not the cooperative one. */
function nonCooperativeAction(game: StageGame, cooperativeAction: ActionId): ActionId {
  const other = game.actions.find((a) => a !== cooperativeAction);
  if (other === undefined) {
    throw new Error(`The game has no action other than the cooperative "${cooperativeAction}".`);
  }
  return other;
}
