import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { type ScriptedEndpoint, startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import { pdDesign, query, registerStudy, runCliAsync, startCli, useRunSandbox } from "./runner-harness.js";

// `same-game run --batch` against the scripted endpoint's OpenAI Batch API and Anthropic Message Batches:
// a 320-trial study ends with exactly one decision per trial even when the run is killed while its
// batches are in flight and started again, without the restarted run submitting those batches again.

const box = useRunSandbox("same-game-batch-");

const design = (trialsPerCell: number) => pdDesign("batch", trialsPerCell, 28);

const batchArgs = (db: string, study: string, provider: "openai" | "anthropic", ...extra: string[]) => [
  "run",
  "--study",
  study,
  "--model",
  "scripted/payoff-reader",
  "--provider",
  provider,
  "--base-url",
  provider === "openai"
    ? (box.endpoint as ScriptedEndpoint).openAiBaseUrl
    : (box.endpoint as ScriptedEndpoint).origin,
  "--batch",
  "--max-wait",
  "0.5",
  "--db",
  db,
  ...extra,
];

const creates = () => (box.endpoint as ScriptedEndpoint).batches.calls.filter((c) => c.kind === "create");

/** Decisions of the record: how many, and how many matches hold more than one. */
function decisionCounts(db: string) {
  const [total] = query<{ n: number }>(db, "SELECT count(*) AS n FROM decisions");
  const doubled = query<{ n: number }>(
    db,
    "SELECT count(*) AS n FROM decisions GROUP BY match_id, round HAVING count(*) > 1",
  );
  const [finished] = query<{ n: number }>(db, "SELECT count(*) AS n FROM matches WHERE status = 'finished'");
  return { decisions: total?.n, doubled: doubled.length, finished: finished?.n };
}

describe("same-game run --batch", () => {
  for (const provider of ["openai", "anthropic"] as const) {
    it(`${provider}: a 320-trial study killed while its batches are in flight ends, started again, with one decision per trial and no batch submitted twice`, async () => {
      // The second batch expires half done (its other half is asked directly); results come back in reverse
      // order, with one result for an id no request had.
      box.endpoint = await startScriptedEndpoint({
        batches: { batchMs: 2500, faults: { expireHalfEvery: 2, outOfOrder: true, strayResult: true } },
      });
      const db = box.db;
      const study = registerStudy(db, design(160));
      const first = startCli(batchArgs(db, study, provider, "--batch-size", "100"));
      // 320 trials in chunks of 100: four batches. Kill once all four are in the record and in flight.
      for (let waited = 0; ; waited += 50) {
        const kept = query<{ n: number }>(db, "SELECT count(*) AS n FROM runner_batches")[0]?.n ?? 0;
        if (creates().length === 4 && kept === 4) break;
        if (waited > 90_000) throw new Error(`no 4 batches in flight after 90 s: ${creates().length}`);
        await sleep(50);
      }
      first.child.kill("SIGKILL");
      const killed = await first.done;
      expect(killed.signal).toBe("SIGKILL");
      expect(decisionCounts(db).decisions).toBe(0);
      expect(creates().map((c) => c.requests)).toEqual([100, 100, 100, 20]);

      const second = await runCliAsync(batchArgs(db, study, provider, "--batch-size", "100"));
      expect(second.status, second.stderr).toBe(0);
      // The restarted run waited for the four batches by id: none was created again.
      expect(creates()).toHaveLength(4);
      expect(decisionCounts(db)).toEqual({ decisions: 320, doubled: 0, finished: 320 });
      // The second and fourth batches expired half done (50 of 100, 10 of 20 answered): the other 60
      // requests were made directly.
      expect(box.endpoint.requests).toHaveLength(60);
      expect(second.stdout).toContain("Batches: 0 submitted this run; replies by batch: 260;");
      expect(second.stdout).toContain("made directly: 60.");
      expect(second.stdout).toContain("320 of 320 done (study complete for this player)");
      expect(second.stderr).toContain('returned a result for "not-a-request-of-this-batch"');
      const calls = query<{ batch_id: string | null; n: number }>(
        db,
        "SELECT batch_id, count(*) AS n FROM model_calls GROUP BY batch_id ORDER BY batch_id",
      );
      const batchIds = creates().map((c) => c.id);
      expect(calls).toEqual([
        { batch_id: null, n: 60 },
        { batch_id: batchIds[0], n: 100 },
        { batch_id: batchIds[1], n: 50 },
        { batch_id: batchIds[2], n: 100 },
        { batch_id: batchIds[3], n: 10 },
      ]);
      expect(query(db, "SELECT count(*) AS n FROM runner_batches WHERE ended_at IS NULL")).toEqual([
        { n: 0 },
      ]);
      expect(query(db, "SELECT count(*) AS n FROM runner_batch_requests WHERE recorded_at IS NULL")).toEqual([
        { n: 0 },
      ]);
    }, 240_000);
  }

  it("a cached reply skips the batch; a budget counts batch spend at the batch price and stops before passing it", async () => {
    box.endpoint = await startScriptedEndpoint({ batches: { batchMs: 200 } });
    const cache = join(box.dir, "cache");
    const prices = join(box.dir, "prices.json");
    writeFileSync(
      prices,
      JSON.stringify({ "scripted/payoff-reader": { input_per_mtok: 1, output_per_mtok: 2 } }),
    );
    const first = join(box.dir, "first.db");
    const studyA = registerStudy(first, design(5));
    // --max-calls 7: a first wave of one trial (its cost unknown until then), then six more, one call each.
    const budgeted = await runCliAsync(
      batchArgs(first, studyA, "openai", "--cache", cache, "--prices", prices, "--max-calls", "7"),
    );
    expect(budgeted.status, budgeted.stderr).toBe(0);
    expect(creates().map((c) => c.requests)).toEqual([1, 6]);
    expect(decisionCounts(first)).toEqual({ decisions: 7, doubled: 0, finished: 7 });
    expect(budgeted.stdout).toContain(
      "Stopped at the budget, before one more trial could pass it: spent 7 calls",
    );
    // Each batch reply costs half its list price: (prompt · $1 + completion · $2) per million tokens, halved.
    const spend = query<{ cost: number; list: number }>(
      first,
      "SELECT sum(cost_usd) AS cost, sum(prompt_tokens * 1.0 + completion_tokens * 2.0) / 1e6 AS list FROM model_calls",
    )[0] as { cost: number; list: number };
    expect(spend.cost).toBeCloseTo(spend.list / 2, 12);
    expect(spend.cost).toBeGreaterThan(0);
    // study show and the report give the spend per (player, game, framing) cell and the total.
    const tokens = query<{ framing: string; n: number; pin: number; pout: number; cost: number }>(
      first,
      `SELECT m.framing, count(*) AS n, sum(c.prompt_tokens) AS pin, sum(c.completion_tokens) AS pout, sum(c.cost_usd) AS cost
       FROM model_calls c JOIN matches m ON m.id = c.match_id GROUP BY m.framing ORDER BY m.framing`,
    );
    expect(tokens.map((t) => t.n).reduce((a, b) => a + b)).toBe(7);
    const show = await runCliAsync(["study", "show", studyA, "--db", first]);
    expect(show.status, show.stderr).toBe(0);
    for (const t of tokens) {
      expect(show.stdout).toContain(
        `  scripted/payoff-reader prisoners-dilemma ${t.framing}: ${t.n} calls (${t.n} by batch), ${t.pin} tokens in, ${t.pout} out, $${t.cost.toFixed(4)}`,
      );
    }
    const sum = (f: (t: (typeof tokens)[number]) => number) => tokens.reduce((a, t) => a + f(t), 0);
    expect(show.stdout).toContain(
      `  total: 7 calls (7 by batch), ${sum((t) => t.pin)} tokens in, ${sum((t) => t.pout)} out, $${spend.cost.toFixed(4)}`,
    );
    const reportFile = join(box.dir, "report.html");
    const report = await runCliAsync([
      "report",
      "--db",
      first,
      "--study",
      studyA,
      "--bootstrap",
      "200",
      "--out",
      reportFile,
    ]);
    expect(report.status, report.stderr).toBe(0);
    const page = readFileSync(reportFile, "utf8");
    expect(page).toContain('<section id="spend"><h2>Spend per cell</h2>');
    expect(page).toContain(
      `<td colspan="3">Total</td><td class="num">7</td><td class="num">7</td><td class="num">0</td><td class="num">${sum((t) => t.pin)}</td><td class="num">${sum((t) => t.pout)}</td><td class="num">$${spend.cost.toFixed(4)}</td>`,
    );

    // The same study in a fresh record: the seven trials whose prompts are cached are played at once from the
    // cache, and only the other three go to a batch.
    const second = join(box.dir, "second.db");
    const studyB = registerStudy(second, design(5));
    const replay = await runCliAsync(batchArgs(second, studyB, "openai", "--cache", cache));
    expect(replay.status, replay.stderr).toBe(0);
    expect(decisionCounts(second)).toEqual({ decisions: 10, doubled: 0, finished: 10 });
    expect(box.endpoint.requests).toHaveLength(0);
    const origins = query<{ cached: number; batched: number }>(
      second,
      "SELECT sum(cached_from IS NOT NULL) AS cached, sum(batch_id IS NOT NULL) AS batched FROM model_calls",
    );
    expect(origins).toEqual([{ cached: 7, batched: 3 }]);
    expect(creates().map((c) => c.requests)).toEqual([1, 6, 3]);
    const replayShow = await runCliAsync(["study", "show", studyB, "--db", second]);
    expect(replayShow.stdout).toMatch(
      / {2}total: 3 calls \(3 by batch, 7 from the cache\), \d+ tokens in, \d+ out, —\n/,
    );
  }, 180_000);

  it("a random scripted model stays random in a batch: each line draws afresh, and a replayed batch answers the same", async () => {
    box.endpoint = await startScriptedEndpoint({ batches: { batchMs: 200 } });
    const swayed = (db: string, study: string) =>
      batchArgs(db, study, "openai").map((arg) =>
        arg === "scripted/payoff-reader" ? "scripted/story-swayed" : arg,
      );
    const decisions = (db: string) =>
      query<{ trial_index: number; framing: string; cooperated: number }>(
        db,
        `SELECT m.trial_index, m.framing, d.action = 'cooperate' AS cooperated
         FROM matches m JOIN decisions d ON d.match_id = m.id ORDER BY m.trial_index`,
      );
    const first = join(box.dir, "first.db");
    const played = await runCliAsync(swayed(first, registerStudy(first, design(20))));
    expect(played.status, played.stderr).toBe(0);
    const cooperated = (framing: string) =>
      decisions(first).filter((d) => d.framing === framing && d.cooperated === 1).length;
    // The story-swayed agent cooperates less among firms than among friends, and neither always nor never
    // among firms: a batch whose lines all drew the same number would answer one way in each framing.
    expect(cooperated("business")).toBeGreaterThan(0);
    expect(cooperated("business")).toBeLessThan(20);
    expect(cooperated("business")).toBeLessThan(cooperated("friend-sharing"));
    // The same study in a fresh record sends the same batch lines: every trial is answered as before.
    const second = join(box.dir, "second.db");
    const replayed = await runCliAsync(swayed(second, registerStudy(second, design(20))));
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(decisions(second)).toEqual(decisions(first));
    expect(box.endpoint.requests).toHaveLength(0);
  }, 120_000);

  it("refuses --batch where it cannot work, in one line naming the flag, or the URL with no batch API", async () => {
    box.endpoint = await startScriptedEndpoint();
    const db = box.db;
    const study = registerStudy(db, design(1));
    const tools = await runCliAsync(batchArgs(db, study, "openai", "--mode", "tools"));
    expect(tools.status).toBe(2);
    expect(tools.stderr).toContain("--batch needs --mode text");
    const size = await runCliAsync(batchArgs(db, study, "openai", "--batch-size", "0"));
    expect(size.status).toBe(2);
    expect(size.stderr).toContain("--batch-size");
    // An endpoint without a batch API where the run looks for it: one line naming the URL that answered 404.
    const endpoint = box.endpoint;
    const wrongUrl = batchArgs(db, study, "openai").map((arg) =>
      arg === endpoint.openAiBaseUrl ? `${endpoint.origin}/nope` : arg,
    );
    const noBatchApi = (url: string, said: string) =>
      `same-game: --batch: POST ${url} answered 404 (${said}): the endpoint offers no batch API there; run without --batch, or check --base-url and --provider.`;
    const wrong = await runCliAsync(wrongUrl);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr.trim().split("\n").at(-1)).toBe(
      noBatchApi(`${endpoint.origin}/nope/files`, "404 not found"),
    );
    expect(wrong.stderr).not.toContain("internal failure");
    // --provider anthropic with an OpenAI-style base URL: the Messages API path lands under /v1/v1.
    const anthropic = await runCliAsync(
      batchArgs(db, study, "anthropic").map((arg) =>
        arg === endpoint.origin ? endpoint.openAiBaseUrl : arg,
      ),
    );
    expect(anthropic.status).toBe(2);
    expect(anthropic.stderr.trim().split("\n").at(-1)).toBe(
      noBatchApi(`${endpoint.origin}/v1/v1/messages/batches`, '404 {"error":{"message":"not found"}}'),
    );
    expect(endpoint.batches.calls).toHaveLength(0);
    // The trials dealt before the refusal stay open, untouched: a run without --batch plays them, once each.
    expect(decisionCounts(db)).toEqual({ decisions: 0, doubled: 0, finished: 0 });
    const direct = await runCliAsync(batchArgs(db, study, "openai").filter((arg) => arg !== "--batch"));
    expect(direct.status, direct.stderr).toBe(0);
    expect(direct.stdout).toContain("2 of 2 done (study complete for this player)");
    expect(decisionCounts(db)).toEqual({ decisions: 2, doubled: 0, finished: 2 });
  }, 60_000);
});
