import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { startServerProcess } from "./support/server-process.js";

// /readyz answers without a token. While the record fails it with an error that is no database outage (a
// damaged file, a table gone), the log must say so once — not write a stack trace for every probe, which
// anyone who can reach the port could send as fast as they like.

const dir = mkdtempSync(join(tmpdir(), "same-game-readiness-log-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROBES = 20;
const FAILURE = "same-game: readiness: the record did not answer";

it("logs a readiness failure once however many probes fail, and once when the record answers again", async () => {
  const dbPath = join(dir, "record.db");
  const tokens = join(dir, "tokens");
  writeFileSync(tokens, "readiness-log-token-0123456789\n");
  const server = await startServerProcess(dbPath, ["--token-file", tokens]);
  const readyz = server.url.replace(/\/mcp$/, "/readyz");
  try {
    expect((await fetch(readyz)).status).toBe(200);

    // The table readiness counts live sessions in goes away under the running server.
    const db = new Database(dbPath);
    const table = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'http_sessions'").get() as {
      sql: string;
    };
    db.exec("DROP TABLE http_sessions");
    const answers: { status: number; body: unknown }[] = [];
    for (let i = 0; i < PROBES; i++) {
      const response = await fetch(readyz);
      answers.push({ status: response.status, body: await response.json() });
    }
    expect(answers).toEqual(
      Array.from({ length: PROBES }, () => ({
        status: 503,
        body: { ready: false, database: "no such table: http_sessions" },
      })),
    );
    const stderr = server.stderr();
    expect(stderr.split(FAILURE).length - 1).toBe(1);
    expect(stderr).toContain(
      `${FAILURE}; /readyz answers 503 until it does (logged once): SqliteError: no such table: http_sessions\n    at `,
    );

    db.exec(table.sql);
    db.close();
    expect((await fetch(readyz)).status).toBe(200);
    expect(server.stderr()).toMatch(
      new RegExp(
        `same-game: readiness: the record answers again after \\d+\\.\\d s \\(${PROBES} probe\\(s\\) failed meanwhile\\)\\n`,
      ),
    );
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
}, 60_000);
