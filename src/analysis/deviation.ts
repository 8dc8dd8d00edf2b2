// How far a cell's play sits from equilibrium (SPEC §5): distance from the player's empirical
// distribution π̂ (as the row player) to the nearest equilibrium strategy, and how much an opponent who
// knows π̂ could gain over that equilibrium. For payoff counterfactuals the same numbers are reported
// against the base game too: play that stays nearer the base game's equilibrium than the variant's is
// the "template persistence" signature.

import type { Distribution, StageGame } from "../domain/types.js";
import { jensenShannon } from "./divergence.js";
import { EQUILIBRIUM_TOLERANCE, type Equilibrium, nashEquilibria, toVector } from "./equilibria.js";

export interface Exploitability {
  /** max_j Σ_i π̂(i)·u2(i, j): what a best-responding column player earns against π̂. */
  readonly opponent_best_response_payoff: number;
  /** The column player's payoff at the nearest equilibrium. */
  readonly opponent_equilibrium_payoff: number;
  /** Best-response payoff minus equilibrium payoff, in payoff units. */
  readonly raw: number;
  /** `raw / (max u1 − min u1)`; null for a game whose payoffs are all equal. */
  readonly normalized: number | null;
}

export interface EquilibriumDeviation {
  readonly distribution: Distribution;
  readonly nearest_equilibrium: Equilibrium;
  /** The row strategy of `nearest_equilibrium`, the point π̂ is compared with. */
  readonly equilibrium_strategy: Distribution;
  readonly total_variation: number;
  /** Jensen–Shannon divergence to the equilibrium strategy, natural log. */
  readonly jsd: number;
  readonly exploitability: Exploitability;
  readonly degenerate: boolean;
  readonly note: string | null;
}

export interface CounterfactualDeviation {
  readonly variant: EquilibriumDeviation;
  readonly base: EquilibriumDeviation;
  /** True when π̂ is strictly nearer (total variation) the base game's equilibria than the variant's. */
  readonly template_persistence: boolean;
}

/**
 * Distance from π̂ to the nearest equilibrium strategy of the row player (by total variation; ties by
 * JSD, then the equilibria's listed order) and the exploitability of π̂ relative to that equilibrium.
 * In a degenerate game the candidates are the extreme equilibria, and the note says so.
 */
export function equilibriumDeviation(game: StageGame, distribution: Distribution): EquilibriumDeviation {
  const p = validatedVector(game, distribution);
  const { equilibria, degenerate, note } = nashEquilibria(game);
  const scored = equilibria.map((equilibrium) => {
    const q = toVector(game, equilibrium.row);
    return { equilibrium, totalVariation: totalVariation(p, q), jsd: jensenShannon(p, q) };
  });
  const nearest = scored.reduce((best, candidate) =>
    candidate.totalVariation < best.totalVariation - EQUILIBRIUM_TOLERANCE ||
    (Math.abs(candidate.totalVariation - best.totalVariation) <= EQUILIBRIUM_TOLERANCE &&
      candidate.jsd < best.jsd)
      ? candidate
      : best,
  );
  const bestResponsePayoff = Math.max(
    ...game.actions.map((_, j) => p.reduce((sum, pi, i) => sum + pi * (game.u2[i]?.[j] as number), 0)),
  );
  const equilibriumPayoff = nearest.equilibrium.payoffs.column;
  const payoffs = game.u1.flat();
  const range = Math.max(...payoffs) - Math.min(...payoffs);
  const raw = bestResponsePayoff - equilibriumPayoff;
  return {
    distribution,
    nearest_equilibrium: nearest.equilibrium,
    equilibrium_strategy: nearest.equilibrium.row,
    total_variation: nearest.totalVariation,
    jsd: nearest.jsd,
    exploitability: {
      opponent_best_response_payoff: bestResponsePayoff,
      opponent_equilibrium_payoff: equilibriumPayoff,
      raw,
      normalized: range > 0 ? raw / range : null,
    },
    degenerate,
    note,
  };
}

/** The deviation of π̂ from a payoff counterfactual's equilibria and from its base game's, side by side. */
export function counterfactualDeviation(
  variant: StageGame,
  base: StageGame,
  distribution: Distribution,
): CounterfactualDeviation {
  if (variant.actions.join("\n") !== base.actions.join("\n")) {
    throw new Error(
      `A payoff counterfactual keeps the base game's actions (${base.actions.join(", ")}), but the variant has ${variant.actions.join(", ")}.`,
    );
  }
  const variantDeviation = equilibriumDeviation(variant, distribution);
  const baseDeviation = equilibriumDeviation(base, distribution);
  return {
    variant: variantDeviation,
    base: baseDeviation,
    template_persistence:
      baseDeviation.total_variation < variantDeviation.total_variation - EQUILIBRIUM_TOLERANCE,
  };
}

/** Total variation distance ½ Σ |p − q|. */
export function totalVariation(p: readonly number[], q: readonly number[]): number {
  return p.reduce((sum, pi, i) => sum + Math.abs(pi - (q[i] as number)), 0) / 2;
}

function validatedVector(game: StageGame, distribution: Distribution): number[] {
  for (const [action, probability] of Object.entries(distribution)) {
    if (!game.actions.includes(action)) {
      throw new Error(`Action "${action}" is not in this game; its actions are ${game.actions.join(", ")}.`);
    }
    if (!(probability >= 0)) {
      throw new Error(
        `The probability of "${action}" is ${probability}; probabilities must be non-negative.`,
      );
    }
  }
  const p = toVector(game, distribution);
  const sum = p.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > EQUILIBRIUM_TOLERANCE) {
    throw new Error(`The distribution's probabilities sum to ${sum}; they must sum to 1.`);
  }
  return p;
}
