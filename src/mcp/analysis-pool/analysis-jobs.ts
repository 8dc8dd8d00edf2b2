import { type PowerOptions, powerAnalysis } from "../../analysis/power/power.js";
import type { PlayDeps } from "../../play/play-deps.js";
import { type CompareQuery, compareReport } from "../../queries/compare-query.js";
import {
  type EquilibriumDeviationQuery,
  equilibriumDeviationByCell,
} from "../../queries/equilibrium-deviation-query.js";
import { catalogGapNamed } from "../../queries/outside-catalog.js";
import { type RepeatedMetricsQuery, repeatedMetrics } from "../../queries/repeated-metrics-query.js";
import {
  type ReportQuery,
  recordIntegrityCheck,
  reportData,
  reportLeaderboard,
  reportSections,
} from "../../queries/report-data-query.js";
import { type RobustnessQuery, robustnessReport } from "../../queries/robustness-query.js";
import { type SensitivityQuery, sensitivityReport } from "../../queries/sensitivity-query.js";

/**
 * The analyses that may take longer than a move should wait: each is a pure function of the record and
 * plain-data arguments to a plain-data result, so it can run in a worker thread as well as inline.
 */
export const ANALYSIS_JOBS = {
  robustness: (deps: PlayDeps, args: RobustnessQuery) => robustnessReport(deps, args),
  compare: (deps: PlayDeps, args: CompareQuery) => compareReport(deps, args),
  payoff_sensitivity: (deps: PlayDeps, args: SensitivityQuery) => sensitivityReport(deps, args),
  power: (_deps: PlayDeps, args: PowerOptions) => powerAnalysis(args),
  report: (deps: PlayDeps, args: ReportQuery) => reportData(deps, args),
  // The report in three parts a server runs on its workers at once (call-analysis.ts).
  report_sections: (deps: PlayDeps, args: ReportQuery) => reportSections(deps, args, { integrity: false }),
  report_leaderboard: (deps: PlayDeps, args: ReportQuery) => reportLeaderboard(deps, args),
  report_integrity: (deps: PlayDeps, _args: ReportQuery) => recordIntegrityCheck(deps),
  equilibrium_deviation: (deps: PlayDeps, args: EquilibriumDeviationQuery) => ({
    cells: equilibriumDeviationByCell(deps, args),
  }),
  repeated_metrics: (deps: PlayDeps, args: RepeatedMetricsQuery) => repeatedMetrics(deps, args),
} as const;

export type AnalysisJob = keyof typeof ANALYSIS_JOBS;
export type JobArgs<J extends AnalysisJob> = Parameters<(typeof ANALYSIS_JOBS)[J]>[1];
export type JobResult<J extends AnalysisJob> = ReturnType<(typeof ANALYSIS_JOBS)[J]>;

/** Runs one job over the part of the record `principal` may see. */
export function runJob<J extends AnalysisJob>(
  deps: PlayDeps,
  job: J,
  args: JobArgs<J>,
  principal: string,
): JobResult<J> {
  const scoped: PlayDeps = { ...deps, store: deps.store.scopedTo(principal) };
  const run = ANALYSIS_JOBS[job] as (deps: PlayDeps, args: JobArgs<J>) => JobResult<J>;
  // Asked over MCP: a refusal names the tool's arguments (`framings`), not the CLI's flags (`--framings`).
  const asked = { ...args, surface: "mcp" } as JobArgs<J>;
  try {
    return run(scoped, asked);
  } catch (error) {
    // A game or framing the record holds but this server's catalog lacks (`serve` started without the
    // `--catalog` the record was played with) is named as such, not as an id the caller mistyped. Here,
    // where the error still has its class: a worker passes on only its message.
    throw catalogGapNamed(scoped.store, deps.catalog, error);
  }
}
