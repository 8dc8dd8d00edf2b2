// A fixed cycle of moves, whatever the other player does.

import { z } from "zod";
import { assertGameAction, type OpponentStrategy } from "./strategy.js";

const patternParams = z.object({ cycle: z.array(z.string()).min(1) }).strict();

export const pattern: OpponentStrategy<z.infer<typeof patternParams>> = {
  id: "pattern",
  description: 'Repeats a fixed cycle of moves given as `cycle`, e.g. ["defect", "cooperate"] alternates.',
  params: patternParams,
  applies: () => true,
  move: (context, history) => {
    const { cycle } = context.params;
    for (const action of cycle) assertGameAction(context, action, "The pattern opponent's cycle");
    return cycle[history.length % cycle.length] as string;
  },
};
