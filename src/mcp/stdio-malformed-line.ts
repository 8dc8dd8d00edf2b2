import { parseJSONRPCMessage } from "@modelcontextprotocol/server";
import { shownValue } from "../domain/named-value-schemas.js";
import { printable } from "../queries/format.js";

/**
 * Why one line read on stdin cannot be served, as the JSON-RPC error that answers it. The SDK's stdio
 * transport drops a line that is not JSON without a word and hands a line that is JSON but no JSON-RPC
 * message to `onerror`; either way a client that sent a request waits for an answer forever. Such a
 * line is answered here instead (and not passed on), so the client hears why.
 */
export interface MalformedLine {
  /** The error reply, one line ready for stdout; absent for a malformed response (never answered). */
  readonly reply?: string;
  /** One sentence for stderr. */
  readonly reason: string;
}

/**
 * A batch line (a JSON array of messages): each message as a line of its own, for the transport — which
 * reads one message per line — to serve one by one, each answered on its own line. MCP 2025-03-26 has
 * servers "MUST support receiving JSON-RPC batches"; a message of the batch that is none is refused alone.
 */
export interface BatchLine {
  readonly batch: readonly string[];
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** A line that is one JSON-RPC message (or blank) gives undefined: it goes on to the transport. */
export function malformedLine(raw: string): MalformedLine | BatchLine | undefined {
  const line = raw.replace(/\r?\n$/, "").replace(/\r$/, "");
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const why = line.startsWith("\uFEFF")
      ? "the line starts with a byte order mark (U+FEFF): write UTF-8 without one"
      : `the line is not JSON (${shownText(error instanceof Error ? error.message : String(error))})`;
    return refusal(PARSE_ERROR, null, `Parse error: ${why}; send one JSON-RPC message per line.`);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return refusal(
        INVALID_REQUEST,
        null,
        "Invalid request: an empty array is not a message; send one JSON-RPC message object per line.",
      );
    }
    return { batch: value.map((message) => JSON.stringify(message)) };
  }
  const invalid = invalidMessage(value);
  if (invalid === undefined) return undefined;
  // A client's malformed answer to one of the server's requests: a reply to it would be a response to a
  // response, which JSON-RPC forbids; it is only reported on stderr.
  if (invalid.isResponse) return { reason: `a response from the client was dropped: ${invalid.problem}` };
  return refusal(INVALID_REQUEST, invalid.id, `Invalid request: ${invalid.problem}.`);
}

/**
 * Why a parsed JSON value (not an array) is no JSON-RPC message — an Invalid Request (-32600), as JSON-RPC
 * 2.0 §5.1 names valid JSON that is not a request object — with the id to echo and whether it is a
 * response; undefined when it is a message. Shared by the stdio line check and the HTTP front.
 */
export function invalidMessage(
  value: unknown,
): { problem: string; id: string | number | null; isResponse: boolean } | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { problem: `${shown(value)} is not a JSON-RPC message object`, id: null, isResponse: false };
  }
  const message = value as Record<string, unknown>;
  const problem = structuralProblem(message) ?? schemaProblem(message);
  if (problem === undefined) return undefined;
  const isResponse = !("method" in message) && ("result" in message || "error" in message);
  return { problem, id: exactId(message.id), isResponse };
}

/** A message of a batch, as malformedLine reads a line, except that a batch inside a batch is refused. */
export function malformedBatchMessage(message: string): MalformedLine | undefined {
  if (message.startsWith("[")) {
    return refusal(INVALID_REQUEST, null, "Invalid request: a batch holds messages, not another batch.");
  }
  return malformedLine(message) as MalformedLine | undefined;
}

function refusal(code: number, id: string | number | null, message: string): MalformedLine {
  return {
    reply: `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`,
    reason: `answered a stdio line with error ${code}: ${message}`,
  };
}

/** The id echoed in the error: only one read exactly (a string, or an integer JSON keeps exactly). */
function exactId(id: unknown): string | number | null {
  return typeof id === "string" || Number.isSafeInteger(id) ? (id as string | number) : null;
}

function structuralProblem(message: Record<string, unknown>): string | undefined {
  if (message.jsonrpc !== "2.0") {
    return "jsonrpc" in message
      ? `"jsonrpc" is ${shown(message.jsonrpc)}; it must be "2.0"`
      : `"jsonrpc": "2.0" is missing`;
  }
  if ("id" in message && exactId(message.id) === null) {
    return `the id ${shown(message.id)} is not a string or an integer JSON carries exactly (at most ${Number.MAX_SAFE_INTEGER})`;
  }
  if (!("method" in message) && "result" in message) {
    const result = message.result;
    if (typeof result !== "object" || result === null || Array.isArray(result)) {
      return `"result" is ${shown(result)}; it must be an object`;
    }
  }
  if ("method" in message) {
    if (typeof message.method !== "string")
      return `"method" is ${shown(message.method)}; it must be a string`;
    const params = message.params;
    if ("params" in message && (typeof params !== "object" || params === null || Array.isArray(params))) {
      return `"params" of ${printable(message.method.slice(0, 80))} is ${shown(params)}; it must be an object`;
    }
    const token = (params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
    if (token !== undefined && typeof token !== "string" && !Number.isSafeInteger(token)) {
      return `"params._meta.progressToken" is ${shown(token)}; it must be a string or an integer`;
    }
  }
  return undefined;
}

/** What the SDK's own message schema refuses beyond the checks above, named by the first path it gives. */
function schemaProblem(message: Record<string, unknown>): string | undefined {
  try {
    parseJSONRPCMessage(message);
    return undefined;
  } catch (error) {
    const path = firstIssuePath((error as { issues?: unknown }).issues);
    return path === undefined || path.length === 0
      ? "the object is not a JSON-RPC request, notification or response"
      : `"${path.join(".")}" is not valid there`;
  }
}

interface Issue {
  readonly path?: readonly (string | number)[];
  readonly errors?: readonly (readonly Issue[])[];
}

function firstIssuePath(
  issues: unknown,
  prefix: readonly (string | number)[] = [],
): (string | number)[] | undefined {
  if (!Array.isArray(issues)) return undefined;
  for (const issue of issues as Issue[]) {
    const path = [...prefix, ...(issue.path ?? [])];
    const nested = issue.errors?.[0];
    const deeper = nested === undefined ? undefined : firstIssuePath(nested, path);
    if (deeper !== undefined && deeper.length > 0) return deeper;
    if (path.length > 0) return path;
  }
  return undefined;
}

/** A received value in a sentence: JSON, its controls escaped, cut to a readable length. */
function shown(value: unknown): string {
  return value === undefined ? "absent" : printable(shownValue(value, 100));
}

function shownText(text: string): string {
  return printable(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}
