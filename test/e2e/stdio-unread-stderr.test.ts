import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { CLI, requireBuiltCli } from "../support/built-cli.js";

// A host that pipes the server's stderr and never reads it: once the pipe is full, every log line waits in
// the server's memory. The server must still exit as soon as the host closes stdin (the waiting lines are
// dropped), and what waits is bounded: past MAX_QUEUED_LOG_BYTES lines are counted, not kept, and the count
// is written once the reader catches up. Each unreadable stdio line is answered on stdout and logged once
// (about 190 bytes), so 12,000 of them are 2.3 MB of log, twice the bound.

const LINES = 12_000;
const NOT_JSON = `{not json ${"x".repeat(40)}`;

let dir: string;
const started: ChildProcessWithoutNullStreams[] = [];
beforeAll(requireBuiltCli);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "same-game-unread-stderr-"));
});
afterEach(() => {
  for (const child of started.splice(0)) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A serve whose stderr nobody reads (until `readStderr`), fed `lines` unreadable lines after initialize. */
async function serveWithUnreadStderr(lines: number) {
  const child = spawn(process.execPath, [CLI, "serve", "--db", join(dir, "record.db")], {
    stdio: ["pipe", "pipe", "pipe"],
  }) as ChildProcessWithoutNullStreams;
  started.push(child);
  child.stderr.pause();
  let answers = 0;
  child.stdout.on("data", (chunk: Buffer) => {
    for (const byte of chunk) if (byte === 10) answers += 1;
  });
  const exited = new Promise<number>((resolve) => child.once("exit", () => resolve(performance.now())));
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "unread", version: "0" } },
  });
  child.stdin.write(`${initialize}\n${`${NOT_JSON}\n`.repeat(lines)}`);
  await until(() => answers === lines + 1, 60_000);
  return { child, exited };
}

function until(done: () => boolean, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`not within ${ms} ms`));
    }, ms);
    const poll = setInterval(() => {
      if (!done()) return;
      clearTimeout(timer);
      clearInterval(poll);
      resolve();
    }, 20);
  });
}

it("exits promptly when the host closes stdin, though its stderr is a full pipe nobody reads", async () => {
  const { child, exited } = await serveWithUnreadStderr(2_000);
  const closed = performance.now();
  child.stdin.end();
  const end = await Promise.race([exited, new Promise<null>((r) => setTimeout(() => r(null), 5_000))]);
  expect(end === null ? "still running 5 s after stdin closed" : "exited").toBe("exited");
  expect((end as number) - closed).toBeLessThan(5_000);
}, 90_000);

it("keeps at most about a megabyte of unread log, and says how many lines it dropped once stderr is read", async () => {
  const { child, exited } = await serveWithUnreadStderr(LINES);
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  child.stderr.resume();
  await until(() => /dropped while stderr was not read\n/.test(stderr), 20_000);
  const dropped = Number(/… (\d+) log lines? dropped while stderr was not read/.exec(stderr)?.[1]);
  const logged = stderr
    .split("\n")
    .filter((line) => line.includes("answered a stdio line with error")).length;
  // Every unreadable line is either in the log or in the count: none vanishes unsaid.
  expect(logged + dropped).toBe(LINES);
  expect(dropped).toBeGreaterThan(0);
  // What was kept: at most the bound, plus what the pipe and the reader's buffer held before it filled.
  expect(Buffer.byteLength(stderr)).toBeLessThan(1024 * 1024 + 256 * 1024);
  child.stdin.end();
  await exited;
}, 120_000);
