import { afterEach, describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { type InProcessServer, startInProcess } from "../http/support/in-process-server.js";
import { pdDesign, query, registerStudy, runCliAsync, useRunSandbox } from "./runner-harness.js";

// A shared server refuses a client over its rate with 429 + Retry-After and processes nothing of the
// request (docs/shared-service.md): the runner waits as told and sends it again, losing and repeating no
// trial, instead of failing the run.

const box = useRunSandbox("same-game-server-busy-");
let http: InProcessServer | undefined;
afterEach(async () => {
  await http?.stop();
  http = undefined;
});

describe("same-game run --server against a rate-limited server", () => {
  it("waits out every 429 and plays each trial exactly once", async () => {
    // Two JSON-RPC messages a second per session, four trials at once: most requests are refused first.
    http = await startInProcess({ rateLimitPerSecond: 2 });
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(http.deps.dbPath, pdDesign("busy server", 2, 6));
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
      "--concurrency",
      "4",
      "--retries",
      "30",
    ]);
    expect(run.stderr).not.toMatch(/internal failure|Too many requests/);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("4 of 4 done (study complete for this player)");
    const retries = Number(/retries: (\d+) \(rate \1\)/.exec(run.stdout)?.[1] ?? 0);
    expect(retries).toBeGreaterThan(0);
    // The 2 framings × 2 trials, each schedule position dealt once and finished.
    const trials = query<{ trial_index: number; status: string }>(
      http.deps.dbPath,
      "SELECT trial_index, status FROM matches WHERE study_id = ? ORDER BY trial_index",
      study,
    );
    expect(trials).toEqual([0, 1, 2, 3].map((i) => ({ trial_index: i, status: "finished" })));
  }, 120_000);
});
