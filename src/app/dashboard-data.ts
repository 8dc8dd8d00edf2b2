import {
  type AnalysisNote,
  type CooperationCell,
  type Leaderboard,
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

/** Which analysis tool produced the result the view shows; the filters call the same tool again. */
export type SourceTool = "robustness" | "report" | "repeated_metrics";

/** The three tools' results in one shape, so every section draws from one place. */
export interface DashboardData {
  source: SourceTool;
  cooperation: CooperationCell[];
  robustness: RobustnessResult | null;
  sensitivity: SensitivityResult | null;
  repeated: RepeatedCell[];
  /** The players ranked by R (report only); `leaderboardMissing` says why there is none. */
  leaderboard: Leaderboard | null;
  leaderboardMissing: string | null;
  checks: VerificationCheck[];
  notes: AnalysisNote[];
  study: { id: string; name: string } | null;
}

/** Recognises the tool by its result's keys (hosts need not say which tool ran) and normalises it. */
export function dashboardData(structured: Record<string, unknown>): DashboardData | null {
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
    };
  }
  if ("pooled" in structured && Array.isArray(structured.games)) {
    const robustness = structured as unknown as RobustnessResult;
    return {
      source: "robustness",
      cooperation: [],
      robustness,
      sensitivity: null,
      repeated: [],
      leaderboard: null,
      leaderboardMissing: null,
      checks: robustness.checks ?? [],
      notes: robustness.notes ?? [],
      study: null,
    };
  }
  return null;
}

/** Player, game and framing names the data mentions: the choices of the filters. */
export function namesIn(data: DashboardData): { players: string[]; games: string[]; framings: string[] } {
  const players = new Set<string>();
  const games = new Set<string>();
  const framings = new Set<string>(data.robustness?.framings ?? []);
  for (const c of [...data.cooperation, ...data.repeated, ...(data.sensitivity?.cells ?? [])]) {
    players.add(c.player);
    games.add(c.game);
    framings.add(c.framing);
  }
  for (const g of data.robustness?.games ?? []) {
    players.add(g.player);
    games.add(g.game);
  }
  return { players: [...players], games: [...games], framings: [...framings] };
}
