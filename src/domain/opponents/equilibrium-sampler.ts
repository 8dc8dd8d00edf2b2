// The counterfactual study's SREP: play the stage game's equilibrium strategy every round.

import { z } from "zod";
import { nashEquilibria } from "../../game-theory/equilibria.js";
import type { ActionId, StageGame } from "../types.js";
import { drawAction, type OpponentGame, type OpponentStrategy } from "./strategy.js";

const noParams = z.object({}).strict();

export const equilibriumSampler: OpponentStrategy<z.infer<typeof noParams>> = {
  id: "equilibrium-sampler",
  description:
    "Each round draws from the stage game's completely mixed equilibrium if it has one, else plays its unique pure equilibrium.",
  params: noParams,
  applies: (game) => equilibriumToPlay(game.stage) !== null,
  move: (context, _history, rng) => {
    const strategy = equilibriumToPlay(context.stage);
    if (strategy === null) throw new Error(noEquilibriumMessage(context));
    return drawAction(context.stage.actions, strategy, rng);
  },
};

/**
 * The opponent's (row) equilibrium strategy as probabilities in action order: the first completely mixed
 * equilibrium (both players use every action) if any, else the only pure equilibrium; null otherwise.
 */
function equilibriumToPlay(stage: StageGame): number[] | null {
  const key = JSON.stringify([stage.actions, stage.u1, stage.u2]);
  if (solved.has(key)) return solved.get(key) ?? null;
  const strategy = solveEquilibriumToPlay(stage);
  if (solved.size >= MAX_SOLVED) solved.clear();
  solved.set(key, strategy);
  return strategy;
}

/**
 * Solved once per distinct stage game: every start_match asks each opponent whether it applies, and support
 * enumeration is the costliest part of that question (the catalog has a few dozen games; a bound keeps a
 * stream of user games from growing it without end).
 */
const solved = new Map<string, number[] | null>();
const MAX_SOLVED = 1024;

function solveEquilibriumToPlay(stage: StageGame): number[] | null {
  const { equilibria } = nashEquilibria(stage);
  const fullSupport = (d: Record<ActionId, number>) => stage.actions.every((a) => (d[a] ?? 0) > 0);
  const mixed = equilibria.find((e) => fullSupport(e.row) && fullSupport(e.column));
  const pure = equilibria.filter((e) => e.kind === "pure");
  const chosen = mixed ?? (pure.length === 1 ? pure[0] : undefined);
  return chosen === undefined ? null : stage.actions.map((a) => chosen.row[a] ?? 0);
}

function noEquilibriumMessage(game: OpponentGame): string {
  return `The equilibrium-sampler needs a completely mixed or a unique pure equilibrium, and the game with actions ${game.stage.actions.join(", ")} has neither.`;
}
