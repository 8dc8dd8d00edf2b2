import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp, playOneShotTrials } from "./support/http-client.js";
import { freshReplicaRecord, TEST_PG } from "./support/replica-record.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

// A shared service serves several labs at once. Token A floods one replica with heavy analyses, far more
// than its share of in-flight requests; token B must still open a session, play at its unloaded pace and
// get a small analysis back promptly. The replica takes 16 requests at once (--max-in-flight 16): with two
// tokens each principal's share is 8, so A's ninth concurrent call is refused with 429 while B still finds
// room, and B's analysis is taken from the pool next to A's (one queue per principal, served in turn), not
// after every one of A's.

const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdef0";
const HEAVY = { baseline: 0.5, delta: 0.2, n: 1000, simulations: 100, bootstrap: 1000 };
const SMALL = { baseline: 0.5, delta: 0.2, n: 50, simulations: 20, bootstrap: 100 };
/** Minutes of work each: a job the pool kept running after its caller gave up would hold a worker that long. */
const ENDLESS = { baseline: 0.5, delta: 0.2, n: 5000, simulations: 5000, bootstrap: 10_000 };
/** A's share of the replica's in-flight requests (16 over two tokens): the most it can have cancelled at once. */
const A_SHARE = 8;
const TRIALS = 20;

function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] as number;
}

for (const engine of TEST_PG === undefined ? ["sqlite"] : ["sqlite", "postgres"]) {
  describe(`one token's flood and another token's play (${engine})`, () => {
    let dir: string;
    let record: { location: string; dispose(): void };
    let server: ServerProcess;
    /** How long the replica's first small analysis took: a fresh pool starting its workers, then the job. */
    let coldMs: number | undefined;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "same-game-fairness-"));
      record =
        engine === "sqlite"
          ? { location: join(dir, "record.db"), dispose: () => undefined }
          : freshReplicaRecord(dir, "fairness");
      const tokens = join(dir, "tokens");
      writeFileSync(tokens, `${ALICE}\n${BOB}\n`);
      server = await startServerProcess(record.location, [
        "--token-file",
        tokens,
        "--rate-limit",
        "1000",
        "--max-in-flight",
        "16",
      ]);
    }, 30_000);
    afterAll(async () => {
      server.child.kill("SIGTERM");
      await server.exited;
      record.dispose();
      rmSync(dir, { recursive: true, force: true });
    });

    it("serves B's initialize, moves and a small analysis while A's flood waits on A's share", async () => {
      const bob = (await connectHttp(server.url, { token: BOB, name: "bob" })).client;
      const alices: Client[] = [];
      for (let i = 0; i < 3; i++) alices.push((await connectHttp(server.url, { token: ALICE })).client);
      try {
        const unloaded = await playOneShotTrials(bob, TRIALS);
        expect(unloaded.failure).toBeNull();
        const a0 = performance.now();
        expect((await bob.callTool({ name: "power", arguments: SMALL })).isError).toBeFalsy();
        const aloneMs = performance.now() - a0;
        coldMs ??= aloneMs;

        // 24 heavy calls at once from A: 8 run (A's share), the rest are refused with 429 and retried.
        let flooding = true;
        let refused = 0;
        let answered = 0;
        const flood = alices.flatMap((alice, a) =>
          Array.from({ length: 8 }, async (_, i) => {
            while (flooding) {
              try {
                // A's calls wait on A's own queue, eight heavy analyses deep: longer than the SDK's default
                // 60 s on a loaded machine, and waiting is what A's share means, so no timeout here.
                const result = await alice.callTool(
                  { name: "power", arguments: { ...HEAVY, seed: a * 8 + i } },
                  { timeout: 600_000 },
                );
                expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
                answered += 1;
              } catch (error) {
                expect(String(error)).toMatch(/429|in flight on this replica/);
                refused += 1;
                // As the refusal asks (Retry-After: 1).
                await new Promise((resolve) => setTimeout(resolve, 1000));
              }
            }
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 500));

        // B opens a fresh session (its initialize is not refused as busy) and plays on it.
        const bobAgain = (await connectHttp(server.url, { token: BOB, name: "bob-again" })).client;
        const loaded = await playOneShotTrials(bobAgain, TRIALS);
        const t0 = performance.now();
        const small = await bobAgain.callTool({ name: "power", arguments: SMALL });
        const analysisMs = performance.now() - t0;
        const answeredDuringB = answered;
        flooding = false;
        await Promise.all(flood);
        // B alone once more, now that A's flood is over: the machine's load from outside the test (other
        // processes on a shared machine) can change between the runs, and B alone on both sides of the
        // flood brackets it.
        const unloadedAfter = await playOneShotTrials(bobAgain, TRIALS);
        await bobAgain.close();

        expect(loaded.failure).toBeNull();
        expect(unloadedAfter.failure).toBeNull();
        expect(small.isError, JSON.stringify(small.content)).toBeFalsy();
        const before = p99(unloaded.submitLatenciesMs);
        const after = p99(unloadedAfter.submitLatenciesMs);
        const during = p99(loaded.submitLatenciesMs);
        process.stderr.write(
          `fairness (${engine}): B's submit_move p99 ${before.toFixed(1)} ms alone before, ${during.toFixed(1)} ms beside A's flood, ${after.toFixed(1)} ms alone after; B's small power analysis in ${aloneMs.toFixed(0)} ms alone, ${analysisMs.toFixed(0)} ms beside the flood; A: ${refused} calls refused (429), ${answered} answered (${answeredDuringB} while B played)\n`,
        );
        expect(refused).toBeGreaterThan(0);
        // B's unloaded p99 is the slower of its two runs alone, with a floor of 250 ms: a p99 of a few
        // dozen moves is their slowest, and one scheduling hiccup on a machine running the whole suite
        // beside this test has reached 117 ms against 54 alone. Moves that waited on A's analyses (on the
        // event loop or behind A's requests) take a heavy analysis' time, seconds, far past either.
        expect(during).toBeLessThanOrEqual(Math.max(250, 2 * Math.max(before, after)));
        // 2 s on a quiet machine. On a loaded one, B's job still starts at once (on an extra worker, three
        // workers then sharing two cores), so it takes a few times its time alone, never the length of A's queue.
        expect(analysisMs).toBeLessThanOrEqual(Math.max(2000, 4 * aloneMs));
      } finally {
        await Promise.all([bob.close(), ...alices.map((a) => a.close())]);
      }
    }, 120_000);

    it("frees the pool within 1 s once A cancels its jobs, running and queued", async () => {
      const alices: Client[] = [];
      for (let i = 0; i < 2; i++) alices.push((await connectHttp(server.url, { token: ALICE })).client);
      try {
        const [alice, other] = alices as [Client, Client];
        // A's small analysis alone (a seed of its own each time: a cached result would not use the pool).
        const small = async (seed: number) => {
          const t0 = performance.now();
          const result = await alice.callTool({ name: "power", arguments: { ...SMALL, seed } });
          expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
          return performance.now() - t0;
        };
        const first = await small(9000);
        coldMs ??= first;
        const aloneMs = await small(9001);

        // A fills its share with endless jobs: the pool's workers run some, A's queue holds the rest.
        const controllers = Array.from({ length: A_SHARE - 1 }, () => new AbortController());
        const endless = controllers.map((controller, i) =>
          other
            .callTool(
              { name: "power", arguments: { ...ENDLESS, seed: 100 + i } },
              {
                signal: controller.signal,
                timeout: 600_000,
              },
            )
            .then(
              () => "answered",
              (error: unknown) => String(error),
            ),
        );
        await new Promise((resolve) => setTimeout(resolve, 1500));
        // A's next analysis, sent first: it waits behind A's own jobs (its queue is FIFO), and A's share of
        // the replica is now full (seven jobs and this one), so the cancellations that follow must pass
        // the in-flight bound — a client does not send a refused notification again.
        const probeSent = performance.now();
        const probe = small(9002);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const cancelledAt = performance.now();
        for (const controller of controllers) controller.abort("changed my mind");
        // Answered promptly only if the cancelled jobs left the pool: the running ones stopped, the queued
        // ones dropped.
        await probe;
        const answeredMs = performance.now() - cancelledAt;
        const freedMs = answeredMs - aloneMs;
        const outcomes = await Promise.all(endless);
        process.stderr.write(
          `fairness (${engine}): A's small analysis ${aloneMs.toFixed(0)} ms alone (${coldMs.toFixed(0)} ms on a fresh pool), answered ${answeredMs.toFixed(0)} ms after cancelling ${controllers.length} endless jobs ahead of it (sent ${(cancelledAt - probeSent).toFixed(0)} ms before; pool free after ≈${freedMs.toFixed(0)} ms)\n`,
        );
        expect(outcomes.every((o) => o !== "answered")).toBe(true);
        // The running jobs stop inside their workers at their next check and the same workers take the
        // probe: it is answered within 1 s of the cancellation plus its own time alone. Jobs left running
        // would hold the pool for minutes; workers terminated and started afresh took 2–3.3 s here.
        expect(answeredMs).toBeLessThanOrEqual(1000 + aloneMs);
      } finally {
        await Promise.all(alices.map((a) => a.close()));
      }
    }, 120_000);
  });
}
