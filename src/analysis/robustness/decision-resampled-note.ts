import type { Note } from "./robustness-checks.js";
import { MIN_RESAMPLED_SESSIONS, type PlannedCell, type RobustnessPlan } from "./robustness-plan.js";

/**
 * The note naming the cells whose decisions share sessions but were redrawn by decision, because fewer
 * than MIN_RESAMPLED_SESSIONS sessions decided in them: where a player's sessions made several decisions
 * the reader expects a cluster bootstrap, and these cells' intervals rest on an assumption the record
 * cannot check (that the one session's decisions are independent). Null when there are none.
 */
export function decisionResampledNote(plan: RobustnessPlan): Note | null {
  const parts: string[] = [];
  for (const player of plan.players) {
    const cells = player.units.flatMap((u) =>
      (plan.units[u]?.cells ?? []).map((c) => plan.cells[c] as PlannedCell),
    );
    const drawn = cells.filter((pc) => pc.unit === "session" && pc.resampled === "decision");
    if (drawn.length === 0) continue;
    if (player.unit === "decision") {
      const ids = new Set(cells.flatMap((pc) => pc.cell.cluster_ids ?? []));
      const which =
        ids.size === 1
          ? `one MCP session made all its ${cells.reduce((s, pc) => s + pc.n, 0)} decisions`
          : "one MCP session made all the decisions of each of its cells";
      parts.push(`player ${player.player} (unit decision: ${which})`);
    } else {
      const names = drawn.map((pc) => `${pc.cell.game}/${pc.cell.framing}`).join(", ");
      parts.push(`player ${player.player}, cells made by one session: ${names}`);
    }
  }
  if (parts.length === 0) return null;
  return {
    name: "resampled_by_decision",
    detail: `Resampled by decision, not by session, where fewer than ${MIN_RESAMPLED_SESSIONS} sessions decided in a cell: ${parts.join("; ")}. One session shows no spread between sessions, and redrawing it whole would repeat its rates in every replicate (an interval that is a point); its decisions are drawn one by one instead, as if independent, so the interval is too short if they are correlated within the session. Play over several sessions (connections) to resample by session.`,
  };
}
