import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditRecord } from "../http/support/exactly-once.js";
import { type Acknowledged, toldOf } from "../http/support/http-client.js";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

// A host's `same-game serve` over stdio killed without warning (SIGKILL) in the middle of a study, while
// its client plays trial after trial: the kill lands wherever the server happens to be (between calls,
// inside a write), timed by the decisions in the record, not by the client's calls. After a restart the
// study continues to its end. Every decision the client was told is recorded exactly once, as it was sent
// and told (0 lost, 0 duplicated, 0 wrong), and the study ends with each trial decided exactly once.

const TRIALS_PER_CELL = 40;
const FRAMINGS = ["business+familiar", "friend-sharing+familiar"];
const TRIALS = TRIALS_PER_CELL * FRAMINGS.length;
/** Decisions in the record before the kill: well into the study, far from its end. */
const KILL_AFTER = 25;

let dir: string;
let dbPath: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-stdio-kill-"));
  dbPath = join(dir, "record.db");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function connect(): Promise<{ client: Client; pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--db", dbPath, "--player", "stdio-agent", "--toolsets", "all"],
    stderr: "ignore",
  });
  const client = new Client({ name: "stdio-kill-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, pid: transport.pid as number };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

/** Plays the study's trials until it is complete or a call fails; every acknowledged decision is kept. */
async function playStudy(
  client: Client,
  studyId: string,
  acknowledged: Acknowledged[],
): Promise<string | null> {
  try {
    for (;;) {
      const next = (await call(client, "next_trial", { study_id: studyId })) as {
        complete: boolean;
        trial_index: number | null;
        trial: { match_id: string; round: number; labels: string[] } | null;
      };
      if (next.complete || next.trial === null) return null;
      const { match_id, round, labels } = next.trial;
      // Both labels in turn, so a decision stored as the other action would show.
      const choice = labels[acknowledged.length % labels.length] as string;
      const moved = await call(client, "submit_move", { match_id, round, choice });
      acknowledged.push({
        match_id,
        round,
        labels,
        choice,
        told: toldOf(moved),
        trial_index: next.trial_index as number,
      });
    }
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function decidedDecisions(): number {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM decisions WHERE status = 'decided'").get() as { n: number })
      .n;
  } catch {
    return 0; // not created yet
  } finally {
    db.close();
  }
}

it("loses, doubles and alters no acknowledged decision when serve is SIGKILLed mid-study, and finishes it after a restart", async () => {
  const first = await connect();
  const study = await call(first.client, "register_study", {
    name: "killed mid-study",
    games: ["prisoners-dilemma"],
    framings: FRAMINGS,
    trials_per_cell: TRIALS_PER_CELL,
    seed: 11,
  });
  const studyId = study.study_id as string;
  const acknowledged: Acknowledged[] = [];
  const playing = playStudy(first.client, studyId, acknowledged);
  const deadline = Date.now() + 60_000;
  while (decidedDecisions() < KILL_AFTER && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  process.kill(first.pid, "SIGKILL");
  const failure = await playing;
  await first.client.close().catch(() => undefined);
  expect(failure).not.toBeNull();
  const beforeRestart = acknowledged.length;
  expect(beforeRestart).toBeGreaterThanOrEqual(KILL_AFTER - 1);
  expect(beforeRestart).toBeLessThan(TRIALS);

  // Before any restart: what was acknowledged is there, once, as sent; at most the one call in flight
  // when the kill came was recorded without its answer reaching the client.
  const killed = auditRecord(dbPath, acknowledged);
  expect(killed).toMatchObject({ integrity: "ok", missing: [], duplicated: [], wrong: [] });
  expect(killed.decisionRows - beforeRestart).toBeGreaterThanOrEqual(0);
  expect(killed.decisionRows - beforeRestart).toBeLessThanOrEqual(1);

  const second = await connect();
  expect(await playStudy(second.client, studyId, acknowledged)).toBeNull();
  await second.client.close();
  const finished = auditRecord(dbPath, acknowledged);
  process.stderr.write(
    `stdio SIGKILL mid-study: killed after ${beforeRestart} acknowledged decisions (${killed.decisionRows} in the record), ${acknowledged.length} acknowledged in all; missing ${finished.missing.length}, duplicated ${finished.duplicated.length}, wrong ${finished.wrong.length}\n`,
  );
  expect(finished).toMatchObject({ integrity: "ok", missing: [], duplicated: [], wrong: [] });
  // The study's end: each of the player's trials decided exactly once, and nothing besides.
  const db = new Database(dbPath, { readonly: true });
  const perTrial = db
    .prepare(
      `SELECT m.trial_index AS trial, count(*) AS n FROM decisions d JOIN matches m ON m.id = d.match_id
       WHERE m.study_id = ? AND d.status = 'decided' GROUP BY m.trial_index ORDER BY m.trial_index`,
    )
    .all(studyId) as { trial: number; n: number }[];
  db.close();
  expect(perTrial).toEqual(Array.from({ length: TRIALS }, (_, trial) => ({ trial, n: 1 })));
  expect(finished.decisionRows).toBe(TRIALS);
  // Every trial acknowledged, but the one whose answer the kill may have swallowed.
  expect(TRIALS - acknowledged.length).toBe(killed.decisionRows - beforeRestart);
}, 180_000);
