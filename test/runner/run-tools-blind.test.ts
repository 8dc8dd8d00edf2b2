import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { finishedPerCell, pdDesign, registerStudy, runCliAsync, useRunSandbox } from "./runner-harness.js";

// In tools mode the model is offered submit_move and get_match, and nothing else of the server may reach
// it: not the names of the tools the runner keeps to itself (next_trial above all, which says the model
// plays trials of a study), in the tools' descriptions or their parameters' descriptions.

const box = useRunSandbox("same-game-run-blind-");

const WITHHELD = ["next_trial", "start_match", "join_match", "list_games", "register_study"];

describe("same-game run, tools mode, what the tool definitions tell the model", () => {
  it("names no tool the model is not offered, and no trial, in any tool definition sent", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("blind tools", 1, 3));
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--mode",
      "tools",
      "--db",
      box.db,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/payoff-reader/business": 1,
      "scripted/payoff-reader/friend-sharing": 1,
    });
    expect(box.endpoint.requests.length).toBeGreaterThan(0);
    for (const request of box.endpoint.requests) {
      const definitions = JSON.stringify(request.body.tools);
      for (const name of WITHHELD) expect(definitions).not.toContain(name);
      expect(definitions).not.toMatch(/trial/i);
    }
  });
});
