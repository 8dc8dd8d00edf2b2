// A fixed cycle of moves, whatever the other player does.

import { z } from "zod";
import { assertGameAction, type OpponentGame, type OpponentStrategy } from "./strategy.js";

const patternParams = z.object({ cycle: z.array(z.string()).min(1) }).strict();

export const pattern: OpponentStrategy<z.infer<typeof patternParams>> = {
  id: "pattern",
  description: 'Repeats a fixed cycle of moves given as `cycle`, e.g. ["defect", "cooperate"] alternates.',
  params: patternParams,
  applies: () => true,
  checkParams: (params, game) => checkCycle(game, params.cycle),
  move: (context, history) => {
    const { cycle } = context.params;
    checkCycle(context, cycle);
    return cycle[history.length % cycle.length] as string;
  },
};

// The cycle names the game's actions, never the labels a framing shows the agent ("Cooperate", "Circle").
function checkCycle(game: OpponentGame, cycle: readonly string[]): void {
  for (const action of cycle) assertGameAction(game, action, "The pattern opponent's cycle");
}
