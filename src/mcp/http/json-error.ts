import type { ServerResponse } from "node:http";

/** JSON-RPC error codes of the HTTP front; -32001 is the SDK's "Session not found". */
export const SESSION_NOT_FOUND = -32001;
export const SERVER_REFUSED = -32000;

/**
 * Answers with a JSON-RPC error object (what MCP clients parse) and closes nothing else. `Connection:
 * close` is sent when the request body was left unread, so the socket is not reused mid-body.
 */
export function sendJsonError(
  res: ServerResponse,
  status: number,
  message: string,
  options: {
    code?: number;
    headers?: Record<string, string>;
    closeConnection?: boolean;
    /** The id of the request refused, when it could be read; null otherwise. */
    id?: string | number | null;
  } = {},
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: { code: options.code ?? SERVER_REFUSED, message },
    id: options.id ?? null,
  });
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(body)),
    ...(options.closeConnection ? { connection: "close" } : {}),
    ...options.headers,
  });
  res.end(body);
}
