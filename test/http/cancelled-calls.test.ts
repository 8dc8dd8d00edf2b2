import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectHttp } from "./support/http-client.js";
import { startServerProcess } from "./support/server-process.js";

// A cancelled request gets no answer (MCP cancellation: the receiver "SHOULD NOT send a response for the
// cancelled request"), so the server must end its response stream itself: left open, with keep-alives,
// it counted as in flight until the client hung up, and a client that had cancelled as many calls as its
// share of the replica allows was refused every further request with 429 — the dashboard cancels a call
// each time a filter changes before the answer is in.

/** Minutes of work: the call is still running when it is cancelled. */
const ENDLESS = { baseline: 0.5, delta: 0.2, n: 5000, simulations: 5000, bootstrap: 10_000 };

async function inFlight(origin: string): Promise<number> {
  return ((await (await fetch(`${origin}/healthz`)).json()) as { in_flight: number }).in_flight;
}

describe("a cancelled call over Streamable HTTP", () => {
  it("ends its response stream, so it no longer counts against the client's in-flight share", async () => {
    // The built server, whose analyses run in its worker pool (in this process they would block the test).
    const dir = mkdtempSync(join(tmpdir(), "same-game-cancelled-"));
    const server = await startServerProcess(join(dir, "record.db"), ["--max-in-flight-per-principal", "2"]);
    const origin = new URL(server.url).origin;
    const { client } = await connectHttp(server.url);
    try {
      for (const seed of [1, 2]) {
        const cancel = new AbortController();
        const call = client
          .callTool({ name: "power", arguments: { ...ENDLESS, seed } }, { signal: cancel.signal })
          .then(
            () => "answered",
            () => "cancelled",
          );
        await new Promise((resolve) => setTimeout(resolve, 500));
        cancel.abort("the filter changed");
        expect(await call).toBe("cancelled");
      }
      // The streams end as soon as the cancellations reach the server.
      let held = await inFlight(origin);
      for (let i = 0; i < 20 && held > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        held = await inFlight(origin);
      }
      expect(held).toBe(0);
      // The share is 2 and both cancelled calls held it: this ping was refused with 429 before.
      await expect(client.ping()).resolves.toEqual({});
    } finally {
      await client.close();
      server.child.kill("SIGTERM");
      await server.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
