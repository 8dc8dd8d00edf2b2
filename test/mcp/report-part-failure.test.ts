import { expect, it } from "vitest";
import { reportOnTwoWorkers } from "../../src/mcp/analysis-call/report-on-two-workers.js";
import type { AnalysisJob, JobArgs } from "../../src/mcp/analysis-pool/analysis-jobs.js";
import { type AnalysisCall, AnalysisCancelled, type AnalysisRunner } from "../../src/mcp/analysis-runner.js";

// The report runs as three jobs at once (its sections, its leaderboard, the record's integrity check).
// When one fails, the call is answered with that failure, and the other two must stop with it rather than
// keep a worker busy for a report nobody receives. A runner stands in for the pool here: each part is a
// job that runs until its signal stops it (or 3 s pass), except the integrity check, which fails at 30 ms.

const FAILURE = "database disk image is malformed";

/** A runner whose parts record when, if ever, they were told to stop. */
function scriptedRunner(failing: AnalysisJob | null) {
  const stoppedAt = new Map<AnalysisJob, number>();
  const started = performance.now();
  const runner: AnalysisRunner = {
    run<J extends AnalysisJob>(job: J, _args: JobArgs<J>, _principal: string, call: AnalysisCall = {}) {
      return new Promise((resolve, reject) => {
        if (job === failing) {
          setTimeout(() => reject(new Error(FAILURE)), 30);
          return;
        }
        const finished = setTimeout(() => resolve({} as never), 3000);
        call.signal?.addEventListener("abort", () => {
          clearTimeout(finished);
          stoppedAt.set(job, performance.now() - started);
          reject(new AnalysisCancelled(job));
        });
      });
    },
  };
  return { runner, stoppedAt };
}

it("stops the report's other parts as soon as one fails, and answers with that part's failure", async () => {
  const { runner, stoppedAt } = scriptedRunner("report_integrity");
  await expect(reportOnTwoWorkers(runner, {}, "local", undefined, () => undefined)).rejects.toThrow(FAILURE);
  expect([...stoppedAt.keys()].sort()).toEqual(["report_leaderboard", "report_sections"]);
  // Stopped at the failure (30 ms), not at their own end (3 s).
  for (const ms of stoppedAt.values()) expect(ms).toBeLessThan(1000);
});

it("stops every part when the request is cancelled", async () => {
  const { runner, stoppedAt } = scriptedRunner(null);
  const request = new AbortController();
  setTimeout(() => request.abort(), 30);
  await expect(reportOnTwoWorkers(runner, {}, "local", request.signal, () => undefined)).rejects.toThrow(
    AnalysisCancelled,
  );
  expect([...stoppedAt.keys()].sort()).toEqual(["report_integrity", "report_leaderboard", "report_sections"]);
});
