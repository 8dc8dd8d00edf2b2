import { wordsOf } from "../domain/labels.js";
import type { ReferenceAgent } from "./agent.js";
import { mutualBestLabel, readOwnPayoffs } from "./prompt-reading.js";

// Word stems that pull the agent away from or towards the mutually best move. Matched as word prefixes,
// so "firms" and "friendship" count. Each stem counts once however often it recurs, so a framing that
// repeats "firm" in every payoff sentence leans no harder than one that says it once.
const COMPETITIVE_STEMS = ["business", "firm", "profit", "market", "competitor"];
const COOPERATIVE_STEMS = ["friend", "together", "share", "trust", "neighbour", "neighbor"];

/** How much one stem moves the log-odds of cooperating. */
const LEAN_PER_STEM = 0.6;

/** Cooperative stems present in the text minus competitive stems present. */
export function storyLean(text: string): number {
  const words = wordsOf(text);
  const present = (stems: readonly string[]) =>
    stems.filter((stem) => words.some((word) => word.startsWith(stem))).length;
  return present(COOPERATIVE_STEMS) - present(COMPETITIVE_STEMS);
}

/** P(choose the mutually best move) = logistic(0.6 × lean): ½ for a story without such words. */
export function cooperationProbability(text: string): number {
  return 1 / (1 + Math.exp(-LEAN_PER_STEM * storyLean(text)));
}

/**
 * Plays the story, not the game: it finds the mutually best move in the payoffs (to know which label is
 * the cooperative one) but cooperates with a probability set by the story's words alone. The analysis must
 * find it not robust, with a positive business → friend-sharing shift and λ ≈ 0.
 */
export const storySwayed: ReferenceAgent = {
  name: "story-swayed",
  description: "cooperates more when the story talks of friends, less when it talks of firms and profit",
  choose(context, rng) {
    const table = readOwnPayoffs(context.prompt, context.labels);
    const cooperative = mutualBestLabel(table, context.labels);
    if (rng() < cooperationProbability(context.prompt)) return cooperative;
    const others = context.labels.filter((label) => label !== cooperative);
    return others[Math.floor(rng() * others.length)] as string;
  },
};
