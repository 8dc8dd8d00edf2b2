import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { AnalysisStopped, withCancellation } from "../../analysis/progress/analysis-cancellation.js";
import { type ProgressStep, withProgress } from "../../analysis/progress/analysis-progress.js";
import { loadCatalog } from "../../domain/catalog.js";
import { logError } from "../../log.js";
import { isPostgresUrl } from "../../store/engines/database-location.js";
import { canWriteRecord } from "../../store/open-record.js";
import { Store } from "../../store/store.js";
import { UsageError } from "../../usage-error.js";
import { type AnalysisJob, runJob } from "./analysis-jobs.js";
import type { JobProgress, JobReply, JobRequest, JobStopped, WorkerReady } from "./worker-pool.js";

// One analysis worker: its own connection to the record (SQLite in WAL mode lets it read while the main
// thread writes) and its own catalog; it answers one job at a time with plain data.

// On Linux the nice value belongs to the thread (setpriority on "this process" from a thread changes only
// that thread), so the worker yields the CPU to the event loop's moves when cores are scarce. Elsewhere it
// would lower the whole server, so it is left alone.
if (process.platform === "linux") {
  try {
    setPriority(10);
  } catch {
    // Not permitted in this environment: the pool still keeps analyses off the event loop.
  }
}

const { dbPath } = workerData as { dbPath: string };
// The server's own record, read-only when the server could not write it either (read-only media or folder).
// The server checked the file's pages when it opened it: this thread does not scan them again.
const store = new Store(dbPath, {
  readonly: !isPostgresUrl(dbPath) && !canWriteRecord(dbPath),
  pagesChecked: true,
});
const deps = { store, catalog: loadCatalog() };
// Ready for jobs: the pool sends none before this, so a job cancelled meanwhile never needs this worker stopped.
parentPort?.postMessage({ ready: true } satisfies WorkerReady);

/** Progress goes to the main thread at most this often (and the last step of a stage always). */
const PROGRESS_EVERY_MS = 250;

parentPort?.on("message", (request: JobRequest) => {
  let reply: JobReply;
  let lastSent = -Infinity;
  const progress = (step: ProgressStep): void => {
    const now = performance.now();
    if (now - lastSent < PROGRESS_EVERY_MS && step.done < step.total) return;
    lastSent = now;
    const message: JobProgress = { id: request.id, progress: step };
    parentPort?.postMessage(message);
  };
  try {
    progress({ stage: "reading the record", done: 0, total: 1, unit: "step" });
    // A cancelled job throws AnalysisStopped out of its loops (the pool raised its flag): this worker is
    // then free for the next job at once.
    const result = withCancellation(request.cancel, () =>
      withProgress(progress, () =>
        runJob(deps, request.job as AnalysisJob, request.args as never, request.principal),
      ),
    );
    reply = { id: request.id, ok: true, result };
  } catch (error) {
    if (error instanceof AnalysisStopped) {
      parentPort?.postMessage({ id: request.id, stopped: true } satisfies JobStopped);
      return;
    }
    const usage = error instanceof UsageError || (error instanceof Error && error.name === "ZodError");
    if (!usage) logError(`analysis ${request.job} failed`, error);
    reply = {
      id: request.id,
      ok: false,
      usage,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  parentPort?.postMessage(reply);
});
