import { expect, it } from "vitest";
import type { ProgressStep } from "../../src/analysis/progress/analysis-progress.js";
import { type Pool, useBuiltPool } from "../support/built-analysis-pool.js";

// The analysis pool's side of cancellation, on the built pool (its worker file is compiled JavaScript):
// one worker, a long job running and one queued behind it. Cancelling the queued job drops it (it never
// reports progress and is refused at once, while the first still runs); cancelling the running one stops
// it inside its worker (the analysis throws out of its loop at its next check), and that same worker answers
// the next job at once: no worker is terminated and started again (seconds on a loaded machine).

/** The pool's one worker thread now (a private field, read to tell a reused worker from a replaced one). */
const workerThread = (pool: Pool): number | undefined =>
  (pool as unknown as { slots: { worker: { threadId: number } }[] }).slots[0]?.worker.threadId;
const built = useBuiltPool(1);

// Power by simulation: 1,000 data sets of 60 trials, each with a bootstrap of 500 — seconds of work.
const LONG = { baselineRate: 0.5, shift: 0.25, n: 60, simulations: 1_000, bootstrap: 500 };

it("drops a cancelled queued job, stops a cancelled running one, and answers the next", async () => {
  // The small job on its own (its worker started first), the anchor of the time the next one may take.
  await built.pool.run("power", { ...LONG, simulations: 2, seed: 7 }, "local");
  const t0 = performance.now();
  await built.pool.run("power", { ...LONG, simulations: 2, seed: 8 }, "local");
  const aloneMs = performance.now() - t0;
  const first = new AbortController();
  const firstSteps: ProgressStep[] = [];
  const running = built.pool.run("power", LONG, "local", {
    signal: first.signal,
    onProgress: (s) => firstSteps.push(s),
  });
  running.catch(() => {});
  const queuedSteps: ProgressStep[] = [];
  const second = new AbortController();
  const queued = built.pool.run("power", { ...LONG, seed: 2 }, "local", {
    signal: second.signal,
    onProgress: (s) => queuedSteps.push(s),
  });
  let runningSettled = false;
  running.then(
    () => (runningSettled = true),
    () => (runningSettled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 500));
  second.abort();
  await expect(queued).rejects.toThrow("The power analysis was cancelled.");
  expect(runningSettled).toBe(false);

  // The running job reports simulations as it goes (once its worker has started); then it is cancelled too.
  const simulating = () => firstSteps.some((s) => s.stage.startsWith("power by simulation"));
  for (let waited = 0; !simulating() && waited < 30_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const step = firstSteps.find((s) => s.stage.startsWith("power by simulation"));
  expect(step?.total).toBe(1_000);
  expect(step?.unit).toBe("data set");
  expect(runningSettled).toBe(false);
  const thread = workerThread(built.pool);
  const cancelledAt = performance.now();
  first.abort();
  await expect(running).rejects.toThrow("The power analysis was cancelled.");

  // n = 60 per framing at 50% against 75%: the shift test alone, with 2 data sets of R2, answers quickly —
  // within 1 s of the cancellation plus its time alone, from the worker that ran the cancelled job.
  const next = await built.pool.run("power", { ...LONG, simulations: 2 }, "local");
  const nextMs = performance.now() - cancelledAt;
  process.stderr.write(
    `pool cancel: next job answered ${nextMs.toFixed(0)} ms after the cancellation (${aloneMs.toFixed(0)} ms alone)\n`,
  );
  expect(workerThread(built.pool)).toBe(thread);
  expect(nextMs).toBeLessThanOrEqual(1000 + aloneMs);
  expect(next.r2_precision.simulations).toBe(2);
  expect(next.r2_precision.n).toBe(60);
  // The dropped job never ran (in the queue it would have run before this one, FIFO).
  expect(queuedSteps).toEqual([]);
}, 60_000);
