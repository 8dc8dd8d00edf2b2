import { type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { closestName } from "../domain/known-keys.js";
import { MAX_ARGUMENT_DEPTH, tooDeepArgument } from "./argument-depth.js";
import { wrapRequestHandler } from "./wrap-request-handler.js";

interface ToolCallRequest {
  params?: { name?: unknown; arguments?: unknown };
}

/**
 * Answers four kinds of malformed `tools/call` before the SDK sees them, each in one sentence:
 * - a name that is not one of this server's tools. The SDK looks tools up on a plain object, so
 *   `constructor`, `toString` or `__proto__` find Object.prototype's members and are answered "Tool …
 *   disabled"; here only the server's own tools count, and any other name is "Unknown tool" (a JSON-RPC
 *   error, as the MCP specification answers an unknown tool).
 * - arguments that are not a JSON object (an array, a string, null). The SDK's answer is a multi-line dump
 *   of its request validation; here it is a tool error naming what was expected.
 * - an argument the tool does not take (`framings` for `framing`, `oponent`). zod would drop it without a
 *   word and the call would go on with the default — a match recorded under a condition nobody asked
 *   for — so it is a tool error naming the key, the nearest argument and every one the tool takes (the
 *   listing says so too: portable-tool-list.ts closes each input schema).
 * - an argument nested deeper than any argument may be (argument-depth.ts), which the SDK's validation
 *   and the explanation of its refusal would walk by recursion until the stack ran out.
 *
 * The SDK has no hook in front of its own validation, so its stored handler is wrapped in place
 * (wrap-request-handler.ts).
 */
export function guardToolCalls(server: McpServer): void {
  const tools = (server as unknown as { _registeredTools?: Record<string, { enabled: boolean }> })
    ._registeredTools;
  const listsSchemas = typeof (server as unknown as { toolInputSchemaJson?: unknown }).toolInputSchemaJson;
  if (tools === undefined || listsSchemas !== "function") {
    throw new Error("The MCP SDK no longer keeps its tools where guardToolCalls expects them.");
  }
  // Each tool's argument names, read from its listed input schema on its first call and kept: a tool's
  // schema never changes, and every call (a recorded move among them) checks its keys against them.
  const argumentNames = new Map<string, Set<string>>();
  const argumentsOf = (name: string): Set<string> => {
    let names = argumentNames.get(name);
    if (names === undefined) {
      const json = (server as unknown as { toolInputSchemaJson(tool: string): unknown }).toolInputSchemaJson(
        name,
      );
      names = new Set(Object.keys((json as { properties?: object } | undefined)?.properties ?? {}));
      argumentNames.set(name, names);
    }
    return names;
  };
  wrapRequestHandler(server, "tools/call", (inner) => async (request: unknown, ctx: unknown) => {
    const params = (request as ToolCallRequest).params;
    const name = params?.name;
    // Listed only in a refusal: a call that passes does not pay for the list.
    const known = () => Object.keys(tools).filter((tool) => tools[tool]?.enabled);
    if (typeof name !== "string") {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `tools/call needs params.name, the name of a tool as a string; tools: ${known().join(", ")}.`,
      );
    }
    if (!Object.hasOwn(tools, name) || tools[name]?.enabled !== true) {
      const shown = name.length > 60 ? `${name.slice(0, 60)}…` : name;
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool ${JSON.stringify(shown)}; tools: ${known().join(", ")}.`,
      );
    }
    const args = params?.arguments;
    if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {
      const got = args === null ? "null" : Array.isArray(args) ? "an array" : `a ${typeof args}`;
      return {
        content: [
          {
            type: "text",
            text: `${name} takes its arguments as a JSON object of named values (as its inputSchema in tools/list describes), got ${got}.`,
          },
        ],
        isError: true,
      };
    }
    const valid = argumentsOf(name);
    const unknown = args === undefined ? [] : Object.keys(args).filter((key) => !valid.has(key));
    if (unknown.length > 0) {
      const shown = unknown
        .slice(0, 5)
        .map((key) => JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key));
      // A long key is no typo of a short name, and measuring it would cost the server.
      const first = unknown[0] as string;
      const names = [...valid];
      const near = first.length <= 100 ? (closestName(first, names) ?? null) : null;
      return {
        content: [
          {
            type: "text",
            text: `${name} has no argument ${shown.join(", ")}${unknown.length > 5 ? ", …" : ""}${near === null ? "" : ` (did you mean ${near}?)`}; its arguments: ${names.length > 0 ? names.join(", ") : "none"}.`,
          },
        ],
        isError: true,
      };
    }
    const deep = args === undefined ? null : tooDeepArgument(args);
    if (deep !== null) {
      return {
        content: [
          {
            type: "text",
            text: `${name}'s argument ${JSON.stringify(deep.length > 60 ? `${deep.slice(0, 60)}…` : deep)} nests arrays or objects more than ${MAX_ARGUMENT_DEPTH} levels deep, the most any argument may; its inputSchema in tools/list says what it takes.`,
          },
        ],
        isError: true,
      };
    }
    return inner(request, ctx);
  });
}
