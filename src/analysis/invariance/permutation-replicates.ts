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
import { deferredSessionDesignNull, permutationFill } from "./invariance-permutation.js";
import { type PackedCells, packCells, unpackCells } from "./packed-cells.js";

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

/** The job as posted to the worker: its cells packed (packed-cells.ts). */
export type PostedJob = Omit<PermutationJob, "cells"> & { readonly packed: PackedCells };

/** The job a worker received, its cells rebuilt. */
export function receivedJob({ packed, ...job }: PostedJob): PermutationJob {
  return { ...job, cells: unpackCells(packed) };
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
  /** Given (a worker whose caller helps), units whose draws can be deferred are shared through it. */
  handoff?: Int32Array,
): void {
  const share = handoff === undefined ? undefined : publisher(handoff);
  const fill = permutationFill(plan, createBootstrapRng(`${seed}:permutation`), false, method, share);
  // A cancelled analysis stops here between cells, on whichever thread computes the rows.
  const cancellable = Object.assign(
    (cell: number, replicates: number, counts: Int32Array) => {
      throwIfCancelled();
      fill(cell, replicates, counts);
    },
    { statisticScale: fill.statisticScale, defers: fill.defers },
  );
  const helped =
    handoff === undefined
      ? undefined
      : () => {
          close(handoff);
          const compute = deferredUnits(plan, evaluator, bootstrap, method);
          while (helpOnce(handoff, (unit, state) => compute(unit, state, out))) throwIfCancelled();
          // The caller's thread may still be computing the last ones it took.
          for (;;) {
            const signal = Atomics.load(handoff, SIGNAL);
            if (Atomics.load(handoff, FINISHED) === Atomics.load(handoff, PUBLISHED)) break;
            Atomics.wait(handoff, SIGNAL, signal, CANCEL_CHECK_MS);
            throwIfCancelled();
          }
        };
  evaluator.evaluate(cancellable, bootstrap, out, helped);
}

// The units whose draws are deferred (permutationFill's `defer`): the worker publishes each one's stream
// state as it passes over it, and both threads take them, one at a time, once their own part is done —
// the caller's thread after its bootstrap, the worker after the other units — so that the two end close
// together. A deferred unit's rows are the same numbers on either thread (the same draws from the same
// stream state, the same code). Layout of the shared Int32Array: counters, then per unit its index and
// its five words of stream state.
const PUBLISHED = 0;
const CLAIMED = 1;
const FINISHED = 2;
const CLOSED = 3;
/** Bumped (and waited on) whenever a unit is published or finished, or the worker's pass ends. */
const SIGNAL = 4;
const HEADER = 8;
const ENTRY = 6;

/** The shared handoff of an analysis of `units` (player, game)s. */
export function createHandoff(units: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer((HEADER + units * ENTRY) * Int32Array.BYTES_PER_ELEMENT));
}

function bump(handoff: Int32Array): void {
  Atomics.add(handoff, SIGNAL, 1);
  Atomics.notify(handoff, SIGNAL);
}

function publisher(handoff: Int32Array): (unit: number, state: Int32Array) => void {
  return (unit, state) => {
    const i = Atomics.load(handoff, PUBLISHED);
    handoff[HEADER + i * ENTRY] = unit;
    handoff.set(state, HEADER + i * ENTRY + 1);
    Atomics.store(handoff, PUBLISHED, i + 1);
    bump(handoff);
  };
}

function close(handoff: Int32Array): void {
  Atomics.store(handoff, CLOSED, 1);
  bump(handoff);
}

/** Takes one published unit not yet taken and computes it; false when none is there now. */
function helpOnce(handoff: Int32Array, compute: (unit: number, state: Int32Array) => void): boolean {
  for (;;) {
    const i = Atomics.load(handoff, CLAIMED);
    if (i >= Atomics.load(handoff, PUBLISHED)) return false;
    if (Atomics.compareExchange(handoff, CLAIMED, i, i + 1) !== i) continue;
    const at = HEADER + i * ENTRY;
    try {
      compute(handoff[at] as number, handoff.slice(at + 1, at + ENTRY));
    } finally {
      // Counted even when it failed (the analysis fails then), so that no thread waits for it forever.
      Atomics.add(handoff, FINISHED, 1);
      bump(handoff);
    }
    return true;
  }
}

/**
 * The caller's part of the deferred units: takes them while the worker's pass runs and after, until the
 * pass has ended and none is left to take. Waits in steps, to see whether the analysis was cancelled.
 */
export function helpWithDeferred(
  handoff: Int32Array,
  compute: (unit: number, state: Int32Array) => void,
  running: () => boolean,
): void {
  while (running()) {
    const signal = Atomics.load(handoff, SIGNAL);
    if (helpOnce(handoff, compute)) {
      throwIfCancelled();
      continue;
    }
    if (Atomics.load(handoff, CLOSED) === 1) return;
    Atomics.wait(handoff, SIGNAL, signal, CANCEL_CHECK_MS);
    throwIfCancelled();
  }
}

/** Computes a deferred unit's rows into `out`: its null from the stream state given, then its statistics. */
export function deferredUnits(
  plan: RobustnessPlan,
  evaluator: StatisticsEvaluator,
  bootstrap: number,
  method: ClusterSumMethod = "exact",
): (unit: number, state: Int32Array, out: Float64Array) => void {
  return (unit, state, out) => {
    const { counts, scale } = deferredSessionDesignNull(plan, unit, state, bootstrap, method);
    evaluator.evaluateUnit(unit, counts, scale, bootstrap, out);
  };
}

/** The rows from the job alone (planning it again): the worker's body, and the reference path. */
export function permutationRows(job: PermutationJob, out: Float64Array, handoff?: Int32Array): void {
  const plan = planRobustness(job.cells, job.framings, job.cooperativeAction, job.actions);
  fillPermutationRows(
    plan,
    new StatisticsEvaluator(plan, job.attenuation),
    job.seed,
    job.bootstrap,
    out,
    job.clusterSums,
    handoff,
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
  /**
   * The caller's own way to compute a deferred unit's rows (`deferredUnits` over its plan): given, a
   * worker defers the units it can, and `take()` computes its share of them before it waits.
   */
  help?: (unit: number, state: Int32Array, out: Float64Array) => void,
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
  const handoff = help === undefined ? undefined : createHandoff(units);
  try {
    const { cells, ...rest } = job;
    const posted: PostedJob = { ...rest, packed: packCells(cells) };
    running.worker.postMessage({ job: posted, rows, flag, port: port2, cancel, handoff }, [port2]);
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
      // This thread's share of the deferred units, while the worker runs (it computes whatever is left).
      if (handoff !== undefined && help !== undefined) {
        const out = new Float64Array(rows);
        helpWithDeferred(
          handoff,
          (unit, state) => help(unit, state, out),
          () => Atomics.load(flag, 0) === 3,
        );
      }
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
