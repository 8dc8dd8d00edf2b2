import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "../support/built-cli.js";
import { callError, useConnectedClient } from "../support/harness.js";

// An argument of arrays nested 20,000 deep was answered "Maximum call stack size exceeded": the SDK's
// validation and the explanation of its refusal walk it by recursion. It is now refused by name, with the
// limit, before anything walks it; an argument within the limit is read as before.

/** `levels` arrays inside one another, as JSON.parse makes them from `[[[…]]]`. */
function nested(levels: number): unknown {
  return JSON.parse(`${"[".repeat(levels)}${"]".repeat(levels)}`);
}

const refusal = (tool: string, argument: string) =>
  `${tool}'s argument "${argument}" nests arrays or objects more than 64 levels deep, the most any argument may; its inputSchema in tools/list says what it takes.`;

describe("a tool argument nested deeper than any argument may be", () => {
  const held = useConnectedClient();

  it("is refused by name with the limit; one level less is validated as any other value", async () => {
    const args = { match_id: "m-1", round: 1, choice: "a" };
    expect(await callError(held.client, "submit_move", { ...args, rationale: nested(65) })).toBe(
      refusal("submit_move", "rationale"),
    );
    const within = await callError(held.client, "submit_move", { ...args, rationale: nested(64) });
    expect(within).toMatch(
      /^Input validation error: Invalid arguments for tool submit_move: rationale is \[\[\[/,
    );
    // Objects count as arrays do.
    const deepObject = JSON.parse(`${'{"a":'.repeat(65)}1${"}".repeat(65)}`);
    expect(
      await callError(held.client, "start_match", { game: "prisoners-dilemma", opponent_params: deepObject }),
    ).toBe(refusal("start_match", "opponent_params"));
  });
});

describe("over stdio, 20,000 levels", () => {
  beforeAll(requireBuiltCli);

  it("answers the refusal, not a stack overflow, and keeps serving", async () => {
    const dir = mkdtempSync(join(tmpdir(), "same-game-deep-"));
    const child = spawn(process.execPath, [
      CLI,
      "serve",
      "--db",
      join(dir, "record.db"),
    ]) as ChildProcessWithoutNullStreams;
    try {
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
      });
      const reply = (id: number) =>
        new Promise<{ result?: { content: { text: string }[]; isError?: boolean } }>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`no reply ${id}: ${stdout.slice(0, 500)}`)),
            30_000,
          );
          const poll = setInterval(() => {
            const line = stdout.split("\n").find((l) => l.includes(`"id":${id}`));
            if (line !== undefined) {
              clearInterval(poll);
              clearTimeout(timer);
              resolve(JSON.parse(line));
            }
          }, 20);
        });
      const send = (line: string) => child.stdin.write(`${line}\n`);
      send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "deep", version: "1" },
          },
        }),
      );
      await reply(1);
      send(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
      const depth = 20_000;
      send(
        `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"submit_move","arguments":{"match_id":"x","round":1,"choice":"a","rationale":${"[".repeat(depth)}${"]".repeat(depth)}}}}`,
      );
      const refused = await reply(2);
      expect(refused.result?.isError).toBe(true);
      expect(refused.result?.content[0]?.text).toBe(refusal("submit_move", "rationale"));
      send(JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }));
      expect(JSON.stringify(await reply(3))).toContain('"name":"submit_move"');
    } finally {
      child.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
