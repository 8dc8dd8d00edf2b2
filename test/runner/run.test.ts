import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  finishedPerCell,
  pdDesign,
  query,
  registerStudy,
  requestText,
  runCliAsync,
  useRunSandbox,
} from "./runner-harness.js";

// `same-game run` end to end: the built CLI spawns `same-game serve` over stdio and drives a scripted
// model endpoint on loopback through the official client libraries. Nothing of our own code is mocked.

const box = useRunSandbox("same-game-run-");

const pd = (trials: number, extra: object = {}) => pdDesign("runner test", trials, 5, extra);

const MATCH_ID = /\b[0-9a-f]{32}\b/g;

describe("same-game run, text mode", () => {
  it("plays every trial, each in a fresh one-message conversation, and records every call with its tokens", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 10 });
    const study = registerStudy(box.db, pd(4));
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--player",
      "reader",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--mode",
      "text",
      "--temperature",
      "0.5",
      "--max-tokens",
      "64",
      "--concurrency",
      "3",
      "--db",
      box.db,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({ "reader/business": 4, "reader/friend-sharing": 4 });
    expect(run.stdout).toContain("Trials played: 8 this run; 8 of 8 done (study complete for this player).");
    expect(run.stdout).toContain(
      `same-game analyze robustness --study ${study} --players reader --db ${box.db}`,
    );

    // Fresh context: every request is a system message and ONE user turn — the prompt of one trial.
    expect(box.endpoint.requests).toHaveLength(8);
    for (const request of box.endpoint.requests) {
      const messages = request.body.messages as { role: string }[];
      expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
      expect(request.body.temperature).toBe(0.5);
      expect(request.body.max_tokens).toBe(64);
    }

    // Payoff-reader in PD defects (best response to ½: 3.5 < 6.5), in the framing's own words.
    const decisions = query<{ action: string; tokens: number; match_id: string; raw_text: string }>(
      box.db,
      "SELECT action, tokens, match_id, raw_text FROM decisions",
    );
    expect(decisions.map((d) => d.action)).toEqual(Array(8).fill("defect"));
    const calls = query<{
      match_id: string;
      provider: string;
      requested_model: string;
      reported_model: string;
      mode: string;
      style: string;
      decoding_json: string;
      prompt_tokens: number;
      completion_tokens: number;
      finish_reason: string;
      raw_reply: string;
      latency_ms: number;
    }>(box.db, "SELECT * FROM model_calls ORDER BY id");
    expect(calls).toHaveLength(8);
    for (const call of calls) {
      expect(call.provider).toBe("openai");
      expect(call.requested_model).toBe("scripted/payoff-reader");
      expect(call.reported_model).toBe("scripted/payoff-reader-scripted-0001");
      expect([call.mode, call.style, call.finish_reason]).toEqual(["text", "zero-shot", "stop"]);
      expect(JSON.parse(call.decoding_json)).toEqual({ temperature: 0.5, max_tokens: 64 });
      expect(call.latency_ms).toBeGreaterThan(0);
      // Tokens land in the record: the decision is charged exactly the endpoint's usage.
      const decision = decisions.find((d) => d.match_id === call.match_id);
      // The reply is the story's own word for the payoff-reader's choice, submitted verbatim.
      expect(["Undercut", "Keep it"]).toContain(JSON.parse(call.raw_reply).text);
      expect(JSON.parse(call.raw_reply).text).toBe(decision?.raw_text);
      expect(decision?.tokens).toBe(call.prompt_tokens + call.completion_tokens);
    }
  });

  it("draws K samples per decision and submits the majority, keeping all K", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pd(1));
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/uniform",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--mode",
      "text",
      "--samples",
      "5",
      "--style",
      "cot",
      "--db",
      box.db,
    ]);
    expect(run.status, run.stderr).toBe(0);
    const rounds = query<{ match_id: string; n: number; samples: string }>(
      box.db,
      "SELECT match_id, count(*) AS n, group_concat(sample_index) AS samples FROM model_calls GROUP BY match_id",
    );
    expect(rounds.map((r) => [r.n, r.samples])).toEqual([
      [5, "0,1,2,3,4"],
      [5, "0,1,2,3,4"],
    ]);
    // The submitted reply is one the majority gave: count the K replies' last lines per match.
    for (const { match_id } of rounds) {
      const replies = query<{ raw_reply: string }>(
        box.db,
        "SELECT raw_reply FROM model_calls WHERE match_id = ?",
        match_id,
      ).map((r) => (JSON.parse(r.raw_reply).text as string).split("\n").at(-1) as string);
      const [decision] = query<{ raw_text: string }>(
        box.db,
        "SELECT raw_text FROM decisions WHERE match_id = ?",
        match_id,
      );
      const chosen = (decision?.raw_text ?? "").split("\n").at(-1) as string;
      const votes = (label: string) => replies.filter((r) => r === label).length;
      expect(votes(chosen)).toBeGreaterThanOrEqual(Math.max(...replies.map(votes)));
      // cot wording reached the model: its replies reason first.
      expect(decision?.raw_text.startsWith("Weighing the options.")).toBe(true);
    }
  });

  it("tells a story-swayed model from a payoff-reader through robustness", async () => {
    box.endpoint = await startScriptedEndpoint();
    const study = registerStudy(box.db, pd(30));
    for (const model of ["scripted/story-swayed", "scripted/payoff-reader"]) {
      const run = await runCliAsync([
        "run",
        "--study",
        study,
        "--model",
        model,
        "--base-url",
        box.endpoint.openAiBaseUrl,
        "--mode",
        "text",
        "--concurrency",
        "1",
        "--db",
        box.db,
      ]);
      expect(run.status, run.stderr).toBe(0);
    }
    const analysis = await runCliAsync([
      "analyze",
      "robustness",
      "--study",
      study,
      "--framings",
      "business,friend-sharing",
      "--json",
      "--db",
      box.db,
    ]);
    expect(analysis.status, analysis.stderr).toBe(0);
    const R = (player: string) =>
      (JSON.parse(analysis.stdout) as { games: { player: string; R: { estimate: number } }[] }).games.find(
        (g) => g.player === player,
      )?.R.estimate as number;
    // Payoff-reader defects in both framings: identical distributions, R = 1. Story-swayed cooperates with
    // P ≈ 0.23 among firms and ≈ 0.77 among friends: JSD ≈ 0.22 bits, R ≈ 0.78.
    expect(R("scripted/payoff-reader")).toBe(1);
    expect(R("scripted/story-swayed")).toBeLessThan(0.9);
  });
});

describe("same-game run, tools mode", () => {
  it("recovers from 429 (Retry-After), 500, a timed-out call and malformed tool calls; one trial per request", async () => {
    box.endpoint = await startScriptedEndpoint({
      faults: {
        rateLimitEvery: 5,
        retryAfterSeconds: 0.2,
        serverErrorEvery: 7,
        slowEvery: 11,
        slowMs: 1500,
        malformedToolEvery: 4,
      },
    });
    const study = registerStudy(box.db, pd(5));
    const run = await runCliAsync([
      "run",
      "--study",
      study,
      "--model",
      "scripted/payoff-reader",
      "--base-url",
      box.endpoint.openAiBaseUrl,
      "--concurrency",
      "4",
      "--timeout",
      "0.8",
      "--db",
      box.db,
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/payoff-reader/business": 5,
      "scripted/payoff-reader/friend-sharing": 5,
    });
    const statuses = box.endpoint.requests.map((r) => r.status);
    expect(statuses).toContain(429);
    expect(statuses).toContain(500);
    expect(run.stdout).toMatch(/retries: [1-9]\d* \(/);
    // The model saw tools — only the whitelisted play tools — and each request holds one trial's match id.
    for (const request of box.endpoint.requests) {
      const tools = (request.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
      expect(tools.sort()).toEqual(["get_match", "submit_move"]);
      expect(new Set(requestText(request.body).match(MATCH_ID)).size).toBe(1);
    }
    expect(run.stdout).toMatch(/rate \d+/);
    expect(run.stdout).toMatch(/server \d+/);
    expect(run.stdout).toMatch(/timeout \d+/);
    // A malformed tool call (arguments that are not JSON) was answered as a host would, and recorded.
    const replies = query<{ raw_reply: string }>(box.db, "SELECT raw_reply FROM model_calls").map(
      (r) => JSON.parse(r.raw_reply) as { tool_calls: { arguments: string }[] },
    );
    const parses = (text: string) => {
      try {
        JSON.parse(text);
        return true;
      } catch {
        return false;
      }
    };
    expect(replies.some((r) => r.tool_calls.some((c) => !parses(c.arguments)))).toBe(true);
    const perRound = query<{ calls: number; tokens: number; charged: number }>(
      box.db,
      `SELECT count(c.id) AS calls, sum(c.prompt_tokens + c.completion_tokens) AS tokens, d.tokens AS charged
       FROM decisions d JOIN model_calls c ON c.match_id = d.match_id AND c.round = d.round GROUP BY d.match_id`,
    );
    expect(perRound).toHaveLength(10);
    // Every call behind a decision, the malformed ones too, is charged to it.
    for (const r of perRound) expect(r.charged).toBe(r.tokens);
    expect(perRound.some((r) => r.calls >= 2)).toBe(true);
  });

  it("plays through the Anthropic Messages API", async () => {
    box.endpoint = await startScriptedEndpoint({ delayMs: 5 });
    const study = registerStudy(box.db, pd(2));
    const run = await runCliAsync(
      [
        "run",
        "--study",
        study,
        "--model",
        "scripted/payoff-reader",
        "--provider",
        "anthropic",
        "--base-url",
        box.endpoint.origin,
        "--db",
        box.db,
      ],
      { ANTHROPIC_API_KEY: "sk-ant-test" },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(finishedPerCell(box.db, study)).toEqual({
      "scripted/payoff-reader/business": 2,
      "scripted/payoff-reader/friend-sharing": 2,
    });
    expect(box.endpoint.requests.every((r) => r.api === "anthropic")).toBe(true);
    const calls = query<{ provider: string; finish_reason: string; prompt_tokens: number }>(
      box.db,
      "SELECT provider, finish_reason, prompt_tokens FROM model_calls",
    );
    expect(calls.map((c) => [c.provider, c.finish_reason])).toEqual(Array(4).fill(["anthropic", "tool_use"]));
    expect(calls.every((c) => c.prompt_tokens > 0)).toBe(true);
  });
});
