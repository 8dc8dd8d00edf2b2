// Strategies that ignore the other player: the two constant PD-family strategies.

import { z } from "zod";
import { dilemmaActions, isDilemma, type OpponentStrategy } from "./strategy.js";

const noParams = z.object({}).strict();

export const alwaysCooperate: OpponentStrategy<z.infer<typeof noParams>> = {
  id: "always-cooperate",
  description: "Plays the cooperative action every round.",
  params: noParams,
  applies: isDilemma,
  move: (context) => dilemmaActions(context).cooperate,
};

export const alwaysDefect: OpponentStrategy<z.infer<typeof noParams>> = {
  id: "always-defect",
  description: "Plays the non-cooperative action every round.",
  params: noParams,
  applies: isDilemma,
  move: (context) => dilemmaActions(context).defect,
};
