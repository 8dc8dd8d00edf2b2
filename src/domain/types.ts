// Shared vocabulary of the domain and the analysis. Pure types: no I/O, no behaviour.

/** A canonical action id from the catalog (`cooperate`, `defect`, `rock`, ...). */
export type ActionId = string;

/** The four kinds of game variant (SPEC §1): the base game and its counterfactual siblings. */
export const VARIANT_IDS = ["base", "label", "payoff", "joint"] as const;
export type VariantId = (typeof VARIANT_IDS)[number];

/** Prompting styles a trial can be rendered in. */
export const PROMPT_STYLES = ["zero-shot", "chain-of-thought", "persona"] as const;
export type PromptStyle = (typeof PROMPT_STYLES)[number];

// A bimatrix stage game and a mixed strategy are game theory's shapes (defined below the domain).
export type { Distribution, StageGame } from "../game-theory/bimatrix.js";

/** Per-action counts of one cell. */
export type ActionCounts = Record<ActionId, number>;
