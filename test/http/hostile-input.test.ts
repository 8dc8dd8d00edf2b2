import type { Client } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, connectClient, tempDeps } from "../support/harness.js";
import { hostileArgs, STACK_TRACE, validArguments } from "../support/hostile-calls.js";

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} hung for ${ms} ms`)), ms)),
  ]);
}

let deps: ReturnType<typeof tempDeps>;
let client: Client;
let matchId: string;
let studyId: string;

beforeAll(async () => {
  deps = tempDeps();
  client = await connectClient(deps, { clientName: "fuzzer" });
  const view = await call<{ match_id: string }>(client, "start_match", {
    game: "prisoners-dilemma",
    framing: "business+familiar",
    opponent: "always-defect",
    seed: 7,
  });
  matchId = view.match_id;
  await call(client, "submit_move", { match_id: matchId, round: 1, choice: "Cooperate" });
  const study = await call<{ study_id: string }>(client, "register_study", {
    name: "fuzz-target",
    games: ["repeated-pd"],
    framings: ["repeated-plain"],
    labels: ["familiar"],
    trials_per_cell: 2,
  });
  studyId = study.study_id;
});
afterAll(async () => {
  await client.close();
  deps.dispose();
});

describe("hostile input to every tool", () => {
  it("answers with a result or a clean isError, never a crash, hang, stack trace or changed record", async () => {
    const snapshot = () => ({
      match: deps.store.getMatch(matchId),
      decisions: deps.store.listDecisions(matchId),
      attempts: deps.store.listAttempts(matchId, 1),
    });
    const before = snapshot();
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(6);
    const valid = validArguments(matchId, studyId);
    for (const tool of tools) {
      const properties = Object.keys((tool.inputSchema as { properties?: object }).properties ?? {});
      await fc.assert(
        fc.asyncProperty(hostileArgs(properties, valid[tool.name] ?? {}, matchId), async (args) => {
          const result = await withTimeout(
            client.callTool({ name: tool.name, arguments: args }),
            10_000,
            `${tool.name}(${JSON.stringify(args).slice(0, 200)})`,
          );
          const text = JSON.stringify(result.content ?? []);
          expect(text).not.toMatch(STACK_TRACE);
          if (!result.isError) expect(result.structuredContent).toBeTypeOf("object");
        }),
        { numRuns: 60, seed: 20261130 },
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(snapshot()).toEqual(before);
    // The server is still serving after all of it.
    expect((await client.listTools()).tools).toHaveLength(tools.length);
  });
});
