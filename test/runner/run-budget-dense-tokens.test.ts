import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startScriptedEndpoint } from "../../src/scripted-models/scripted-endpoint.js";
import {
  pdDesign,
  query,
  registerStudy,
  runCliAsync,
  scriptedRunArgs,
  useRunSandbox,
} from "./runner-harness.js";

// The budget is never passed, whatever the endpoint's tokenizer: a prompt in a non-Latin script, or a
// provider's own tool-use instructions, count far more tokens a character than English's one in four.
// Each call is reserved before it is sent at its prompt's bytes (a token is at least a byte) plus a stated
// overhead plus --max-tokens of reply; an estimate of characters ÷ 3 let three workers spend 6732 tokens
// of a 6000-token budget on an endpoint counting one token a character, and 3376 of 3000 at one token
// in two characters.

const box = useRunSandbox("same-game-dense-tokens-");

/** What the record's endpoint calls spent: tokens, and dollars at $1 / $2 per million. */
function spent(db: string) {
  return query<{ calls: number; tokens: number; usd: number }>(
    db,
    `SELECT count(*) AS calls, sum(prompt_tokens + completion_tokens) AS tokens,
            sum(prompt_tokens * 1.0 + completion_tokens * 2.0) / 1e6 AS usd
     FROM model_calls WHERE cached_from IS NULL`,
  )[0] as { calls: number; tokens: number; usd: number };
}

describe("a budget on an endpoint that counts more tokens a character than English", () => {
  // Anthropic's API takes the system message apart from the conversation, OpenAI's as its first message.
  for (const [density, provider] of [
    [2, "anthropic"],
    [4, "openai"],
  ] as const) {
    for (const mode of ["text", "tools"]) {
      it(`is never passed at ${density} tokens per four characters (${provider}, ${mode} mode, four workers)`, async () => {
        box.endpoint = await startScriptedEndpoint({ promptTokensPerFourChars: density });
        const prices = join(box.dir, "prices.json");
        writeFileSync(
          prices,
          JSON.stringify({ "scripted/story-swayed": { input_per_mtok: 1, output_per_mtok: 2 } }),
        );
        const endpoint = box.endpoint;
        const args = (db: string, budget: string[]) => [
          ...scriptedRunArgs(
            box,
            registerStudy(db, pdDesign(`dense ${density} ${mode}`, 10, density)),
            ["--mode", mode, "--max-tokens", "16", "--prices", prices, ...budget],
            db,
            "scripted/story-swayed",
          ),
          "--provider",
          provider,
          "--base-url",
          provider === "openai" ? endpoint.openAiBaseUrl : endpoint.origin,
        ];

        const tokensDb = join(box.dir, `tokens-${density}-${mode}.db`);
        // A tools-mode request carries the tools' schemas and is reserved with the provider's tool-use prompt.
        const tokenBudget = mode === "text" ? 3000 : 6000;
        const tokens = await runCliAsync(args(tokensDb, ["--max-tokens-total", String(tokenBudget)]));
        expect(tokens.status, tokens.stderr).toBe(0);
        expect(tokens.stdout).toContain("Stopped at the budget");
        const byTokens = spent(tokensDb);
        expect(byTokens.calls).toBeGreaterThan(0);
        expect(byTokens.tokens).toBeLessThanOrEqual(tokenBudget);

        const costDb = join(box.dir, `cost-${density}-${mode}.db`);
        const cost = await runCliAsync(args(costDb, ["--max-cost", "0.006"]));
        expect(cost.status, cost.stderr).toBe(0);
        expect(cost.stdout).toContain("Stopped at the budget");
        const byCost = spent(costDb);
        expect(byCost.calls).toBeGreaterThan(0);
        expect(byCost.usd).toBeLessThanOrEqual(0.006);
      }, 90_000);
    }
  }
});
