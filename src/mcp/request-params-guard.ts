import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  specTypeSchemas,
} from "@modelcontextprotocol/server";
import { printable } from "../queries/format.js";
import { wrapRequestHandler } from "./wrap-request-handler.js";

/** The MCP request type of each method this server answers, whose schema says what its params must be. */
const REQUEST_TYPES = {
  initialize: "InitializeRequest",
  ping: "PingRequest",
  "tools/list": "ListToolsRequest",
  "tools/call": "CallToolRequest",
  "prompts/list": "ListPromptsRequest",
  "prompts/get": "GetPromptRequest",
  "resources/list": "ListResourcesRequest",
  "resources/templates/list": "ListResourceTemplatesRequest",
  "resources/read": "ReadResourceRequest",
  "completion/complete": "CompleteRequest",
} as const;

type RequestMethod = keyof typeof REQUEST_TYPES;

interface Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
}

/**
 * One sentence saying why a request's params are not what its method takes (`resources/read: params.uri
 * is required, a string`), or null when they are. Methods without a known schema are never refused here.
 */
export function invalidParamsOf(method: string, request: unknown): string | null {
  if (!Object.hasOwn(REQUEST_TYPES, method)) return null;
  const schema = specTypeSchemas[REQUEST_TYPES[method as RequestMethod]];
  const checked = schema["~standard"].validate(request) as { issues?: readonly Issue[] } | Promise<unknown>;
  if (checked instanceof Promise || checked.issues === undefined || checked.issues.length === 0) return null;
  const named = checked.issues.slice(0, 3).map((issue) => `${pathOf(issue)}: ${reasonOf(issue.message)}`);
  const more = checked.issues.length > 3 ? ` (and ${checked.issues.length - 3} more)` : "";
  return `Invalid params for ${method}: ${named.join("; ")}${more}.`;
}

function pathOf(issue: Issue): string {
  const keys = (issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part));
  return printable(keys.length === 0 ? "params" : keys.join(".")).slice(0, 100);
}

function reasonOf(message: string): string {
  const reason = message.replace(/^Invalid input: /, "");
  if (reason === "Invalid input") return "not a valid value";
  const missing = /^expected (\w+), received undefined$/.exec(reason);
  return missing ? `missing (expected ${missing[1]})` : reason;
}

/**
 * A request whose params its method does not take (`resources/read` without a `uri`, `completion/complete`
 * without a `ref`, a `cursor` that is not a string, an `initialize` without `clientInfo`) is answered with
 * -32602 Invalid params and one sentence naming the member, as JSON-RPC 2.0 (§5.1) defines the code. The
 * SDK refuses such a request while validating it, but with a plain error: its answer was -32603 (an
 * internal error, which it is not) carrying a multi-line dump of that validation.
 *
 * Only a request the SDK refused is examined: a handler's own failure on valid params passes unchanged.
 * Call it after every handler is registered.
 */
export function guardRequestParams(server: McpServer): void {
  for (const method of Object.keys(REQUEST_TYPES)) {
    wrapRequestHandler(server, method, (inner) => async (request: unknown, ctx: unknown) => {
      try {
        return await inner(request, ctx);
      } catch (error) {
        if (error instanceof ProtocolError || Number.isSafeInteger((error as { code?: unknown })?.code)) {
          throw error;
        }
        const invalid = invalidParamsOf(method, request);
        if (invalid === null) throw error;
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, invalid);
      }
    });
  }
}
