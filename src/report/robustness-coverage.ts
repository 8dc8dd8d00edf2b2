import { labelList } from "./label-list.js";
import type { AnalysisNote } from "./report-data.js";

/** A (player, game) robustness left out: it has no decisions under some of the framings compared. */
export interface LeftOutOfRobustness {
  player: string;
  game: string;
  missing: string[];
}

/** The note naming every (player, game) left out of robustness and the framings it lacks; none if none. */
export function robustnessCoverageNote(skipped: readonly LeftOutOfRobustness[]): AnalysisNote | null {
  if (skipped.length === 0) return null;
  const units = skipped.map((s) => `${s.player} / ${s.game} (no decisions under ${labelList(s.missing)})`);
  return { name: ROBUSTNESS_COVERAGE, detail: `Left out of robustness: ${units.join("; ")}.` };
}

export const ROBUSTNESS_COVERAGE = "robustness_coverage";
