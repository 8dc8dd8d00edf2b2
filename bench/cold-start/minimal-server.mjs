// The anchor of the cold-start benchmark: the smallest MCP SDK v2 stdio server, one tool.
import { McpServer } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

const server = new McpServer({ name: "minimal", version: "1.0.0" });
server.registerTool(
  "echo",
  { description: "Echoes its text.", inputSchema: z.object({ text: z.string() }) },
  async ({ text }) => ({ content: [{ type: "text", text }] }),
);
await server.connect(new StdioServerTransport());
