import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedMatches,
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "./runner-harness.js";

// A budget is the player's in the study, not one invocation's: the same command run again after a budget
// stop spends nothing more, and a larger budget goes on from what the record already holds. A dollar or
// token budget is never passed, not even by the first call, whose cost is estimated before it is made.

const box = useRunSandbox("same-game-budget-study-");

const run = (study: string, ...extra: string[]) =>
  runCliAsync(scriptedRunArgs(box, study, ["--concurrency", "3", ...extra]));

function prices(inputPerMtok: number, outputPerMtok: number): string {
  const file = join(box.dir, "prices.json");
  writeFileSync(
    file,
    JSON.stringify({
      "scripted/payoff-reader": { input_per_mtok: inputPerMtok, output_per_mtok: outputPerMtok },
    }),
  );
  return file;
}

const matchCount = () => query<{ n: number }>(box.db, "SELECT count(*) AS n FROM matches")[0]?.n ?? 0;

describe("same-game run budgets count the study's spend", () => {
  it("--max-calls 7 twice makes 7 calls in all; --max-calls 10 then makes 3 more, and says what was spent before", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("budget per study", 15, 5));
    const first = await run(study, "--max-calls", "7");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain("Trials played: 7 this run; 7 of 30 done.");
    expect(first.stdout).not.toContain("Spent before this run");

    // One call per one-shot text trial: the second identical run has nothing left to spend.
    const again = await run(study, "--max-calls", "7");
    expect(again.status, again.stderr).toBe(0);
    expect(box.endpoint.requests).toHaveLength(7);
    expect(finishedMatches(box.db)).toBe(7);
    expect(again.stdout).toContain("Trials played: 0 this run; 7 of 30 done.");
    expect(again.stdout).toMatch(/^Spent before this run \(.*\): 7 calls, \d+ tokens, not priced\.$/m);
    expect(again.stdout).toContain("spent 7 calls (--max-calls 7)");

    const larger = await run(study, "--max-calls", "10");
    expect(larger.status, larger.stderr).toBe(0);
    expect(box.endpoint.requests).toHaveLength(10);
    expect(larger.stdout).toContain("Trials played: 3 this run; 10 of 30 done.");
    expect(larger.stdout).toContain("spent 10 calls (--max-calls 10)");
    expect(matchCount()).toBe(10);
  }, 60_000);

  it("a budget that covers the study exactly ends with the study complete, not stopped at the budget, run after run", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("exact budget", 4, 12));
    // 2 framings × 4 trials, one call each: --max-calls 8 pays for every trial, and nothing is left after.
    for (const [played, calls] of [
      [8, 8],
      [0, 8],
    ]) {
      const run8 = await run(study, "--max-calls", "8");
      expect(run8.status, run8.stderr).toBe(0);
      expect(run8.stdout).toContain(
        `Trials played: ${played} this run; 8 of 8 done (study complete for this player).`,
      );
      expect(run8.stdout).not.toContain("Stopped at the budget");
      expect(box.endpoint.requests).toHaveLength(calls as number);
    }
  }, 60_000);

  it("--max-tokens-total counts the tokens of earlier runs", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("tokens per study", 15, 6));
    const first = await run(study, "--max-calls", "4");
    expect(first.status, first.stderr).toBe(0);
    const [spent] = query<{ tokens: number }>(
      box.db,
      "SELECT sum(prompt_tokens + completion_tokens) AS tokens FROM model_calls",
    );
    // A budget of exactly what the four calls took: nothing is left for a fifth.
    const tokens = await run(study, "--max-tokens-total", String(spent?.tokens));
    expect(tokens.status, tokens.stderr).toBe(0);
    expect(box.endpoint.requests).toHaveLength(4);
    expect(tokens.stdout).toContain(
      `spent 4 calls, ${spent?.tokens} tokens (--max-tokens-total ${spent?.tokens})`,
    );
  }, 60_000);

  it("a budget that stops inside a repeated trial says a larger budget resumes it, not the same command", async () => {
    box.endpoint = await startScriptedEndpoint();
    // One 16-round match, one call a round in text mode: 10 calls stop it after round 10.
    const study = registerStudy(box.db, {
      name: "budget inside a trial",
      games: ["repeated-pd"],
      framings: ["repeated-plain"],
      opponents: [{ id: "tit-for-tat" }],
      trials_per_cell: 1,
      seed: 3,
    });
    const stopped = await run(study, "--max-calls", "10");
    expect(stopped.status, stopped.stderr).toBe(0);
    expect(stopped.stdout).toContain("\nFailed trials: 0.\n");
    expect(stopped.stdout).toContain(
      "Nothing is half recorded; to go on, run the same command with a larger budget (it resumes the 1 left open).",
    );
    // The same command again would spend nothing more: it is not what the summary offers.
    expect(stopped.stdout).not.toContain("run the same command again");
    expect(query(box.db, "SELECT count(*) AS n FROM decisions")).toEqual([{ n: 10 }]);

    const finished = await run(study, "--max-calls", "16");
    expect(finished.status, finished.stderr).toBe(0);
    expect(finished.stdout).toContain(
      "Trials played: 1 this run; 1 of 1 done (study complete for this player).",
    );
    expect(query(box.db, "SELECT count(*) AS n FROM decisions")).toEqual([{ n: 16 }]);
    expect(box.endpoint.requests).toHaveLength(16);
  });

  it("--max-cost is never passed by the first call: $0 spends nothing, and a budget below one reply's price opens no trial", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("dollars", 15, 7));
    // $1000 and $2000 per million tokens: --max-tokens 1024 of reply alone would cost $2.048.
    const dear = prices(1000, 2000);
    for (const budget of ["0", "0.01"]) {
      const refused = await run(study, "--prices", dear, "--max-cost", budget);
      expect(refused.status, refused.stderr).toBe(0);
      expect(refused.stdout).toContain(
        `Stopped at the budget, before one more trial could pass it: spent 0 calls, 0 tokens, $0.0000 (--max-cost ${budget}).`,
      );
    }
    expect(box.endpoint.requests).toHaveLength(0);
    expect(matchCount()).toBe(0);

    // $1 and $2 per million: 50 tokens of reply fit in $0.0002, the prompt's bound (its bytes) does not.
    const cheap = prices(1, 2);
    const estimated = await run(study, "--prices", cheap, "--max-tokens", "50", "--max-cost", "0.0002");
    expect(estimated.status, estimated.stderr).toBe(0);
    expect(box.endpoint.requests).toHaveLength(0);
    // The trial dealt before its prompt was known stays open, for a run with a larger budget.
    expect(estimated.stdout).toContain("1 left open");

    // Each call is reserved at its prompt's bytes and --max-tokens of reply (about $0.0014 here): $0.008
    // pays for several calls.
    const budget = 0.008;
    const paid = await run(study, "--prices", cheap, "--max-tokens", "50", "--max-cost", String(budget));
    expect(paid.status, paid.stderr).toBe(0);
    const calls = query<{ cost_usd: number }>(box.db, "SELECT cost_usd FROM model_calls");
    const spent = calls.reduce((sum, c) => sum + c.cost_usd, 0);
    expect(calls.length).toBeGreaterThan(2);
    expect(spent).toBeLessThanOrEqual(budget);
  }, 90_000);

  it("--max-trials holds with a budget and several workers", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 50 });
    const study = registerStudy(box.db, pdDesign("smoke", 15, 8));
    const smoke = await run(study, "--max-calls", "100", "--max-trials", "2", "--concurrency", "4");
    expect(smoke.status, smoke.stderr).toBe(0);
    expect(smoke.stdout).toContain("Trials played: 2 this run; 2 of 30 done.");
    expect(matchCount()).toBe(2);
    expect(box.endpoint.requests).toHaveLength(2);
  }, 60_000);

  it("without --prices a budget stop says the spend is not priced", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("unpriced", 2, 9));
    const stopped = await run(study, "--max-calls", "1");
    expect(stopped.status, stopped.stderr).toBe(0);
    expect(stopped.stdout).toMatch(/spent 1 calls \(--max-calls 1\), \d+ tokens, not priced\./);
    expect(stopped.stdout).not.toContain("$0.0000");
  }, 60_000);

  it("study show says how many calls its cost covers when only some were priced", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("partly priced", 2, 10));
    expect((await run(study, "--prices", prices(1, 2), "--max-trials", "2")).status).toBe(0);
    expect((await run(study)).status).toBe(0);
    const [cost] = query<{ usd: number }>(box.db, "SELECT sum(cost_usd) AS usd FROM model_calls");
    const show = await runCliAsync(["study", "show", study, "--db", box.db]);
    expect(show.stdout).toMatch(
      new RegExp(
        `\\n {2}total: 4 calls, \\d+ tokens in, \\d+ out, \\$${cost?.usd.toFixed(4)} \\(2 of the 4 recorded calls priced\\)\\n`,
      ),
    );
  }, 60_000);

  it("--prices refuses a key it does not know, naming it and the key it most likely meant", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("misspelt prices", 2, 11));
    const file = join(box.dir, "typo.json");
    const refusal = async (table: object) => {
      writeFileSync(file, JSON.stringify(table));
      const run = await runCliAsync(
        scriptedRunArgs(box, study, ["--batch", "--prices", file, "--max-cost", "0.008"]),
      );
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      return run.stderr.trim();
    };
    // Ignored, the misspelt discount would leave the default half off in force: the budget would be passed.
    expect(
      await refusal({
        "scripted/payoff-reader": { input_per_mtok: 2.5, output_per_mtok: 10, batch_discont: 0 },
      }),
    ).toBe(
      `same-game: --prices ${file}: "scripted/payoff-reader": unknown key "batch_discont" (did you mean "batch_discount"?); valid keys: input_per_mtok, output_per_mtok, batch_discount.`,
    );
    expect(await refusal({ "scripted/payoff-reader": 2.5 })).toContain(
      `--prices ${file}: "scripted/payoff-reader" must be an object like {"input_per_mtok": 0.15, "output_per_mtok": 0.6}, got 2.5.`,
    );
    expect(await refusal({ "scripted/payof-reader": { input_per_mtok: 1, output_per_mtok: 2 } })).toContain(
      `has no price for --model "scripted/payoff-reader" (did you mean "scripted/payof-reader"?); it prices: "scripted/payof-reader".`,
    );
    expect(box.endpoint.requests).toHaveLength(0);
    expect(box.endpoint.batches.calls).toHaveLength(0);
    expect(matchCount()).toBe(0);
  }, 60_000);
});
