import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedMatches,
  finishedPerCell,
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  startCli,
  useRunSandbox,
} from "./runner-harness.js";

// A CI job's timeout, or a container being stopped, ends `same-game run` with SIGTERM, not Ctrl-C. The
// run stops as at Ctrl-C: the summary with how to resume, exit 143 (128 + 15), and the same command
// finishes the study. And stderr read by a CI log (not a terminal) gets one line per failed trial.

const box = useRunSandbox("same-game-sigterm-");

describe("same-game run under a CI job", () => {
  it("SIGTERM prints the summary and how to resume, exits 143, and the same command finishes the study", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 300 });
    const study = registerStudy(box.db, pdDesign("sigterm", 10, 12));
    const args = scriptedRunArgs(box, study, ["--concurrency", "2"]);
    const first = startCli(args);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (!existsSync(box.db) || finishedMatches(box.db) < 3)) await sleep(50);
    first.child.kill("SIGTERM");
    const stopped = await first.done;
    expect(stopped.signal).toBeNull();
    expect(stopped.status, stopped.stderr).toBe(143);
    expect(stopped.stdout).toMatch(/^Trials played: \d+ this run; \d+ of 20 done\.$/m);
    expect(stopped.stdout).toMatch(
      /^Interrupted(; [12] trial\(s\) in play were left open)?: run the same command to resume\.$/m,
    );
    expect(stopped.stdout).toContain("Analyse: same-game analyze robustness");
    expect(finishedMatches(box.db)).toBeLessThan(20);
    // The stopped run let go of the study: the resume is not refused as a second run of the player.
    expect(query(box.db, "SELECT count(*) AS n FROM run_leases")).toEqual([{ n: 0 }]);

    const resumed = await runCliAsync(args);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/payoff-reader/business": 10,
      "scripted/payoff-reader/friend-sharing": 10,
    });
  });

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`${signal} in the run's first second, while its code still loads, says nothing was recorded and exits ${code}`, async () => {
      box.endpoint = await startScriptedEndpoint();
      const study = registerStudy(box.db, pdDesign("early signal", 2, 15));
      // Loading the run's code takes a second or more; Node itself needs a moment before the bin's first
      // line runs, and a signal before that ends the process as it would any program: then a bit later.
      let stopped: Awaited<ReturnType<typeof startCli>["done"]> | undefined;
      for (const afterMs of [250, 500, 1000]) {
        const run = startCli(scriptedRunArgs(box, study));
        await sleep(afterMs);
        run.child.kill(signal);
        stopped = await run.done;
        if (stopped.signal === null) break;
      }
      expect(stopped?.signal).toBeNull();
      expect(stopped?.status, stopped?.stderr).toBe(code);
      expect(stopped?.stdout).toBe(
        "Stopped before any trial was played; nothing recorded: run the same command to start.\n",
      );
      expect(query(box.db, "SELECT count(*) AS n FROM matches")).toEqual([{ n: 0 }]);
      expect(query(box.db, "SELECT count(*) AS n FROM run_leases")).toEqual([{ n: 0 }]);
      expect(box.endpoint.requests).toHaveLength(0);
    });
  }

  it("a failed trial is one line on a stderr that is not a terminal, with no blank line before it", async () => {
    // Every request is answered 500: each trial fails, and five in a row stop the run.
    box.endpoint = await startScriptedEndpoint({ faults: { serverErrorEvery: 1 } });
    const study = registerStudy(box.db, pdDesign("failed lines", 3, 14));
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--retries", "0", "--concurrency", "1"]));
    expect(run.status).toBe(1);
    const failures = run.stderr.split("\n").filter((line) => line.includes(" failed: "));
    expect(failures).toHaveLength(5);
    for (const line of failures) expect(line).toMatch(/^same-game run: trial [\w-]+ failed: /);
    expect(run.stderr).not.toContain("\n\n");
    expect(run.stderr.startsWith("\n")).toBe(false);
  });
});
