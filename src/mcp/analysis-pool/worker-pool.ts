import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ProgressStep } from "../../analysis/progress/analysis-progress.js";
import { logError } from "../../log.js";
import { UsageError } from "../../usage-error.js";
import { type AnalysisCall, AnalysisCancelled, type AnalysisRunner } from "../analysis-runner.js";
import type { AnalysisJob, JobArgs, JobResult } from "./analysis-jobs.js";

export interface JobRequest {
  id: number;
  job: string;
  args: unknown;
  principal: string;
}

export type JobReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; usage: boolean; message: string };

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
}

/** Workers beside the event loop: at most one per spare core, at least one, at most four. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * A small fixed pool of analysis workers (node:worker_threads) over one record file, so a heavy analysis
 * of one client never stalls another client's moves on the event loop. Jobs wait in one FIFO queue; a
 * worker that dies fails its job and is replaced. Workers start with the first job (a server that is
 * never asked for an analysis pays nothing at start-up) and are unref'd: they never keep the process alive.
 */
export class AnalysisPool implements AnalysisRunner {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly dbPath: string,
    private readonly size: number = defaultPoolSize(),
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
      const request: JobRequest = { id: this.nextId++, job, args, principal };
      const pending: Pending = { request, call, resolve: resolve as (value: unknown) => void, reject };
      const settle = (settled: (value: never) => void) => (value: never) => {
        call.signal?.removeEventListener("abort", onAbort);
        settled(value);
      };
      pending.resolve = settle(pending.resolve);
      pending.reject = settle(pending.reject);
      const onAbort = () => this.cancel(pending);
      call.signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(pending);
      while (this.slots.length < this.size) this.slots.push(this.spawn());
      this.dispatch();
    });
  }

  /**
   * A cancelled job: dropped from the queue, or, when it is running, stopped by terminating its worker —
   * the analysis is one synchronous computation, so terminating is the one way to stop it at once — which
   * the next job replaces with a fresh worker.
   */
  private cancel(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) this.queue.splice(queued, 1);
    const slot = this.slots.find((s) => s.busy === pending);
    if (slot !== undefined) {
      // Out of the pool at once (a stopping worker takes no job); the next job starts a fresh one.
      slot.busy = null;
      this.slots.splice(this.slots.indexOf(slot), 1);
      void slot.worker.terminate();
    }
    if (queued >= 0 || slot !== undefined) pending.reject(new AnalysisCancelled(pending.request.job));
    if (this.queue.length > 0) while (this.slots.length < this.size) this.slots.push(this.spawn());
    this.dispatch();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queue.splice(0)) pending.reject(new Error("The server is shutting down."));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(new URL("./analysis-worker.js", import.meta.url), {
      workerData: { dbPath: this.dbPath },
    });
    worker.unref();
    const slot: Slot = { worker, busy: null };
    worker.on("message", (reply: JobReply | JobProgress) => {
      if ("progress" in reply) {
        if (slot.busy?.request.id === reply.id) slot.busy.call.onProgress?.(reply.progress);
        return;
      }
      const pending = slot.busy;
      slot.busy = null;
      if (pending && pending.request.id === reply.id) {
        if (reply.ok) pending.resolve(reply.result);
        else pending.reject(reply.usage ? new UsageError(reply.message) : new Error(reply.message));
      }
      this.dispatch();
    });
    worker.on("error", (error) => {
      logError("analysis worker failed", error);
    });
    worker.on("exit", () => {
      if (this.closed) return;
      slot.busy?.reject(new Error("The analysis worker stopped; try the call again."));
      slot.busy = null;
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots[index] = this.spawn();
      this.dispatch();
    });
    return slot;
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy !== null) continue;
      const next = this.queue.shift();
      if (!next) return;
      slot.busy = next;
      slot.worker.postMessage(next.request);
    }
  }
}
