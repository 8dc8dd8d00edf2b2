// A verb whose write another process keeps waiting past the busy timeout (10 s) fails with one line that
// says so and that nothing of it was written — not "internal failure" and SQLite's stack trace.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { requireBuiltCli, runCli } from "../support/built-cli.js";

let dir: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-busy-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("an import into a record another process holds locked says so in one line, exit 1, and imports nothing", () => {
  const record = join(dir, "record.db");
  const matches = join(dir, "m.jsonl");
  const line = {
    player: "p",
    game: "prisoners-dilemma",
    variant: "base",
    framing: "business",
    opponent: "random",
    rounds: [{ move: "defect", opponent_move: "cooperate", payoff: 10, opponent_payoff: 2 }],
  };
  writeFileSync(matches, `${JSON.stringify(line)}\n`);
  expect(runCli(["import", "matches", matches, "--db", record, "--source", "first"]).status).toBe(0);
  const holder = new Database(record);
  holder.exec("BEGIN IMMEDIATE");
  const run = runCli(["import", "matches", matches, "--db", record, "--source", "second"]);
  holder.exec("ROLLBACK");
  const count = (holder.prepare("SELECT count(*) AS n FROM matches").get() as { n: number }).n;
  holder.close();
  expect(run.stderr).toBe(
    "same-game: the record is busy: another process held its write lock for more than 10 s, and what this command was writing was rolled back; run it again once that process is done.\n",
  );
  expect(run.status).toBe(1);
  expect(count).toBe(1);
}, 30_000);
