import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedPerCell,
  pdDesign,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "./runner-harness.js";

// README's vLLM command runs 16 trials at once: that many requests (and backoff waits) in flight must not
// make Node warn about listeners piling up on the run's Ctrl-C signal (its limit is ten per signal).

const box = useRunSandbox("same-game-concurrency-");

describe("same-game run with many trials in flight", () => {
  it("--concurrency 20 with every request slow and every second one rate-limited prints no warning", async () => {
    // 200 ms per answer: the 20 trials' first requests are all in flight together, and the ten 429s
    // wait out their backoff together.
    box.endpoint = await startScriptedEndpoint({
      delayMs: 200,
      faults: { rateLimitEvery: 2, retryAfterSeconds: 0 },
    });
    const study = registerStudy(box.db, pdDesign("many in flight", 10, 21));
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--concurrency", "20", "--max-wait", "0.2"]));
    expect(run.status, run.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/payoff-reader/business": 10,
      "scripted/payoff-reader/friend-sharing": 10,
    });
    expect(run.stderr).not.toMatch(/Warning|MaxListeners/);
  });
});
