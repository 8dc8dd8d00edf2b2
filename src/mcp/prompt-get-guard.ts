import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { shownValue } from "../domain/named-value-schemas.js";
import { printable } from "../queries/format.js";

type RequestHandler = (request: unknown, ctx: unknown) => Promise<unknown>;

interface PromptGetRequest {
  params?: { name?: unknown; arguments?: unknown };
}

/**
 * A `prompts/get` whose arguments are not strings (`{"game": 5}`) is answered with -32602 and one sentence
 * naming the argument, the value and what is valid. MCP prompt arguments are strings; the SDK refuses
 * anything else while validating the request, and its answer is -32603 (an internal error, which it is not)
 * carrying a multi-line dump of that validation. As in tool-call-guard.ts, the SDK has no hook in front of
 * its own validation, so its stored handler is wrapped in place.
 */
export function guardPromptGets(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) {
    throw new Error("The MCP SDK no longer keeps its request handlers where guardPromptGets expects them.");
  }
  const inner = handlers.get("prompts/get") as RequestHandler | undefined;
  if (inner === undefined) return; // no prompt registered: the SDK answers prompts/get as an unknown method
  handlers.set("prompts/get", async (request: unknown, ctx: unknown) => {
    const params = (request as PromptGetRequest).params;
    const prompt = typeof params?.name === "string" ? printable(params.name.slice(0, 60)) : "prompts/get";
    const args = params?.arguments;
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `The arguments of prompt ${prompt} are ${shown(args)}; give them as an object of named string values.`,
      );
    }
    for (const [key, value] of Object.entries((args ?? {}) as Record<string, unknown>)) {
      if (typeof value !== "string") {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Argument ${shown(key)} of prompt ${prompt} is ${shown(value)}, not a string; each prompt argument is a string, or left out.`,
        );
      }
    }
    return inner(request, ctx);
  });
}

function shown(value: unknown): string {
  return printable(shownValue(value));
}
