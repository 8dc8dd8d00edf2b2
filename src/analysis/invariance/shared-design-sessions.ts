// Which of a player's sessions the session-design null draws once for several games
// (shared-session-propensities.ts): sessions, each listed once (weight 1) with an id, that sit in two or
// more of the player's games whose null is the session-design one (sessions of unequal lengths, none of
// them deciding in two framings of the game).
import type { PlannedCell, RobustnessPlan } from "../robustness/robustness-plan.js";
import { sessionsExchangeable } from "./session-design-null.js";
import { sessionsSpanFramings } from "./within-session-permutation.js";

/** Whether a (player, game)'s invariance null is the session-design one (see `permutationFill`). */
export function usesSessionDesignNull(cells: readonly PlannedCell[]): boolean {
  if (cells.every((c) => c.unit === "decision")) return false;
  return !sessionsSpanFramings(cells) && !sessionsExchangeable(cells);
}

/** The ids of player `p`'s sessions shared by two or more of its session-design games (empty: none). */
export function sharedDesignSessions(plan: RobustnessPlan, p: number): Set<string> {
  const seen = new Map<string, number>();
  for (const u of plan.players[p]?.units ?? []) {
    const cells = (plan.units[u]?.cells ?? []).map((c) => plan.cells[c] as PlannedCell);
    if (!usesSessionDesignNull(cells)) continue;
    const ids = new Set<string>();
    for (const pc of cells) {
      pc.cell.cluster_ids?.forEach((id, i) => {
        if ((pc.cell.cluster_weights?.[i] ?? 1) === 1) ids.add(id);
      });
    }
    for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  return new Set([...seen].filter(([, games]) => games >= 2).map(([id]) => id));
}
