import type { CallToolResult } from "@modelcontextprotocol/server";
import { logError, logInfo } from "../log.js";
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from "../store/engines/database-unavailable.js";
import { RecordFileGoneError } from "../store/engines/record-file-guard.js";
import { recordWriteRefusal } from "../store/engines/record-write-refusal.js";
import { UsageError } from "../usage-error.js";

/** A tool's answer: the machine-readable object plus its readable text twin. */
export function toolAnswer<T extends Record<string, unknown>>(structured: T, text: string) {
  return { content: [{ type: "text" as const, text }], structuredContent: structured };
}

/**
 * Runs a tool body and turns a failure into an `isError` result with one sentence — never a stack trace.
 * Domain errors (unknown ids, bad designs) carry messages written for the agent; a programming error is
 * also logged on stderr with its stack so the operator sees it.
 */
export async function answering<T extends CallToolResult>(tool: string, body: () => T | Promise<T>) {
  try {
    return await body();
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      // The record's engine logs the outage once, when it starts and when it ends.
      return { content: [{ type: "text" as const, text: DATABASE_UNAVAILABLE_MESSAGE }], isError: true };
    }
    if ((error as { code?: unknown }).code === "SQLITE_READONLY") {
      // `serve` of a record it cannot write (read-only media or folder): a clear refusal, not a failure.
      const text = `${tool} needs to write the record, and this server can only read it (its file or folder is read-only here); the analysis tools work.`;
      return { content: [{ type: "text" as const, text }], isError: true };
    }
    if (error instanceof RecordFileGoneError) {
      // The operator must hear of it: every write from now on is refused until the server is restarted.
      logInfo(`${tool}: ${error.message} (${error.file})`);
      return { content: [{ type: "text" as const, text: error.message }], isError: true };
    }
    const refusal = recordWriteRefusal(error);
    if (refusal !== null) {
      logInfo(`${tool} not recorded: ${refusal}`);
      return { content: [{ type: "text" as const, text: refusal }], isError: true };
    }
    const message = error instanceof Error ? error.message : String(error);
    if (isProgrammingError(error)) logError(`tool ${tool} failed`, error);
    return { content: [{ type: "text" as const, text: message }], isError: true };
  }
}

function isProgrammingError(error: unknown): boolean {
  if (error instanceof UsageError) return false;
  return (
    error instanceof TypeError ||
    error instanceof ReferenceError ||
    error instanceof RangeError ||
    (error instanceof Error && (error.name === "SqliteError" || error.name === "PostgresError"))
  );
}

/**
 * An analysis answer: the readable summary, then the full result as JSON in a second text block — what
 * the MCP specification recommends for clients that read only text (some pass the model nothing else).
 */
export function analysisAnswer<T extends Record<string, unknown>>(structured: T, summary: string) {
  return {
    content: [
      { type: "text" as const, text: summary },
      { type: "text" as const, text: JSON.stringify(structured) },
    ],
    structuredContent: structured,
  };
}
