import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import Database from "better-sqlite3";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

let dir: string;
let dbPath: string;

beforeAll(requireBuiltCli);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-stdio-"));
  dbPath = join(dir, "record.db");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function connect(): Promise<Client> {
  const client = new Client({ name: "stdio-test", version: "2.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--db", dbPath, "--player", "stdio-agent", "--toolsets", "all"],
      stderr: "ignore",
    }),
  );
  return client;
}

type Structured = Record<string, unknown>;
async function call(client: Client, name: string, args: Structured): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return result.structuredContent as Structured;
}

const design = {
  name: "stdio study",
  games: ["prisoners-dilemma"],
  framings: ["business+familiar", "friend-sharing+familiar"],
  trials_per_cell: 4,
  seed: 3,
};

describe("same-game serve over stdio", () => {
  it("writes nothing but JSON-RPC messages to stdout", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--db", dbPath]) as ChildProcessWithoutNullStreams;
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "start_match", arguments: { game: "nope" } },
    });
    send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "list_games", arguments: {} } });
    // Every reply, not only the last request's: the server answers requests concurrently, and the
    // rejected start_match (id 3) may be answered after list_games (id 4).
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no reply to every request; stdout so far: ${stdout.slice(0, 500)}`)),
        20_000,
      );
      const poll = setInterval(() => {
        if ([1, 2, 3, 4].every((id) => stdout.includes(`"id":${id}`))) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    child.kill("SIGTERM");
    const lines = stdout.split("\n").filter((l) => l !== "");
    expect(lines.length).toBe(4); // one response per request, nothing else
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    const replies = lines.map(
      (line) => JSON.parse(line) as { id: number; result: { tools: { name: string }[] } },
    );
    expect(replies.map((r) => r.id).sort()).toEqual([1, 2, 3, 4]);
    const tools = (replies.find((r) => r.id === 2) as (typeof replies)[number]).result.tools.map(
      (t) => t.name,
    );
    // The default surface is the player's: the six play tools and nothing of the study.
    expect(tools.sort()).toEqual(
      ["get_match", "join_match", "list_games", "next_trial", "start_match", "submit_move"].sort(),
    );
  });

  it("keeps every acknowledged decision across a SIGKILL and continues the study after a restart", async () => {
    const first = await connect();
    const study = (await call(first, "register_study", design)) as { study_id: string };
    const acknowledged: string[] = [];
    for (let t = 0; t < 5; t++) {
      const next = (await call(first, "next_trial", { study_id: study.study_id })) as {
        trial: { match_id: string };
      };
      await call(first, "submit_move", { match_id: next.trial.match_id, round: 1, choice: "Defect" });
      acknowledged.push(next.trial.match_id);
    }
    // Start a sixth trial and leave it unanswered, then kill the server without warning.
    const open = (await call(first, "next_trial", { study_id: study.study_id })) as {
      trial: { match_id: string };
    };
    const transport = (first as unknown as { transport: StdioClientTransport }).transport;
    process.kill(transport.pid as number, "SIGKILL");
    await first.close().catch(() => undefined);

    const db = new Database(dbPath, { readonly: true });
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    const rows = db.prepare("SELECT match_id FROM decisions WHERE status = 'decided'").all() as {
      match_id: string;
    }[];
    db.close();
    expect(rows.map((r) => r.match_id).sort()).toEqual([...acknowledged].sort());

    const second = await connect();
    const resumed = (await call(second, "next_trial", { study_id: study.study_id })) as {
      resumed: boolean;
      trial_index: number;
      trial: { match_id: string };
    };
    expect(resumed).toMatchObject({ resumed: true, trial_index: 5 });
    expect(resumed.trial.match_id).toBe(open.trial.match_id);
    for (let t = 5; t < 8; t++) {
      const next = (await call(second, "next_trial", { study_id: study.study_id })) as {
        trial: { match_id: string };
      };
      await call(second, "submit_move", { match_id: next.trial.match_id, round: 1, choice: "Cooperate" });
    }
    expect(await call(second, "next_trial", { study_id: study.study_id })).toMatchObject({ complete: true });
    await second.close();
  });

  it("exits once its client closes stdin, after an analysis started the worker threads", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--db", dbPath, "--toolsets", "all"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const answers = new Map<number, (message: { result?: { isError?: boolean } }) => void>();
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
        const message = JSON.parse(pending.slice(0, end));
        pending = pending.slice(end + 1);
        answers.get(message.id)?.(message);
      }
    });
    const request = (id: number, method: string, params: object) =>
      new Promise<{ result?: { isError?: boolean } }>((resolve) => {
        answers.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
      });
    await request(1, "initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "closing-host", version: "0" },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    // An analysis runs on the pool's worker threads; the call itself may find nothing to analyse.
    const answered = await request(2, "tools/call", { name: "robustness", arguments: { bootstrap: 50 } });
    expect(answered.result).toBeDefined();
    // A host that quits closes the server's stdin and nothing else: the server must not outlive it.
    child.stdin.end();
    const gone = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve("alive"), 10_000)),
    ]);
    if (gone === "alive") child.kill("SIGKILL");
    expect(gone).toBe(0);
  }, 30_000);
});
