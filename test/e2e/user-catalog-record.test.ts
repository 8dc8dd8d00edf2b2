import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { escapeHtml } from "../../src/report/html.js";
import { type ScriptedEndpoint, startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { Store } from "../../src/store/store.js";
import { finishedPerCell, runCliAsync, tempDir } from "../runner/runner-harness.js";
import { CLI, requireBuiltCli, runCli } from "../support/built-cli.js";
import { callError, connectClient, shippedCatalog } from "../support/harness.js";
import { INSPECTION } from "../support/inspection-game.js";

// A study of a user's own game, from registration to the report: `run --catalog` plays it (the catalog
// reaches the server the runner starts), every command the tool prints for re-running it carries the
// catalog, and a verb that reads the record without the catalog says what is missing instead of failing
// on an id the user never typed.

let dir: string;
let catalogDir: string;
let db: string;
let studyId: string;
let endpoint: ScriptedEndpoint;
let analyse: string;

const design = {
  name: "inspection and dilemma",
  games: ["inspection", "prisoners-dilemma"],
  framings: ["abstract-matrix", "neutral-narrative"],
  trials_per_cell: 2,
  seed: 3,
};
/** 2 games × 2 framings × 2 trials. */
const TRIALS = 8;

const runArgs = (player: string) => [
  "run",
  "--study",
  studyId,
  "--model",
  "scripted/payoff-reader",
  "--player",
  player,
  "--base-url",
  endpoint.openAiBaseUrl,
  "--mode",
  "text",
  "--db",
  db,
];

beforeAll(async () => {
  requireBuiltCli();
  dir = tempDir("same-game-user-catalog-record-");
  // A space in the folder's name: a printed command must quote it.
  catalogDir = join(dir, "my games");
  mkdirSync(catalogDir);
  writeFileSync(join(catalogDir, "inspection.json"), JSON.stringify(INSPECTION));
  db = join(dir, "record.db");
  writeFileSync(join(dir, "design.json"), JSON.stringify(design));
  const registered = runCli([
    "study",
    "register",
    join(dir, "design.json"),
    "--db",
    db,
    "--catalog",
    catalogDir,
  ]);
  expect(registered.status, registered.stderr).toBe(0);
  studyId = registered.stdout.split(" ")[0] as string;
  endpoint = await startScriptedEndpoint();
}, 60_000);
afterAll(async () => {
  await endpoint?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a study of a user's own game", () => {
  it("is played by run --catalog DIR and by run under SAME_GAME_CATALOG", async () => {
    const run = await runCliAsync([...runArgs("by-flag"), "--catalog", catalogDir]);
    expect(run.stderr).not.toMatch(/Unknown game/);
    expect(run.status, run.stderr).toBe(0);
    const byEnv = await runCliAsync(runArgs("by-env"), { SAME_GAME_CATALOG: catalogDir });
    expect(byEnv.status, byEnv.stderr).toBe(0);
    expect(finishedPerCell(db, studyId)).toEqual({
      "by-env/abstract-matrix": 4,
      "by-env/neutral-narrative": 4,
      "by-flag/abstract-matrix": 4,
      "by-flag/neutral-narrative": 4,
    });
    // The closing line names the catalog, quoted for the shell (its folder name holds a space).
    analyse = run.stdout.split("\n").find((line) => line.startsWith("Analyse: ")) ?? "";
    expect(analyse).toBe(
      `Analyse: same-game analyze robustness --study ${studyId} --players by-flag --db ${db} --catalog '${catalogDir}'`,
    );
  }, 120_000);

  it("prints commands that run when pasted: run's Analyse line and the report's Command line", () => {
    // `same-game` as a shell function standing for the built CLI: the line is given to sh exactly as printed.
    const shell = (command: string) =>
      spawnSync("sh", ["-c", `same_game() { "${process.execPath}" "${CLI}" "$@"; }; ${command}`], {
        encoding: "utf8",
      });
    const pasted = shell(`${analyse.slice("Analyse: ".length).replace(/^same-game/, "same_game")} --json`);
    expect(pasted.stderr).toBe("");
    expect(pasted.status).toBe(0);
    expect(JSON.parse(pasted.stdout).games.map((g: { game: string }) => g.game)).toEqual([
      "inspection",
      "prisoners-dilemma",
    ]);

    const out = join(dir, "report.html");
    const report = runCli([
      "report",
      "--db",
      db,
      "--study",
      studyId,
      "--catalog",
      catalogDir,
      "--bootstrap",
      "200",
      "--out",
      out,
    ]);
    expect(report.status, report.stderr).toBe(0);
    const html = readFileSync(out, "utf8");
    const command = `same-game report --db ${db} --catalog '${catalogDir}' --study ${studyId} --framings abstract-matrix,neutral-narrative --seed 1 --bootstrap 200`;
    expect(html).toContain(`<dt>Command</dt><dd><code>${escapeHtml(command)}</code></dd>`);
  }, 60_000);

  it("is exported whole by export matches without the catalog, like every other table", () => {
    const jsonl = runCli(["export", "matches", "--format", "jsonl", "--db", db]);
    expect(jsonl.status, jsonl.stderr).toBe(0);
    const games = jsonl.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { game: string }).game);
    // Both players' trials: 2 × 8, half of them of the user's game.
    expect(games).toHaveLength(2 * TRIALS);
    expect(games.filter((game) => game === "inspection")).toHaveLength(TRIALS);
    const csv = runCli(["export", "matches", "--db", db]);
    expect(csv.stdout.trim().split("\n")).toHaveLength(1 + 2 * TRIALS);
  });

  it("read without the catalog: listed, and every reading verb says which games are missing", () => {
    const list = runCli(["study", "list", "--db", db]);
    expect(list.status, list.stderr).toBe(0);
    const lines = list.stdout.trim().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(`^${studyId} .* \\? cells +\\? trials/player {2}2 player\\(s\\) {2}inspection and dilemma$`),
    );
    expect(lines[1]).toBe(
      "? cells: the design names game inspection, not in the loaded catalog; pass --catalog DIR, the folder it was registered with.",
    );
    const said =
      "same-game: The record holds game inspection not in the shipped catalog; pass --catalog DIR, the folder of games and framings it was played with (or set SAME_GAME_CATALOG).\n";
    for (const verb of [
      ["study", "show", studyId],
      ["analyze", "robustness", "--study", studyId],
      ["analyze", "sensitivity", "--study", studyId, "--bootstrap", "100"],
      ["analyze", "robustness", "--framings", "abstract-matrix,neutral-narrative"],
      ["report", "--study", studyId, "--out", join(dir, "never.html")],
      ["run", ...runArgs("nobody").slice(1, -2)],
    ]) {
      const read = runCli([...verb, "--db", db]);
      expect(read.stderr, verb.join(" ")).toBe(said);
      expect(read.status).toBe(2);
    }
    // A game the user typed is still theirs to fix: the valid ones are listed.
    const typed = runCli(["analyze", "equilibria", "--game", "inspection"]);
    expect(typed.status).toBe(2);
    expect(typed.stderr).toMatch(/^same-game: Unknown game "inspection"; games: battle-of-the-sexes, /);
  }, 60_000);

  it("read by a server started without the catalog: its analysis tools say which games are missing", async () => {
    const store = new Store(db);
    const client = await connectClient({ store, catalog: shippedCatalog() });
    try {
      for (const [tool, args] of [
        ["robustness", { study_id: studyId, bootstrap: 50 }],
        ["report", { study_id: studyId, bootstrap: 50 }],
      ] as const) {
        expect(await callError(client, tool, args), tool).toBe(
          "The record holds game inspection not in the shipped catalog; pass --catalog DIR, the folder of games and framings it was played with (or set SAME_GAME_CATALOG).",
        );
      }
    } finally {
      await client.close();
      store.close();
    }
  }, 60_000);
});
