import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { runCli } from "../support/built-cli.js";
import { query, registerStudy, runCliAsync, scriptedRunArgs, useRunSandbox } from "./runner-harness.js";

// `same-game run` starts every trial from its own stdio session and plays each trial in a fresh one, so
// the matches' own session_id is the run that dealt them. A study played in two runs (stopped and run
// again) must compare like one played in a single run: each trial its own unit, not two "sessions" of
// the matches each run happened to deal.

const box = useRunSandbox("same-game-resumed-compare-");

describe("analyze compare of repeated play recorded by same-game run", () => {
  it("resamples trials, not the runs that dealt them, when the study was played in two runs", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, {
      name: "resumed repeated",
      games: ["repeated-pd"],
      framings: ["repeated-plain"],
      opponents: [{ id: "tit-for-tat" }],
      trials_per_cell: 4,
      seed: 2,
    });
    const run = (model: string, extra: string[]) =>
      runCliAsync(scriptedRunArgs(box, study, extra, box.db, model));
    // "whole/payoff-reader" in one run; "resumed/payoff-reader" two trials per run, in two runs.
    expect((await run("whole/payoff-reader", [])).status).toBe(0);
    for (let i = 0; i < 2; i++) {
      expect((await run("resumed/payoff-reader", ["--max-trials", "2"])).status).toBe(0);
    }
    const dealtBy = query<{ player: string; runs: number; matches: number }>(
      box.db,
      "SELECT player, count(DISTINCT session_id) AS runs, count(*) AS matches FROM matches GROUP BY player ORDER BY player",
    );
    expect(dealtBy).toEqual([
      { player: "resumed/payoff-reader", runs: 2, matches: 4 },
      { player: "whole/payoff-reader", runs: 1, matches: 4 },
    ]);

    const compared = runCli([
      "analyze",
      "compare",
      "--study",
      study,
      "--db",
      box.db,
      "--bootstrap",
      "200",
      "--json",
    ]);
    expect(compared.status, compared.stderr).toBe(0);
    const report = JSON.parse(compared.stdout);
    expect(report.repeated_units).toEqual([
      { group: "resumed/payoff-reader", unit: "trial", matches: 4 },
      { group: "whole/payoff-reader", unit: "trial", matches: 4 },
    ]);
    // Tit-for-tat against tit-for-tat: 16 rounds of mutual cooperation at 4 points, in every match.
    const points = (report.ranks as { measure: string; group: string; estimate: number }[])
      .filter((r) => r.measure === "points")
      .map((r) => [r.group, r.estimate]);
    expect(points.sort()).toEqual([
      ["resumed/payoff-reader", 64],
      ["whole/payoff-reader", 64],
    ]);
    expect(JSON.stringify(report.notes)).not.toContain("in 1 session");
  });
});
