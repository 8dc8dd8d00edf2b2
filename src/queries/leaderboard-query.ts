import type { PlayDeps } from "../play/play-deps.js";
import { leaderboardOf } from "../report/leaderboard-of.js";
import type { Leaderboard } from "../report/report-data.js";
import { UsageError } from "../usage-error.js";
import { type CompareQuery, type CompareReport, compareReport } from "./compare-query.js";

export { leaderboardOf };

/** The leaderboard of `compare` under the same filters; refuses (UsageError) what `compare` refuses. */
export function leaderboard(deps: PlayDeps, query: CompareQuery): Leaderboard {
  return leaderboardOf(compareReport(deps, query));
}

/**
 * The leaderboard with the comparison's notes (what was left out of the ranks, and why) and why a measure it
 * could not compare at all was skipped, or why the record
 * has none (fewer than two groups, none sharing a game …), with the refusal itself for a caller that words
 * it for its own readers.
 */
export function leaderboardOrReason(
  deps: PlayDeps,
  query: CompareQuery,
):
  | { leaderboard: Leaderboard; notes: string[]; skipped: CompareReport["skipped"] }
  | { reason: string; refusal: UsageError } {
  try {
    const report = compareReport(deps, query);
    return {
      leaderboard: leaderboardOf(report),
      notes: report.notes,
      skipped: report.skipped,
    };
  } catch (error) {
    if (error instanceof UsageError) return { reason: error.message, refusal: error };
    throw error;
  }
}
