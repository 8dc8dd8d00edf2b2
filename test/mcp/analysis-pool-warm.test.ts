import { expect, it } from "vitest";
import { type Pool, useBuiltPool } from "../support/built-analysis-pool.js";

// The analysis pool gives a call to the worker that ran the last one, on the built pool (its worker file
// is compiled JavaScript): two workers, calls one after another. Whichever worker starts first takes the
// first call; every later call goes to that same worker, wherever it sits in the pool, so the other keeps
// the small heap it started with. Two calls at once still run on both.

interface SlotView {
  worker: { threadId: number };
  busy: unknown;
}
/** The pool's workers (a private field, read to see which worker runs a job). */
const slotsOf = (pool: Pool): SlotView[] => (pool as unknown as { slots: SlotView[] }).slots;
const built = useBuiltPool(2);

// Power by simulation: 40 data sets of 60 trials with a bootstrap of 500 each, a fraction of a second.
const JOB = { baselineRate: 0.5, shift: 0.25, n: 60, simulations: 40, bootstrap: 500 };

/** Runs one job per seed, all at once, and returns the threads of the workers seen busy while they ran. */
async function threadsRunning(...seeds: number[]): Promise<Set<number>> {
  const seen = new Set<number>();
  let settled = false;
  const jobs = Promise.all(seeds.map((seed) => built.pool.run("power", { ...JOB, seed }, "local"))).finally(
    () => {
      settled = true;
    },
  );
  while (!settled) {
    for (const slot of slotsOf(built.pool)) if (slot.busy !== null) seen.add(slot.worker.threadId);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await jobs;
  return seen;
}

it("runs calls one after another on the worker that ran the last one, and two at once on both", async () => {
  const [first] = [...(await threadsRunning(1))];
  expect(first).toBeDefined();
  expect(slotsOf(built.pool)).toHaveLength(2);
  // That worker placed last in the pool, as when the worker started second was the first one ready.
  const slots = slotsOf(built.pool);
  if (slots[0]?.worker.threadId === first) slots.reverse();
  for (const seed of [2, 3, 4]) expect([...(await threadsRunning(seed))]).toEqual([first]);
  const both = await threadsRunning(5, 6);
  expect(both.size).toBe(2);
}, 60_000);
