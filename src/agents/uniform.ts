import { randomIndex } from "../domain/rng.js";
import type { ReferenceAgent } from "./agent.js";

/** Picks uniformly among the listed labels: robust (nothing moves it) yet payoff-blind (λ ≈ 0). */
export const uniformAgent: ReferenceAgent = {
  name: "uniform",
  description: "chooses uniformly at random among the listed labels",
  choose(context, rng) {
    return context.labels[randomIndex(rng, context.labels.length)] as string;
  },
};
