import { InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "../../src/mcp/create-server.js";
import { TOOLSET_NAMES } from "../../src/mcp/toolsets.js";
import { INITIALIZE, MCP_HEADERS, startInProcess } from "../http/support/in-process-server.js";
import { tempDeps } from "../support/harness.js";

// JSON-RPC 2.0 §5.1: -32602 is "Invalid params", -32603 "Internal error". A request whose params its
// method does not take was answered -32603 with a multi-line dump of the SDK's validation; it is -32602
// with one sentence naming the member.

type Answer = { id: number; error?: { code: number; message: string }; result?: unknown };

describe("a request whose params its method does not take", () => {
  let deps: ReturnType<typeof tempDeps>;
  let client: InMemoryTransport;
  const answers = new Map<number, Answer>();
  let nextId = 100;

  /** Sends one raw JSON-RPC request over the in-memory pair and resolves with its answer. */
  async function request(method: string, params?: unknown): Promise<Answer> {
    const id = nextId++;
    await client.send({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) } as never);
    for (let i = 0; i < 200 && !answers.has(id); i++) await new Promise((r) => setTimeout(r, 5));
    return answers.get(id) as Answer;
  }

  beforeAll(async () => {
    deps = tempDeps();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = clientSide;
    client.onmessage = (message) => {
      const answer = message as unknown as Answer;
      if (typeof answer.id === "number") answers.set(answer.id, answer);
    };
    await createServer(deps, { transport: "memory", toolsets: TOOLSET_NAMES }).connect(serverSide);
    await client.start();
  });
  afterAll(async () => {
    await client.close();
    deps.dispose();
  });

  it("refuses an initialize without clientInfo and capabilities as invalid params, naming both", async () => {
    const answer = await request("initialize", { protocolVersion: "2025-06-18" });
    expect(answer.error).toEqual({
      code: -32602,
      message:
        "Invalid params for initialize: params.capabilities: missing (expected object); params.clientInfo: missing (expected object).",
    });
  });

  it("answers resources/read without a uri, prompts/get without a name, completion/complete without a ref and a cursor that is not a string with -32602 naming the member", async () => {
    await request("initialize", INITIALIZE.params);
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect((await request("resources/read", {})).error).toEqual({
      code: -32602,
      message: "Invalid params for resources/read: params.uri: missing (expected string).",
    });
    expect((await request("prompts/get", {})).error).toEqual({
      code: -32602,
      message: "Invalid params for prompts/get: params.name: missing (expected string).",
    });
    expect((await request("tools/list", { cursor: 5 })).error).toEqual({
      code: -32602,
      message: "Invalid params for tools/list: params.cursor: expected string, received number.",
    });
    expect((await request("completion/complete", { argument: { name: "game", value: "" } })).error).toEqual({
      code: -32602,
      message: "Invalid params for completion/complete: params.ref: not a valid value.",
    });
    // A handler's own refusal on valid params keeps its code and words; valid requests are answered.
    expect((await request("resources/read", { uri: "same-game://games/chess" })).error).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown game "chess"/),
    });
    expect((await request("ping")).result).toEqual({});
  });

  it("refuses a list cursor it never issued (every list is one page) as invalid params, not the first page again", async () => {
    expect((await request("tools/list", { cursor: "page-2" })).error).toEqual({
      code: -32602,
      message:
        'Invalid cursor "page-2": tools/list answers in one page and gives no nextCursor, so no cursor is valid; list without one.',
    });
    for (const method of ["prompts/list", "resources/list", "resources/templates/list"]) {
      expect((await request(method, { cursor: "x" })).error?.code, method).toBe(-32602);
    }
    const listed = (await request("tools/list", {})).result as { tools: unknown[]; nextCursor?: string };
    expect(listed.tools.length).toBeGreaterThan(0);
    expect(listed.nextCursor).toBeUndefined();
  });
});

describe("an initialize over HTTP whose params are wrong", () => {
  it("is answered 400 with -32602 naming the member and the request's id, not as a request without a session", async () => {
    const server = await startInProcess();
    try {
      const answer = await fetch(server.url, {
        method: "POST",
        headers: MCP_HEADERS,
        body: JSON.stringify({ ...INITIALIZE, id: 7, params: { protocolVersion: "2025-06-18" } }),
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        jsonrpc: "2.0",
        id: 7,
        error: {
          code: -32602,
          message:
            "Invalid params for initialize: params.capabilities: missing (expected object); params.clientInfo: missing (expected object).",
        },
      });
    } finally {
      await server.stop();
    }
  });
});
