// Stopping a running analysis from outside it. The analyses are synchronous loops, so a caller on another
// thread (the MCP server's event loop, while a pool worker computes) cannot interrupt them; instead it raises
// a flag in shared memory that the loops read where they report progress (reportProgress) and between the
// units of a permutation run. The analysis then throws AnalysisStopped out of its loop, and the thread is free
// for the next job at once. The flag is ambient like the progress listener: set around one analysis by its
// runner; with none set (the CLI, tests, Table 3) a check costs one comparison.

/** One analysis' flag: 0 while it may run, 1 once its caller has given up on it. */
export type CancellationFlag = Int32Array;

/** Thrown out of an analysis whose flag was raised. */
export class AnalysisStopped extends Error {
  constructor() {
    super("The analysis was stopped by its caller.");
    this.name = "AnalysisStopped";
  }
}

let current: CancellationFlag | null = null;

/** A fresh flag, in shared memory so that another thread may raise it (postMessage shares, not copies, it). */
export function newCancellationFlag(): CancellationFlag {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** Asks the analysis running under `flag` to stop at its next check. */
export function raiseCancellation(flag: CancellationFlag): void {
  Atomics.store(flag, 0, 1);
}

/** The flag of the analysis running on this thread, if any: handed on to the threads it uses. */
export function currentCancellation(): CancellationFlag | null {
  return current;
}

/** Throws AnalysisStopped when the running analysis has been cancelled. */
export function throwIfCancelled(): void {
  if (current !== null && Atomics.load(current, 0) !== 0) throw new AnalysisStopped();
}

/** Runs `work` under `flag` (restoring the one before, so runs may nest). */
export function withCancellation<T>(flag: CancellationFlag | null, work: () => T): T {
  const before = current;
  current = flag;
  try {
    throwIfCancelled();
    return work();
  } finally {
    current = before;
  }
}
