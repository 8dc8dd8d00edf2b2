import type { Leaderboard } from "../report/report-data.js";
import type { ExportTable } from "./export-tables.js";
import type { TableSchema } from "./parquet-writer.js";

// `export leaderboard`: the leaderboard the report and the dashboard show, one row per (measure, group),
// with the filters that made it on every row so a file read alone says what it ranks.

/** The columns in order with their Parquet types: measures and their intervals DOUBLE, ranks INT64, whatever the values. */
export const LEADERBOARD_SCHEMA = {
  measure: "STRING",
  group: "STRING",
  estimate: "DOUBLE",
  ci_low: "DOUBLE",
  ci_high: "DOUBLE",
  rank: "INT64",
  rank_ci_low: "INT64",
  rank_ci_high: "INT64",
  tied_group: "INT64",
  by: "STRING",
  confidence: "DOUBLE",
  bootstrap: "INT64",
  seed: "INT64",
  variant: "STRING",
  study_id: "STRING",
  framings: "STRING",
  players: "STRING",
  games: "STRING",
  ranked_games: "STRING",
  not_ranked: "STRING",
} as const satisfies TableSchema;

/** What the leaderboard was restricted to, as the command line said it (null = not restricted). */
export interface LeaderboardFilters {
  players?: string[];
  games?: string[];
}

/**
 * One row per (measure, group) ranked, best first; after each measure's ranks, a row per player left out of
 * them (matches but no valid decision) with no estimate or rank and `not_ranked` saying why, so a file read
 * alone names every player its filters selected.
 */
export function leaderboardTable(board: Leaderboard, filters: LeaderboardFilters): ExportTable {
  const settings = {
    by: board.by,
    confidence: board.confidence,
    bootstrap: board.bootstrap,
    seed: board.seed,
    variant: board.variant,
    study_id: board.study_id,
    framings: board.framings,
    players: filters.players ?? null,
    games: filters.games ?? null,
    ranked_games: board.games,
  };
  const unranked = {
    estimate: null,
    ci_low: null,
    ci_high: null,
    rank: null,
    rank_ci_low: null,
    rank_ci_high: null,
    tied_group: null,
  };
  const rows: Record<string, unknown>[] = [];
  const measures = [...new Set(board.rows.map((r) => r.measure))];
  for (const measure of measures) {
    for (const r of board.rows.filter((row) => row.measure === measure)) {
      rows.push({
        measure,
        group: r.group,
        estimate: r.estimate,
        ci_low: r.ci[0],
        ci_high: r.ci[1],
        rank: r.rank.estimate,
        rank_ci_low: r.rank.ci[0],
        rank_ci_high: r.rank.ci[1],
        tied_group: r.tied_group,
        ...settings,
        not_ranked: null,
      });
    }
    for (const left of board.left_out ?? []) {
      rows.push({ measure, group: left.group, ...unranked, ...settings, not_ranked: left.reason });
    }
  }
  return { schema: LEADERBOARD_SCHEMA, rows };
}
