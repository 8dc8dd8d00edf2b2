import type { ServerContext } from "@modelcontextprotocol/server";
import type { AnalysisJob, JobArgs, JobResult } from "../analysis-pool/analysis-jobs.js";
import type { ToolContext } from "../tool-context.js";
import { progressNotifier } from "./progress-notifier.js";
import { reportOnTwoWorkers } from "./report-on-two-workers.js";
import type { CacheOutcome } from "./result-cache.js";

/** The result `_meta` key that says where an analysis answer came from and for which record version. */
export const CACHE_META_KEY = "same-game/cache";

export interface AnalysisAnswer<J extends AnalysisJob> {
  readonly result: JobResult<J>;
  /** For the tool result's `_meta`: { "same-game/cache": { outcome, record_version } }. */
  readonly meta: Record<string, unknown>;
}

/**
 * One analysis tool call: answered from the result cache when the record has not changed since the same
 * call was last answered, else run by the connection's runner with the request's abort signal (a
 * cancellation or a client that goes away stops it) and, when the request carries a progressToken,
 * progress notifications.
 */
export async function callAnalysis<J extends AnalysisJob>(
  context: ToolContext,
  ctx: ServerContext,
  job: J,
  args: JobArgs<J>,
): Promise<AnalysisAnswer<J>> {
  const { cache, caller, analysis } = context;
  const key = cache?.key(job, args, caller.principal);
  const version = cache?.version();
  const meta = (outcome: CacheOutcome) => ({
    [CACHE_META_KEY]: { outcome, record_version: version ?? null },
  });
  if (cache && key !== undefined && version !== undefined) {
    const hit = cache.lookup(key, version);
    if (hit) return { result: hit.result as JobResult<J>, meta: meta(hit.outcome) };
  }
  const notifier = progressNotifier(ctx, job);
  try {
    const signal = ctx.mcpReq.signal;
    const result =
      job === "report"
        ? ((await reportOnTwoWorkers(
            analysis,
            args as JobArgs<"report">,
            caller.principal,
            signal,
            // Each of the report's jobs reports its own stages (progress-notifier.ts).
            (part) => notifier?.lane(part, REPORT_PART_LABELS[part]),
          )) as JobResult<J>)
        : await analysis.run(job, args, caller.principal, { signal, onProgress: notifier?.onProgress });
    if (cache && key !== undefined && version !== undefined) cache.save(key, version, result);
    return { result, meta: meta(cache ? "computed" : "off") };
  } finally {
    notifier?.stop();
  }
}

/** How the report's progress messages name its jobs besides the sections (which are the report itself). */
const REPORT_PART_LABELS: Partial<Record<AnalysisJob, string>> = {
  report_leaderboard: "leaderboard",
  report_integrity: "integrity check",
};
