import type { ProgressListener } from "../../analysis/progress/analysis-progress.js";
import { withIntegrityCheck, withLeaderboard } from "../../report/join-leaderboard.js";
import type { AnalysisJob, JobArgs, JobResult } from "../analysis-pool/analysis-jobs.js";
import type { AnalysisRunner } from "../analysis-runner.js";

/** The report's jobs, run at once. */
type ReportPart = "report_sections" | "report_leaderboard" | "report_integrity";

/**
 * The report as three jobs: its leaderboard (which reads and resamples the record by itself) on one worker,
 * every other section but the record's integrity check on another, and the integrity check (SQLite's own
 * scan of the file) on whichever of them is free first; joined as `reportData` joins them: the same
 * report, on both cores. A runner without a second worker runs them one after the other.
 *
 * The first part to fail answers the call with its error, and the other parts are stopped with it: left
 * running, they kept a worker busy for a report nobody would receive (about 0.7 s at 10,000 decisions),
 * and the next call waited for it. `signal` (the request's) stops all three.
 */
export async function reportOnTwoWorkers(
  analysis: AnalysisRunner,
  args: JobArgs<"report">,
  principal: string,
  signal: AbortSignal | undefined,
  progressOf: (part: ReportPart) => ProgressListener | undefined,
): Promise<JobResult<"report">> {
  const parts = new AbortController();
  const stopParts = () => parts.abort();
  if (signal?.aborted) stopParts();
  else signal?.addEventListener("abort", stopParts, { once: true });
  const run = <J extends ReportPart & AnalysisJob>(part: J): Promise<JobResult<J>> =>
    analysis
      .run(part, args, principal, { signal: parts.signal, onProgress: progressOf(part) })
      .catch((error: unknown) => {
        stopParts();
        throw error;
      });
  try {
    const [sections, ranked, integrity] = await Promise.all([
      run("report_sections"),
      run("report_leaderboard"),
      run("report_integrity"),
    ]);
    return withLeaderboard(withIntegrityCheck(sections, integrity), ranked);
  } finally {
    signal?.removeEventListener("abort", stopParts);
  }
}
