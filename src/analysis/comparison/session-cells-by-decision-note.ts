import { MIN_RESAMPLED_SESSIONS } from "../robustness/robustness-plan.js";
import type { GroupSample } from "./group-samples.js";

/**
 * The note naming each group and cell whose decisions came in sessions but were redrawn by decision,
 * because fewer than MIN_RESAMPLED_SESSIONS sessions decided in the cell (the compare form of the
 * robustness analysis's `resampled_by_decision`). One session shows no spread between sessions, and
 * drawing it whole would repeat its rates in every replicate; its decisions are drawn one by one, as if
 * independent. The record cannot say how correlated they are, so the intervals of every pair with such a
 * group may be too short and its p-values too small: on the simulation grid, one session of 20 decisions
 * per cell (intra-session correlation .3) against 20 single decisions covered the true difference of the
 * shift in 66% of studies. Null when no group has such a cell.
 */
export function sessionCellsByDecisionNote(samples: readonly GroupSample[]): string | null {
  const parts: string[] = [];
  for (const sample of samples) {
    const drawn = sample.sessionCellsByDecision;
    if (drawn.length === 0) continue;
    const names = drawn.map((c) => {
      const cell = sample.cells[c] as GroupSample["cells"][number];
      return `${cell.game}/${cell.framing}`;
    });
    const which =
      drawn.length === sample.cells.length ? `every cell (${names.join(", ")})` : `cells ${names.join(", ")}`;
    parts.push(`${sample.group}: ${which}`);
  }
  if (parts.length === 0) return null;
  return (
    `Drawn by decision, not by session, where fewer than ${MIN_RESAMPLED_SESSIONS} sessions decided in a cell although its decisions came in sessions — ${parts.join("; ")}. ` +
    "One session shows no spread between sessions, so its decisions are redrawn one by one as if independent: the intervals and p-values of every pair with these groups ignore the correlation of decisions within a session, and are too narrow (p too small) if they are correlated. " +
    "Play over several sessions (connections) per cell to resample by session."
  );
}
