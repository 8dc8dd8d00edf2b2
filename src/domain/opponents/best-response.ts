// Strategies that best-respond, by their own payoffs, to a summary of the other player's past moves
// (the counterfactual study's "TFT" and "MF"/"AP"). Because they read the stage game's payoffs they
// follow a payoff counterfactual: under the repeated-pd payoffs best-response-last defects after round 1,
// under its stag-hunt counterfactual it copies the other player's last move.
//
// Null moves (the other player had no valid move) carry no information about what to respond to, so they
// are skipped: best-response-last answers the most recent valid move, best-response-majority counts valid
// moves only; with no valid move yet, both play as in round 1 (uniformly at random).

import { z } from "zod";
import { randomIndex } from "../rng.js";
import type { ActionId, StageGame } from "../types.js";
import type { OpponentHistory, OpponentStrategy } from "./strategy.js";

const noParams = z.object({}).strict();

export const bestResponseLast: OpponentStrategy<z.infer<typeof noParams>> = {
  id: "best-response-last",
  description:
    "Plays uniformly at random in round 1, then the best response (by its own payoff) to the other player's previous move.",
  params: noParams,
  applies: () => true,
  move: (context, history, rng) => {
    const moves = otherValidMoves(history);
    const last = moves.at(-1);
    return last === undefined ? uniformMove(context.stage, rng) : bestResponse(context.stage, last);
  },
};

export const bestResponseMajority: OpponentStrategy<z.infer<typeof noParams>> = {
  id: "best-response-majority",
  description:
    "Plays uniformly at random in round 1, then the best response (by its own payoff) to the other player's most frequent move so far; ties go to the first action in catalog order.",
  params: noParams,
  applies: () => true,
  move: (context, history, rng) => {
    const moves = otherValidMoves(history);
    if (moves.length === 0) return uniformMove(context.stage, rng);
    const { actions } = context.stage;
    const counts = actions.map((a) => moves.filter((m) => m === a).length);
    // indexOf(max) is the first action in catalog order among equally frequent ones.
    return bestResponse(context.stage, actions[counts.indexOf(Math.max(...counts))] as ActionId);
  },
};

/** The row player's best response to a pure move of the column player; ties: first in catalog order. */
export function bestResponse(stage: StageGame, other: ActionId): ActionId {
  const j = stage.actions.indexOf(other);
  const payoffs = stage.u1.map((row) => row[j] as number);
  return stage.actions[payoffs.indexOf(Math.max(...payoffs))] as ActionId;
}

function uniformMove(stage: StageGame, rng: () => number): ActionId {
  return stage.actions[randomIndex(rng, stage.actions.length)] as ActionId;
}

function otherValidMoves(history: OpponentHistory): ActionId[] {
  return history.flatMap((round) => (round.other === null ? [] : [round.other]));
}
