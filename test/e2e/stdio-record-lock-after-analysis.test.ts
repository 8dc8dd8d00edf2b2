import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

// A server's analyses run in worker threads of the same process, each with its own connection to the record.
// SQLite's locks are POSIX record locks, owned by the process: had anything in the server opened and closed
// the record file outside SQLite, every lock of the process on it would be gone, and the next other program
// to open and close the record (an operator's `sqlite3 record.db "select …"`) would find it unused, merge and
// delete the -wal and -shm the server still writes into: decisions acknowledged after that would be lost
// when the server stops. Here: 3 decisions, an analysis, another process reads the record, 5 more decisions,
// then SIGKILL: all 8 must be in the record.

const BETTER_SQLITE3 = createRequire(import.meta.url).resolve("better-sqlite3");

let dir: string;
let dbPath: string;
beforeAll(() => {
  requireBuiltCli();
  dir = mkdtempSync(join(tmpdir(), "same-game-record-lock-"));
  dbPath = join(dir, "record.db");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The POSIX locks process `pid` holds on the record file, from /proc/locks (Linux); null elsewhere. */
function locksHeldBy(pid: number): number | null {
  if (!existsSync("/proc/locks")) return null;
  const inode = String(statSync(dbPath).ino);
  return readFileSync("/proc/locks", "utf8")
    .split("\n")
    .filter((line) => {
      const fields = line.trim().split(/\s+/);
      // "1: POSIX  ADVISORY  READ 4242 08:01:1234567 …": the pid, then major:minor:inode.
      return fields[4] === String(pid) && fields[5]?.split(":")[2] === inode;
    }).length;
}

/** Another process opens the record, reads it and closes it, as an operator's one-off query does. */
function readInAnotherProcess(): number {
  const script = `const D = require(${JSON.stringify(BETTER_SQLITE3)}); const db = new D(${JSON.stringify(dbPath)}); process.stdout.write(String(db.prepare("SELECT count(*) AS n FROM decisions").get().n)); db.close();`;
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}

async function decide(client: Client): Promise<void> {
  const started = await client.callTool({ name: "start_match", arguments: { game: "prisoners-dilemma" } });
  const match = started.structuredContent as { match_id: string; labels: string[] };
  const moved = await client.callTool({
    name: "submit_move",
    arguments: { match_id: match.match_id, round: 1, choice: match.labels[0] },
  });
  if (moved.isError) throw new Error(`submit_move: ${JSON.stringify(moved.content)}`);
}

it("keeps every acknowledged decision when another process reads the record after an analysis and the server is killed", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--db", dbPath, "--player", "lock-test", "--toolsets", "all"],
    stderr: "ignore",
  });
  const client = new Client({ name: "record-lock-test", version: "1.0.0" });
  await client.connect(transport);
  const pid = transport.pid as number;
  try {
    for (let i = 0; i < 3; i++) await decide(client);
    const before = locksHeldBy(pid);
    const analysis = await client.callTool({ name: "repeated_metrics", arguments: {} });
    expect(analysis.isError).toBeFalsy();
    const after = locksHeldBy(pid);
    if (before === null || after === null) {
      console.log("no /proc/locks here (not Linux): the server's lock is checked only through the record");
    } else {
      // WAL mode: the connection holds a shared lock on the file for as long as it is open.
      expect(before).toBeGreaterThan(0);
      expect(after).toBe(before);
    }
    expect(readInAnotherProcess()).toBe(3);
    for (let i = 0; i < 5; i++) await decide(client);
  } finally {
    process.kill(pid, "SIGKILL");
    await client.close().catch(() => {});
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const db = new Database(dbPath, { readonly: true });
  try {
    expect((db.prepare("SELECT count(*) AS n FROM decisions").get() as { n: number }).n).toBe(8);
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
  } finally {
    db.close();
  }
}, 60_000);
