import { existsSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { progressLine } from "../../src/runner/progress.js";
import { RunStats } from "../../src/runner/run-stats.js";
import { summaryText } from "../../src/runner/summary.js";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedMatches,
  finishedPerCell,
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  startCli,
  useRunSandbox,
} from "./runner-harness.js";

// What a user of `same-game run` sees: Ctrl-C, a dead endpoint, and the progress line.

const box = useRunSandbox("same-game-ux-");

const pd = (trials: number) => pdDesign("runner ux", trials, 11);

const finished = () => finishedMatches(box.db);

describe("same-game run, what the user sees", () => {
  it("Ctrl-C prints the summary and how to resume, exits 130, and the same command finishes the study", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 300 });
    const study = registerStudy(box.db, pd(10));
    const args = [
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--mode",
      "text",
      "--concurrency",
      "2",
      "--db",
      box.db,
    ];
    const first = startCli(args);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (!existsSync(box.db) || finished() < 3)) await sleep(50);
    first.child.kill("SIGINT");
    const stopped = await first.done;
    expect(stopped.status, stopped.stderr).toBe(130);
    expect(stopped.stdout).toMatch(/^Trials played: \d+ this run; \d+ of 20 done\.$/m);
    expect(stopped.stdout).toMatch(
      /^Interrupted(; [12] trial\(s\) in play were left open)?: run the same command to resume\.$/m,
    );
    expect(stopped.stdout).toContain("Analyse: same-game analyze robustness");
    expect(finished()).toBeLessThan(20);

    const resumed = await runCliAsync(args);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/payoff-reader/business": 10,
      "scripted/payoff-reader/friend-sharing": 10,
    });
    expect(query<{ n: number }>(box.db, "SELECT count(*) AS n FROM matches")[0]?.n).toBe(20);
  });

  it("a dead endpoint is named by its URL, in sentences without doubled periods, and nothing is offered to analyse", async () => {
    const study = registerStudy(box.db, pd(3));
    const dead = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--base-url",
      dead,
      "--retries",
      "0",
      "--concurrency",
      "1",
      "--db",
      box.db,
    ]);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`cannot reach ${dead}: Connection error: ECONNREFUSED`);
    expect(run.stdout).toContain(
      `Stopped early: 5 trials in a row failed; the last: cannot reach ${dead}: Connection error: ECONNREFUSED.\n`,
    );
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/\.\./);
    expect(run.stdout).toContain("Trials played: 0 this run; 0 of 6 done.");
    expect(run.stdout).not.toContain("Analyse:");
  });
});

/** A loopback port nothing listens on (one the system just handed out and took back). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the progress line", () => {
  it("shows elapsed time and the ETA at this run's rate, and changes on a retry", () => {
    const stats = new RunStats(performance.now() - 10_000);
    stats.trials = 5;
    const total = { trialsPerPlayer: 40, finishedBefore: 10, stoppedEarly: [] };
    // 5 trials in 10 s: 0.5/s; 25 left: 50 s.
    expect(progressLine(stats, total).line).toBe(
      "15/40 trials, 0.5/s, elapsed 0:10, ETA 0:50, 0 tokens, 0 errors, 0 retries",
    );
    let changes = 0;
    stats.onChange = () => changes++;
    stats.retried("rate");
    expect(changes).toBe(1);
    expect(progressLine(stats, total).line).toMatch(/, 1 retries$/);
    expect(
      progressLine(new RunStats(), { trialsPerPlayer: 40, finishedBefore: null, stoppedEarly: [] }).line,
    ).toContain("ETA ?");
    // Under adaptive stopping the line counts the trials that will be played: 62 of the 80 positions.
    const stopped = { trialsPerPlayer: 80, trialsPlanned: 62, finishedBefore: 52, stoppedEarly: [] };
    expect(progressLine(stats, stopped).line).toMatch(/^57\/62 trials, 0\.5\/s, elapsed 0:10, ETA 0:10,/);
  });
});

describe("the end-of-run summary under adaptive stopping", () => {
  const summary = (stoppedEarly: { game: string; reason: string }[]) => {
    const stats = new RunStats();
    stats.trials = 10;
    const total = { trialsPerPlayer: 80, trialsPlanned: 20, finishedBefore: 10, stoppedEarly };
    return {
      stats,
      total,
      complete: true,
      leftOpen: 0,
      interrupted: false,
      spent: null,
      spentBefore: null,
      stoppedEarly,
    };
  };

  it("names the stopped games when it read them from the record, and says only that the study ended early otherwise", () => {
    // The record (--db): which game stopped and why.
    const read = summaryText(
      summary([{ game: "prisoners-dilemma", reason: "invariance rejected after block 5" }]),
      [],
    );
    expect(read).toContain(
      "Trials played: 10 this run; study complete for this player (20 of at most 80 trials): adaptive stopping ended prisoners-dilemma early, invariance rejected after block 5.",
    );
    // Through --server the player's surface says only that fewer trials were wanted (20 planned of 80).
    const told = summaryText(summary([]), []);
    expect(told).toContain(
      "Trials played: 10 this run; study complete for this player (20 of at most 80 trials): adaptive stopping ended it early (`same-game study show` on the server's record says where and why).",
    );
  });
});
