import type { PlayDeps } from "../play/play-deps.js";
import type { AnalysisJob, JobArgs, JobResult } from "./analysis-pool/analysis-jobs.js";

/** Runs an analysis over one principal's part of the record: inline, or off the event loop (a pool). */
export interface AnalysisRunner {
  run<J extends AnalysisJob>(job: J, args: JobArgs<J>, principal: string): Promise<JobResult<J>>;
}

/** On the caller's thread: for in-process servers (tests) and a record no worker can open. */
export function inlineAnalysis(deps: PlayDeps): AnalysisRunner {
  return {
    async run(job, args, principal) {
      // Loaded at the first analysis: the analysis code is no part of a play server's start.
      const { runJob } = await import("./analysis-pool/analysis-jobs.js");
      return runJob(deps, job, args, principal);
    },
  };
}
