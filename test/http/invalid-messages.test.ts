import { describe, expect, it } from "vitest";
import { INITIALIZE, MCP_HEADERS, startInProcess } from "./support/in-process-server.js";

// JSON-RPC 2.0 §5.1: -32700 Parse error is "Invalid JSON was received"; valid JSON that is not a request
// object is -32600 Invalid Request. The SDK's HTTP transport answered both -32700; the stdio server
// already answered the second -32600, naming what is wrong.

describe("an Accept header in capitals", () => {
  it("is read case-insensitively, as media types are (RFC 9110 §8.3.1), not refused 406", async () => {
    const server = await startInProcess();
    try {
      const opened = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "Application/JSON, Text/Event-Stream" },
        body: JSON.stringify(INITIALIZE),
      });
      expect(opened.status).toBe(200);
      expect(opened.headers.get("content-type")).toBe("text/event-stream");
      await opened.text();
    } finally {
      await server.stop();
    }
  });
});

describe("a POST body that is JSON but no JSON-RPC message", () => {
  it("is an Invalid Request (-32600) naming what is wrong, with the id when it reads; bad JSON stays -32700", async () => {
    const server = await startInProcess();
    try {
      const opened = await fetch(server.url, {
        method: "POST",
        headers: MCP_HEADERS,
        body: JSON.stringify(INITIALIZE),
      });
      const session = opened.headers.get("mcp-session-id") as string;
      await opened.text();
      const post = async (body: string) => {
        const answer = await fetch(server.url, {
          method: "POST",
          headers: { ...MCP_HEADERS, "mcp-protocol-version": "2025-06-18", "mcp-session-id": session },
          body,
        });
        return { status: answer.status, body: await answer.json() };
      };
      expect(await post('{"foo":1}')).toEqual({
        status: 400,
        body: {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: 'Invalid request: "jsonrpc": "2.0" is missing.' },
        },
      });
      expect(await post('{"jsonrpc":"2.0","id":5,"method":"ping","params":{"_meta":5}}')).toEqual({
        status: 400,
        body: {
          jsonrpc: "2.0",
          id: 5,
          error: { code: -32600, message: 'Invalid request: "params._meta" is not valid there.' },
        },
      });
      expect(
        await post('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"1.0","id":2,"method":"ping"}]'),
      ).toEqual({
        status: 400,
        body: {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: -32600,
            message: 'Invalid request: message 2 of the batch: "jsonrpc" is "1.0"; it must be "2.0".',
          },
        },
      });
      expect(await post('{"jsonrpc":')).toMatchObject({ status: 400, body: { error: { code: -32700 } } });
      // JSON-RPC 2.0 §6: an empty batch is an Invalid Request (the SDK answered it 202, as notifications).
      expect(await post("[]")).toEqual({
        status: 400,
        body: {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "Invalid request: an empty batch holds no message." },
        },
      });
    } finally {
      await server.stop();
    }
  });
});
