import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedMatches,
  pdDesign,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "./runner-harness.js";

// A run that gave up on some trials did not do what it was asked: a CI job that runs `same-game run && same-game
// report` must not report on a study with holes as if it were whole.

const box = useRunSandbox("same-game-left-open-");

describe("same-game run, trials given up on", () => {
  it("exits 1 naming the trials left open, and the same command then finishes the study with exit 0", async () => {
    // Every third request is a 500 and the run retries nothing: trials 3 and 6 fail (never five in a row, so
    // the run goes on to the end of the schedule).
    box.endpoint = await startScriptedEndpoint({ faults: { serverErrorEvery: 3 } });
    const study = registerStudy(box.db, pdDesign("holes", 3, 5));
    const args = scriptedRunArgs(box, study, ["--concurrency", "1", "--retries", "0"]);
    const first = await runCliAsync(args);
    expect(first.status, first.stderr).toBe(1);
    expect(first.stdout).toContain(
      "Failed trials: 2 (2 left open: run the same command again to resume them).",
    );
    expect(first.stderr).toContain(
      "same-game run: 2 trial(s) failed and are left open: run the same command again to resume them.",
    );
    expect(finishedMatches(box.db)).toBe(4);

    // Requests 7 and 8 are answered: the two open trials are finished.
    const second = await runCliAsync(args);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toContain("6 of 6 done (study complete for this player).");
    expect(finishedMatches(box.db)).toBe(6);
  }, 60_000);
});
