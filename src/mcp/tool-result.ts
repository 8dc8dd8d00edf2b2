import type { CallToolResult } from "@modelcontextprotocol/server";
import { UsageError } from "../usage-error.js";
import { logError } from "../log.js";

/** A tool's answer: the machine-readable object plus its readable text twin. */
export function toolAnswer<T extends Record<string, unknown>>(structured: T, text: string) {
  return { content: [{ type: "text" as const, text }], structuredContent: structured };
}

/**
 * Runs a tool body and turns a failure into an `isError` result with one sentence. Mistakes an agent can
 * fix (UsageError) are answered as they are; anything else is logged on stderr with its stack and the
 * client gets the message only — never a stack trace.
 */
export async function answering<T extends CallToolResult>(tool: string, body: () => T | Promise<T>) {
  try {
    return await body();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!(error instanceof UsageError)) logError(`tool ${tool} failed`, error);
    return { content: [{ type: "text" as const, text: message }], isError: true };
  }
}
