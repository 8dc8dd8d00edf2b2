import { COMPARISON_MEASURES, type ComparisonMeasure } from "../analysis/comparison/comparison-measures.js";
import type { Leaderboard, LeaderboardCondition } from "./report-data.js";

/**
 * What a leaderboard is made from: the ranks of a `compare` result and its settings. The CLI's comparison
 * and the `compare` tool's structuredContent both have this shape, so the report, `export leaderboard` and
 * the dashboard (which receives the tool's JSON) build their leaderboard with the one function below.
 */
export interface ComparisonRanks {
  by: string;
  confidence: number;
  bootstrap: number;
  seed: number;
  variant: string;
  study_id: string | null;
  framings: readonly string[];
  ranked_games: readonly string[];
  ranked_conditions?: Partial<Record<string, readonly LeaderboardCondition[]>>;
  left_out?: readonly { group: string; reason: string }[];
  ranks: readonly {
    measure: string;
    group: string;
    estimate: number;
    ci: readonly number[];
    rank: { estimate: number; ci: readonly number[] };
    tied_group: number;
  }[];
}

/**
 * The ranks of a comparison, sorted for reading: by measure, then by rank (best first). The report, the
 * dashboard and `export leaderboard` all show this one object, so they cannot disagree.
 */
export function leaderboardOf(report: ComparisonRanks): Leaderboard {
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
  const conditions = Object.fromEntries(
    Object.entries(report.ranked_conditions ?? {}).map(([m, cells]) => [
      m,
      (cells ?? []).map((c) => ({ ...c })),
    ]),
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
    ...(Object.keys(conditions).length > 0 ? { conditions } : {}),
    ...(report.left_out?.length ? { left_out: report.left_out.map((l) => ({ ...l })) } : {}),
    rows,
  };
}
