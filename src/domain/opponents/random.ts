// Play that ignores history: every move drawn independently, uniformly or with given probabilities.

import { z } from "zod";
import type { Distribution } from "../types.js";
import { assertGameAction, drawAction, type OpponentGame, type OpponentStrategy } from "./strategy.js";

const randomParams = z
  .object({
    /** `{ action_id: probability }`; absent means uniform over the game's actions. */
    probabilities: z.record(z.string(), z.number().min(0)).optional(),
  })
  .strict();

export const random: OpponentStrategy<z.infer<typeof randomParams>> = {
  id: "random",
  description: "Draws every move independently: uniformly, or from the given `probabilities`.",
  params: randomParams,
  applies: () => true,
  move: (context, _history, rng) =>
    drawAction(context.stage.actions, probabilityVector(context, context.params.probabilities), rng),
};

function probabilityVector(game: OpponentGame, probabilities: Distribution | undefined): number[] {
  const { actions } = game.stage;
  if (probabilities === undefined) return actions.map(() => 1 / actions.length);
  for (const action of Object.keys(probabilities)) {
    assertGameAction(game, action, "The random opponent's probabilities");
  }
  const vector = actions.map((a) => probabilities[a] ?? 0);
  const sum = vector.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-9) {
    throw new Error(`The random opponent's probabilities sum to ${sum}; they must sum to 1.`);
  }
  return vector;
}
