import { createHash } from "node:crypto";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectHttp } from "./support/http-client.js";
import {
  INITIALIZE,
  type InProcessServer,
  MCP_HEADERS,
  startInProcess,
} from "./support/in-process-server.js";

const ALICE = "alice-token-0123456789abcdef";
const BOB = "bob-token-0123456789abcdef0";

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcess({ tokens: [ALICE, BOB], maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await server.stop();
});

function post(body: unknown, headers: Record<string, string> = {}) {
  return fetch(server.url, {
    method: "POST",
    headers: { ...MCP_HEADERS, authorization: `Bearer ${ALICE}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function errorMessage(response: Response): Promise<string> {
  return ((await response.json()) as { error: { message: string } }).error.message;
}

describe("HTTP access control", () => {
  it("answers /healthz without a token and without secrets", async () => {
    const response = await fetch(`${server.origin}/healthz`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ ok: true, sessions: 0 });
    expect(text).not.toContain(ALICE);
  });

  it("refuses a missing or wrong bearer token with 401 and a WWW-Authenticate challenge", async () => {
    const missing = await post(INITIALIZE, { authorization: "" });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="same-game"');
    expect(await errorMessage(missing)).toMatch(/Authorization: Bearer/);
    const wrong = await post(INITIALIZE, { authorization: `Bearer ${ALICE}x` });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toContain('error="invalid_token"');
    await expect(connectHttp(server.url, { token: "not-a-configured-token" })).rejects.toThrow(
      /Unauthorized/,
    );
  });

  it("refuses a foreign Host or Origin header with 403 (DNS rebinding)", async () => {
    // fetch cannot override Host; a raw request can.
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        server.url,
        { method: "POST", headers: { host: "evil.example:80", ...MCP_HEADERS } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(INITIALIZE));
    });
    expect(status).toBe(403);
    const origin = await post(INITIALIZE, { origin: "http://evil.example" });
    expect(origin.status).toBe(403);
    expect(await errorMessage(origin)).toMatch(/Origin/i);
  });

  it("refuses a Host header that is not host[:port] with 400, not an internal error", async () => {
    const { request } = await import("node:http");
    const port = new URL(server.url).port;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        server.url,
        { method: "POST", headers: { ...MCP_HEADERS, host: `x@127.0.0.1:${port}` } },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(INITIALIZE));
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain(`the Host header \\"x@127.0.0.1:${port}\\" is not host[:port]`);
  });

  it("refuses an oversize body with 413, declared or streamed", async () => {
    const big = JSON.stringify({ ...INITIALIZE, padding: "x".repeat(100 * 1024) });
    const declared = await post(big);
    expect(declared.status).toBe(413);
    expect(await errorMessage(declared)).toMatch(/at most 65536 bytes/);
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode("y".repeat(16 * 1024)));
        controller.close();
      },
    });
    const streamed = await fetch(server.url, {
      method: "POST",
      headers: { ...MCP_HEADERS, authorization: `Bearer ${ALICE}` },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  describe("isolation between tokens", () => {
    let alice: Client;
    let bob: Client;
    let matchId: string;
    beforeAll(async () => {
      alice = (await connectHttp(server.url, { token: ALICE, name: "alice" })).client;
      bob = (await connectHttp(server.url, { token: BOB, name: "bob" })).client;
      const started = await alice.callTool({
        name: "start_match",
        arguments: { game: "repeated-pd", opponent: "always-cooperate", seed: 3 },
      });
      matchId = (started.structuredContent as { match_id: string }).match_id;
    });
    afterAll(async () => {
      await alice.close();
      await bob.close();
    });

    it("stores sha256(token) as the principal, never the token", () => {
      // sha256 of the token string, hex: the same function a reader can run in a shell (sha256sum).
      const expected = createHash("sha256").update(ALICE).digest("hex");
      const row = server.deps.store.getMatch(matchId);
      expect(row?.principal).toBe(expected);
      const dump = JSON.stringify(server.deps.store.db.prepare("SELECT * FROM sessions").all());
      expect(dump).not.toContain(ALICE);
    });

    it("refuses another token's reads and moves as if the match did not exist", async () => {
      const read = await bob.callTool({ name: "get_match", arguments: { match_id: matchId } });
      expect(read.isError).toBe(true);
      expect(JSON.stringify(read.content)).toContain(`No match with id \\"${matchId}\\"`);
      const move = await bob.callTool({
        name: "submit_move",
        arguments: { match_id: matchId, round: 1, choice: "Cooperate" },
      });
      expect(move.isError).toBe(true);
      expect(server.deps.store.listAttempts(matchId, 1)).toEqual([]);
      const own = await alice.callTool({ name: "get_match", arguments: { match_id: matchId } });
      expect(own.isError).toBeFalsy();
    });

    it("does not let another token use a session it did not open", async () => {
      const { transport } = await connectHttp(server.url, { token: ALICE });
      const hijack = await post(
        { jsonrpc: "2.0", id: 9, method: "tools/list" },
        {
          authorization: `Bearer ${BOB}`,
          "mcp-session-id": transport.sessionId as string,
          "mcp-protocol-version": "2025-06-18",
        },
      );
      expect(hijack.status).toBe(404);
      await transport.close();
    });
  });
});

describe("without tokens", () => {
  it("plays under the single principal 'local'", async () => {
    const open = await startInProcess();
    try {
      const { client } = await connectHttp(open.url);
      const started = await client.callTool({ name: "start_match", arguments: { game: "stag-hunt" } });
      const id = (started.structuredContent as { match_id: string }).match_id;
      expect(open.deps.store.getMatch(id)?.principal).toBe("local");
      await client.close();
    } finally {
      await open.stop();
    }
  });
});
