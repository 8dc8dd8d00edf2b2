import type { ReferenceAgent } from "./agent.js";
import { bestResponseToUniform, mutualBestLabel, otherMoveIn, readOwnPayoffs } from "./prompt-reading.js";

/**
 * Plays the payoffs and nothing else. One-shot: the best response to a uniform belief (q = ½ in a
 * two-action game). Repeated: tit-for-tat — the mutually best move first, then the other's last move.
 * The story cannot move it, so its robustness R must come out ≈ 1 in every game.
 */
export const payoffReader: ReferenceAgent = {
  name: "payoff-reader",
  description: "reads the payoffs; best response to a ½ belief one-shot, tit-for-tat when repeated",
  choose(context) {
    const table = readOwnPayoffs(context.prompt, context.labels);
    if (context.rounds === 1) return bestResponseToUniform(table, context.labels);
    const copied =
      context.previousOutcome === null ? null : otherMoveIn(context.previousOutcome, context.labels);
    return copied ?? mutualBestLabel(table, context.labels);
  },
};
