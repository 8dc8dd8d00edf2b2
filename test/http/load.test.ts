import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { auditRecord } from "./support/exactly-once.js";
import { connectHttp, playOneShotTrials } from "./support/http-client.js";
import { startServerProcess } from "./support/server-process.js";

const dir = mkdtempSync(join(tmpdir(), "same-game-load-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("load on one HTTP server process", () => {
  it("records every acknowledged decision of 8 concurrent clients × 25 trials exactly once", async () => {
    const dbPath = join(dir, "load.db");
    const server = await startServerProcess(dbPath, ["--rate-limit", "10000"]);
    try {
      const runs = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const { client } = await connectHttp(server.url, { name: `load-${i}` });
          const run = await playOneShotTrials(client, 25);
          await client.close();
          return run;
        }),
      );
      expect(runs.map((r) => r.failure)).toEqual(Array(8).fill(null));
      const acknowledged = runs.flatMap((r) => r.acknowledged);
      expect(acknowledged).toHaveLength(200); // 8 × 25
      const audit = auditRecord(dbPath, acknowledged);
      expect(audit).toMatchObject({
        integrity: "ok",
        missing: [],
        duplicated: [],
        wrong: [],
        decisionRows: 200,
        attemptRows: 200,
      });
    } finally {
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
    }
  });
});
