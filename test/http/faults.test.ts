import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { auditRecord } from "./support/exactly-once.js";
import { connectHttp, playOneShotTrials } from "./support/http-client.js";
import { runCli, startServerProcess } from "./support/server-process.js";

const TOKEN = "fault-test-token-0123456789";
const dir = mkdtempSync(join(tmpdir(), "same-game-faults-"));
const tokenFile = join(dir, "tokens.txt");
writeFileSync(tokenFile, `# tokens of the fault test\n${TOKEN}\n`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function structured<T>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

describe("faults", () => {
  it("keeps every acknowledged decision and an intact file when a server is SIGKILLed under load", async () => {
    const dbPath = join(dir, "killed.db");
    const first = await startServerProcess(dbPath, ["--token-file", tokenFile, "--rate-limit", "10000"]);
    const clients = await Promise.all(
      [0, 1, 2, 3].map(async (i) => (await connectHttp(first.url, { token: TOKEN, name: `k${i}` })).client),
    );
    const runs = Promise.all(clients.map((client) => playOneShotTrials(client, 10_000)));
    // Kill once a good number of decisions are in, mid-stream: counted in the record, not guessed from a
    // fixed delay, so a loaded machine (fewer decisions per second) still gets a kill mid-stream.
    const deadline = Date.now() + 30_000;
    while (recordedDecisions(dbPath) < 30 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    first.child.kill("SIGKILL");
    const finished = await runs;
    expect(await first.exited).toBe(null);
    expect(finished.every((r) => r.failure !== null)).toBe(true);
    const acknowledged = finished.flatMap((r) => r.acknowledged);
    expect(acknowledged.length).toBeGreaterThan(20);
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));

    const second = await startServerProcess(dbPath, ["--token-file", tokenFile]);
    try {
      const audit = auditRecord(dbPath, acknowledged);
      expect(audit).toMatchObject({ integrity: "ok", missing: [], duplicated: [], wrong: [] });
      // At most one call per client can have been recorded but not acknowledged when the kill came.
      expect(audit.decisionRows - acknowledged.length).toBeGreaterThanOrEqual(0);
      expect(audit.decisionRows - acknowledged.length).toBeLessThanOrEqual(4);
      // The same token can read what it played before the kill, from a new session on the new process.
      const { client } = await connectHttp(second.url, { token: TOKEN });
      const last = acknowledged.at(-1) as { match_id: string };
      const transcript = await structured<{ status: string; rounds_played: number }>(client, "get_match", {
        match_id: last.match_id,
      });
      expect(transcript).toMatchObject({ status: "finished", rounds_played: 1 });
      await client.close();
    } finally {
      second.child.kill("SIGTERM");
      expect(await second.exited).toBe(0);
    }
  });

  it("leaves a match resumable after its client disconnects mid-match", async () => {
    const dbPath = join(dir, "resume.db");
    const server = await startServerProcess(dbPath, ["--token-file", tokenFile]);
    try {
      const gone = await connectHttp(server.url, { token: TOKEN, name: "resumer" });
      const study = await structured<{ study_id: string }>(gone.client, "register_study", {
        name: "resume",
        games: ["repeated-pd"],
        framings: ["repeated-plain"],
        opponents: [{ id: "always-cooperate" }],
        trials_per_cell: 1,
      });
      const trial = await structured<{ trial: { match_id: string; labels: string[] } }>(
        gone.client,
        "next_trial",
        { study_id: study.study_id },
      );
      const matchId = trial.trial.match_id;
      await structured(gone.client, "submit_move", {
        match_id: matchId,
        round: 1,
        choice: trial.trial.labels[0],
      });
      // Drop the connection without DELETE, as a crashed agent would.
      await gone.transport.close();

      const back = await connectHttp(server.url, { token: TOKEN, name: "resumer" });
      const resumed = await structured<{ resumed: boolean; trial: { match_id: string; round: number } }>(
        back.client,
        "next_trial",
        { study_id: study.study_id },
      );
      expect(resumed).toMatchObject({ resumed: true, trial: { match_id: matchId, round: 2 } });
      const transcript = await structured<{ next_round: number; rounds_played: number }>(
        back.client,
        "get_match",
        {
          match_id: matchId,
        },
      );
      expect(transcript).toMatchObject({ next_round: 2, rounds_played: 1 });
      const moved = await structured<{ round: number }>(back.client, "submit_move", {
        match_id: matchId,
        round: 2,
        choice: trial.trial.labels[0],
      });
      expect(moved.round).toBe(2);
      await back.client.close();
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  it("shuts down on SIGTERM under load: exit 0, stdout clean, every acknowledged decision kept, database closed", async () => {
    const dbPath = join(dir, "graceful.db");
    const server = await startServerProcess(dbPath, ["--rate-limit", "10000"]);
    const clients = await Promise.all([0, 1].map(async () => (await connectHttp(server.url)).client));
    const runs = Promise.all(clients.map((client) => playOneShotTrials(client, 10_000)));
    await new Promise((resolve) => setTimeout(resolve, 700));
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    const acknowledged = (await runs).flatMap((r) => r.acknowledged);
    expect(server.stdout()).toBe("");
    expect(server.stderr()).toContain("same-game: stopped");
    // Closing the last connection checkpoints the WAL into the file and removes it.
    expect(existsSync(`${dbPath}-wal`)).toBe(false);
    // In-flight calls were let finish and answered, so no decision is recorded without its acknowledgement.
    expect(auditRecord(dbPath, acknowledged)).toMatchObject({
      integrity: "ok",
      missing: [],
      duplicated: [],
      wrong: [],
      decisionRows: acknowledged.length,
    });
  });
});

describe("start-up refusals", () => {
  it("refuses a non-loopback bind without --token-file, exit 2 with one line", async () => {
    const result = await runCli([
      "serve",
      "--http",
      "--host",
      "0.0.0.0",
      "--port",
      "0",
      "--db",
      join(dir, "x.db"),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/0\.0\.0\.0 is not a loopback address: binding it requires --token-file/);
  });

  it("refuses a token file with a short token or one outside printable ASCII, and an HTTP flag without --http", async () => {
    const weak = join(dir, "weak.txt");
    writeFileSync(weak, "short\n");
    const short = await runCli([
      "serve",
      "--http",
      "--token-file",
      weak,
      "--port",
      "0",
      "--db",
      join(dir, "x.db"),
    ]);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/line 1: a token must be at least 16 characters/);
    // Latin-1 and beyond: Node's fetch cannot send an emoji in a header, curl sends "ö" as two UTF-8
    // bytes the server reads as two Latin-1 characters; either token would work for some clients only.
    for (const [token, line] of [
      ["tök-én-0123456789abcdef", 2],
      ["party-\u{1F389}-0123456789abcdef", 2],
    ] as const) {
      const foreign = join(dir, "foreign.txt");
      writeFileSync(foreign, `${TOKEN}\n${token}\n`);
      const refused = await runCli([
        "serve",
        "--http",
        "--token-file",
        foreign,
        "--port",
        "0",
        "--db",
        join(dir, "x.db"),
      ]);
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
      expect(refused.stderr).toContain(
        `--token-file "${foreign}" line ${line}: a token must be at least 16 characters, each printable ASCII without spaces ("!" to "~"`,
      );
      expect(refused.stderr).not.toContain(token);
    }
    const stray = await runCli(["serve", "--port", "9999", "--db", join(dir, "x.db")]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/--port applies to the HTTP server only/);
  });
});

/** Decisions committed so far, read through a separate read-only connection (WAL lets it read alongside). */
function recordedDecisions(dbPath: string): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM decisions").get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db.close();
  }
}
