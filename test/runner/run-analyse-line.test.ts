import { afterEach, describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { type InProcessServer, startInProcess } from "../http/support/in-process-server.js";
import { runCli } from "../support/built-cli.js";
import { registerStudy, runCliAsync, scriptedRunArgs, useRunSandbox } from "./runner-harness.js";

// The summary's closing "Analyse:" lines: the command to paste names the analysis the study's games take.
// A study of repeated games alone has no one-shot decision, so `analyze robustness` on it exits 2; its
// numbers are `analyze repeated`'s.

const box = useRunSandbox("same-game-analyse-line-");
let http: InProcessServer | undefined;
afterEach(async () => {
  await http?.stop();
  http = undefined;
});

const repeatedPd = (games: string[], framings: string[]) => ({
  name: "counterfactual line",
  games,
  framings,
  opponents: [{ id: "tit-for-tat" }],
  trials_per_cell: 1,
  seed: 4,
});

const analyseLines = (stdout: string) =>
  stdout
    .split("\n")
    .filter((line) => line.startsWith("Analyse: "))
    .map((line) => line.slice("Analyse: ".length));

describe("same-game run's Analyse line", () => {
  it("points a study of repeated games to analyze repeated, whose pasted command answers", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, repeatedPd(["repeated-pd"], ["repeated-plain"]));
    const run = await runCliAsync(scriptedRunArgs(box, study));
    expect(run.status, run.stderr).toBe(0);
    const command = `same-game analyze repeated --study ${study} --players scripted/payoff-reader --db ${box.db}`;
    expect(analyseLines(run.stdout)).toEqual([command]);

    const pasted = runCli([...command.split(" ").slice(1), "--json"]);
    expect(pasted.status, pasted.stderr).toBe(0);
    // The payoff reader plays tit-for-tat against tit-for-tat: 16 rounds of mutual cooperation, 4 points each.
    const cells = JSON.parse(pasted.stdout).cells as { total_points: { mean: number } }[];
    expect(cells.map((cell) => cell.total_points.mean)).toEqual([64]);
    // What the line said before: robustness has no one-shot decision to read here.
    expect(runCli(["analyze", "robustness", "--study", study, "--db", box.db]).status).toBe(2);
  });

  it("through --server, whose design it cannot read, names the analysis of the trials it was dealt", async () => {
    http = await startInProcess();
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(http.deps.dbPath, repeatedPd(["repeated-pd"], ["repeated-plain"]));
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--mode",
      "text",
      "--server",
      http.url,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(analyseLines(run.stdout)).toEqual([
      `same-game analyze repeated --study ${study} --players scripted/payoff-reader`,
    ]);
  });

  it("gives both commands for a study of one-shot and repeated games, robustness first", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(
      box.db,
      repeatedPd(["prisoners-dilemma", "repeated-pd"], ["business", "repeated-plain"]),
    );
    const run = await runCliAsync(scriptedRunArgs(box, study));
    expect(run.status, run.stderr).toBe(0);
    expect(analyseLines(run.stdout)).toEqual(
      ["robustness", "repeated"].map(
        (analysis) =>
          `same-game analyze ${analysis} --study ${study} --players scripted/payoff-reader --db ${box.db}`,
      ),
    );
  });
});
