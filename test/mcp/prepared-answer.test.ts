import { PassThrough } from "node:stream";
import {
  Client,
  type JSONRPCMessage,
  ReadBuffer,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CACHE_META_KEY } from "../../src/mcp/analysis-call/call-analysis.js";
import { createServer } from "../../src/mcp/create-server.js";
import { preparedAnswer, preparedAnswerCounts } from "../../src/mcp/prepared-answer/prepared-answer.js";
import { PreparedStdioTransport } from "../../src/mcp/prepared-answer/stdio-transport.js";
import { asciiJson, messageLine, wireBytesCounts } from "../../src/mcp/prepared-answer/wire-bytes.js";
import { validations } from "../../src/mcp/tools/advertised-schema.js";
import { TOOLSET_NAMES } from "../../src/mcp/toolsets.js";
import { call, connectClient, tempDeps } from "../support/harness.js";

// An analysis answered again from the result cache is the answer built, validated and serialised when it was
// computed: the server writes its kept bytes over stdio instead of doing a megabyte of work per call again.

/** The client's half of a stdio connection on in-process streams, framed as the SDK's stdio client frames. */
class StreamClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) {
        this.onmessage?.(message);
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

const counts = () => ({
  built: preparedAnswerCounts.built,
  validated: validations.count,
  serialised: wireBytesCounts.partsSerialised,
});

describe("a cached analysis answered over stdio", () => {
  let deps: ReturnType<typeof tempDeps>;
  let client: Client;
  /** Every line the server wrote, as bytes. */
  let lines: Buffer[];

  beforeEach(async () => {
    deps = tempDeps();
    const player = await connectClient(deps, { player: "analyst" });
    for (const [framing, choice] of [
      ["business+familiar", "Cooperate"],
      ["team+familiar", "Defect"],
    ] as const) {
      for (let seed = 0; seed < 3; seed++) {
        const view = await call<{ match_id: string }>(player, "start_match", {
          game: "prisoners-dilemma",
          framing,
          seed,
        });
        await call(player, "submit_move", { match_id: view.match_id, round: 1, choice });
      }
    }
    await player.close();
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    lines = [];
    let pending = Buffer.alloc(0);
    fromServer.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (let end = pending.indexOf(10); end >= 0; end = pending.indexOf(10)) {
        lines.push(pending.subarray(0, end));
        pending = pending.subarray(end + 1);
      }
    });
    const server = createServer(deps, { transport: "stdio", player: "analyst", toolsets: TOOLSET_NAMES });
    await server.connect(new PreparedStdioTransport(toServer, fromServer));
    client = new Client({ name: "prepared-answer-test", version: "1.0.0" });
    await client.connect(new StreamClientTransport(toServer, fromServer));
    await client.listTools();
  });
  afterEach(async () => {
    await client.close();
    deps.dispose();
  });

  it("builds, validates and serialises the answer once; the hit is its kept bytes, all ASCII, the same result", async () => {
    const before = counts();
    const first = await client.callTool({ name: "robustness", arguments: { bootstrap: 300 } });
    expect(first._meta?.[CACHE_META_KEY]).toMatchObject({ outcome: "computed" });
    // One answer built and validated; its structured content and its content blocks serialised, once each.
    expect(counts()).toEqual({
      built: before.built + 1,
      validated: before.validated + 1,
      serialised: before.serialised + 2,
    });
    const structuredJson = JSON.stringify(first.structuredContent);
    // The notes use characters past ASCII (≥, −, …): on the wire they are \u escapes.
    expect([...structuredJson].some((c) => c.charCodeAt(0) > 0x7f)).toBe(true);

    const linesBefore = lines.length;
    const again = await client.callTool({ name: "robustness", arguments: { bootstrap: 300 } });
    expect(again._meta?.[CACHE_META_KEY]).toMatchObject({ outcome: "memory" });
    // Nothing built, validated or serialised again.
    expect(counts()).toEqual({
      built: before.built + 1,
      validated: before.validated + 1,
      serialised: before.serialised + 2,
    });
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again.content).toEqual(first.content);
    // The text twin is the JSON of the structured content, as the MCP specification recommends.
    expect((again.content as { text: string }[])[1]?.text).toBe(structuredJson);

    const hit = lines.slice(linesBefore).find((line) => line.includes('"same-game/cache"'));
    expect(hit).toBeDefined();
    expect((hit as Buffer).every((byte) => byte < 0x80)).toBe(true);
    const wire = JSON.parse((hit as Buffer).toString("utf8"));
    expect(wire.result.structuredContent).toEqual(first.structuredContent);
    expect(wire.result.content[1].text).toBe(structuredJson);
  });
});

describe("messageLine", () => {
  // The SDK sends zod's copy of a tool result: new objects holding the very same member values.
  const answer = preparedAnswer(
    { id: "result-1" },
    () =>
      ({
        content: [
          { type: "text", text: "R ≥ 0.9" },
          { type: "text", text: '{"games":[{"R":0.9}],"note":"R ≥ 0.9"}' },
        ],
        structuredContent: { games: [{ R: 0.9 }], note: "R ≥ 0.9" },
      }) as const,
  );
  const message = (result: Record<string, unknown>) => ({ result, jsonrpc: "2.0", id: 7 });
  const joined = (pieces: Buffer[] | undefined) => Buffer.concat(pieces ?? []).toString("latin1");

  it("splices the kept JSON into a copy with the same members, escaped to ASCII", () => {
    const copy = message({
      _meta: { "same-game/cache": { outcome: "memory" } },
      content: answer.content.map((block) => ({ ...block })),
      structuredContent: { ...answer.structuredContent },
    });
    const line = joined(messageLine(copy));
    expect(line).toBe(
      '{"result":{"_meta":{"same-game/cache":{"outcome":"memory"}},"content":[{"type":"text","text":"R \\u2265 0.9"},{"type":"text","text":"{\\"games\\":[{\\"R\\":0.9}],\\"note\\":\\"R \\u2265 0.9\\"}"}],"structuredContent":{"games":[{"R":0.9}],"note":"R \\u2265 0.9"}},"jsonrpc":"2.0","id":7}\n',
    );
    expect(JSON.parse(line)).toEqual(copy);
  });

  it("serialises what differs as usual, and leaves a message without a kept answer to the transport", () => {
    const otherText = message({
      content: [{ type: "text", text: "another summary" }],
      structuredContent: { ...answer.structuredContent },
    });
    const line = joined(messageLine(otherText));
    expect(line).toContain('"content":[{"type":"text","text":"another summary"}]');
    expect(JSON.parse(line)).toEqual(otherText);
    // One member not the kept one: not the kept answer.
    expect(
      messageLine(
        message({ content: [], structuredContent: { ...answer.structuredContent, note: "changed" } }),
      ),
    ).toBeUndefined();
    expect(messageLine(message({ content: [], structuredContent: { games: [{ R: 0.9 }] } }))).toBeUndefined();
    expect(messageLine({ jsonrpc: "2.0", id: 1, result: { tools: [] } })).toBeUndefined();
  });

  it("keeps the answer frozen, so the kept bytes cannot go stale", () => {
    expect(Object.isFrozen(answer.structuredContent.games[0])).toBe(true);
    expect(() => {
      (answer.structuredContent.games[0] as { R: number }).R = 0.1;
    }).toThrow(TypeError);
  });

  it("escapes every character past ASCII, pairs of surrogates as two escapes", () => {
    expect(asciiJson(JSON.stringify("λ − 😀"))).toBe('"\\u03bb \\u2212 \\ud83d\\ude00"');
    expect(JSON.parse(asciiJson(JSON.stringify("λ − 😀")))).toBe("λ − 😀");
  });
});
