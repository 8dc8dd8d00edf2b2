import type { PooledModel } from "../../src/analysis/comparison/pooled-measures.js";
import { equilibriumDeviation } from "../../src/analysis/equilibrium/deviation.js";
import { payoffDifference } from "../../src/analysis/sensitivity/payoff-sensitivity.js";

/**
 * A prisoner's dilemma: Δu_G = (½·3 + ½·0 − ½·5 − ½·1)/5 = −0.3; its only equilibrium is mutual
 * defection, and the largest exploitability of any play (against all-cooperate) is (5 − 1)/5 = 0.8.
 */
export const prisonersDilemmaStage = {
  actions: ["cooperate", "defect"],
  u1: [
    [3, 0],
    [5, 1],
  ],
  u2: [
    [3, 5],
    [0, 1],
  ],
};

/** λ and exploitability of the comparison, on `prisonersDilemmaStage` for every game. */
export const prisonersDilemmaPooled: PooledModel = {
  deltaU: () =>
    payoffDifference("pd", { stage: prisonersDilemmaStage, cooperativeAction: "cooperate" }).delta_u,
  cooperative: () => 0,
  exploitability: (_, d) =>
    equilibriumDeviation(prisonersDilemmaStage, { cooperate: d[0] as number, defect: d[1] as number })
      .exploitability.normalized,
};
