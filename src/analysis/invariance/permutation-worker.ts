// The worker of permutation-replicates.ts: the same permutation rows, on another thread, job after job.
// `loaded` says 1 once its modules have loaded, 2 once it is leaving (see the end of a job). Each job's own flag says 3 while it runs, then 1 when the
// rows are filled or 2 when it failed (its message on the job's port) or the worker stopped.
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { type CancellationFlag, withCancellation } from "../progress/analysis-cancellation.js";
import { type PostedJob, permutationRows, receivedJob } from "./permutation-replicates.js";

/**
 * This thread's heap and buffers past which it leaves after a job (see the end of a job below); a test
 * may give another through workerData. Above what a 10,000-decision analysis leaves (heap 25–42 MB and
 * buffers 5–37 MB, the job's shared rows among them, measured after B = 10,000 jobs: at 64 MB one job in
 * six or eight left, and the next analysis waited for a fresh thread and ran it cold), below what a
 * million-decision one leaves (its heap alone about 100 MB).
 */
const RETIRE_BYTES = 96 * 1024 * 1024;

interface Job {
  readonly job: PostedJob;
  readonly rows: SharedArrayBuffer;
  readonly flag: Int32Array;
  readonly port: MessagePort;
  /** The flag of the analysis that posted the job: raised, the job stops (and fails) at its next cell. */
  readonly cancel: CancellationFlag | null;
  /** Given, units whose draws can wait are shared with the posting thread (permutation-replicates.ts). */
  readonly handoff?: Int32Array;
}

const { loaded, retireBytes = RETIRE_BYTES } = workerData as { loaded: Int32Array; retireBytes?: number };
const settle = (flag: Int32Array, state: 1 | 2): void => {
  Atomics.compareExchange(flag, 0, 3, state);
  Atomics.notify(flag, 0);
};
let current: Int32Array | null = null;
process.on("exit", () => {
  if (current !== null) settle(current, 2);
});
parentPort?.on("message", ({ job, rows, flag, port, cancel, handoff }: Job) => {
  current = flag;
  Atomics.store(flag, 0, 3);
  Atomics.notify(flag, 0);
  let leaving = false;
  try {
    withCancellation(cancel, () => permutationRows(receivedJob(job), new Float64Array(rows), handoff));
    // A job over a large record leaves this thread's heap grown to it (the cells, the plan, the null's
    // tables: about 100 MB at a million decisions against 20–40 MB at ten thousand), which V8 keeps
    // between jobs. The thread then leaves, its memory with it, and the next analysis starts a fresh one
    // (tens of milliseconds beside the seconds such an analysis takes), so a long-lived server does not
    // hold the last large analysis' memory on top of the next one's. Said in `loaded` before the rows
    // are, so no analysis posts its job to a thread that is leaving.
    const { heapTotal, arrayBuffers } = process.memoryUsage();
    leaving = heapTotal + arrayBuffers > retireBytes;
    if (leaving) Atomics.store(loaded, 0, 2);
    settle(flag, 1);
  } catch (error) {
    port.postMessage(String(error));
    settle(flag, 2);
  }
  current = null;
  port.close();
  if (leaving) process.exit(0);
});
Atomics.store(loaded, 0, 1);
