// What the HTML report shows. The lead fills it from the analysis results; every section is optional and
// an empty section renders a "no data" sentence instead of an empty chart. Keys are snake_case because
// they mirror the tools' structuredContent.

import type { SpendSummary } from "../queries/spend-query.js";

/** A point estimate with its 95% bootstrap interval. */
export interface EstimateWithCi {
  estimate: number;
  ci: [number, number];
}

/** An invariant of the analysis: on healthy data it passes, so a failure means something is wrong. */
export interface VerificationCheck {
  name: string;
  ok: boolean;
  detail: string;
}

/** Information about a result (where an interval sits, what was left out): never a failure. */
export interface AnalysisNote {
  name: string;
  detail: string;
}

export interface ReportHeader {
  title: string;
  generated_at: string;
  database: string | null;
  study: { id: string; name: string; design_hash: string } | null;
  players: string[];
  /** What reproduces every number of the report; absent in hand-built report data. */
  provenance?: ReportProvenance;
}

/** Data imported from elsewhere (published counts or match transcripts), marked wherever its players appear. */
export interface ImportedSource {
  source: string;
  /** Counts (per session where the file named one) or match transcripts. */
  kind: "counts" | "transcripts";
  /** Count rows, or matches for transcripts. */
  rows: number;
  decisions: number;
  /** Sessions the counts file named (0: aggregate counts); transcripts: null. */
  sessions: number | null;
  players: string[];
  /** The citation of a shipped reference data set; null for a user's own file. */
  citation: string | null;
}

export interface ReportProvenance {
  server_version: string;
  catalog_fingerprint: string;
  seed: number;
  bootstrap: number;
  /** The `--catalog` value of the user's games and framings the report was made with, or null. */
  catalog?: string | null;
  /** The CLI command that recomputes this report from the same record. */
  command: string;
  imported: ImportedSource[];
}

/** One cell's choices beside the game's Nash equilibria (SPEC §5). */
export interface EquilibriumCell {
  player: string;
  game: string;
  variant: string;
  framing: string;
  n: number;
  distribution: Record<string, number>;
  equilibrium_strategy: Record<string, number>;
  total_variation: number;
  exploitability: number | null;
  /** Payoff/joint counterfactuals: nearer the base game's equilibria than its own; null otherwise. */
  template_persistence: boolean | null;
}

/** Cooperation rate of one (player, game, framing) cell. */
export interface CooperationCell {
  player: string;
  game: string;
  framing: string;
  rate: number;
  ci: [number, number];
  n: number;
}

export interface RobustnessValues {
  R: EstimateWithCi;
  /** Second framing's cooperation rate minus the first's; null when a game has no cooperative action. */
  shift: EstimateWithCi | null;
}

/** Exactly the `analyze robustness --json` object (DESIGN.md); extra keys are ignored. */
export interface RobustnessResult {
  unit: "decision" | "session";
  attenuation: number;
  bootstrap: number;
  /** The intervals' level; absent in data written before it was carried here, when it was always 0.95. */
  confidence?: number;
  seed: number;
  framings: string[];
  games: (RobustnessValues & { player: string; game: string })[];
  /** Each player's resampling unit: "session" where its sessions made several decisions. */
  players: (RobustnessValues & { player: string; unit?: "decision" | "session" })[];
  pooled: RobustnessValues;
  checks: VerificationCheck[];
  notes?: AnalysisNote[];
  /** Per player: choice rate of the first-listed action in two-action games (½ without an order effect). */
  order_effect?: { player: string; decisions: number; first_listed_rate: EstimateWithCi }[];
}

export interface SensitivityResult {
  /** λ̂ of each (player, game, framing) cell; null when the cell has no decisions. */
  cells: { player: string; game: string; framing: string; lambda: number | null }[];
  /** Maximum-likelihood λ per (player, framing) across games. */
  pooled: { player: string; framing: string; lambda: EstimateWithCi }[];
}

/** Repeated-play aggregates of one (player, game, variant, framing, opponent with its params) cell. */
export interface RepeatedCell {
  player: string;
  game: string;
  variant: string;
  framing: string;
  opponent: string;
  /** The opponent's params ({} for none): one opponent id with other params is another cell. */
  opponent_params: Record<string, unknown>;
  matches: number;
  mean_total_points: number;
  mean_cooperation_rate: number | null;
  /** Mean comprehension round m over matches; a match that never comprehends counts as N + 1. */
  mean_comprehension_round: number;
  /**
   * Share of rounds from `round` to the end that succeeded, averaged over the cell's matches, with its
   * 95% pointwise interval over the matches (`lo`, `hi`; absent with a single match).
   */
  curve: { round: number; success_share: number; lo?: number; hi?: number }[];
}

/** A repeated_metrics cell as the report and the dashboard read it. */
export interface RepeatedMetricsCellResult {
  player: string;
  game: string;
  variant: string;
  framing: string;
  opponent: string;
  opponent_params: Record<string, unknown>;
  matches: number;
  total_points: { mean: number };
  cooperation_rate: { mean: number } | null;
  comprehension_round: { mean: number };
  comprehension_curve: number[];
  comprehension_curve_ci?: [number, number][] | null;
}

/** The report's repeated cell from a repeated_metrics cell: one mapping for the report and the dashboard. */
export function repeatedCellOf(cell: RepeatedMetricsCellResult): RepeatedCell {
  return {
    player: cell.player,
    game: cell.game,
    variant: cell.variant,
    framing: cell.framing,
    opponent: cell.opponent,
    opponent_params: cell.opponent_params,
    matches: cell.matches,
    mean_total_points: cell.total_points.mean,
    mean_cooperation_rate: cell.cooperation_rate?.mean ?? null,
    mean_comprehension_round: cell.comprehension_round.mean,
    curve: cell.comprehension_curve.map((share, i) => {
      const band = cell.comprehension_curve_ci?.[i];
      return band
        ? { round: i + 1, success_share: share, lo: band[0], hi: band[1] }
        : { round: i + 1, success_share: share };
    }),
  };
}

/** One line of the leaderboard: a group's measure with its interval, its rank interval and its tier. */
export interface LeaderboardRow {
  /** A measure of `compare`: R, shift, lambda, … */
  measure: string;
  group: string;
  estimate: number;
  ci: [number, number];
  rank: { estimate: number; ci: [number, number] };
  /** 1 for the top tier; the groups of one tier are statistically tied with its best. */
  tied_group: number;
}

/** The ranks of `compare`, sorted by measure then rank (queries/leaderboard-query.ts makes it). */
export interface Leaderboard {
  /** What a group is: player, style, client or model. */
  by: string;
  confidence: number;
  bootstrap: number;
  seed: number;
  variant: string;
  study_id: string | null;
  framings: string[];
  /** The games every group played under every framing: the cells the ranks are computed on. */
  games: string[];
  /**
   * Per repeated-play measure (points, cooperation, comprehension_m), the (game, framing, opponent)
   * conditions every group played: its ranks are computed on them. Absent without repeated-play ranks.
   */
  conditions?: Partial<Record<string, LeaderboardCondition[]>>;
  /** Players with matches but no valid decision (every round void …): in no rank, listed with why. */
  left_out?: { group: string; reason: string }[];
  rows: LeaderboardRow[];
}

/** A repeated-play condition a leaderboard's ranks are computed on. */
export interface LeaderboardCondition {
  game: string;
  framing: string;
  opponent?: string;
  /** The opponent's params, where it has any (another params, another condition). */
  opponent_params?: Record<string, unknown>;
}

export interface ReportData {
  header: ReportHeader;
  cooperation?: CooperationCell[];
  robustness?: RobustnessResult | null;
  sensitivity?: SensitivityResult | null;
  repeated?: RepeatedCell[];
  equilibrium?: EquilibriumCell[];
  /** The players ranked by R (absent or null with fewer than two players to rank; `missing` says why). */
  leaderboard?: Leaderboard | null;
  /** What the runner's model calls cost per cell; absent or null when the record has none. */
  spend?: SpendSummary | null;
  /** Sections that could not be computed, with the reason (e.g. one framing only). */
  missing?: { section: string; reason: string }[];
  /** Checks beyond the robustness ones (which the report takes from `robustness.checks`). */
  checks?: VerificationCheck[];
  /** Notes beyond the robustness ones (which the report takes from `robustness.notes`). */
  notes?: AnalysisNote[];
}

/** Every check of a report: the robustness result's and the report's own. */
export function reportChecks(data: ReportData): VerificationCheck[] {
  return [...(data.robustness?.checks ?? []), ...(data.checks ?? [])];
}

/** Every note of a report: the robustness result's and the report's own. */
export function reportNotes(data: ReportData): AnalysisNote[] {
  return [...(data.robustness?.notes ?? []), ...(data.notes ?? [])];
}
