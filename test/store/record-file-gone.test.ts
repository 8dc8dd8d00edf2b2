// A server's record deleted, moved or replaced under it, or its -wal removed: SQLite goes on committing
// into files nobody will open again, so every move answered from then on would be lost. Each write must be
// refused instead, with a sentence naming the file.
import { renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, it } from "vitest";
import { INITIALIZE, MCP_HEADERS, startInProcess } from "../http/support/in-process-server.js";
import { call, callError, connectClient, tempDeps } from "../support/harness.js";

let deps: ReturnType<typeof tempDeps>;
let client: Client;
beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { player: "chaos" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

type Started = { match_id: string; labels: string[] };
const start = () =>
  call<Started>(client, "start_match", { game: "prisoners-dilemma", opponent: "random", seed: 1 });

it("refuses a move once the record's -wal was removed, instead of answering it as recorded", async () => {
  const first = await start();
  await call(client, "submit_move", { match_id: first.match_id, round: 1, choice: first.labels[0] });
  const second = await start();
  rmSync(`${deps.dbPath}-wal`);
  const refusal = await callError(client, "submit_move", {
    match_id: second.match_id,
    round: 1,
    choice: second.labels[0],
  });
  expect(refusal).toBe(
    `The record's write-ahead log (its -wal file) was deleted or replaced while this server was running: this call was not recorded, and nothing more can be until the server is started again on the record.`,
  );
  // Reads still work.
  expect((await client.callTool({ name: "list_games", arguments: {} })).isError).toBeFalsy();
});

it("refuses a new match once the record file was moved away, and the moved file keeps every move answered before", async () => {
  const match = await start();
  await call(client, "submit_move", { match_id: match.match_id, round: 1, choice: match.labels[0] });
  const moved = join(deps.dir, "moved.db");
  renameSync(deps.dbPath, moved);
  const refusal = await callError(client, "start_match", { game: "prisoners-dilemma", opponent: "random" });
  expect(refusal).toBe(
    "The record file was deleted or moved away while this server was running: this call was not recorded, and nothing more can be until the server is started again on the record.",
  );
  const reader = new Database(moved);
  const decisions = reader.prepare("SELECT match_id FROM decisions").all();
  reader.close();
  expect(decisions).toEqual([{ match_id: match.match_id }]);
});

it("refuses a move once another record was put at the record's path, and leaves that record as it was", async () => {
  const match = await start();
  const other = join(deps.dir, "other.db");
  const replacement = new Database(other);
  replacement.exec("CREATE TABLE marker (x); INSERT INTO marker VALUES (42)");
  replacement.close();
  renameSync(other, deps.dbPath);
  const refusal = await callError(client, "submit_move", {
    match_id: match.match_id,
    round: 1,
    choice: match.labels[0],
  });
  expect(refusal).toContain("The record file was replaced by another file");
  // The server's -wal, still named after the record, must not be replayed over the file now there.
  const reader = new Database(deps.dbPath);
  const tables = reader.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
  const marker = reader.prepare("SELECT x FROM marker").all();
  reader.close();
  expect(tables).toEqual([{ name: "marker" }]);
  expect(marker).toEqual([{ x: 42 }]);
});

it("over HTTP, answers a new session with the same sentence once the -wal was removed", async () => {
  const server = await startInProcess();
  try {
    rmSync(`${server.deps.dbPath}-wal`);
    const response = await fetch(server.url, {
      method: "POST",
      headers: MCP_HEADERS,
      body: JSON.stringify(INITIALIZE),
    });
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toBe(
      "The record's write-ahead log (its -wal file) was deleted or replaced while this server was running: this call was not recorded, and nothing more can be until the server is started again on the record.",
    );
  } finally {
    await server.stop();
  }
});

it("a server closed after its record was moved, with no write since, leaves every answered move in the moved file", async () => {
  const match = await start();
  await call(client, "submit_move", { match_id: match.match_id, round: 1, choice: match.labels[0] });
  const moved = join(deps.dir, "moved.db");
  renameSync(deps.dbPath, moved);
  await client.close();
  deps.store.close();
  const reader = new Database(moved);
  const decisions = reader.prepare("SELECT match_id FROM decisions").all();
  reader.close();
  expect(decisions).toEqual([{ match_id: match.match_id }]);
});

it("over HTTP, readiness turns 503 once the record file was moved away", async () => {
  const server = await startInProcess();
  try {
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
    renameSync(server.deps.dbPath, join(server.deps.dir, "moved.db"));
    const response = await fetch(`${server.origin}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      ready: false,
      database: "ok",
      reason:
        "The record file was deleted or moved away while this server was running: this call was not recorded, and nothing more can be until the server is started again on the record.",
    });
  } finally {
    await server.stop();
  }
});
