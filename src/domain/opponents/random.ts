// Play that ignores history: every move drawn independently, uniformly or with given probabilities.

import { z } from "zod";
import type { Distribution } from "../types.js";
import { assertGameAction, drawAction, type OpponentGame, type OpponentStrategy } from "./strategy.js";

const randomParams = z
  .object({
    /** `{ action_id: probability }`; absent means uniform over the game's actions. The values are checked
     * against the game by checkProbabilities, which can name the valid actions. */
    probabilities: z.record(z.string(), z.number()).optional(),
  })
  .strict();

/** How far from 1 the probabilities may sum: room for decimal fractions such as 0.1 + 0.2 + 0.7. */
const SUM_TOLERANCE = 1e-9;

export const random: OpponentStrategy<z.infer<typeof randomParams>> = {
  id: "random",
  description: "Draws every move independently: uniformly, or from the given `probabilities`.",
  params: randomParams,
  applies: () => true,
  checkParams: (params, game) => {
    if (params.probabilities !== undefined) checkProbabilities(game, params.probabilities);
  },
  move: (context, _history, rng) =>
    drawAction(context.stage.actions, probabilityVector(context, context.params.probabilities), rng),
};

/** Throws unless `probabilities` is a distribution over the game's actions: known keys, none negative, sum 1. */
function checkProbabilities(game: OpponentGame, probabilities: Distribution): void {
  const { actions } = game.stage;
  for (const [action, p] of Object.entries(probabilities)) {
    assertGameAction(game, action, "The random opponent's probabilities");
    if (p < 0) {
      throw new Error(
        `The random opponent's probability of ${action} is ${p}; each must be between 0 and 1, over ${actions.join(", ")}.`,
      );
    }
  }
  const sum = Object.values(probabilities).reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE) {
    throw new Error(
      `The random opponent's probabilities ${JSON.stringify(probabilities)} sum to ${Number(sum.toPrecision(12))}; they must sum to 1 over ${actions.join(", ")} (an action left out has probability 0).`,
    );
  }
}

function probabilityVector(game: OpponentGame, probabilities: Distribution | undefined): number[] {
  const { actions } = game.stage;
  if (probabilities === undefined) return actions.map(() => 1 / actions.length);
  checkProbabilities(game, probabilities);
  return actions.map((a) => probabilities[a] ?? 0);
}
