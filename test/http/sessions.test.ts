import { describe, expect, it } from "vitest";
import { RequestRate } from "../../src/mcp/http/request-rate.js";
import { connectHttp } from "./support/http-client.js";
import { INITIALIZE, MCP_HEADERS, startInProcess } from "./support/in-process-server.js";

const PROTOCOL = { "mcp-protocol-version": "2025-06-18" };

async function health(origin: string): Promise<{ sessions: number }> {
  return (await (await fetch(`${origin}/healthz`)).json()) as { sessions: number };
}

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

describe("HTTP sessions", () => {
  it("names the session in Mcp-Session-Id, streams the answer as SSE, and ends it on DELETE", async () => {
    const server = await startInProcess();
    try {
      const opened = await initialize(server.url);
      expect(opened.status).toBe(200);
      expect(opened.headers.get("content-type")).toBe("text/event-stream");
      const id = opened.headers.get("mcp-session-id") as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      await opened.text();
      expect((await ping(server.url, id, 2)).status).toBe(200);
      expect((await health(server.origin)).sessions).toBe(1);
      const ended = await fetch(server.url, {
        method: "DELETE",
        headers: { ...PROTOCOL, "mcp-session-id": id },
      });
      expect(ended.status).toBe(200);
      expect((await health(server.origin)).sessions).toBe(0);
      const after = await ping(server.url, id, 3);
      expect(after.status).toBe(404);
      expect(await after.json()).toMatchObject({ error: { code: -32001 } });
    } finally {
      await server.stop();
    }
  });

  it("ends a session on DELETE even when the session has spent its --rate-limit", async () => {
    // A client refused for its rate (429) that gives up and ends its session must free the slot at once,
    // not hold it until the idle timeout: DELETE carries no JSON-RPC message, so the bucket is not asked.
    const server = await startInProcess({ rateLimitPerSecond: 2 });
    try {
      const opened = await initialize(server.url);
      const id = opened.headers.get("mcp-session-id") as string;
      await opened.text();
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const answer = await ping(server.url, id, 10 + i);
        statuses.push(answer.status);
        await answer.text();
      }
      expect(statuses).toEqual([200, 200, 429]);
      const ended = await fetch(server.url, {
        method: "DELETE",
        headers: { ...PROTOCOL, "mcp-session-id": id },
      });
      expect(ended.status).toBe(200);
      expect((await health(server.origin)).sessions).toBe(0);
      const again = await fetch(server.url, {
        method: "DELETE",
        headers: { ...PROTOCOL, "mcp-session-id": id },
      });
      expect(again.status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it("frees a session's one SSE stream when its client leaves, so the client can open it again", async () => {
    const server = await startInProcess();
    try {
      const opened = await initialize(server.url);
      const id = opened.headers.get("mcp-session-id") as string;
      await opened.text();
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      const open = (signal: AbortSignal) =>
        fetch(server.url, {
          method: "GET",
          headers: { accept: "text/event-stream", ...PROTOCOL, "mcp-session-id": id },
          signal,
        });
      // The SDK allows one GET stream per session and refuses another at once (409). An accepted stream
      // answers 200 and then stays open, so "no end within a second" means accepted.
      const tryAnother = async (): Promise<number | "accepted"> => {
        const probe = new AbortController();
        const answer = await Promise.race([
          open(probe.signal).then(async (response) => {
            await response.text();
            return response.status;
          }),
          sleep(1000).then(() => "accepted" as const),
        ]);
        probe.abort();
        return answer;
      };
      const leaving = new AbortController();
      void open(leaving.signal).catch(() => undefined);
      await sleep(300);
      expect(await tryAnother()).toBe(409);
      leaving.abort();
      // Once the server sees the client gone it cancels that stream, and a new one is accepted.
      let answer: number | "accepted" = 409;
      for (let i = 0; i < 10 && answer === 409; i++) {
        await sleep(100);
        answer = await tryAnother();
      }
      expect(answer).toBe("accepted");
    } finally {
      await server.stop();
    }
  });

  it("sends a GET stream's status and headers at once, not with its first event 15 s later", async () => {
    const server = await startInProcess();
    const stream = new AbortController();
    try {
      const opened = await initialize(server.url);
      const id = opened.headers.get("mcp-session-id") as string;
      await opened.text();
      const t0 = performance.now();
      const answer = await Promise.race([
        fetch(server.url, {
          method: "GET",
          headers: { accept: "text/event-stream", ...PROTOCOL, "mcp-session-id": id },
          signal: stream.signal,
        }),
        new Promise<"no headers">((resolve) => setTimeout(() => resolve("no headers"), 3000)),
      ]);
      expect(answer).not.toBe("no headers");
      const response = answer as Response;
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      expect(performance.now() - t0).toBeLessThan(3000);
    } finally {
      stream.abort();
      await server.stop();
    }
  });

  it("gives the SDK client its session id and answers an unknown id with 404", async () => {
    const server = await startInProcess();
    try {
      const { client, transport } = await connectHttp(server.url);
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("submit_move");
      expect((await ping(server.url, "00000000-0000-0000-0000-000000000000", 1)).status).toBe(404);
      await transport.terminateSession();
      expect((await health(server.origin)).sessions).toBe(0);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  it("expires a session idle longer than the timeout", async () => {
    const server = await startInProcess({ idleTimeoutMs: 300 });
    try {
      const opened = await initialize(server.url);
      const id = opened.headers.get("mcp-session-id") as string;
      await opened.text();
      expect((await health(server.origin)).sessions).toBe(1);
      // Sweeps run every 100 ms (a quarter of 300, floored at 100): after 600 ms the session is gone.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect((await health(server.origin)).sessions).toBe(0);
      expect((await ping(server.url, id, 2)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });

  it("refuses a session beyond the cap with 503", async () => {
    const server = await startInProcess({ maxSessions: 2 });
    try {
      for (const _ of [1, 2]) expect((await initialize(server.url)).status).toBe(200);
      const third = await initialize(server.url);
      expect(third.status).toBe(503);
      expect(third.headers.get("retry-after")).toBe("5");
      expect(await third.json()).toMatchObject({ error: { message: expect.stringMatching(/2 are open/) } });
    } finally {
      await server.stop();
    }
  });

  it("limits one session's request rate with 429 and Retry-After", async () => {
    const server = await startInProcess({ rateLimitPerSecond: 3 });
    try {
      const opened = await initialize(server.url);
      const id = opened.headers.get("mcp-session-id") as string;
      await opened.text();
      // A bucket of 3 starts full: of four pings sent at once, three pass and one finds < 1 token left
      // (refill in the few ms between them is 3/s × ~0.01 s ≈ 0.03), so waiting for 1 token takes ≤ 1 s.
      const responses = await Promise.all([0, 1, 2, 3].map((i) => ping(server.url, id, 10 + i)));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = responses.find((r) => r.status === 429) as Response;
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({
        error: { message: expect.stringMatching(/3 JSON-RPC messages per second/) },
      });
      await Promise.all(responses.filter((r) => r !== refused).map((r) => r.text()));
    } finally {
      await server.stop();
    }
  });
});

describe("RequestRate", () => {
  it("allows bursts of one second's worth and refills at the rate", () => {
    const rate = new RequestRate(2, 0);
    expect(rate.take(0)).toEqual({ ok: true }); // 2 → 1
    expect(rate.take(0)).toEqual({ ok: true }); // 1 → 0
    expect(rate.take(0)).toEqual({ ok: false, retryAfterSeconds: 1 }); // needs 1 token at 2/s: 0.5 s → 1
    expect(rate.take(500)).toEqual({ ok: true }); // 0 + 0.5 s × 2/s = 1 → 0
    expect(rate.take(500).ok).toBe(false);
  });
});
