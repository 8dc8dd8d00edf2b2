// The two shapes game theory needs, defined here (below the domain) so this folder imports nothing above it.
// The domain re-exports them as its own vocabulary (`domain/types.ts`).

/**
 * A two-player bimatrix stage game. `u1[i][j]` is the row player's payoff and `u2[i][j]` the column
 * player's when the row player plays `actions[i]` and the column player plays `actions[j]`.
 * Catalog games are symmetric (`u2[i][j] = u1[j][i]`), but the analysis accepts any bimatrix game.
 */
export interface StageGame {
  readonly actions: readonly string[];
  readonly u1: readonly (readonly number[])[];
  readonly u2: readonly (readonly number[])[];
}

/** A distribution or mixed strategy over actions: `{ action_id: probability }`. */
export type Distribution = Record<string, number>;
