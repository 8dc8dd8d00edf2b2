import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectHttp } from "./support/http-client.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

// The operator's log of an HTTP session: one line when it opens, saying whose it is (the token, by the
// start of the SHA-256 the record keeps as its principal — never the token) and which client it is, as
// the client named itself: escaped, since that name is the client's to choose.

const TOKEN = "session-log-token-0123456789";
const PRINCIPAL = createHash("sha256").update(TOKEN).digest("hex");

const dir = mkdtempSync(join(tmpdir(), "same-game-session-log-"));
let server: ServerProcess;
beforeAll(async () => {
  const tokens = join(dir, "tokens");
  writeFileSync(tokens, `${TOKEN}\n`);
  server = await startServerProcess(join(dir, "record.db"), ["--token-file", tokens]);
});
afterAll(async () => {
  server.child.kill("SIGTERM");
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
});

it("opens a session for a client whose name holds a NUL and an escape sequence, as stdio does, and logs it escaped", async () => {
  // A NUL cannot be stored (PostgreSQL text refuses it): the initialize failed with 500 "Internal server
  // error." and a stack trace in the log, on every attempt.
  const { client, transport } = await connectHttp(server.url, {
    token: TOKEN,
    name: "agent\u0000\u001b[2J\nsame-game: FORGED",
  });
  const sessionId = transport.sessionId as string;
  const listed = await client.listTools();
  expect(listed.tools.length).toBeGreaterThan(0);
  await transport.terminateSession();
  await client.close();
  // The session's end is logged once its DELETE has been answered.
  const ended = `same-game: session ${sessionId} ended`;
  for (let waited = 0; !server.stderr().includes(ended) && waited < 5000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const lines = server.stderr().split("\n");
  expect(lines).toContain(
    `same-game: session ${sessionId} opened (principal ${PRINCIPAL.slice(0, 12)}…, client "agent\\x00\\x1b[2J\\x0asame-game: FORGED" 1.0.0; 1 held here)`,
  );
  expect(lines).toContain(ended);
  expect(server.stderr()).not.toContain("\u001b");
  expect(server.stderr()).not.toContain("request failed");
  expect(server.stderr()).not.toContain(TOKEN);
  expect(lines.filter((line) => line.startsWith("same-game: FORGED"))).toEqual([]);

  // The record keeps the name as the stdio server keeps a client's name, and the full principal.
  const db = new Database(join(dir, "record.db"), { readonly: true });
  try {
    const row = db
      .prepare("SELECT principal, client_name, client_version FROM http_sessions WHERE id = ?")
      .get(sessionId);
    expect(row).toEqual({
      principal: PRINCIPAL,
      client_name: "agent\\x00\\x1b[2J\\x0asame-game: FORGED",
      client_version: "1.0.0",
    });
  } finally {
    db.close();
  }
}, 60_000);
