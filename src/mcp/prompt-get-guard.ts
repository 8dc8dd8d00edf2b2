import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { shownValue } from "../domain/named-value-schemas.js";
import { printable } from "../queries/format.js";
import { wrapRequestHandler } from "./wrap-request-handler.js";

interface PromptGetRequest {
  params?: { name?: unknown; arguments?: unknown };
}

/**
 * A `prompts/get` whose arguments are not strings (`{"game": 5}`) is answered with -32602 and one sentence
 * naming the argument, the value and what is valid. MCP prompt arguments are strings; the SDK refuses
 * anything else while validating the request, and its answer is -32603 (an internal error, which it is not)
 * carrying a multi-line dump of that validation.
 */
export function guardPromptGets(server: McpServer): void {
  wrapRequestHandler(server, "prompts/get", (inner) => async (request: unknown, ctx: unknown) => {
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
