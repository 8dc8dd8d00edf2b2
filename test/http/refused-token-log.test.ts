import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

// Requests refused for a wrong or missing bearer token reach the operator's log as an episode: the first
// at once, with where it came from, the rest counted and summed up (at most a line a minute, and at
// shutdown), never the token, so a client sending bad tokens as fast as it can writes two lines, not one
// per request.

const TOKEN = "refused-token-log-valid-0123456789";
const WRONG = "refused-token-log-WRONG-9876543210";

const dir = mkdtempSync(join(tmpdir(), "same-game-token-log-"));
let server: ServerProcess;
beforeAll(async () => {
  const tokens = join(dir, "tokens");
  writeFileSync(tokens, `${TOKEN}\n`);
  server = await startServerProcess(join(dir, "record.db"), ["--token-file", tokens]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "guess", version: "1" } },
});

async function post(authorization?: string): Promise<number> {
  const response = await fetch(server.url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: initialize,
  });
  await response.arrayBuffer();
  return response.status;
}

it("logs the first refused token at once and the next 40 as one count at shutdown, never the token", async () => {
  expect(await post(`Bearer ${WRONG}`)).toBe(401);
  const first =
    "same-game: refused a request from 127.0.0.1: its bearer token is not one of --token-file's (401; further refusals are counted, one line a minute)";
  for (let waited = 0; !server.stderr().includes(first) && waited < 5000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(server.stderr().split("\n")).toContain(first);

  const statuses = await Promise.all([
    ...Array.from({ length: 39 }, () => post(`Bearer ${WRONG}`)),
    post(undefined),
  ]);
  expect(statuses.every((status) => status === 401)).toBe(true);
  // Within the minute, the 40 refusals add no line.
  const refusals = () =>
    server
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("same-game: refused"));
  expect(refusals()).toEqual([first]);

  server.child.kill("SIGTERM");
  await server.exited;
  expect(refusals()).toEqual([
    first,
    expect.stringMatching(
      /^same-game: refused 40 more request\(s\) without a valid bearer token in the last \d+ s \(last from 127\.0\.0\.1\)$/,
    ),
  ]);
  expect(server.stderr()).not.toContain(WRONG);
}, 60_000);
