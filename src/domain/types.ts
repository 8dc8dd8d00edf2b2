// Shared vocabulary of the domain and the analysis. Pure types: no I/O, no behaviour.

/** A canonical action id from the catalog (`cooperate`, `defect`, `rock`, ...). */
export type ActionId = string;

/** The four kinds of game variant (SPEC §1): the base game and its counterfactual siblings. */
export const VARIANT_IDS = ["base", "label", "payoff", "joint"] as const;
export type VariantId = (typeof VARIANT_IDS)[number];

/** Prompting styles a trial can be rendered in. */
export const PROMPT_STYLES = ["zero-shot", "chain-of-thought", "persona"] as const;
export type PromptStyle = (typeof PROMPT_STYLES)[number];

/**
 * A two-player bimatrix stage game. `u1[i][j]` is the row player's payoff and `u2[i][j]` the column
 * player's when the row player plays `actions[i]` and the column player plays `actions[j]`.
 * Catalog games are symmetric (`u2[i][j] = u1[j][i]`), but the analysis accepts any bimatrix game.
 */
export interface StageGame {
  readonly actions: readonly ActionId[];
  readonly u1: readonly (readonly number[])[];
  readonly u2: readonly (readonly number[])[];
}

/** A distribution or mixed strategy over actions: `{ action_id: probability }`. */
export type Distribution = Record<ActionId, number>;

/** Per-action counts of one cell. */
export type ActionCounts = Record<ActionId, number>;
