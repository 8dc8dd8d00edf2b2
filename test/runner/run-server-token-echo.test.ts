import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { failingAfterInitialize } from "../support/failing-mcp-server.js";
import { runCliAsync, useRunSandbox } from "./runner-harness.js";

// `run --server URL --server-token-env VAR` sends the token as `Authorization: Bearer …`. A server that
// refuses it may echo what it was sent — as model endpoints echo a wrong API key — and the runner quotes
// the server's answer in its one-line error: the token must not be in that line (a CI log keeps it).

useRunSandbox("same-game-server-token-echo-");

const TOKEN = "server-token-echo-0123456789abcdef";

let server: Server | undefined;

/** `run` of a study against the server at `url`, with the token in RUN_TOKEN. */
const runAgainst = (url: string) =>
  runCliAsync(
    [
      "run",
      "--study",
      "study-0123456789ab",
      "--model",
      "m",
      "--server",
      url,
      "--server-token-env",
      "RUN_TOKEN",
    ],
    { RUN_TOKEN: TOKEN, OPENAI_API_KEY: "sk-unused-0123456789" },
  );
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

it("replaces the --server token a refusing server echoes, and keeps the rest of its answer on the one line", async () => {
  const listening = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32000, message: `Unauthorized: you sent ${req.headers.authorization}\r\nFORGED` },
        }),
      );
    });
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`;

  const run = await runAgainst(url);
  expect(run.status).toBe(2);
  expect(run.stderr).not.toContain(TOKEN);
  expect(run.stderr).toBe(
    `same-game: cannot open an MCP session at --server ${url}: Error POSTing to endpoint: {"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Unauthorized: you sent Bearer [redacted]\\r\\nFORGED"}}\n`,
  );
}, 60_000);

it("replaces the token a server echoes after the session opened, in the error of a later request", async () => {
  // A server (or a proxy before it) that lets the session open, then fails the next request quoting the
  // Authorization header it was sent: the runner's error line quotes that answer too.
  const started = await failingAfterInitialize((req, res) => {
    res.writeHead(500, { "content-type": "text/plain" });
    res.end(`upstream failed for request with header ${req.headers.authorization}`);
  });
  server = started.server;
  const url = started.url;

  const run = await runAgainst(url);
  expect(run.stderr).toContain("upstream failed for request with header Bearer [redacted]");
  expect(run.stderr).not.toContain(TOKEN);
  expect(run.status).toBe(1);
}, 60_000);
