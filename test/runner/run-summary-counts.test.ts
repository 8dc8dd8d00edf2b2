import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedMatches,
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  startCli,
  useRunSandbox,
} from "./runner-harness.js";

// The summary's "N of M done" is what `study show` says, however the run went: resuming only open
// trials, or interrupted with every trial dealt but none finished (never "complete" then).

const box = useRunSandbox("same-game-summary-counts-");

const runArgs = (study: string, ...extra: string[]) => scriptedRunArgs(box, study, extra);

async function shownFinished(study: string): Promise<string> {
  const show = await runCliAsync(["study", "show", study, "--db", box.db]);
  const line = show.stdout.split("\n").find((l) => l.startsWith("player scripted/payoff-reader:"));
  return line ?? show.stdout;
}

describe("same-game run's count of trials done", () => {
  it("a run that only resumes an open trial counts the trials finished before it", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 300 });
    const study = registerStudy(box.db, pdDesign("resume only", 5, 11));
    // Killed while two trials are in play: they stay open.
    const first = startCli(runArgs(study, "--concurrency", "2"));
    for (let waited = 0; !existsSync(box.db) || finishedMatches(box.db) < 3; waited += 50) {
      if (waited > 30_000) throw new Error("3 trials did not finish in 30 s");
      await sleep(50);
    }
    first.child.kill("SIGKILL");
    await first.done;
    const before = finishedMatches(box.db);
    const open = query<{ n: number }>(box.db, "SELECT count(*) AS n FROM matches WHERE status = 'open'")[0]
      ?.n;
    expect(open).toBeGreaterThan(0);

    const resumed = await runCliAsync(runArgs(study, "--max-trials", "1"));
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`Trials played: 1 this run; ${before + 1} of 10 done.`);
    expect(await shownFinished(study)).toBe(
      `player scripted/payoff-reader: ${before + 1}/10 finished, ${(open ?? 0) - 1} open`,
    );
  }, 60_000);

  it("a --batch run interrupted with every trial in a batch says 0 done, not complete", async () => {
    box.endpoint = await startScriptedEndpoint({ batches: { batchMs: 120_000 } });
    const study = registerStudy(box.db, pdDesign("batch interrupted", 3, 12));
    const started = startCli(runArgs(study, "--batch", "--max-wait", "0.5"));
    const endpoint = box.endpoint;
    for (let waited = 0; !endpoint.batches.calls.some((c) => c.kind === "create"); waited += 50) {
      if (waited > 30_000) throw new Error("no batch was submitted in 30 s");
      await sleep(50);
    }
    started.child.kill("SIGINT");
    const stopped = await started.done;
    expect(stopped.status, stopped.stderr).toBe(130);
    expect(stopped.stdout).toContain("Trials played: 0 this run; 0 of 6 done.");
    expect(stopped.stdout).not.toContain("complete");
    expect(await shownFinished(study)).toMatch(/^player scripted\/payoff-reader: 0\/6 finished, 6 open$/);
  }, 60_000);
});
