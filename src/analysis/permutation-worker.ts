// The worker of permutation-replicates.ts: the same permutation rows, on another thread. The shared flag
// says 3 once its modules have loaded, then 1 when the rows are filled or 2 when it failed or stopped.
import { type MessagePort, workerData } from "node:worker_threads";
import { type PermutationJob, permutationRows } from "./permutation-replicates.js";

const { job, rows, flag, port } = workerData as {
  job: PermutationJob;
  rows: SharedArrayBuffer;
  flag: Int32Array;
  port: MessagePort;
};
const settle = (state: 1 | 2): void => {
  Atomics.compareExchange(flag, 0, 3, state);
  Atomics.notify(flag, 0);
};
process.on("exit", () => settle(2));
Atomics.store(flag, 0, 3);
Atomics.notify(flag, 0);
try {
  permutationRows(job, new Float64Array(rows));
  settle(1);
} catch (error) {
  port.postMessage(String(error));
  settle(2);
}
port.close();
