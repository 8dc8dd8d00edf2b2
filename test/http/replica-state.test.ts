import { describe, expect, it } from "vitest";
import { connectReplicas } from "./support/http-client.js";
import { INITIALIZE, MCP_HEADERS, startInProcess } from "./support/in-process-server.js";
import { replicaFetch } from "./support/replica-fetch.js";

// Two replicas in this process on one record file: what one learns about a session, the other knows.
const PROTOCOL = { "mcp-protocol-version": "2025-06-18" };

async function initialize(url: string): Promise<Response> {
  return fetch(url, { method: "POST", headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
}

function ping(url: string, sessionId: string, id: number): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...MCP_HEADERS, ...PROTOCOL, "mcp-session-id": sessionId },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }),
  });
}

async function pair(overrides: Parameters<typeof startInProcess>[0] = {}) {
  const a = await startInProcess(overrides);
  const b = await startInProcess(overrides, a.deps);
  return {
    a,
    b,
    async stop() {
      await b.stop();
      await a.stop();
    },
  };
}

describe("session state shared by replicas", () => {
  it("serves a session opened on A from B, and a DELETE on B ends it on A too", async () => {
    const { a, b, stop } = await pair();
    try {
      const opened = await initialize(a.url);
      const id = opened.headers.get("mcp-session-id") as string;
      await opened.text();
      const onB = await ping(b.url, id, 2);
      expect(onB.status).toBe(200);
      expect(await onB.text()).toContain('"result":{}');
      const ended = await fetch(b.url, { method: "DELETE", headers: { ...PROTOCOL, "mcp-session-id": id } });
      expect(ended.status).toBe(200);
      const afterOnA = await ping(a.url, id, 3);
      expect(afterOnA.status).toBe(404);
      expect(await afterOnA.json()).toMatchObject({ error: { code: -32001 } });
      // A dropped its instance when the record said the session was over.
      expect(((await (await fetch(`${a.origin}/healthz`)).json()) as { sessions: number }).sessions).toBe(0);
    } finally {
      await stop();
    }
  });

  it("counts the session cap over both replicas: the third initialize is refused wherever it lands", async () => {
    const { a, b, stop } = await pair({ maxSessions: 2 });
    try {
      expect((await initialize(a.url)).status).toBe(200);
      expect((await initialize(b.url)).status).toBe(200);
      for (const replica of [a, b]) {
        const third = await initialize(replica.url);
        expect(third.status).toBe(503);
        expect(await third.json()).toMatchObject({ error: { message: expect.stringMatching(/2 are open/) } });
      }
      const ready = (await (await fetch(`${b.origin}/readyz`)).json()) as Record<string, unknown>;
      expect(ready).toEqual({ ready: true, database: "ok", live_sessions: 2 });
    } finally {
      await stop();
    }
  });

  it("draws one rate bucket for a session whichever replica its requests land on", async () => {
    const { a, b, stop } = await pair({ rateLimitPerSecond: 3 });
    try {
      const opened = await initialize(a.url);
      const id = opened.headers.get("mcp-session-id") as string;
      await opened.text();
      // A full bucket of 3: pings alternating A, B, A pass; the fourth, on B, finds < 1 token (a few ms of
      // refill at 3/s is ~0.03). Per-replica buckets would have let all four through.
      const statuses: number[] = [];
      for (const [i, replica] of [a, b, a, b].entries()) {
        const response = await ping(replica.url, id, 10 + i);
        statuses.push(response.status);
        await response.text();
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await stop();
    }
  });

  it("is live but not ready when the record does not answer", async () => {
    const server = await startInProcess();
    try {
      expect((await fetch(`${server.origin}/readyz`)).status).toBe(200);
      server.deps.store.close();
      const ready = await fetch(`${server.origin}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ ready: false, database: expect.stringMatching(/not open/) });
      expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
    } finally {
      await server.shutdown();
      server.deps.dispose();
    }
  });

  it("lets an SDK client alternate replicas at every request, initialize included", async () => {
    const { a, b, stop } = await pair();
    try {
      const { client, transport } = await connectReplicas(replicaFetch([a.url, b.url]), { name: "alt" });
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("submit_move");
      const started = await client.callTool({
        name: "start_match",
        arguments: { game: "prisoners-dilemma" },
      });
      expect(started.isError).toBeFalsy();
      // The rebuilt server knows the client as the first did: the record's session names it.
      expect(a.deps.store.getSession(transport.sessionId as string)).toMatchObject({ client_name: "alt" });
      await client.close();
    } finally {
      await stop();
    }
  });
});
