import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { logError } from "../../log.js";
import { UsageError } from "../../usage-error.js";
import type { AnalysisRunner } from "../analysis-runner.js";
import type { AnalysisJob, JobArgs, JobResult } from "./analysis-jobs.js";
import { PrincipalQueues } from "./principal-queues.js";

export interface JobRequest {
  id: number;
  job: string;
  args: unknown;
  principal: string;
}

export type JobReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; usage: boolean; message: string };

interface Pending {
  request: JobRequest;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

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
 * a client that queues many heavy analyses delays its own, not another client's; a worker that dies fails
 * its job and is replaced. Workers start with the first job (a server that is
 * never asked for an analysis pays nothing at start-up) and are unref'd: they never keep the process alive.
 */
export class AnalysisPool implements AnalysisRunner {
  private readonly slots: Slot[] = [];
  private readonly queues = new PrincipalQueues<Pending>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly dbPath: string,
    private readonly size: number = defaultPoolSize(),
  ) {}

  run<J extends AnalysisJob>(job: J, args: JobArgs<J>, principal: string): Promise<JobResult<J>> {
    if (this.closed) return Promise.reject(new Error("The analysis pool is closed."));
    return new Promise<JobResult<J>>((resolve, reject) => {
      const request: JobRequest = { id: this.nextId++, job, args, principal };
      this.queues.push(principal, { request, resolve: resolve as (value: unknown) => void, reject });
      while (this.slots.length < this.size) this.slots.push(this.spawn());
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.queues.drain()) pending.reject(new Error("The server is shutting down."));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private spawn(): Slot {
    const worker = new Worker(new URL("./analysis-worker.js", import.meta.url), {
      workerData: { dbPath: this.dbPath },
    });
    worker.unref();
    const slot: Slot = { worker, busy: null };
    worker.on("message", (reply: JobReply) => {
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
      const next = this.queues.shift();
      if (!next) return;
      slot.busy = next;
      slot.worker.postMessage(next.request);
    }
  }
}
