import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, describe, expect, it } from "vitest";
import { auditRecord } from "./support/exactly-once.js";
import { connectHttp, playOneShotTrials, type TrialRun } from "./support/http-client.js";
import { CLI, type ServerProcess, startServerProcess } from "./support/server-process.js";

const dir = mkdtempSync(join(tmpdir(), "same-game-multi-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("several server processes on one database file", () => {
  it("3 HTTP processes × 2 clients and 1 stdio process record every acknowledged decision once", async () => {
    const dbPath = join(dir, "shared.db");
    const servers: ServerProcess[] = [];
    for (let i = 0; i < 3; i++) servers.push(await startServerProcess(dbPath, ["--rate-limit", "10000"]));
    try {
      const httpRuns = servers.flatMap((server, s) =>
        [0, 1].map(async (c) => {
          const { client } = await connectHttp(server.url, { name: `p${s}-c${c}` });
          const run = await playOneShotTrials(client, 15);
          await client.close();
          return run;
        }),
      );
      const stdioRun = (async (): Promise<TrialRun> => {
        const client = new Client({ name: "stdio-writer", version: "1.0.0" });
        await client.connect(
          new StdioClientTransport({
            command: process.execPath,
            args: [CLI, "serve", "--db", dbPath, "--toolsets", "all"],
            stderr: "ignore",
          }),
        );
        const run = await playOneShotTrials(client, 15);
        await client.close();
        return run;
      })();
      const runs = await Promise.all([...httpRuns, stdioRun]);
      expect(runs.map((r) => r.failure)).toEqual(Array(7).fill(null));
      const acknowledged = runs.flatMap((r) => r.acknowledged);
      expect(acknowledged).toHaveLength(105); // (3 × 2 + 1) × 15
      expect(auditRecord(dbPath, acknowledged)).toMatchObject({
        integrity: "ok",
        missing: [],
        duplicated: [],
        wrong: [],
        decisionRows: 105,
      });
    } finally {
      for (const server of servers) server.child.kill("SIGTERM");
      expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0, 0]);
    }
  });
});
