// The permutation replicates of every robustness statistic (the null distribution of the invariance test),
// computed on the second core while the calling thread draws the bootstrap. The permutation
// has a seeded stream of its own (`${seed}:permutation`) that nothing else reads, so a worker thread that
// plans the same cells and runs the same code from the same seed writes the same numbers, bit for bit; the
// results never depend on whether a worker ran.
//
// The analysis is synchronous (one call, one answer), so the job is posted first, the caller does its
// own half, then sleeps on a shared flag (Atomics.wait) until the worker has filled the shared rows. The
// worker stays (unref'd: it never keeps the process alive) and takes the next analysis' job too, so a
// long-lived process — the MCP server, a notebook, a benchmark — pays its start once: a large analysis
// starts it and waits for it; a smaller one uses it when it is already up, and otherwise starts it for
// the next one and computes here. Tiny analyses, an environment without the compiled worker file (running
// from TypeScript sources), or SAME_GAME_ANALYSIS_THREADS=1 compute in the calling thread; so does a
// worker that failed (the next analysis starts a new one).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MessageChannel, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { CountCell } from "../count-cells.js";
import {
  type CancellationFlag,
  currentCancellation,
  throwIfCancelled,
} from "../progress/analysis-cancellation.js";
import { planRobustness, type RobustnessPlan } from "../robustness/robustness-plan.js";
import { StatisticsEvaluator } from "../robustness/robustness-statistics.js";
import { createBootstrapRng } from "../sampling/fast-rng.js";
import type { ClusterSumMethod } from "../sampling/normal-cluster-sums.js";
import { permutationFill } from "./invariance-permutation.js";

/** What the worker needs to rebuild the same plan and statistics. */
export interface PermutationJob {
  readonly cells: readonly CountCell[];
  readonly framings: readonly string[] | undefined;
  readonly cooperativeAction: Readonly<Record<string, string | null>>;
  readonly actions?: Readonly<Record<string, readonly string[]>>;
  readonly attenuation: number;
  readonly seed: number;
  readonly bootstrap: number;
  /** Where session sums may be drawn from their normal approximation (normal-cluster-sums). */
  readonly clusterSums?: ClusterSumMethod;
}

/** How long a worker may take to load its modules before this thread does the work itself. */
const START_TIMEOUT_MS = 10_000;

/**
 * From this many (player, game) × replicates an analysis waits for a worker to start (30–50 ms, loading
 * its modules): below it the start-up outweighs the saving, and the analysis uses a worker only if one
 * is already running.
 */
const WORKER_THRESHOLD = 400_000;

/**
 * From this many an analysis is worth handing to a running worker (the Table-3 analysis, 12 units ×
 * B = 10⁴, is; one game at B = 2,000 is not: posting the job costs about what its permutations do).
 */
const RESIDENT_THRESHOLD = 50_000;

/** How often an analysis waiting for the worker's rows looks whether it was cancelled meanwhile. */
const CANCEL_CHECK_MS = 50;

/**
 * The worker that stays between analyses; `loaded[0]` turns 1 once its modules have loaded, 2 once it
 * leaves (after a job that grew its heap past a limit, permutation-worker.ts).
 */
interface Resident {
  readonly worker: Worker;
  readonly loaded: Int32Array;
}
let resident: Resident | null = null;
/** A process that runs one analysis and exits (the CLI) starts no worker for the next one: there is none. */
let oneAnalysisPerProcess = false;

/** Called by the CLI's analysis verbs: a worker only where this analysis itself pays for its start. */
export function runsOneAnalysis(): void {
  oneAnalysisPerProcess = true;
}

function startResident(script: URL): Resident | null {
  const loaded = new Int32Array(new SharedArrayBuffer(4));
  let worker: Worker;
  try {
    worker = new Worker(script, { workerData: { loaded } });
  } catch {
    return null;
  }
  worker.unref();
  const started: Resident = { worker, loaded };
  // A failed or stopped worker is forgotten; its job is answered here (take) and the next starts anew.
  worker.on("error", () => {});
  worker.on("exit", () => {
    if (resident === started) resident = null;
  });
  return started;
}

/** The rows of an analysis already planned: what the calling thread computes when no worker does. */
export function fillPermutationRows(
  plan: RobustnessPlan,
  evaluator: StatisticsEvaluator,
  seed: number,
  bootstrap: number,
  out: Float64Array,
  method: ClusterSumMethod = "exact",
): void {
  const fill = permutationFill(plan, createBootstrapRng(`${seed}:permutation`), false, method);
  // A cancelled analysis stops here between cells, on whichever thread computes the rows.
  const cancellable = Object.assign(
    (cell: number, replicates: number, counts: Int32Array) => {
      throwIfCancelled();
      fill(cell, replicates, counts);
    },
    { statisticScale: fill.statisticScale },
  );
  evaluator.evaluate(cancellable, bootstrap, out);
}

/** The rows from the job alone (planning it again): the worker's body, and the reference path. */
export function permutationRows(job: PermutationJob, out: Float64Array): void {
  const plan = planRobustness(job.cells, job.framings, job.cooperativeAction, job.actions);
  fillPermutationRows(
    plan,
    new StatisticsEvaluator(plan, job.attenuation),
    job.seed,
    job.bootstrap,
    out,
    job.clusterSums,
  );
}

export interface PendingPermutation {
  /** Where the rows are computed: a worker thread, or this thread at `take()`. */
  readonly where: "worker" | "thread";
  /** Wait for the rows (statistic s, replicate r at s·bootstrap + r). */
  take(): Float64Array;
}

/**
 * Start the permutation replicates of `job` (`count` statistics): on a worker thread when worthwhile,
 * else lazily in the calling thread at `take()`, by `local` (the caller's own plan, not planned again)
 * when given.
 */
export function startPermutationRows(
  job: PermutationJob,
  count: number,
  units: number,
  local: (out: Float64Array) => void = (out) => permutationRows(job, out),
): PendingPermutation {
  const inThread: PendingPermutation = {
    where: "thread",
    take() {
      const out = new Float64Array(count * job.bootstrap);
      local(out);
      return out;
    },
  };
  const script = new URL("./permutation-worker.js", import.meta.url);
  const size = units * job.bootstrap;
  if (
    size < (oneAnalysisPerProcess ? WORKER_THRESHOLD : RESIDENT_THRESHOLD) ||
    process.env.SAME_GAME_ANALYSIS_THREADS === "1" ||
    script.protocol !== "file:" ||
    !existsSync(fileURLToPath(script))
  ) {
    return inThread;
  }
  // A worker that left after a large job (permutation-worker.ts) is replaced, even before its exit event.
  if (resident !== null && Atomics.load(resident.loaded, 0) === 2) resident = null;
  if (resident === null) resident = startResident(script);
  const running = resident;
  if (running === null) return inThread;
  // A smaller analysis does not wait for the worker's modules to load: it leaves it starting for the next.
  if (size < WORKER_THRESHOLD && Atomics.load(running.loaded, 0) !== 1) return inThread;
  const rows = new SharedArrayBuffer(count * job.bootstrap * Float64Array.BYTES_PER_ELEMENT);
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  // The worker stops too when this analysis is cancelled: it shares the analysis' flag.
  const cancel: CancellationFlag | null = currentCancellation();
  try {
    running.worker.postMessage({ job, rows, flag, port: port2, cancel }, [port2]);
  } catch {
    return inThread;
  }
  return {
    where: "worker",
    take() {
      // 0: not started, 3: running, 1: done, 2: failed (its message on the port). A worker whose modules
      // never loaded stays at 0: after START_TIMEOUT_MS the rows are computed here instead. A running
      // worker that stops early sets 2 from its exit handler.
      const started = performance.now();
      while (Atomics.load(flag, 0) === 0 && performance.now() - started < START_TIMEOUT_MS)
        Atomics.wait(flag, 0, 0, 50);
      // Woken now and then to see whether the analysis was cancelled meanwhile (then the worker stops too).
      while (Atomics.load(flag, 0) === 3) {
        Atomics.wait(flag, 0, 3, CANCEL_CHECK_MS);
        if (Atomics.load(flag, 0) === 3) throwIfCancelled();
      }
      const done = Atomics.load(flag, 0) === 1;
      receiveMessageOnPort(port1);
      port1.close();
      // A worker stopped by this analysis' cancellation is sound: it keeps its place for the next job.
      if (!done) throwIfCancelled();
      if (!done) {
        // Stuck or failed: not trusted with another job.
        if (resident === running) resident = null;
        void running.worker.terminate();
      }
      return done ? new Float64Array(rows) : inThread.take();
    },
  };
}
