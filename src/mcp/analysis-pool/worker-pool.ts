import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import {
  type CancellationFlag,
  newCancellationFlag,
  raiseCancellation,
} from "../../analysis/progress/analysis-cancellation.js";
import type { ProgressStep } from "../../analysis/progress/analysis-progress.js";
import { logError } from "../../log.js";
import { UsageError } from "../../usage-error.js";
import { type AnalysisCall, AnalysisCancelled, type AnalysisRunner } from "../analysis-runner.js";
import type { AnalysisJob, JobArgs, JobResult } from "./analysis-jobs.js";
import { PrincipalQueues } from "./principal-queues.js";

export interface JobRequest {
  id: number;
  job: string;
  args: unknown;
  principal: string;
  /** Raised by the pool when the job is cancelled: the worker's analysis stops at its next check. */
  cancel: CancellationFlag;
}

export type JobReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; usage: boolean; message: string };

/** Sent by a worker once it has opened the record and loaded the catalog: it can take a job. */
export interface WorkerReady {
  ready: true;
}

/** Sent by a worker whose job stopped because it was cancelled: it is free for the next one. */
export interface JobStopped {
  id: number;
  stopped: true;
}

/** Sent by a worker while a job runs: how far it got. */
export interface JobProgress {
  id: number;
  progress: ProgressStep;
}

interface Pending {
  request: JobRequest;
  call: AnalysisCall;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  /**
   * Whether the worker has started (WorkerReady). A job waits in its queue until then, where cancelling it
   * costs nothing, instead of in a starting worker that would have to be stopped to cancel it.
   */
  ready: boolean;
  /** A worker started beyond the pool's size for a principal that had none; it stops when idle. */
  extra: boolean;
  /**
   * The job this worker was asked to stop (its caller has its answer already), until the worker says it
   * stopped, or, past STOP_FALLBACK_MS, the worker is terminated (and replaced when a job waits). It takes no job meanwhile.
   */
  stopping: { id: number; fallback: NodeJS.Timeout } | null;
  /** The id of the last job this worker was given (0: none yet): the most recent goes first (dispatch). */
  lastJob: number;
}

/**
 * How long a cancelled job's worker may take to leave the analysis' loops (they look at the job's flag
 * every cell or data set, typically every few milliseconds) before it is terminated and replaced, which
 * costs a worker's start-up (seconds on a loaded machine) instead.
 */
const STOP_FALLBACK_MS = 1000;

/**
 * Workers the pool may start beyond its size, one each for a principal whose first job finds every worker
 * busy with other principals' jobs: that job then shares the cores at once instead of waiting for a long
 * analysis of someone else to end.
 */
const EXTRA_WORKERS = 4;

/**
 * Workers beside the event loop: one per core, at most four. They run at a lower priority than the event
 * loop (see analysis-worker.ts), so on a machine of two cores both work on analyses while moves still
 * come first.
 */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

/**
 * A small fixed pool of analysis workers (node:worker_threads) over one record file, so a heavy analysis
 * of one client never stalls another client's moves on the event loop. Each principal's jobs wait in a
 * FIFO queue of its own and a free worker takes the next job of the principals in turn (round-robin), so
 * a client that queues many heavy analyses delays its own, not another client's. A principal with
 * nothing running goes first, on an extra worker when every worker is busy (EXTRA_WORKERS). A cancelled
 * job stops inside its worker, which then takes the next job (cancel). A worker that dies fails its job and
 * is replaced. Workers start with the first job (a server that is
 * never asked for an analysis pays nothing at start-up) and are unref'd: they never keep the process alive.
 */
export class AnalysisPool implements AnalysisRunner {
  private readonly slots: Slot[] = [];
  private readonly queues = new PrincipalQueues<Pending>();
  /** Jobs running now, by principal. */
  private readonly running = new Map<string, number>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly dbPath: string,
    private readonly size: number = defaultPoolSize(),
    /** EXTRA_WORKERS, or 0 where the operator bounds the record's connections (`--db-pool`). */
    private readonly extraWorkers: number = EXTRA_WORKERS,
  ) {}

  run<J extends AnalysisJob>(
    job: J,
    args: JobArgs<J>,
    principal: string,
    call: AnalysisCall = {},
  ): Promise<JobResult<J>> {
    if (this.closed) return Promise.reject(new Error("The analysis pool is closed."));
    if (call.signal?.aborted) return Promise.reject(new AnalysisCancelled(job));
    return new Promise<JobResult<J>>((resolve, reject) => {
      const request: JobRequest = { id: this.nextId++, job, args, principal, cancel: newCancellationFlag() };
      const pending: Pending = { request, call, resolve: resolve as (value: unknown) => void, reject };
      const settle = (settled: (value: never) => void) => (value: never) => {
        call.signal?.removeEventListener("abort", onAbort);
        settled(value);
      };
      pending.resolve = settle(pending.resolve);
      pending.reject = settle(pending.reject);
      const onAbort = () => this.cancel(pending);
      call.signal?.addEventListener("abort", onAbort, { once: true });
      this.queues.push(principal, pending);
      while (this.slots.length < this.size) this.slots.push(this.spawn(false));
      // A worker stopping a cancelled job counts as idle: it is free within milliseconds, far sooner than an
      // extra worker would start.
      const idle = this.slots.some((slot) => slot.busy === null);
      if (!idle && !this.running.has(principal) && this.slots.length < this.size + this.extraWorkers) {
        this.slots.push(this.spawn(true));
      }
      this.dispatch();
    });
  }

  /**
   * A cancelled job: dropped from the queue, or, when it is running, asked to stop: its flag is raised and
   * the worker's analysis throws out of its loops at the next check, leaving the worker free for the next
   * job. A worker that has not stopped within STOP_FALLBACK_MS (a long step without a check) is
   * terminated and replaced.
   */
  private cancel(pending: Pending): void {
    const queued = this.queues.remove((waiting) => waiting === pending).length > 0;
    const slot = this.slots.find((s) => s.busy === pending);
    if (slot !== undefined) {
      raiseCancellation(pending.request.cancel);
      // No longer its principal's job: the principal's next job is scheduled as if this one had ended.
      this.release(slot);
      const fallback = setTimeout(() => this.replace(slot), STOP_FALLBACK_MS);
      fallback.unref();
      slot.stopping = { id: pending.request.id, fallback };
    }
    if (queued || slot !== undefined) pending.reject(new AnalysisCancelled(pending.request.job));
    this.dispatch();
  }

  /**
   * A worker that did not stop when asked: terminated, and a fresh one started in its place only when a
   * job is waiting (otherwise `run` starts it with the next job). A cancelled analysis then leaves the
   * server idle, instead of spending a worker's start-up — a few hundred ms of CPU, seconds on a loaded
   * machine — on a job nobody has asked for yet.
   */
  private replace(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (this.closed || index < 0) return;
    // Out of the pool first, so that its exit is no failure to handle.
    this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (this.queues.size > 0) while (this.slots.length < this.size) this.slots.push(this.spawn(false));
    this.dispatch();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queues.drain()) pending.reject(new Error("The server is shutting down."));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(extra: boolean): Slot {
    const worker = new Worker(new URL("./analysis-worker.js", import.meta.url), {
      workerData: { dbPath: this.dbPath },
    });
    const slot: Slot = { worker, busy: null, ready: false, extra, stopping: null, lastJob: 0 };
    worker.on("message", (reply: JobReply | JobProgress | JobStopped | WorkerReady) => {
      if ("ready" in reply) {
        slot.ready = true;
        this.dispatch();
        return;
      }
      if (slot.stopping !== null && slot.stopping.id === reply.id) {
        // The cancelled job's last word (stopped, or finished just before it saw its flag): nobody waits
        // for it, and the worker is free again.
        if ("progress" in reply) return;
        clearTimeout(slot.stopping.fallback);
        slot.stopping = null;
        this.dispatch();
        return;
      }
      if ("progress" in reply) {
        if (slot.busy?.request.id === reply.id) slot.busy.call.onProgress?.(reply.progress);
        return;
      }
      // The job's end. A job that stopped without being asked to (only the pool raises its flag) ends too:
      // its caller is told, never left waiting.
      const pending = slot.busy;
      this.release(slot);
      if (pending && pending.request.id === reply.id) {
        if ("stopped" in reply)
          pending.reject(new Error("The analysis stopped before its end; try the call again."));
        else if (reply.ok) pending.resolve(reply.result);
        else pending.reject(reply.usage ? new UsageError(reply.message) : new Error(reply.message));
      }
      this.dispatch();
    });
    worker.on("error", (error) => {
      logError("analysis worker failed", error);
    });
    worker.on("exit", () => {
      if (slot.stopping !== null) clearTimeout(slot.stopping.fallback);
      slot.stopping = null;
      const index = this.slots.indexOf(slot);
      if (this.closed || index < 0) return;
      slot.busy?.reject(new Error("The analysis worker stopped; try the call again."));
      this.release(slot);
      this.slots[index] = this.spawn(slot.extra);
      this.dispatch();
    });
    // After the listeners: adding a "message" listener refs the worker's port again, and a ref'd port
    // would keep the process alive after its client has gone (stdin closed).
    worker.unref();
    return slot;
  }

  /** A slot's job is over: it no longer counts as its principal's running job. */
  private release(slot: Slot): void {
    const principal = slot.busy?.request.principal;
    slot.busy = null;
    if (principal === undefined) return;
    const left = (this.running.get(principal) ?? 1) - 1;
    if (left === 0) this.running.delete(principal);
    else this.running.set(principal, left);
  }

  /**
   * Free workers take the waiting jobs, the one given a job most recently first. One client's calls one
   * after another then run on one worker, whose heap has already grown to the record and whose
   * permutation thread is already up, while the other stays as small as it started. Taken in the order
   * they were started instead, the second call went to the first-started worker whenever the first call
   * had gone to the one that happened to be ready first, and at a large record both workers (and both
   * their permutation threads) then held an analysis' memory: 1.5 times the server's peak at 1M decisions.
   */
  private dispatch(): void {
    const warmestFirst = [...this.slots].sort((a, b) => b.lastJob - a.lastJob);
    for (const slot of warmestFirst) {
      if (slot.busy !== null || slot.stopping !== null || !slot.ready) continue;
      // Principals with nothing running first, then the rest in turn.
      const next = this.queues.shift((principal) => !this.running.has(principal));
      if (!next) {
        if (slot.extra) this.retire(slot);
        continue;
      }
      slot.busy = next;
      slot.lastJob = next.request.id;
      const principal = next.request.principal;
      this.running.set(principal, (this.running.get(principal) ?? 0) + 1);
      slot.worker.postMessage(next.request);
    }
  }

  /** An extra worker with nothing to do leaves the pool (its exit is then no failure to replace). */
  private retire(slot: Slot): void {
    this.slots.splice(this.slots.indexOf(slot), 1);
    void slot.worker.terminate();
  }
}
