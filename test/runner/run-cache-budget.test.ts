import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ScriptedEndpoint, startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedPerCell,
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "./runner-harness.js";

// `same-game run --cache` replays a study without calling the endpoint; budgets stop a run before it
// could pass them, with nothing half recorded, and a larger budget resumes it to the full schedule.

const box = useRunSandbox("same-game-cache-");

const pd = (trials: number) => pdDesign("cache and budget", trials, 21);

/** The decisions of a record by schedule position: what a replay must reproduce. */
function decisionsByTrial(db: string) {
  return query<{ trial_index: number; action: string; raw_text: string; tokens: number }>(
    db,
    `SELECT m.trial_index, d.action, d.raw_text, d.tokens FROM decisions d JOIN matches m ON m.id = d.match_id
     ORDER BY m.trial_index`,
  );
}

describe("same-game run --cache", () => {
  it("a second identical run makes no request and records the same decisions, flagged cached; a changed setting calls again", async () => {
    box.endpoint = await startScriptedEndpoint();
    const cache = join(box.dir, "cache");
    const args = (db: string, ...extra: string[]) => [
      "run",
      "--study",
      registerStudy(db, pd(4)),
      // Story-swayed draws its choice at random: only a replay reproduces the first run's decisions.
      "--model",
      "scripted/story-swayed",
      "--base-url",
      (box.endpoint as ScriptedEndpoint).openAiBaseUrl,
      "--mode",
      "tools",
      "--temperature",
      "0.7",
      "--cache",
      cache,
      "--db",
      db,
      ...extra,
    ];
    const first = join(box.dir, "first.db");
    const run1 = await runCliAsync(args(first));
    expect(run1.status, run1.stderr).toBe(0);
    const calls = box.endpoint.requests.length;
    expect(calls).toBe(8);

    const second = join(box.dir, "second.db");
    const run2 = await runCliAsync(args(second));
    expect(run2.status, run2.stderr).toBe(0);
    expect(box.endpoint.requests.length).toBe(calls);
    expect(run2.stdout).toContain("Model calls: 0; replies from the cache: 8;");
    expect(decisionsByTrial(second)).toEqual(decisionsByTrial(first));
    const original = query<{ cache_key: string; called_at: string }>(
      first,
      "SELECT cache_key, called_at FROM model_calls WHERE cached_from IS NULL",
    );
    const reused = query<{ cache_key: string; cached_from: string; latency_ms: number }>(
      second,
      "SELECT cache_key, cached_from, latency_ms FROM model_calls",
    );
    expect(original).toHaveLength(8);
    expect(reused).toHaveLength(8);
    // Each reused call names the original: its cache entry, and when that call was made.
    const madeAt = new Map(original.map((c) => [c.cache_key, c.called_at]));
    for (const call of reused) expect(call.cached_from).toBe(madeAt.get(call.cache_key));

    // Another decoding setting, another prompt (style), another model: the endpoint is called again.
    for (const [extra, name] of [
      [["--max-tokens", "300"], "decoding"],
      [["--style", "cot"], "prompt"],
      [["--model", "scripted/payoff-reader"], "model"],
    ] as const) {
      const before = box.endpoint.requests.length;
      const db = join(box.dir, `${name}.db`);
      const run = await runCliAsync(args(db, ...extra));
      expect(run.status, run.stderr).toBe(0);
      expect(box.endpoint.requests.length - before, name).toBe(8);
    }

    const list = await runCliAsync(["cache", "list", "--cache", cache]);
    expect(list.stdout).toContain(`${cache}: 32 cached replies`);
    expect(list.stdout).toContain(`8  openai scripted/payoff-reader at ${box.endpoint.openAiBaseUrl}`);
    expect(list.stdout).toContain(`24  openai scripted/story-swayed at ${box.endpoint.openAiBaseUrl}`);
    const pruned = await runCliAsync(["cache", "prune", "--older-than", "7d", "--cache", cache]);
    expect(pruned.stdout).toContain("Removed 0 cached replies older than 7d");
    const bad = await runCliAsync(["cache", "prune", "--older-than", "7 days", "--cache", cache]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--older-than must be a number and a unit");
    const cleared = await runCliAsync(["cache", "clear", "--cache", cache]);
    expect(cleared.stdout).toContain("Removed 32 cached replies");
    // Seven runs of the built CLI: about 45 s on an idle 2-core machine.
  }, 180_000);
});

describe("same-game run budgets", () => {
  const budgetRun = (db: string, study: string, ...extra: string[]) =>
    runCliAsync(scriptedRunArgs(box, study, ["--concurrency", "3", ...extra], db));

  it("--max-calls stops before passing the budget, nothing half recorded, and a larger one completes exactly the schedule", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 20 });
    const db = box.db;
    const study = registerStudy(db, pd(5));
    const stopped = await budgetRun(db, study, "--max-calls", "7");
    expect(stopped.status, stopped.stderr).toBe(0);
    // One call per one-shot text trial: 7 calls are 7 trials, each finished; no trial is left open.
    expect(box.endpoint.requests.length).toBe(7);
    expect(
      query<{ status: string; n: number }>(db, "SELECT status, count(*) AS n FROM matches GROUP BY status"),
    ).toEqual([{ status: "finished", n: 7 }]);
    expect(stopped.stdout).toContain(
      "Stopped at the budget, before one more trial could pass it: spent 7 calls (--max-calls 7)",
    );
    expect(stopped.stdout).toContain("run the same command with a larger budget");

    const resumed = await budgetRun(db, study, "--max-calls", "100");
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(finishedPerCell(db, study)).toEqual({
      "scripted/payoff-reader/business": 5,
      "scripted/payoff-reader/friend-sharing": 5,
    });
    expect(query<{ n: number }>(db, "SELECT count(*) AS n FROM matches")[0]?.n).toBe(10);
    expect(box.endpoint.requests.length).toBe(10);
  });

  it("--max-cost with --prices records each call's cost and stops a few calls short of the budget, never past it", async () => {
    box.endpoint = await startScriptedEndpoint();
    const db = box.db;
    const prices = join(box.dir, "prices.json");
    // $1 per million input tokens, $2 per million output tokens.
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      prices,
      JSON.stringify({ "scripted/payoff-reader": { input_per_mtok: 1, output_per_mtok: 2 } }),
    );
    const study = registerStudy(db, pd(10));
    // Every call is reserved with --max-tokens of reply at $2 (50: $0.0001) and its prompt's bytes at $1.
    const budget = 0.006;
    const stopped = await budgetRun(
      db,
      study,
      "--prices",
      prices,
      "--max-tokens",
      "50",
      "--max-cost",
      String(budget),
    );
    expect(stopped.status, stopped.stderr).toBe(0);
    const calls = query<{ prompt_tokens: number; completion_tokens: number; cost_usd: number }>(
      db,
      "SELECT prompt_tokens, completion_tokens, cost_usd FROM model_calls",
    );
    for (const c of calls)
      expect(c.cost_usd).toBeCloseTo((c.prompt_tokens * 1 + c.completion_tokens * 2) / 1e6, 12);
    const spent = calls.reduce((sum, c) => sum + c.cost_usd, 0);
    const dearest = Math.max(...calls.map((c) => c.cost_usd));
    // Never past the budget, and within three call reservations of it: a trial is projected at its call's
    // reservation, and three trials may be in play. A reservation counts the prompt's bytes, 64 tokens and
    // 50 of reply, where this endpoint counts a token per four characters: under 5 times a call's cost here.
    expect(spent).toBeLessThanOrEqual(budget);
    expect(spent + 3 * 5 * dearest).toBeGreaterThan(budget);
    expect(calls.length).toBeLessThan(20);
    expect(query<{ n: number }>(db, "SELECT count(*) AS n FROM matches WHERE status = 'open'")[0]?.n).toBe(0);
    expect(stopped.stdout).toMatch(/Tokens: \d+ .*; cost \$0\.00\d\d at the --prices table\./);

    const missing = await budgetRun(db, study, "--prices", prices, "--model", "other", "--max-cost", "1");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('has no price for --model "other"; it prices: "scripted/payoff-reader"');
    const unpriced = await budgetRun(db, study, "--max-cost", "1");
    expect(unpriced.status).toBe(2);
    expect(unpriced.stderr).toContain("--max-cost 1 needs --prices FILE");

    const resumed = await budgetRun(db, study, "--prices", prices, "--max-tokens-total", "1000000");
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(Object.values(finishedPerCell(db, study))).toEqual([10, 10]);
    expect(query<{ n: number }>(db, "SELECT count(*) AS n FROM matches")[0]?.n).toBe(20);
  }, 120_000);
});
