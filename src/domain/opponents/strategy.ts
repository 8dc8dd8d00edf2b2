// The shape every algorithmic opponent shares (SPEC §7). A strategy is a stateless function of the game,
// its parameters, the history so far and a generator the engine derives for this round alone (e.g.
// createRng(`${seed}:opponent:${round}`)): replaying a match's history therefore reproduces every move,
// which is how a restarted server resumes a match.

import type { z } from "zod";
import type { Rng } from "../rng.js";
import type { ActionId, StageGame } from "../types.js";

/** The game as the opponent sees it: `stage` has the opponent as the ROW player. */
export interface OpponentGame {
  readonly stage: StageGame;
  /** The cooperative action of PD-family games; null elsewhere. */
  readonly cooperativeAction: ActionId | null;
}

export interface OpponentContext<P> extends OpponentGame {
  readonly params: P;
}

/** One past round from the opponent's perspective; null = no valid move that round (invalid or forfeited). */
export interface HistoryRound {
  readonly own: ActionId | null;
  readonly other: ActionId | null;
}

export type OpponentHistory = readonly HistoryRound[];

export interface OpponentStrategy<P> {
  readonly id: string;
  readonly description: string;
  readonly params: z.ZodType<P>;
  applies(game: OpponentGame): boolean;
  /**
   * Throws, naming the bad value and the valid ones, when params the schema accepts could still never be
   * played in this game (an action the game does not have, probabilities that are no distribution over its
   * actions). Absent when the schema alone decides.
   */
  checkParams?(params: P, game: OpponentGame): void;
  move(context: OpponentContext<P>, history: OpponentHistory, rng: Rng): ActionId;
}

/** The two actions of a PD-family game: a cooperative action and exactly one other. */
export interface DilemmaActions {
  readonly cooperate: ActionId;
  readonly defect: ActionId;
}

/** Whether the game has a cooperative action and exactly one other action. */
export function isDilemma(game: OpponentGame): boolean {
  return (
    game.cooperativeAction !== null &&
    game.stage.actions.length === 2 &&
    game.stage.actions.includes(game.cooperativeAction)
  );
}

export function dilemmaActions(game: OpponentGame): DilemmaActions {
  const cooperate = game.cooperativeAction;
  if (cooperate === null || !isDilemma(game)) {
    throw new Error(
      `This strategy needs a cooperative action and one other action, but the game has actions ${game.stage.actions.join(", ")} and cooperative action ${cooperate ?? "none"}.`,
    );
  }
  const defect = game.stage.actions.find((a) => a !== cooperate) as ActionId;
  return { cooperate, defect };
}

/** Draws an action from probabilities given in the game's action order. */
export function drawAction(
  actions: readonly ActionId[],
  probabilities: readonly number[],
  rng: Rng,
): ActionId {
  const u = rng();
  let cumulative = 0;
  for (let i = 0; i < actions.length; i++) {
    cumulative += probabilities[i] as number;
    if (u < cumulative) return actions[i] as ActionId;
  }
  // Rounding can leave the cumulative sum a hair below 1: the draw then belongs to the last positive action.
  const last = probabilities.findLastIndex((p) => p > 0);
  return actions[last] as ActionId;
}

/** Throws when an action named in a strategy's parameters is not one of the game's. */
export function assertGameAction(game: OpponentGame, action: ActionId, where: string): void {
  if (!game.stage.actions.includes(action)) {
    throw new Error(`${where} names "${action}", which is not one of ${game.stage.actions.join(", ")}.`);
  }
}
