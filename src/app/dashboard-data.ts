import { type ComparisonRanks, leaderboardOf } from "../report/leaderboard-of.js";
import {
  type AnalysisNote,
  type CooperationCell,
  type Leaderboard,
  type LeaderboardCondition,
  type RepeatedCell,
  type RepeatedMetricsCellResult,
  type ReportData,
  type RobustnessResult,
  repeatedCellOf,
  reportChecks,
  reportNotes,
  type SensitivityResult,
  type VerificationCheck,
} from "../report/report-data.js";
import { type LeftOutOfRobustness, robustnessCoverageNote } from "../report/robustness-coverage.js";

/** Which analysis tool produced the result the view shows; the filters call the same tool again. */
export type SourceTool = "robustness" | "report" | "repeated_metrics" | "compare";

/** One pair of a `compare` result: a − b on one measure, over the cells both groups played. */
export interface ComparedPair {
  measure: string;
  a: string;
  b: string;
  difference: { estimate: number; ci: [number, number] };
  p_value: number;
  p_adjusted: number;
  paired: boolean;
  cells_used: LeaderboardCondition[];
  cells_left_out: LeaderboardCondition[];
}

/** What `compare` gives beyond its ranks: every pair's difference, and what it could not compare. */
export interface ComparisonDetails {
  pairs: ComparedPair[];
  skipped: { measure: string; reason: string }[];
  notes: string[];
  /** Which pairs form each family Holm adjusts over, as the tool states it. */
  family: string;
}

/** The four tools' results in one shape, so every section draws from one place. */
export interface DashboardData {
  source: SourceTool;
  cooperation: CooperationCell[];
  robustness: RobustnessResult | null;
  sensitivity: SensitivityResult | null;
  repeated: RepeatedCell[];
  /** The groups ranked (report and compare); `leaderboardMissing` says why there is none. */
  leaderboard: Leaderboard | null;
  leaderboardMissing: string | null;
  checks: VerificationCheck[];
  notes: AnalysisNote[];
  study: { id: string; name: string } | null;
  /** The pairs of a `compare` result (null for the other tools). */
  comparison: ComparisonDetails | null;
}

/** Recognises the tool by its result's keys (hosts need not say which tool ran) and normalises it. */
export function dashboardData(structured: Record<string, unknown>): DashboardData | null {
  if (Array.isArray(structured.pairs) && Array.isArray(structured.ranks) && "by" in structured) {
    const compared = structured as unknown as ComparisonRanks & ComparisonDetails;
    return {
      ...EMPTY,
      source: "compare",
      leaderboard: leaderboardOf(compared),
      comparison: {
        pairs: compared.pairs,
        skipped: compared.skipped ?? [],
        notes: compared.notes ?? [],
        family: compared.family ?? "",
      },
    };
  }
  if ("header" in structured) {
    const report = structured as unknown as ReportData;
    return {
      source: "report",
      cooperation: report.cooperation ?? [],
      robustness: report.robustness ?? null,
      sensitivity: report.sensitivity ?? null,
      repeated: report.repeated ?? [],
      leaderboard: report.leaderboard ?? null,
      leaderboardMissing: report.missing?.find((m) => m.section === "leaderboard")?.reason ?? null,
      checks: reportChecks(report),
      notes: reportNotes(report),
      study: report.header.study ? { id: report.header.study.id, name: report.header.study.name } : null,
      comparison: null,
    };
  }
  if ("comprehension_rule" in structured && Array.isArray(structured.cells)) {
    return {
      source: "repeated_metrics",
      cooperation: [],
      robustness: null,
      sensitivity: null,
      repeated: (structured.cells as RepeatedMetricsCellResult[]).map(repeatedCellOf),
      leaderboard: null,
      leaderboardMissing: null,
      checks: [],
      notes: [],
      study: null,
      comparison: null,
    };
  }
  if ("pooled" in structured && Array.isArray(structured.games)) {
    const robustness = structured as unknown as RobustnessResult & { skipped?: LeftOutOfRobustness[] };
    // The tool lists the (player, game) pairs it left out; the view says so as the report does.
    const coverage = robustnessCoverageNote(robustness.skipped ?? []);
    return {
      source: "robustness",
      cooperation: [],
      robustness,
      sensitivity: null,
      repeated: [],
      leaderboard: null,
      leaderboardMissing: null,
      checks: robustness.checks ?? [],
      notes: [...(robustness.notes ?? []), ...(coverage ? [coverage] : [])],
      study: null,
      comparison: null,
    };
  }
  return null;
}

/** A result with nothing in it, for the tools that fill only a few of the fields. */
const EMPTY: Omit<DashboardData, "source"> = {
  cooperation: [],
  robustness: null,
  sensitivity: null,
  repeated: [],
  leaderboard: null,
  leaderboardMissing: null,
  checks: [],
  notes: [],
  study: null,
  comparison: null,
};

/**
 * Player, game and framing names the data mentions: the choices of the filters. A comparison's groups are
 * players only when it compares players (by style, client or model they are the group filter's choices).
 * `framings` are those with one-shot decisions, the framings robustness, report and compare compare (a
 * framing of repeated play only would be refused there); `repeatedFramings`, those of repeated play, which
 * repeated_metrics filters on.
 */
export function namesIn(data: DashboardData): {
  players: string[];
  games: string[];
  framings: string[];
  repeatedFramings: string[];
} {
  const players = new Set<string>();
  const games = new Set<string>();
  const framings = new Set<string>(data.robustness?.framings ?? []);
  const repeatedFramings = new Set<string>();
  const board = data.leaderboard;
  if (data.source === "compare" && board) {
    if (board.by === "player") for (const r of board.rows) players.add(r.group);
    for (const g of board.games) games.add(g);
    for (const f of board.framings) framings.add(f);
    for (const p of data.comparison?.pairs ?? []) for (const c of p.cells_used) games.add(c.game);
  }
  for (const c of [...data.cooperation, ...(data.sensitivity?.cells ?? [])]) {
    players.add(c.player);
    games.add(c.game);
    framings.add(c.framing);
  }
  for (const c of data.repeated) {
    players.add(c.player);
    games.add(c.game);
    repeatedFramings.add(c.framing);
  }
  for (const g of data.robustness?.games ?? []) {
    players.add(g.player);
    games.add(g.game);
  }
  return {
    players: [...players],
    games: [...games],
    framings: [...framings],
    repeatedFramings: [...repeatedFramings],
  };
}
