import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectHttp } from "./support/http-client.js";
import { startServerProcess } from "./support/server-process.js";

// A client that goes away over Streamable HTTP — its process killed, its laptop closed, its transport
// closed without a word — never reads the answer of the call it left (the server keeps no event store to
// replay it). The call must stop as a cancelled one does: it used to run to its end, holding a worker the
// whole time, so the next client's analysis waited behind minutes of work nobody would read.

/** Minutes of work on one worker: still running long after the client has gone. */
const ENDLESS = { baseline: 0.5, delta: 0.2, n: 5000, simulations: 5000, bootstrap: 10_000 };
/** Well under a second of work once a worker takes it. */
const QUICK = { baseline: 0.5, delta: 0.2, simulations: 20, bootstrap: 100 };

describe("a client that leaves during a long analysis over Streamable HTTP", () => {
  it("stops the analysis, so the one worker answers the next client's call at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "same-game-gone-client-"));
    // --db-pool 2: one connection for requests and a single analysis worker, no extra ones, so the next
    // call can only run once the left call has freed that worker.
    const server = await startServerProcess(join(dir, "record.db"), ["--db-pool", "2", "--no-cache"]);
    try {
      const leaving = await connectHttp(server.url, { name: "leaving" });
      const running = new Promise<void>((resolve, reject) => {
        leaving.client
          .callTool(
            { name: "power", arguments: ENDLESS },
            { timeout: 600_000, onprogress: (p) => p.message?.includes("data set") && resolve() },
          )
          .then(() => reject(new Error("the endless call was answered")), reject);
      });
      // The analysis is on the worker, simulating; then the client hangs up without cancelling.
      await running;
      await leaving.transport.close();

      const next = await connectHttp(server.url, { name: "next" });
      const started = performance.now();
      const result = await next.client.callTool({ name: "power", arguments: QUICK }, { timeout: 30_000 });
      const seconds = (performance.now() - started) / 1000;
      expect(result.isError).toBeFalsy();
      expect(
        (result.structuredContent as { shift_test: { baseline_rate: number } }).shift_test.baseline_rate,
      ).toBe(0.5);
      // A worker's start-up at most (the cancelled one stops in milliseconds): not the endless call's minutes.
      expect(seconds).toBeLessThan(30);
      await next.client.close();
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
