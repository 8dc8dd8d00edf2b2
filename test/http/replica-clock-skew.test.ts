import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, expect, it } from "vitest";
import { describeOnPostgres, freshPostgresDatabase, type TestRecord } from "../support/postgres.js";
import { INITIALIZE, MCP_HEADERS } from "./support/in-process-server.js";
import { type ServerProcess, startServerProcess } from "./support/server-process.js";

// Replicas run on machines whose clocks disagree. A session's row (last seen, rate bucket) used to be
// written and judged by each replica's own wall clock: a replica 20 minutes ahead took every session the
// others had seen for idle past the 15-minute --idle-timeout and answered 404 to a live session, and one
// 5 minutes ahead refilled the shared rate bucket in full on every request (5 minutes "elapsed" since the
// others wrote it), so a client alternating replicas was never limited. Every replica now writes and
// compares the row's times on the record's clock, PostgreSQL's.

/** The clock under test: replica B's process sees its wall clock off by this much (as libfaketime would). */
const SKEWED_CLOCK = fileURLToPath(new URL("../support/skewed-clock.mjs", import.meta.url));
const skewed = (offsetMs: number) => ({
  NODE_OPTIONS: `--import ${SKEWED_CLOCK}`,
  SAME_GAME_CLOCK_OFFSET_MS: String(offsetMs),
});
const PROTOCOL = { "mcp-protocol-version": "2025-06-18" };

async function initialize(url: string): Promise<string> {
  const opened = await fetch(url, { method: "POST", headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
  expect(opened.status).toBe(200);
  await opened.text();
  return opened.headers.get("mcp-session-id") as string;
}

async function ping(url: string, sessionId: string, id: number): Promise<number> {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...MCP_HEADERS, ...PROTOCOL, "mcp-session-id": sessionId },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }),
  });
  await response.text();
  return response.status;
}

async function liveSessions(url: string): Promise<unknown> {
  const ready = await fetch(new URL("/readyz", url));
  return ((await ready.json()) as { live_sessions?: number }).live_sessions;
}

describeOnPostgres("replicas whose clocks disagree share sessions by the record's clock", () => {
  let record: TestRecord;
  const servers: ServerProcess[] = [];
  beforeEach(() => {
    record = freshPostgresDatabase();
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.child.kill("SIGTERM");
      await server.exited;
    }
    record.dispose();
  });
  const start = async (offsetMs: number, extra: string[] = []) => {
    const server = await startServerProcess(
      record.location,
      ["--toolsets", "play", ...extra],
      skewed(offsetMs),
    );
    servers.push(server);
    return server;
  };

  it("a replica 20 minutes ahead serves the sessions the others opened, and they serve its sessions", async () => {
    // The default --idle-timeout, 900 s: shorter than the skew.
    const a = await start(0);
    const b = await start(20 * 60_000);
    const openedOnA = await initialize(a.url);
    const openedOnB = await initialize(b.url);
    expect([await ping(b.url, openedOnA, 2), await ping(a.url, openedOnA, 3)]).toEqual([200, 200]);
    expect([await ping(a.url, openedOnB, 4), await ping(b.url, openedOnB, 5)]).toEqual([200, 200]);
    // Both count both sessions live.
    expect([await liveSessions(a.url), await liveSessions(b.url)]).toEqual([2, 2]);
  }, 60_000);

  it("draws one rate bucket whichever replica a request lands on, however far ahead its clock", async () => {
    const a = await start(0, ["--rate-limit", "1"]);
    const b = await start(5 * 60_000, ["--rate-limit", "1"]);
    const id = await initialize(a.url);
    // A bucket of one token, refilled at 1/s: the first ping takes it, and the next two, a few ms later,
    // find it empty wherever they land. B 5 minutes ahead used to find it full every time
    // (200, 429, 200): 5 minutes had passed since A wrote it, by B's clock.
    const statuses: number[] = [];
    for (const [i, replica] of [b, a, b].entries()) statuses.push(await ping(replica.url, id, 10 + i));
    expect(statuses).toEqual([200, 429, 429]);
  }, 60_000);
});
