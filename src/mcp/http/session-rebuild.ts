import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/server";

const JSON_AND_SSE = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/**
 * Brings a fresh transport and server to where the session's first replica had them, through the public
 * protocol only: the client's own initialize (its params, as recorded in the session row) and the
 * initialized notification are replayed into the transport, whose id generator returns the session's id.
 * The server then knows the client's info and protocol version exactly as it did, and the transport
 * accepts the client's Mcp-Session-Id. Nothing of the replay reaches the client.
 */
export async function rebuildSession(
  transport: WebStandardStreamableHTTPServerTransport,
  sessionId: string,
  initializeParams: Record<string, unknown>,
): Promise<void> {
  const initialized = await transport.handleRequest(
    new Request("http://replica.internal/mcp", {
      method: "POST",
      headers: JSON_AND_SSE,
      body: JSON.stringify({ jsonrpc: "2.0", id: "rebuild", method: "initialize", params: initializeParams }),
    }),
  );
  const answer = await initialized.text();
  if (initialized.status !== 200 || initialized.headers.get("mcp-session-id") !== sessionId) {
    throw new Error(`rebuilding session ${sessionId}: initialize answered ${initialized.status}: ${answer}`);
  }
  const version =
    typeof initializeParams.protocolVersion === "string" ? initializeParams.protocolVersion : "";
  const notified = await transport.handleRequest(
    new Request("http://replica.internal/mcp", {
      method: "POST",
      headers: {
        ...JSON_AND_SSE,
        "mcp-session-id": sessionId,
        "mcp-protocol-version": negotiated(answer) ?? (version || LATEST_PROTOCOL_VERSION),
      },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    }),
  );
  await notified.text();
  if (notified.status !== 202) {
    throw new Error(`rebuilding session ${sessionId}: initialized answered ${notified.status}`);
  }
}

/** The protocol version the replayed initialize settled on, read from its JSON or SSE answer. */
function negotiated(answer: string): string | undefined {
  const json = answer.includes("data:")
    ? answer
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("")
    : answer;
  try {
    const version = (JSON.parse(json) as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}
