// The rows of a robustness result: one per (player, game), one per player and the pooled row, each
// from the statistics' inferences.

import { jensenShannon } from "../../domain/divergence.js";
import type { ActionId, Distribution } from "../../domain/types.js";
import type { GameRobustness, PlayerRobustness, RobustnessResult } from "./robustness.js";
import type { RobustnessInferences } from "./robustness-inferences.js";
import type { PlannedCell, RobustnessPlan } from "./robustness-plan.js";
import type { StatisticLayout } from "./robustness-statistics.js";

export function gameRows(
  plan: RobustnessPlan,
  layout: StatisticLayout,
  inferences: RobustnessInferences,
): GameRobustness[] {
  return plan.units.map((u, i) => {
    const distributions: Record<string, { n: number; distribution: Distribution }> = {};
    const vectors = u.cells.map((c, f) => {
      const pc = plan.cells[c] as PlannedCell;
      const probabilities = pc.actions.map((a) => (pc.cell.counts[a] ?? 0) / pc.n);
      distributions[plan.framings[f] as string] = {
        n: pc.n,
        distribution: Object.fromEntries(pc.actions.map((a, j) => [a, probabilities[j] as number])),
      };
      return probabilities;
    });
    const pairwise: { framings: [string, string]; jsd: number }[] = [];
    for (let f = 0; f < vectors.length; f++) {
      for (let g = f + 1; g < vectors.length; g++) {
        pairwise.push({
          framings: [plan.framings[f] as string, plan.framings[g] as string],
          jsd: jensenShannon(vectors[f] as number[], vectors[g] as number[]),
        });
      }
    }
    const shiftStat = layout.unitShift[i] as number;
    const r2 = inferences.robustness(layout.unitR2[i] as number);
    return {
      player: u.player,
      game: u.game,
      unit: u.unit,
      ...inferences.rColumns(layout.unitR[i] as number),
      R2: { estimate: r2.estimate, ci: r2.ci },
      shift:
        shiftStat < 0
          ? null
          : { ...inferences.percentile(shiftStat), cooperative_action: u.cooperativeAction as ActionId },
      pairwise_jsd: pairwise,
      distributions,
    };
  });
}

export function playerRows(
  plan: RobustnessPlan,
  layout: StatisticLayout,
  inferences: RobustnessInferences,
  jointPlayers: ReadonlySet<string>,
): PlayerRobustness[] {
  return plan.players.map((p, i) => ({
    player: p.player,
    unit: p.unit,
    cluster_scope: jointPlayers.has(p.player) ? "player" : "cell",
    games: p.units.length,
    ...inferences.rColumns(layout.playerR[i] as number),
    shift: inferences.optionalPercentile(layout.playerShift[i] as number),
  }));
}

export function pooledRow(
  plan: RobustnessPlan,
  layout: StatisticLayout,
  inferences: RobustnessInferences,
): RobustnessResult["pooled"] {
  return {
    games: plan.units.length,
    ...inferences.rColumns(layout.pooledR),
    shift: inferences.optionalPercentile(layout.pooledShift),
  };
}
