import { setTimeout as sleep } from "node:timers/promises";
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  pdDesign,
  query,
  registerStudy,
  scriptedRunArgs,
  startCli,
  useRunSandbox,
} from "./runner-harness.js";

// Another process holding the record's write lock past the busy timeout (a large import beside the run)
// made the server refuse the runner's next_trial or submission with "database is locked"; the run ended
// with exit 2, its trials open, and the model calls a refused submission carried were never recorded. The
// refusal says nothing was recorded, so the runner waits and makes the call again, as for a busy server.

const box = useRunSandbox("same-game-record-locked-");

it("waits out a record another process holds locked for 12 s and plays each trial once, every model call recorded", async () => {
  box.endpoint = await startScriptedEndpoint({ delayMs: 200 });
  const study = registerStudy(box.db, pdDesign("locked record", 4, 6));
  const run = startCli(scriptedRunArgs(box, study));
  const decisions = () => query<{ n: number }>(box.db, "SELECT count(*) AS n FROM decisions")[0]?.n ?? 0;
  while (decisions() === 0) await sleep(50);
  const holder = new Database(box.db);
  holder.exec("BEGIN IMMEDIATE");
  await sleep(12_000);
  holder.exec("ROLLBACK");
  holder.close();
  const done = await run.done;
  expect(done.status, done.stderr).toBe(0);
  expect(done.stdout).toContain("8 of 8 done (study complete for this player)");
  const trials = query<{ trial_index: number; status: string }>(
    box.db,
    "SELECT trial_index, status FROM matches WHERE study_id = ? ORDER BY trial_index",
    study,
  );
  expect(trials).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({ trial_index: i, status: "finished" })));
  // One model call per trial, each answered by the endpoint and each in the record.
  expect(box.endpoint.requests.length).toBe(8);
  expect(query<{ n: number }>(box.db, "SELECT count(*) AS n FROM model_calls")[0]?.n).toBe(8);
}, 120_000);
