// Drives an opponent the way the engine will: one stateless call per round, with a generator derived
// from the match seed and the round number, against a scripted sequence of the other player's moves.

import { type OpponentGame, opponentMove } from "../../src/domain/opponents/index.js";
import { createRng } from "../../src/domain/rng.js";
import type { ActionId, StageGame } from "../../src/domain/types.js";

/** The opponent's moves in rounds 1 … k+1 against the other player's moves in rounds 1 … k. */
export function movesAgainst(
  id: string,
  game: OpponentGame,
  other: readonly (ActionId | null)[],
  options: { params?: unknown; seed?: string } = {},
): ActionId[] {
  const seed = options.seed ?? "test";
  const history: { own: ActionId; other: ActionId | null }[] = [];
  const moves: ActionId[] = [];
  for (let round = 1; round <= other.length + 1; round++) {
    const move = opponentMove(id, options.params, game, history, createRng(`${seed}:opponent:${round}`));
    moves.push(move);
    if (round <= other.length) history.push({ own: move, other: other[round - 1] ?? null });
  }
  return moves;
}

export function dilemmaGame(stage: StageGame): OpponentGame {
  return { stage, cooperativeAction: "cooperate" };
}

export function plainGame(stage: StageGame): OpponentGame {
  return { stage, cooperativeAction: null };
}
