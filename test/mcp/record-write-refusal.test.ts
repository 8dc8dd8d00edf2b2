// A write SQLite refuses for a reason that passes — the disk is full, another process holds the write lock
// past the busy timeout — is answered with a sentence that says the call was not recorded and to retry it,
// not SQLite's bare "database or disk is full" / "database is locked"; and the retry is recorded once.
import type { Client } from "@modelcontextprotocol/client";
import Database from "better-sqlite3";
import { afterEach, beforeEach, expect, it } from "vitest";
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
const decisionsOf = (matchId: string) =>
  (
    deps.store.db.prepare("SELECT count(*) AS n FROM decisions WHERE match_id = ?").get(matchId) as {
      n: number;
    }
  ).n;

it("says a move refused while another process holds the write lock was not recorded, and records the retry once", async () => {
  const match = await start();
  deps.store.db.pragma("busy_timeout = 50");
  const other = new Database(deps.dbPath);
  other.exec("BEGIN IMMEDIATE");
  const move = { match_id: match.match_id, round: 1, choice: match.labels[0] };
  const refusal = await callError(client, "submit_move", move);
  other.exec("ROLLBACK");
  other.close();
  expect(refusal).toBe(
    "The record is busy: another process (an import, say) held its write lock for more than 10 s, and this call was not recorded. Retry it in a few seconds (a retried move is recorded once).",
  );
  expect(decisionsOf(match.match_id)).toBe(0);
  await call(client, "submit_move", move);
  expect(decisionsOf(match.match_id)).toBe(1);
});

it("says a move refused on a full record was not recorded, and records the retry once room is made", async () => {
  const match = await start();
  // SQLite's own page limit: past it a write fails with SQLITE_FULL, as on a full disk.
  const pages = deps.store.db.pragma("page_count", { simple: true }) as number;
  deps.store.db.pragma(`max_page_count = ${pages}`);
  const move = {
    match_id: match.match_id,
    round: 1,
    choice: match.labels[0],
    rationale: "r".repeat(20_000),
  };
  const refusal = await callError(client, "submit_move", move);
  expect(refusal).toBe(
    "The disk holding the record is full: this call was not recorded. Free space on it, then retry this call (a retried move is recorded once).",
  );
  expect(decisionsOf(match.match_id)).toBe(0);
  deps.store.db.pragma(`max_page_count = ${pages * 100}`);
  await call(client, "submit_move", move);
  expect(decisionsOf(match.match_id)).toBe(1);
});
