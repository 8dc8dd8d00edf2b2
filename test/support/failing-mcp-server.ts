import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** How the server answers every request after the session opened: its request, response and JSON-RPC id. */
export type Failing = (req: IncomingMessage, res: ServerResponse, id: number, server: Server) => void;

/**
 * A Streamable HTTP "MCP server" on loopback that opens a session (answers initialize, accepts
 * notifications, offers no stream of server messages, so the SDK sends everything by POST) and then answers
 * every request as `fail` says: what a failing same-game server, or a proxy before one, looks like to the
 * runner once its session is open. Close the returned server when done.
 */
export async function failingAfterInitialize(fail: Failing): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const message = body ? (JSON.parse(body) as { id?: number; method?: string }) : {};
      if (req.method !== "POST") {
        res.writeHead(405);
        res.end();
      } else if (message.method === "initialize") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: message.id,
            result: {
              protocolVersion: "2025-06-18",
              capabilities: { tools: {} },
              serverInfo: { name: "failing-after-initialize", version: "1.0.0" },
            },
          }),
        );
      } else if (message.id === undefined) {
        res.writeHead(202);
        res.end();
      } else fail(req, res, message.id, server);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}
