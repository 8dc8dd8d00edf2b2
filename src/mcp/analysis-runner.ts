import type { ProgressListener } from "../analysis/progress/analysis-progress.js";
import { withProgress } from "../analysis/progress/analysis-progress.js";
import type { PlayDeps } from "../play/play-deps.js";
import type { AnalysisJob, JobArgs, JobResult } from "./analysis-pool/analysis-jobs.js";

/** What one call of an analysis brings besides its arguments: a way to stop it and to hear how far it got. */
export interface AnalysisCall {
  /** Aborted when the request is cancelled or its client goes away: the analysis is stopped. */
  readonly signal?: AbortSignal;
  /** Told as the analysis advances (a worker's reports arrive at most every few hundred ms). */
  readonly onProgress?: ProgressListener;
}

/** Runs an analysis over one principal's part of the record: inline, or off the event loop (a pool). */
export interface AnalysisRunner {
  run<J extends AnalysisJob>(
    job: J,
    args: JobArgs<J>,
    principal: string,
    call?: AnalysisCall,
  ): Promise<JobResult<J>>;
}

/** The error of an analysis stopped by its caller. */
export class AnalysisCancelled extends Error {
  constructor(job: string) {
    super(`The ${job} analysis was cancelled.`);
    this.name = "AnalysisCancelled";
  }
}

/**
 * On the caller's thread: for in-process servers (tests) and a record no worker can open. The analysis is
 * synchronous, so a cancellation is honoured only before it starts (the pool stops a running one).
 */
export function inlineAnalysis(deps: PlayDeps): AnalysisRunner {
  return {
    async run(job, args, principal, call = {}) {
      // Loaded at the first analysis: the analysis code is no part of a play server's start.
      const { runJob } = await import("./analysis-pool/analysis-jobs.js");
      if (call.signal?.aborted) throw new AnalysisCancelled(job);
      return withProgress(call.onProgress ?? null, () => runJob(deps, job, args, principal));
    },
  };
}
