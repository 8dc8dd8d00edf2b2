// The worker of permutation-replicates.ts: the same permutation rows, on another thread, job after job.
// `loaded` says 1 once its modules have loaded. Each job's own flag says 3 while it runs, then 1 when the
// rows are filled or 2 when it failed (its message on the job's port) or the worker stopped.
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { type CancellationFlag, withCancellation } from "../progress/analysis-cancellation.js";
import { type PermutationJob, permutationRows } from "./permutation-replicates.js";

interface Job {
  readonly job: PermutationJob;
  readonly rows: SharedArrayBuffer;
  readonly flag: Int32Array;
  readonly port: MessagePort;
  /** The flag of the analysis that posted the job: raised, the job stops (and fails) at its next cell. */
  readonly cancel: CancellationFlag | null;
}

const { loaded } = workerData as { loaded: Int32Array };
const settle = (flag: Int32Array, state: 1 | 2): void => {
  Atomics.compareExchange(flag, 0, 3, state);
  Atomics.notify(flag, 0);
};
let current: Int32Array | null = null;
process.on("exit", () => {
  if (current !== null) settle(current, 2);
});
parentPort?.on("message", ({ job, rows, flag, port, cancel }: Job) => {
  current = flag;
  Atomics.store(flag, 0, 3);
  Atomics.notify(flag, 0);
  try {
    withCancellation(cancel, () => permutationRows(job, new Float64Array(rows)));
    settle(flag, 1);
  } catch (error) {
    port.postMessage(String(error));
    settle(flag, 2);
  }
  current = null;
  port.close();
});
Atomics.store(loaded, 0, 1);
