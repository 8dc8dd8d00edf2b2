import type { McpServer } from "@modelcontextprotocol/server";
import type { Catalog } from "../domain/catalog.js";
import { opponentParamsSchema, withClosedOpponentParams } from "./advertised-opponent-params.js";
import { isStringKeysOnly } from "./tools/advertised-schema.js";

type RequestHandler = (request: unknown, ctx: unknown) => Promise<unknown> | unknown;
type Json = Record<string, unknown>;

/**
 * `tools/list` with every input schema as a draft-07 client reads it. The SDK lists a zod input schema as
 * 2020-12 JSON Schema with a `$schema` key, which a draft-07 validator (the v1 SDK's, LangChain's, a
 * default `new Ajv()`) refuses to compile, so a host that checks arguments fails at its first listing. The
 * key is dropped (nothing else in these schemas is 2020-12 only), and each schema is closed at its top
 * (`additionalProperties: false`): the server refuses an argument a tool does not take (tool-call-guard.ts),
 * and the listing says so. What model providers' function calling refuses and says nothing is dropped too
 * (`propertyNames: {type: "string"}`), and an opponent's params are listed closed, with the catalog's
 * actions (advertised-opponent-params.ts), so an adapter hands every tool to OpenAI (strict), Anthropic and
 * Gemini as it is. Output schemas are made portable where they are registered (advertised-schema.ts).
 *
 * The SDK has no hook for its listing, so its stored handler is wrapped in place, as guardToolCalls does.
 */
export function listPortableInputSchemas(server: McpServer, catalog: Catalog): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) {
    throw new Error(
      "The MCP SDK no longer keeps its request handlers where listPortableInputSchemas expects them.",
    );
  }
  const inner = handlers.get("tools/list") as RequestHandler | undefined;
  if (inner === undefined) return; // no tool registered
  let opponentParams: Json | undefined;
  handlers.set("tools/list", async (request: unknown, ctx: unknown) => {
    const listed = (await inner(request, ctx)) as { tools?: Json[] };
    if (!Array.isArray(listed.tools)) return listed;
    opponentParams ??= opponentParamsSchema(catalog);
    const closed = opponentParams;
    return {
      ...listed,
      tools: listed.tools.map((tool) => ({
        ...tool,
        inputSchema: withClosedOpponentParams(String(tool.name), closedInput(tool.inputSchema), closed),
      })),
    };
  });
}

function closedInput(schema: unknown): unknown {
  const portable = withoutSchemaKeys(schema);
  if (portable === null || typeof portable !== "object" || Array.isArray(portable)) return portable;
  return { ...(portable as Json), additionalProperties: false };
}

function withoutSchemaKeys(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSchemaKeys);
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key !== "$schema" && !isStringKeysOnly(key, value)) out[key] = withoutSchemaKeys(value);
  }
  return out;
}
