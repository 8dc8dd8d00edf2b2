import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, playOneShotTrials } from "./support/http-client.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

// One client's heavy analysis must not stall another client's moves: analyses run in the server's worker
// pool, off the event loop. Token A keeps six power analyses in flight (each about 0.7 s of CPU on this
// machine; inline, every one of them would block every move for that long) while token B plays one-shot
// trials over HTTP; B's submit_move p99 stays under 100 ms. B's latency with nothing else running is
// measured first, in the same server, as the anchor: on a machine loaded by other work (a shared CI box)
// even that anchor can pass 100 ms, and then the bar is twice the anchor's p99. Either way it stays far
// below one analysis's duration, which is what every move would wait for if analyses ran inline.

const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdef0";
const TRIALS = 100;
const HEAVY = { baseline: 0.5, delta: 0.2, n: 1000, simulations: 100, bootstrap: 1000 };

let dir: string;
let server: ServerProcess;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "same-game-latency-"));
  const tokens = join(dir, "tokens");
  writeFileSync(tokens, `${ALICE}\n${BOB}\n`);
  server = await startServerProcess(join(dir, "record.db"), ["--token-file", tokens, "--rate-limit", "1000"]);
}, 30_000);
afterAll(async () => {
  server.child.kill("SIGTERM");
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
});

describe("a heavy analysis of one principal and the moves of another", () => {
  it("keeps B's submit_move p99 under 100 ms while A runs power analyses in a loop", async () => {
    const bob = (await connectHttp(server.url, { token: BOB, name: "bob" })).client;
    const alice = (await connectHttp(server.url, { token: ALICE, name: "alice" })).client;
    try {
      const anchor = await playOneShotTrials(bob, TRIALS);
      expect(anchor.failure).toBeNull();

      let running = true;
      let finished = 0;
      let shortestAnalysisMs = Number.POSITIVE_INFINITY;
      const loops = Array.from({ length: 6 }, async (_, i) => {
        while (running) {
          const t0 = performance.now();
          const result = await alice.callTool({ name: "power", arguments: { ...HEAVY, seed: i } });
          expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
          shortestAnalysisMs = Math.min(shortestAnalysisMs, performance.now() - t0);
          finished += 1;
        }
      });
      // Let the six calls reach the server and the pool before measuring.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const loaded = await playOneShotTrials(bob, TRIALS);
      const finishedDuringMoves = finished;
      running = false;
      await Promise.all(loops);
      expect(loaded.failure).toBeNull();

      const p50 = percentile(loaded.submitLatenciesMs, 0.5);
      const p99 = percentile(loaded.submitLatenciesMs, 0.99);
      const anchorP99 = percentile(anchor.submitLatenciesMs, 0.99);
      process.stderr.write(
        `submit_move over HTTP, ${TRIALS} moves: alone p50 ${percentile(anchor.submitLatenciesMs, 0.5).toFixed(1)} ms, ` +
          `p99 ${percentile(anchor.submitLatenciesMs, 0.99).toFixed(1)} ms; beside 6 power analyses p50 ${p50.toFixed(1)} ms, ` +
          `p99 ${p99.toFixed(1)} ms (${finishedDuringMoves} analyses finished during the moves; the shortest took ${shortestAnalysisMs.toFixed(0)} ms)\n`,
      );
      expect(p99).toBeLessThan(Math.max(100, 2 * anchorP99));
      expect(p99).toBeLessThan(shortestAnalysisMs / 4);
      // The load was real: analyses were still in flight when the moves were over.
      expect(finishedDuringMoves).toBeLessThan(6 * 10);
      expect(finished).toBeGreaterThanOrEqual(6);
    } finally {
      await Promise.all([bob.close(), alice.close()]);
    }
  }, 120_000);
});
