import { COMPARISON_MEASURES, type ComparisonMeasure } from "../analysis/comparison/compare-groups.js";
import type { PlayDeps } from "../play/play-deps.js";
import type { Leaderboard } from "../report/report-data.js";
import { UsageError } from "../usage-error.js";
import { type CompareQuery, type CompareReport, compareReport } from "./compare-query.js";

/** The leaderboard of `compare` under the same filters; refuses (UsageError) what `compare` refuses. */
export function leaderboard(deps: PlayDeps, query: CompareQuery): Leaderboard {
  return leaderboardOf(compareReport(deps, query));
}

/** The leaderboard, or why the record has none (fewer than two groups, none sharing a game …). */
export function leaderboardOrReason(
  deps: PlayDeps,
  query: CompareQuery,
): { leaderboard: Leaderboard } | { reason: string } {
  try {
    return { leaderboard: leaderboard(deps, query) };
  } catch (error) {
    if (error instanceof UsageError) return { reason: error.message };
    throw error;
  }
}

/**
 * The ranks of a comparison, sorted for reading: by measure, then by rank (best first). The report, the
 * dashboard and `export leaderboard` all show this one object, so they cannot disagree.
 */
export function leaderboardOf(report: CompareReport): Leaderboard {
  const order = (m: string) => COMPARISON_MEASURES.indexOf(m as ComparisonMeasure);
  const rows = report.ranks
    .map(({ measure, group, estimate, ci, rank, tied_group }) => ({
      measure,
      group,
      estimate,
      ci: [ci[0], ci[1]] as [number, number],
      rank: { estimate: rank.estimate, ci: [rank.ci[0], rank.ci[1]] as [number, number] },
      tied_group,
    }))
    .sort(
      (x, y) =>
        order(x.measure) - order(y.measure) ||
        x.rank.estimate - y.rank.estimate ||
        y.estimate - x.estimate ||
        (x.group < y.group ? -1 : x.group > y.group ? 1 : 0),
    );
  return {
    by: report.by,
    confidence: report.confidence,
    bootstrap: report.bootstrap,
    seed: report.seed,
    variant: report.variant,
    study_id: report.study_id,
    framings: [...report.framings],
    games: [...report.ranked_games],
    rows,
  };
}
