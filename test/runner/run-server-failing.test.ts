import type { Server } from "node:http";
import { afterEach, expect, it } from "vitest";
import { type Failing, failingAfterInitialize } from "../support/failing-mcp-server.js";
import { runCliAsync, useRunSandbox } from "./runner-harness.js";

// `run --server URL` against a server that opens the session and then fails: an HTTP error status, a
// JSON-RPC error, or a server gone from its port. The operator gets one line naming the server, the
// request and the answer, and exit 1 — not "internal failure" and the SDK's stack trace.

useRunSandbox("same-game-server-failing-");

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server?.listening ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** The failing server's URL; it is closed after the test. */
async function failingServer(fail: Failing): Promise<string> {
  const started = await failingAfterInitialize(fail);
  server = started.server;
  return started.url;
}

const runAgainst = (url: string) =>
  runCliAsync(["run", "--study", "study-0123456789ab", "--model", "m", "--server", url], {
    OPENAI_API_KEY: "sk-unused-0123456789",
  });

const KEPT = "the record keeps what it recorded, and the same command goes on from there.";

it("says in one line that the server answered HTTP 500, and exits 1", async () => {
  const url = await failingServer((_req, res) => {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end("upstream failed");
  });
  const run = await runAgainst(url);
  expect(run.stderr).toBe(
    `same-game: the MCP server at --server ${url} failed tools/list: HTTP 500: Error POSTing to endpoint: upstream failed; ${KEPT}\n`,
  );
  expect(run.status).toBe(1);
}, 60_000);

it("says in one line that the server answered with a JSON-RPC error", async () => {
  const url = await failingServer((_req, res, id) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32603, message: "the record is locked" } }));
  });
  const run = await runAgainst(url);
  expect(run.stderr).toMatch(
    new RegExp(`^same-game: the MCP server at --server ${url} failed tools/list: .*the record is locked; `),
  );
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.status).toBe(1);
}, 60_000);

it("says in one line that the server went away after the session opened, with the connection's error", async () => {
  const url = await failingServer((_req, res, _id, listening) => {
    // The server stops: this request's connection is dropped and the port closed behind it.
    listening.close();
    listening.closeAllConnections();
    res.destroy();
  });
  const run = await runAgainst(url);
  expect(run.stderr).toMatch(new RegExp(`^same-game: the MCP server at --server ${url} failed tools/list: `));
  expect(run.stderr).toContain(KEPT);
  expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(run.status).toBe(1);
}, 60_000);
