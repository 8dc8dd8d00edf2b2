import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type ScriptedEndpointOptions,
  startScriptedEndpoint,
} from "../../src/scripted-models/scripted-endpoint.js";
import { runCli } from "../support/built-cli.js";
import {
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "./runner-harness.js";

// `same-game run` against the servers people run open models on (vLLM, Ollama, llama.cpp), as the
// scripted endpoint shapes their replies: a reasoning model's <think> block, replies cut off at
// max_tokens, no usage, llama.cpp's tool calls, a connection reset mid-reply, a base URL without /v1.
// The scripted payoff reader chooses the dominant "defect" in every Prisoner's Dilemma.

const box = useRunSandbox("same-game-open-models-");

async function play(options: ScriptedEndpointOptions, extra: string[] = [], trialsPerCell = 1) {
  box.endpoint = await startScriptedEndpoint(options);
  const study = registerStudy(box.db, pdDesign("open models", trialsPerCell, 5));
  const run = await runCliAsync(scriptedRunArgs(box, study, ["--concurrency", "1", ...extra]));
  return { study, run };
}

const decisions = () =>
  query<{ action: string | null; status: string; invalid_attempts: number; raw_text: string }>(
    box.db,
    "SELECT action, status, invalid_attempts, raw_text FROM decisions ORDER BY decided_at",
  );

/** The last user turn of each request the endpoint answered, in order (what the model was told). */
const lastUserTurns = () =>
  (box.endpoint?.requests ?? []).map((r) => {
    const messages = r.body.messages as { role: string; content: string }[];
    return messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
  });

describe("same-game run against open-model servers", () => {
  it("reads a reasoning model's choice after its </think>, not the label its thinking named first", async () => {
    // Each reply: "<think>\nMy answer is <the other label>.\n…</think>\n\nI choose <defect's label>."
    const { run } = await play({ shape: { think: "closed" } });
    expect(run.status, run.stderr).toBe(0);
    const recorded = query<{ action: string; raw_text: string; rationale: string; raw_reply: string }>(
      box.db,
      `SELECT d.action, d.raw_text, d.rationale, c.raw_reply
       FROM decisions d JOIN model_calls c ON c.match_id = d.match_id AND c.round = d.round`,
    );
    expect(recorded.map((d) => d.action)).toEqual(["defect", "defect"]);
    for (const d of recorded) {
      expect(d.raw_text).toMatch(/^I choose (Undercut|Keep it)\.$/);
      expect(d.rationale).toMatch(/^<think>\nMy answer is (Hold the price|Chip in)\.\n.*<\/think>$/s);
      // The model call keeps the whole reply, reasoning and answer.
      expect(JSON.parse(d.raw_reply).text).toBe(`${d.rationale}\n\n${d.raw_text}`);
    }
  });

  it("reads no choice from a think block that is never closed; all-void players are named by the analysis and study show", async () => {
    // Each reply names the payoff reader's choice inside a <think> it never closes.
    const { study, run } = await play({ shape: { think: "unclosed" } });
    expect(run.status, run.stderr).toBe(0);
    expect(decisions()).toEqual([
      { action: null, status: "void", invalid_attempts: 5, raw_text: "" },
      { action: null, status: "void", invalid_attempts: 5, raw_text: "" },
    ]);
    expect(lastUserTurns()[1]).toMatch(
      /^Your reply opens a reasoning block \(<think>\) it never closes, so it gives no answer after it; answer with exactly one of "[^"]+" or "[^"]+"\. This was invalid reply 1 of 5/,
    );
    const analysis = runCli([
      "analyze",
      "robustness",
      "--study",
      study,
      "--players",
      "scripted/payoff-reader",
      "--db",
      box.db,
    ]);
    expect(analysis.status).toBe(2);
    expect(analysis.stderr).toContain("scripted/payoff-reader: 2 matches, 0 valid decisions (all void)");
    const shown = runCli(["study", "show", study, "--db", box.db]);
    expect(shown.stdout).toContain(
      "player scripted/payoff-reader: 2/2 finished, 0 open; 2 rounds void (no valid reply)",
    );
  });

  it("takes a reply cut off at --max-tokens as an invalid reply, says so, and suggests raising it", async () => {
    // Every second request is cut off (finish_reason "length"). One at a time: request 1 decides the
    // first trial; request 2, the second trial's first reply, is cut and refused; request 3 decides it.
    const { run } = await play({ shape: { cutOffEvery: 2 } }, ["--max-tokens", "300"]);
    expect(run.status, run.stderr).toBe(0);
    expect(decisions()).toEqual([
      { action: "defect", status: "decided", invalid_attempts: 0, raw_text: expect.any(String) },
      { action: "defect", status: "decided", invalid_attempts: 1, raw_text: expect.any(String) },
    ]);
    expect(lastUserTurns()[2]).toMatch(
      /^Your reply was cut off at the 300-token limit before it ended, so no choice is read from it; answer with exactly one of/,
    );
    expect(run.stdout).toContain("Replies cut off at --max-tokens: 1, each read as no answer");
    expect(run.stdout).toContain("raise --max-tokens");
  });

  it("takes an Anthropic reply that stopped at max_tokens as an invalid reply", async () => {
    box.endpoint = await startScriptedEndpoint({ shape: { cutOffEvery: 1 } });
    const study = registerStudy(box.db, pdDesign("open models", 1, 5));
    const args = scriptedRunArgs(box, study, ["--provider", "anthropic", "--max-trials", "1"]);
    args[args.indexOf("--base-url") + 1] = box.endpoint.origin;
    const run = await runCliAsync(args, { ANTHROPIC_API_KEY: "sk-ant-test" });
    expect(run.status, run.stderr).toBe(0);
    expect(decisions()).toEqual([{ action: null, status: "void", invalid_attempts: 5, raw_text: "" }]);
    expect(run.stdout).toContain("Replies cut off at --max-tokens: 5");
  });

  it("reads tool-call arguments sent as an object (llama.cpp)", async () => {
    const { run } = await play({ shape: { toolArgumentsAsObject: true } }, ["--mode", "tools"]);
    expect(run.status, run.stderr).toBe(0);
    expect(decisions().map((d) => [d.action, d.invalid_attempts])).toEqual([
      ["defect", 0],
      ["defect", 0],
    ]);
    expect(run.stdout).toContain("invalid replies: 0;");
  });

  it("gives tool calls without an id ids of its own, so the next turn is accepted", async () => {
    // A repeated game: every round after the first sends the earlier tool calls and results back.
    box.endpoint = await startScriptedEndpoint({ shape: { toolCallsWithoutId: true } });
    const study = registerStudy(box.db, {
      name: "no ids",
      games: ["repeated-pd"],
      framings: ["repeated-plain"],
      opponents: [{ id: "tit-for-tat", params: {} }],
      trials_per_cell: 1,
      seed: 7,
    });
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--mode", "tools"]));
    expect(run.status, run.stderr).toBe(0);
    const rounds = decisions();
    expect(rounds.length).toBeGreaterThan(1);
    expect(rounds.every((d) => d.status === "decided")).toBe(true);
    // No request was refused for a tool turn without its id; the second names the first call call_1.
    expect(box.endpoint.requests.map((r) => r.status).every((s) => s === 200)).toBe(true);
    expect(JSON.stringify(box.endpoint.requests[1]?.body.messages)).toContain('"tool_call_id":"call_1"');
  });

  it("retries a reply whose connection was reset mid-body, as a server error", async () => {
    const { run } = await play({ faults: { resetMidBodyEvery: 2 } }, [], 2);
    expect(run.status, run.stderr).toBe(0);
    expect(decisions().map((d) => d.action)).toEqual(["defect", "defect", "defect", "defect"]);
    // Requests 2, 4 and 6 were cut: each retried once.
    expect(run.stdout).toContain("retries: 3 (server 3)");
    expect(run.stderr).not.toContain("terminated");
  });

  it("names the URL when connections keep breaking mid-reply", async () => {
    const { run } = await play({ faults: { resetMidBodyEvery: 1 } }, ["--retries", "1", "--max-trials", "1"]);
    expect(run.stderr).toMatch(
      /trial \S+ failed: the connection to http:\/\/127\.0\.0\.1:\d+\/v1 broke before the reply was complete \(terminated/,
    );
  });

  it("retries a 200 whose JSON body was cut short, as a server error, and names the URL when it persists", async () => {
    // Requests 2, 4 and 6 answer 200 with the first 40 characters of their JSON body.
    const { run } = await play({ faults: { truncatedJsonEvery: 2 } }, [], 2);
    expect(run.status, run.stderr).toBe(0);
    expect(decisions().map((d) => d.action)).toEqual(["defect", "defect", "defect", "defect"]);
    expect(run.stdout).toContain("retries: 3 (server 3)");

    await box.endpoint?.close();
    const always = await play({ faults: { truncatedJsonEvery: 1 } }, ["--retries", "1", "--max-trials", "1"]);
    expect(always.run.stderr).toMatch(
      /trial \S+ failed: http:\/\/127\.0\.0\.1:\d+\/v1 answered with a reply body that is not valid JSON \(Unterminated string in JSON at position 40\)/,
    );
    // One request and its one retry: the trial failed for the endpoint, not on its first broken reply.
    expect(always.run.stdout).toContain("retries: 1 (server 1)");
  });

  it("retries a 200 that is a proxy's HTML page, and names the URL and quotes the page when it persists", async () => {
    // The Messages API's base URL is the origin, appended after the OpenAI one scriptedRunArgs gives.
    const anthropic = () => ["--provider", "anthropic", "--base-url", box.endpoint?.origin ?? ""];
    // Requests 2, 4 and 6 answer 200 with a sign-in page.
    box.endpoint = await startScriptedEndpoint({ faults: { htmlPageEvery: 2 } });
    const study = registerStudy(box.db, pdDesign("open models", 2, 5));
    const run = await runCliAsync([...scriptedRunArgs(box, study, ["--concurrency", "1"]), ...anthropic()]);
    expect(run.status, run.stderr).toBe(0);
    expect(decisions().map((d) => d.action)).toEqual(["defect", "defect", "defect", "defect"]);
    expect(run.stdout).toContain("retries: 3 (server 3)");

    await box.endpoint.close();
    box.endpoint = await startScriptedEndpoint({ faults: { htmlPageEvery: 1 } });
    const again = registerStudy(box.db, pdDesign("open models again", 1, 5));
    const always = await runCliAsync([
      ...scriptedRunArgs(box, again, ["--retries", "1", "--max-trials", "1"]),
      ...anthropic(),
    ]);
    expect(always.stderr).toContain(
      `failed: ${box.endpoint.origin} answered 200 with no message content: <html><head><title>Sign in</title></head><body>Sign in to continue</body></html>`,
    );
    expect(always.stdout).toContain("retries: 1 (server 1)");

    // The same page on the OpenAI side: the chat API's 200 without choices, quoted alike.
    const openAi = await runCliAsync(scriptedRunArgs(box, again, ["--retries", "0", "--max-trials", "1"]));
    expect(openAi.stderr).toContain(
      `failed: ${box.endpoint.openAiBaseUrl} answered 200 with no choices: <html><head><title>Sign in</title></head><body>Sign in to continue</body></html>`,
    );
  });

  it("records tokens and cost the endpoint did not report as unknown, not as 0", async () => {
    const prices = join(box.dir, "prices.json");
    writeFileSync(
      prices,
      JSON.stringify({ "scripted/payoff-reader": { input_per_mtok: 1, output_per_mtok: 2 } }),
    );
    const { study, run } = await play({ shape: { noUsage: true } }, ["--prices", prices]);
    expect(run.status, run.stderr).toBe(0);
    expect(query(box.db, "SELECT prompt_tokens, completion_tokens, cost_usd FROM model_calls")).toEqual([
      { prompt_tokens: null, completion_tokens: null, cost_usd: null },
      { prompt_tokens: null, completion_tokens: null, cost_usd: null },
    ]);
    expect(run.stdout).toContain("Tokens: not reported by the endpoint for 2 calls.");
    const shown = runCli(["study", "show", study, "--db", box.db]);
    expect(shown.stdout).toContain("  total: 2 calls, tokens not reported by the endpoint for 2 calls, —");
  });

  it("leaves a decision's tokens unknown when one of its calls reported no usage, never a sum that leaves it out", async () => {
    // --samples 3: each decision is three calls (requests 1–3, 4–6); every third reply carries no usage,
    // so each decision has two calls with usage and one without. A sum of the two would be the decision's
    // tokens as if the third were free, and its match's efficiency overstated by half.
    const { run } = await play({ shape: { noUsageEvery: 3 } }, ["--mode", "text", "--samples", "3"]);
    expect(run.status, run.stderr).toBe(0);
    const calls = query<{ match_id: string; reported: number; missing: number }>(
      box.db,
      `SELECT match_id, sum(CASE WHEN prompt_tokens IS NULL THEN 0 ELSE 1 END) AS reported,
         sum(CASE WHEN prompt_tokens IS NULL THEN 1 ELSE 0 END) AS missing
       FROM model_calls GROUP BY match_id`,
    );
    expect(calls.map(({ reported, missing }) => ({ reported, missing }))).toEqual([
      { reported: 2, missing: 1 },
      { reported: 2, missing: 1 },
    ]);
    expect(query(box.db, "SELECT tokens FROM decisions")).toEqual([{ tokens: null }, { tokens: null }]);
    expect(query(box.db, "SELECT tokens FROM attempts")).toEqual([{ tokens: null }, { tokens: null }]);
    expect(run.stdout).toContain("tokens not reported by the endpoint for 2 calls");
  });

  it("reads usage counts sent as strings of digits as the numbers they are", async () => {
    // A proxy re-serialised the usage: "prompt_tokens": "191". Added as text they made "0191…", which the
    // record refused with the reply, and the trial failed after 8 "refused tool calls".
    const { run } = await play({ shape: { usageAsStrings: true } });
    expect(run.status, run.stderr).toBe(0);
    const rounds = query<{ tokens: number; prompt_tokens: number; completion_tokens: number }>(
      box.db,
      `SELECT d.tokens, c.prompt_tokens, c.completion_tokens
       FROM decisions d JOIN model_calls c ON c.match_id = d.match_id AND c.round = d.round`,
    );
    expect(rounds).toHaveLength(2);
    for (const round of rounds) {
      expect(typeof round.prompt_tokens).toBe("number");
      expect(round.prompt_tokens).toBeGreaterThan(0);
      expect(round.tokens).toBe(round.prompt_tokens + round.completion_tokens);
    }
    const prompt = rounds.reduce((sum, r) => sum + r.prompt_tokens, 0);
    const completion = rounds.reduce((sum, r) => sum + r.completion_tokens, 0);
    expect(run.stdout).toContain(
      `Tokens: ${prompt + completion} (${prompt} prompt, ${completion} completion).`,
    );
  });

  it("stops a token budget at the first reply without usage, and refuses one over a record that has such calls", async () => {
    const { study, run } = await play({ shape: { noUsage: true } }, ["--max-tokens-total", "1000000"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("does not report the token usage of its replies");
    expect(query(box.db, "SELECT count(*) AS n FROM model_calls")).toEqual([{ n: 1 }]);
    const again = await runCliAsync(scriptedRunArgs(box, study, ["--max-tokens-total", "1000000"]));
    expect(again.status).toBe(2);
    expect(again.stderr).toContain(
      `The record holds 1 call of "scripted/payoff-reader" in ${study} whose endpoint reported no token usage`,
    );
    expect(box.endpoint?.requests).toHaveLength(1);
  });

  it("stops at the first 404 of a base URL without /v1, naming the URL posted to", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("open models", 2, 5));
    const args = scriptedRunArgs(box, study);
    args[args.indexOf("--base-url") + 1] = box.endpoint.origin;
    const run = await runCliAsync(args);
    expect(run.status).toBe(2);
    const origin = box.endpoint.origin;
    expect(
      run.stderr
        .trim()
        .split("\n")
        .filter((line) => !line.startsWith("same-game run: 0/")),
    ).toEqual([
      `same-game: POST ${origin}/chat/completions answered 404 (not found): no chat API there; OpenAI-compatible servers (vLLM, Ollama, llama.cpp) serve it under /v1: try --base-url ${origin}/v1.`,
    ]);
    expect(box.endpoint.requests).toHaveLength(0);
  });

  it("says a server streamed a reply nobody asked for, and does not retry it", async () => {
    const { run } = await play({ faults: { streamEvery: 1 } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("answered with a stream of server-sent events (text/event-stream)");
    expect(box.endpoint?.requests).toHaveLength(1);
  });

  it("refuses an --api-key-env variable that is not set", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pdDesign("open models", 1, 5));
    const run = await runCliAsync(scriptedRunArgs(box, study, ["--api-key-env", "SAME_GAME_TEST_UNSET_KEY"]));
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      "same-game: --api-key-env SAME_GAME_TEST_UNSET_KEY: that environment variable is not set (or empty); set it, or leave the flag out for a local server that needs no key.",
    );
    expect(box.endpoint.requests).toHaveLength(0);
  });
});
