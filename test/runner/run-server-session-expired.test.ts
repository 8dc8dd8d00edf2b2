import { afterEach, describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { type InProcessServer, startInProcess } from "../http/support/in-process-server.js";
import { pdDesign, query, registerStudy, runCliAsync, useRunSandbox } from "./runner-harness.js";

// A runner on a laptop that sleeps mid-run (or waiting on a model that thinks for longer than the
// server's --idle-timeout) comes back to a server that has expired its session: every request answers
// 404 "Session not found … start a new one with initialize". The runner used to fail the trial in play
// and then stop with "internal failure" and the SDK's stack trace; it now opens a new session and goes on,
// as the shared-service guide tells every client to (a 404 processed nothing of the request).

const box = useRunSandbox("same-game-server-expired-");
let http: InProcessServer | undefined;
afterEach(async () => {
  await http?.stop();
  http = undefined;
});

describe("same-game run --server when its session expires between two requests", () => {
  it("opens a new session and plays every trial once", async () => {
    // The server forgets a session after 1 s without a request; each model reply takes 1.5 s.
    http = await startInProcess({ idleTimeoutMs: 1_000 });
    box.endpoint = await startScriptedEndpoint({ delayMs: 1_500 });
    const study = registerStudy(http.deps.dbPath, pdDesign("sleepy runner", 1, 8));
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
      "1",
    ]);
    expect(run.stderr).not.toMatch(/internal failure|Session not found|failed/);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("Trials played: 2 this run; 2 of 2 done (study complete for this player).");
    // One model call per trial: the reply was not asked for again.
    expect(box.endpoint.requests).toHaveLength(2);
    const trials = query<{ trial_index: number; status: string }>(
      http.deps.dbPath,
      "SELECT trial_index, status FROM matches WHERE study_id = ? ORDER BY trial_index",
      study,
    );
    expect(trials).toEqual([0, 1].map((i) => ({ trial_index: i, status: "finished" })));
  }, 120_000);
});
