import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageRoot } from "../../src/package-root.js";
import { TEST_PG } from "../support/postgres.js";
import { connectHttp } from "./support/http-client.js";
import { INITIALIZE, MCP_HEADERS } from "./support/in-process-server.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

// PostgreSQL restarts under a running replica (a failover, an upgrade, the container restarted). While it
// is down every request must say so as a passing outage — HTTP 503 with Retry-After (what nginx and clients
// retry; a 500 they do not) and one clear sentence, never the driver's "connect ECONNREFUSED 127.0.0.1:…" —
// and the replica must serve again as soon as the database is back. The test owns a PostgreSQL of its own
// (scripts/temp-postgres.sh), since it stops it; it runs where the test PostgreSQL runs (.ci/run).

const SCRIPT = join(packageRoot(), "scripts", "temp-postgres.sh");
const available = TEST_PG !== undefined;
if (!available) {
  process.stderr.write(
    "\n*** SKIPPED: the database-outage test needs PostgreSQL 15 (apt-get install postgresql-15; .ci/run starts it and sets SAME_GAME_TEST_PG). ***\n\n",
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(!available)("a PostgreSQL restart under a running replica", () => {
  let dir: string;
  let pgDir: string;
  let port: number;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "same-game-outage-"));
    // Under root the server runs as the postgres user, who must be able to enter the folder.
    const pgParent = mkdtempSync(join(tmpdir(), "same-game-outage-pg-"));
    chmodSync(pgParent, 0o755);
    pgDir = join(pgParent, "pg");
    port = await freePort();
    const url = execFileSync(SCRIPT, ["start", pgDir, String(port)], { encoding: "utf8" }).trim();
    server = await startServerProcess(url, ["--rate-limit", "1000"]);
  }, 90_000);
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await server?.exited;
    if (existsSync(pgDir)) execFileSync(SCRIPT, ["stop", pgDir]);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it("answers 503 with Retry-After and one sentence while it is down, and serves again once it is back", async () => {
    const { client } = await connectHttp(server.url, { name: "outage" });
    const origin = new URL(server.url).origin;
    try {
      expect((await client.callTool({ name: "list_games", arguments: {} })).isError).toBeFalsy();

      execFileSync(SCRIPT, ["halt", pgDir]);
      // A new session needs the record: the initialize itself is refused as a passing outage.
      const init = await fetch(server.url, {
        method: "POST",
        headers: MCP_HEADERS,
        body: JSON.stringify(INITIALIZE),
      });
      const body = (await init.json()) as { error: { message: string } };
      expect(init.status).toBe(503);
      expect(init.headers.get("retry-after")).toBe("2");
      expect(body.error.message).toMatch(/^The record's database is unavailable for a moment/);
      expect(body.error.message).not.toMatch(/ECONN|127\.0\.0\.1|\d{4,5}/);
      // A request of the open session (its row is read first) is refused the same way: the SDK client sees
      // the status and the sentence, never the driver's text.
      const during = await client
        .callTool({ name: "start_match", arguments: { game: "prisoners-dilemma" } })
        .then((r) => JSON.stringify(r.content))
        .catch((error: unknown) => String(error));
      expect(during).toMatch(/503|database is unavailable/);
      expect(during).not.toMatch(/ECONN|Internal server error/);
      // Load balancers probe readiness every second or two for as long as the outage lasts.
      for (let probe = 0; probe < 3; probe++) expect((await fetch(`${origin}/readyz`)).status).toBe(503);

      execFileSync(SCRIPT, ["resume", pgDir, String(port)]);
      const after = await client.callTool({ name: "start_match", arguments: { game: "prisoners-dilemma" } });
      expect(after.isError, JSON.stringify(after.content)).toBeFalsy();
      expect(server.stderr()).not.toMatch(/Internal server error/);
      // The operator's log tells the outage in two lines, its start with the driver's words and its end
      // with its length, not a stack trace per refused request and probe.
      const log = server.stderr();
      expect(
        log.match(/the record's database is unavailable \(.+\); requests are answered 503/g),
      ).toHaveLength(1);
      expect(log.match(/the record's database answers again after \d+\.\d s unavailable/g)).toHaveLength(1);
      expect(log).not.toMatch(/^\s+at /m);
    } finally {
      await client.close();
    }
  }, 120_000);
});
