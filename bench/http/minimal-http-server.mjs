// The anchor of the HTTP benchmark: the smallest MCP SDK v2 Streamable HTTP server a Node user writes —
// one McpServer and web-standard transport per session behind node:http — with no-op tools of the same
// names (start_match answers a fixed view, submit_move "ok"). Prints "listening on URL" on stderr.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { z } from "zod";

const sessions = new Map();

function newSession() {
  const server = new McpServer({ name: "minimal-http", version: "1.0.0" });
  server.registerTool(
    "start_match",
    { description: "No-op.", inputSchema: z.object({ game: z.string(), opponent: z.string() }) },
    async () => {
      const view = { match_id: randomUUID(), labels: ["cooperate", "defect"] };
      return { content: [{ type: "text", text: JSON.stringify(view) }], structuredContent: view };
    },
  );
  server.registerTool(
    "submit_move",
    {
      description: "No-op.",
      inputSchema: z.object({ match_id: z.string(), round: z.number(), choice: z.string() }),
    },
    async () => ({ content: [{ type: "text", text: "ok" }] }),
  );
  const id = randomUUID();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => id });
  transport.onclose = () => sessions.delete(id);
  return { id, server, transport };
}

const http = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const body = Buffer.concat(chunks).toString("utf8");
  let session = sessions.get(req.headers["mcp-session-id"]);
  if (!session) {
    session = newSession();
    await session.server.connect(session.transport);
    sessions.set(session.id, session);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === "string") headers.set(name, value);
  const request = new Request(`http://${req.headers.host}${req.url}`, {
    method: req.method,
    headers,
    body: req.method === "POST" ? body : undefined,
  });
  const response = await session.transport.handleRequest(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
});
// As same-game's server does: idle kept-alive connections outlive the client's, so a loaded run never
// sends on a connection the server is closing (Node's 5 s default failed the anchor with "fetch failed").
http.keepAliveTimeout = 75_000;
http.headersTimeout = 76_000;
http.listen(0, "127.0.0.1", () => {
  process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.on("SIGTERM", () => process.exit(0));
