// The permutation replicates computed on a worker thread are the ones the calling thread
// computes, bit for bit, and so is every number of the analysis. The worker runs from the compiled file
// next to the module (dist/, built before the tests run), so this test imports the built modules.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";

const built = new URL("../../dist/analysis/invariance/", import.meta.url);
const available = existsSync(new URL("permutation-worker.js", built));

/** 40 (player, game) units over 3 framings: one-decision sessions for half the players, sessions of 1–4 for the rest. */
function cells() {
  const out = [];
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let p = 0; p < 20; p++)
    for (const game of ["pd", "sh"])
      for (const framing of ["a", "b", "c"]) {
        const clusters: Record<string, number>[] = [];
        for (let s = 0; s < 15; s++) {
          const size = p < 10 ? 1 : 1 + Math.floor(next() * 4);
          const c = Math.floor(next() * (size + 1) * (framing === "c" ? 0.5 : 0.9));
          clusters.push({ cooperate: Math.min(c, size), defect: size - Math.min(c, size) });
        }
        const cooperate = clusters.reduce((x, c) => x + (c.cooperate ?? 0), 0);
        const defect = clusters.reduce((x, c) => x + (c.defect ?? 0), 0);
        out.push({ player: `m${p}`, game, framing, counts: { cooperate, defect }, clusters });
      }
  return out;
}

describe.skipIf(!available)("permutation replicates on a worker thread", () => {
  it("are the calling thread's replicates to the last bit, and the analysis is unchanged", async () => {
    const { startPermutationRows, permutationRows } = await import(
      new URL("permutation-replicates.js", built).href
    );
    const { robustnessAnalysis } = await import(new URL("../robustness/robustness.js", built).href);
    const job = {
      cells: cells(),
      framings: undefined,
      cooperativeAction: { pd: "cooperate", sh: "cooperate" },
      attenuation: 1,
      seed: 3,
      bootstrap: 10_000,
    };
    const count = 40 * 3 + 20 * 2 + 2; // unit R, R2, shift; player R, shift; pooled R, shift
    const pending = startPermutationRows(job, count, 40);
    expect(pending.where).toBe("worker");
    const fromWorker: Float64Array = pending.take();
    const inThread = new Float64Array(count * job.bootstrap);
    permutationRows(job, inThread);
    // Index of the first difference (−1: none), rather than a diff of two 1.6-million-number arrays.
    expect(fromWorker.length).toBe(inThread.length);
    expect(fromWorker.findIndex((x, i) => !Object.is(x, inThread[i]))).toBe(-1);
    expect(new Set(fromWorker.subarray(0, job.bootstrap)).size).toBeGreaterThan(10);

    // The worker stays: a smaller analysis (here 12 units × 10⁴, below the start-up threshold) that finds
    // it up hands its permutations to it, and they are again the calling thread's to the last bit.
    const small = { ...job, cells: job.cells.filter((c) => Number(c.player.slice(1)) < 6) };
    const smallCount = 12 * 3 + 6 * 2 + 2;
    const resident = startPermutationRows(small, smallCount, 12);
    expect(resident.where).toBe("worker");
    const smallInThread = new Float64Array(smallCount * small.bootstrap);
    permutationRows(small, smallInThread);
    expect(resident.take().findIndex((x: number, i: number) => !Object.is(x, smallInThread[i]))).toBe(-1);

    const options = { cooperativeAction: job.cooperativeAction, seed: 3 };
    const threaded = robustnessAnalysis(job.cells, options);
    process.env.SAME_GAME_ANALYSIS_THREADS = "1";
    try {
      expect(startPermutationRows(job, count, 40).where).toBe("thread");
      expect(robustnessAnalysis(job.cells, options)).toEqual(threaded);
    } finally {
      delete process.env.SAME_GAME_ANALYSIS_THREADS;
    }
  });
});

describe.skipIf(!available)("units the worker defers to the calling thread", () => {
  it("are drawn there from the stream state passed on, and the rows are the calling thread's to the last bit", async () => {
    const { startPermutationRows, permutationRows, deferredUnits } = await import(
      new URL("permutation-replicates.js", built).href
    );
    const { planRobustness } = await import(new URL("../robustness/robustness-plan.js", built).href);
    const { StatisticsEvaluator } = await import(
      new URL("../robustness/robustness-statistics.js", built).href
    );
    const job = {
      cells: cells(),
      framings: undefined,
      cooperativeAction: { pd: "cooperate", sh: "cooperate" },
      attenuation: 1,
      seed: 5,
      bootstrap: 10_000,
    };
    const count = 40 * 3 + 20 * 2 + 2;
    const plan = planRobustness(job.cells, undefined, job.cooperativeAction);
    const compute = deferredUnits(plan, new StatisticsEvaluator(plan, 1), job.bootstrap);
    const helped: string[] = [];
    const pending = startPermutationRows(
      job,
      count,
      40,
      undefined,
      (unit: number, state: Int32Array, out: Float64Array) => {
        helped.push(plan.units[unit].player);
        compute(unit, state, out);
      },
    );
    expect(pending.where).toBe("worker");
    const shared: Float64Array = pending.take();
    const inThread = new Float64Array(count * job.bootstrap);
    permutationRows(job, inThread);
    expect(shared.findIndex((x, i) => !Object.is(x, inThread[i]))).toBe(-1);
    // Deferred: the players whose sessions differ in length (m10–m19, the session-design null); this
    // thread, waiting from the start, takes each one as soon as the worker passes it on.
    expect(helped.length).toBeGreaterThan(0);
    expect(helped.every((player) => Number(player.slice(1)) >= 10)).toBe(true);
  });
});

describe.skipIf(!available)("the permutation worker after a job", () => {
  // The worker run directly on one job: with its heap and buffers over the limit it leaves once the rows
  // are filled (its memory with it); under the limit it stays for the next job.
  async function runOneJob(
    retireBytes: number | undefined,
  ): Promise<{ filled: number; exited: boolean; loaded: number }> {
    const { Worker, MessageChannel } = await import("node:worker_threads");
    const loaded = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(new URL("permutation-worker.js", built), {
      workerData: retireBytes === undefined ? { loaded } : { loaded, retireBytes },
    });
    let exited = false;
    const exit = new Promise<void>((resolve) =>
      worker.on("exit", () => {
        exited = true;
        resolve();
      }),
    );
    // Posted as `startPermutationRows` posts it: the cells packed (packed-cells.ts).
    const { packCells } = await import(new URL("packed-cells.js", built).href);
    const job = {
      packed: packCells(cells()),
      framings: undefined,
      cooperativeAction: { pd: "cooperate", sh: "cooperate" },
      attenuation: 1,
      seed: 3,
      bootstrap: 200,
    };
    const count = 40 * 3 + 20 * 2 + 2;
    const rows = new SharedArrayBuffer(count * job.bootstrap * 8);
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const { port2 } = new MessageChannel();
    worker.postMessage({ job, rows, flag, port: port2, cancel: null }, [port2]);
    while (Atomics.load(flag, 0) !== 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    const filled = new Float64Array(rows).filter((x) => x !== 0).length;
    const left = exited;
    if (!left) await worker.terminate();
    // 2: it said it was leaving before it said the rows were filled (no analysis posts to it then).
    return { filled, exited: left, loaded: Atomics.load(loaded, 0) };
  }

  it("leaves when its heap has grown past the limit, and stays under it", async () => {
    const over = await runOneJob(0);
    expect(over.filled).toBeGreaterThan(0);
    expect(over.exited).toBe(true);
    expect(over.loaded).toBe(2);
    const under = await runOneJob(undefined);
    expect(under.filled).toBeGreaterThan(0);
    expect(under.exited).toBe(false);
    expect(under.loaded).toBe(1);
  }, 30_000);
});
