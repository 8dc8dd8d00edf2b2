import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, tempDeps } from "../support/harness.js";

// A tools/call a client gets wrong is answered in one sentence: an unknown name (even one Object.prototype
// happens to hold) as "Unknown tool", arguments that are not an object as a tool error naming what is expected.

let deps: ReturnType<typeof tempDeps>;
let client: Client;
let toolNames: string[];

/** A raw tools/call, as a client that does not check its own arguments sends it. */
async function rawToolsCall(params: Record<string, unknown>): Promise<{ result?: unknown; error?: string }> {
  try {
    const result = await (
      client as unknown as { request(r: unknown, s?: unknown): Promise<unknown> }
    ).request({ method: "tools/call", params });
    return { result };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

beforeAll(async () => {
  deps = tempDeps();
  client = await connectClient(deps);
  toolNames = (await client.listTools()).tools.map((t) => t.name);
});
afterAll(async () => {
  await client.close();
  deps.dispose();
});

describe("tools/call with a name that is not a tool", () => {
  it("answers Object.prototype's member names as unknown tools, listing the real ones", async () => {
    expect(toolNames).toContain("start_match");
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "no_such_tool"]) {
      const { error } = await rawToolsCall({ name, arguments: {} });
      expect(error, name).toMatch(new RegExp(`Unknown tool "${name}"; tools: .*start_match`));
      expect(error, name).not.toMatch(/disabled|\n/);
    }
  });

  it("asks for the name as a string when it is not one", async () => {
    const { error } = await rawToolsCall({ name: 42, arguments: {} });
    expect(error).toMatch(/tools\/call needs params\.name, the name of a tool as a string; tools: /);
    expect(error).not.toMatch(/\n/);
  });
});

describe("tools/call with arguments that are not an object", () => {
  it("answers an array, a string and null with one sentence naming what is expected", async () => {
    for (const [args, got] of [
      [[1, 2], "an array"],
      ["game=prisoners-dilemma", "a string"],
      [null, "null"],
    ] as const) {
      const { result, error } = await rawToolsCall({ name: "start_match", arguments: args });
      expect(error, String(args)).toBeUndefined();
      expect(result).toEqual({
        content: [
          {
            type: "text",
            text: `start_match takes its arguments as a JSON object of named values (as its inputSchema in tools/list describes), got ${got}.`,
          },
        ],
        isError: true,
      });
    }
    // Nothing was started, and a well-formed call still works.
    expect(deps.store.db.prepare("SELECT count(*) AS n FROM matches").get()).toEqual({ n: 0 });
    const ok = await client.callTool({
      name: "start_match",
      arguments: { game: "prisoners-dilemma", framing: "business+familiar", opponent: "always-defect" },
    });
    expect(ok.isError).toBeFalsy();
  });
});
