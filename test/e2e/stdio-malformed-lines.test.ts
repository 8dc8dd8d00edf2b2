import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

let dir: string;
/** Every server a test started: stopped after it, whether or not the test got to stop it. */
const started: ChildProcessWithoutNullStreams[] = [];
beforeAll(requireBuiltCli);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-malformed-"));
});
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

interface Reply {
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

/** A real `serve` fed raw lines; every stdout line must be JSON-RPC, and is returned parsed. */
function rawServe() {
  const child = spawn(process.execPath, [
    CLI,
    "serve",
    "--db",
    join(dir, "record.db"),
  ]) as ChildProcessWithoutNullStreams;
  started.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const replies = () =>
    stdout
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Reply);
  const until = (done: (r: Reply[]) => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        clearInterval(poll);
        reject(new Error(`no such reply; stdout: ${stdout.slice(0, 2000)}`));
      }, 20_000);
      const poll = setInterval(() => {
        if (done(replies())) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
  const write = (line: string) => child.stdin.write(`${line}\n`);
  return {
    child,
    replies,
    until,
    stderr: () => stderr,
    write,
    /** The handshake, answered (id "init"), then the initialized notification. */
    async initialize(protocolVersion: string) {
      write(
        JSON.stringify({
          jsonrpc: "2.0",
          id: "init",
          method: "initialize",
          params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } },
        }),
      );
      await until((r) => r.some((m) => m.id === "init"));
      write('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    },
  };
}

describe("serve over stdio takes a JSON-RPC batch", () => {
  it("serves each message of a batch line, answers each on its own line, and refuses a bad message of it alone", async () => {
    const serve = rawServe();
    await serve.initialize("2025-03-26");
    serve.write(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "ping" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99 } },
        { jsonrpc: "1.0", id: 2, method: "ping" },
        [{ jsonrpc: "2.0", id: 3, method: "ping" }],
        {
          jsonrpc: "2.0",
          id: 4,
          method: "tools/call",
          params: { name: "list_games", arguments: {} },
        },
      ]),
    );
    await serve.until((r) => r.some((m) => m.id === 4));
    serve.child.kill("SIGTERM");
    const answers = serve.replies().filter((m) => m.id !== "init");
    expect(answers.find((m) => m.id === 1)).toMatchObject({ result: {} });
    expect(answers.find((m) => m.id === 2)?.error).toEqual({
      code: -32600,
      message: 'Invalid request: "jsonrpc" is "1.0"; it must be "2.0".',
    });
    expect(answers.find((m) => m.id === null)?.error).toEqual({
      code: -32600,
      message: "Invalid request: a batch holds messages, not another batch.",
    });
    expect(answers.find((m) => m.id === 4)).toMatchObject({
      result: { structuredContent: { games: expect.any(Array) } },
    });
    // Nothing else: no answer to the notification, none to the nested batch's ping.
    expect(answers).toHaveLength(4);
  }, 30_000);
});

describe("serve over stdio answers a line it cannot read instead of dropping it", () => {
  it("answers -32700 or -32600 with the id read exactly, logs one line each, and keeps serving", async () => {
    const serve = rawServe();
    await serve.initialize("2025-06-18");
    const lines = [
      '{"jsonrpc":"2.0","id":5,"method":"ping"', // cut short
      '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":["list_games"]}',
      '{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"progressToken":{"x":1}}}}',
      '[{"jsonrpc":"2.0","id":10,"method":"ping"},{"jsonrpc":"2.0","id":11,"method":"ping"}]',
      "{not json",
      "[]",
      '{"jsonrpc":"1.0","id":12,"method":"ping"}',
      '{"id":13,"method":"ping"}',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
      '{"jsonrpc":"2.0","id":null,"method":"ping"}',
      '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
      '\uFEFF{"jsonrpc":"2.0","id":14,"method":"ping"}',
      '{"jsonrpc":"2.0","id":15,"method":"ping"} trailing',
      '{"jsonrpc":"2.0","id":16,"method":"tools/list","params":"x"}',
    ];
    for (const line of lines) serve.write(line);
    serve.write('{"jsonrpc":"2.0","id":"after","method":"ping"}');
    await serve.until((r) => r.some((m) => m.id === "after"));
    serve.child.kill("SIGTERM");
    const errors = serve.replies().filter((m) => m.error !== undefined);
    expect(errors.map((m) => [m.id, m.error?.code])).toEqual([
      [null, -32700],
      [8, -32600],
      [9, -32600],
      [null, -32700],
      [null, -32600],
      [12, -32600],
      [13, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32700],
      [null, -32700],
      [16, -32600],
    ]);
    expect(errors[1]?.error?.message).toBe(
      'Invalid request: "params" of tools/call is ["list_games"]; it must be an object.',
    );
    expect(errors[2]?.error?.message).toBe(
      'Invalid request: "params._meta.progressToken" is {"x":1}; it must be a string or an integer.',
    );
    expect(errors[5]?.error?.message).toBe('Invalid request: "jsonrpc" is "1.0"; it must be "2.0".');
    expect(errors[10]?.error?.message).toMatch(/byte order mark/);
    expect(serve.replies().find((m) => m.id === "after")).toMatchObject({ result: {} });
    // The batch (MCP 2025-03-26: servers "MUST support receiving JSON-RPC batches") is served message by
    // message, each answered on its own line.
    expect(serve.replies().find((m) => m.id === 10)).toMatchObject({ result: {} });
    expect(serve.replies().find((m) => m.id === 11)).toMatchObject({ result: {} });
    const logged = serve
      .stderr()
      .split("\n")
      .filter((l) => l.includes("answered a stdio line with error"));
    expect(logged).toHaveLength(lines.length - 1);
  }, 30_000);
});
