import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, describe, expect, it } from "vitest";
import { auditRecord } from "./support/exactly-once.js";
import { connectReplicas, playOneShotTrials } from "./support/http-client.js";
import { type ReplicaFetchStats, replicaFetch } from "./support/replica-fetch.js";
import { freshReplicaRecord, queryRecord, TEST_PG } from "./support/replica-record.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

// Three replicas on one record. The shared service runs on PostgreSQL (SAME_GAME_TEST_PG, set by .ci/run);
// without it the replicas share one SQLite file in WAL mode, which exercises the same state logic (sessions,
// caps and rate in the record, exactly-once by the record's constraints) but not the PostgreSQL engine.
const dir = mkdtempSync(join(tmpdir(), "same-game-replicas-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
if (TEST_PG === undefined) {
  console.warn(
    "replicas.test: SAME_GAME_TEST_PG is not set — the three replicas share a SQLite WAL file, NOT PostgreSQL.",
  );
}

async function structured<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

function decisionsIn(location: string): number {
  try {
    return Number(queryRecord(location, "SELECT count(*) AS n FROM decisions")[0]?.n ?? 0);
  } catch {
    return 0;
  }
}

function stats(): ReplicaFetchStats {
  return { requests: 0, retries: 0, reasons: [] };
}

describe("three stateless replicas on one record", () => {
  it("loses no acknowledged decision and finishes every client's trials when one replica is SIGKILLed under load", async () => {
    const record = freshReplicaRecord(dir, "killed");
    const dbPath = record.location;
    const replicas: ServerProcess[] = [];
    for (let i = 0; i < 3; i++) replicas.push(await startServerProcess(dbPath, ["--rate-limit", "10000"]));
    const urls = replicas.map((r) => r.url);
    const CLIENTS = 6;
    const TRIALS = 20;
    const seen = Array.from({ length: CLIENTS }, stats);
    try {
      // Client c starts at replica c mod 3 and moves on by one at every request.
      const clients = await Promise.all(
        seen.map(
          async (s, c) => (await connectReplicas(replicaFetch(urls, c, s), { name: `rr${c}` })).client,
        ),
      );
      const runs = Promise.all(clients.map((client) => playOneShotTrials(client, TRIALS)));
      const deadline = Date.now() + 60_000;
      while (decisionsIn(dbPath) < 30 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const killedAt = decisionsIn(dbPath);
      replicas[1]?.child.kill("SIGKILL");
      const finished = await runs;
      expect(await replicas[1]?.exited).toBe(null);
      // The kill came mid-run (some decisions in, most still to come) and was felt by the clients.
      expect(killedAt).toBeGreaterThanOrEqual(30);
      expect(killedAt).toBeLessThan(CLIENTS * TRIALS);
      expect(seen.reduce((n, s) => n + s.retries, 0)).toBeGreaterThan(0);
      // Every client finished all its trials through the two replicas left.
      expect(finished.map((r) => r.failure)).toEqual(Array(CLIENTS).fill(null));
      const acknowledged = finished.flatMap((r) => r.acknowledged);
      expect(acknowledged).toHaveLength(CLIENTS * TRIALS);
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      // Exactly once: one decision row and one attempt row each, and no decision nobody was told of.
      expect(auditRecord(dbPath, acknowledged)).toMatchObject({
        integrity: "ok",
        missing: [],
        duplicated: [],
        wrong: [],
        decisionRows: CLIENTS * TRIALS,
        attemptRows: CLIENTS * TRIALS,
      });
      // Each client's consecutive requests landed on different replicas: one session, three instances.
      const rebuilt = replicas.map((r) => (r.stderr().match(/rebuilt from the record/g) ?? []).length);
      expect(rebuilt.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    } finally {
      for (const r of [replicas[0], replicas[2]]) r?.child.kill("SIGTERM");
      expect(await Promise.all([replicas[0]?.exited, replicas[2]?.exited])).toEqual([0, 0]);
      record.dispose();
    }
  });

  it("keeps a client's study across a replica restart: same session id, the trial resumes where it was", async () => {
    const record = freshReplicaRecord(dir, "restart");
    const dbPath = record.location;
    const first = await startServerProcess(dbPath);
    const urls = [first.url];
    const { client, transport } = await connectReplicas(replicaFetch(urls), { name: "restarted" });
    const sessionId = transport.sessionId;
    const study = await structured<{ study_id: string }>(client, "register_study", {
      name: "restart",
      games: ["repeated-pd"],
      framings: ["repeated-plain"],
      opponents: [{ id: "always-cooperate" }],
      trials_per_cell: 1,
    });
    const trial = await structured<{ trial: { match_id: string; labels: string[] } }>(client, "next_trial", {
      study_id: study.study_id,
    });
    const matchId = trial.trial.match_id;
    const choice = trial.trial.labels[0] as string;
    await structured(client, "submit_move", { match_id: matchId, round: 1, choice });

    first.child.kill("SIGKILL");
    await first.exited;
    const second = await startServerProcess(dbPath);
    urls[0] = second.url; // the same address, as a restarted container behind the proxy would be
    try {
      // The client goes on as if nothing happened: no new initialize, the same Mcp-Session-Id.
      const moved = await structured<{ round: number; replayed: boolean }>(client, "submit_move", {
        match_id: matchId,
        round: 2,
        choice,
      });
      expect(moved).toMatchObject({ round: 2, replayed: false });
      expect(transport.sessionId).toBe(sessionId);
      const resumed = await structured<{ resumed: boolean; trial: { match_id: string; round: number } }>(
        client,
        "next_trial",
        { study_id: study.study_id },
      );
      expect(resumed).toMatchObject({ resumed: true, trial: { match_id: matchId, round: 3 } });
      expect(second.stderr()).toContain(`session ${sessionId} rebuilt from the record`);
      await client.close();
      // Both rounds, before and after the restart, are linked to the one session in the record.
      const sessions = queryRecord(dbPath, "SELECT DISTINCT session_id FROM decisions WHERE match_id = ?", [
        matchId,
      ]);
      const rows = queryRecord(dbPath, "SELECT client_name FROM http_sessions WHERE id = ?", [sessionId]);
      expect(sessions).toEqual([{ session_id: sessionId }]);
      expect(rows).toEqual([{ client_name: "restarted" }]);
    } finally {
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
      record.dispose();
    }
  });
});
