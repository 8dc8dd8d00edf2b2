/**
 * A stand-in MCP server over stdio for bench:scale-client's floor: it answers `initialize`, `tools/list`
 * (the real server's list) and every `tools/call` with one fixed answer (a cached answer the real server
 * gave), serialised once and written as the real server writes a cached answer (non-ASCII as `\u`
 * escapes), and does nothing else. What a `Client` spends on such a call is the client's own floor.
 * Usage: node replay-server.js FILE, FILE holding {"tools": …, "answer": …}.
 */
import { readFileSync } from "node:fs";

const file = process.argv[2];
if (file === undefined) throw new Error("replay-server needs the file of the tools and the answer to replay");
const { tools, answer } = JSON.parse(readFileSync(file, "utf8")) as { tools: unknown; answer: unknown };
const ascii = (json: string) =>
  json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const answerBytes = Buffer.from(ascii(JSON.stringify(answer)), "latin1");

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  pending += chunk;
  for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
    const request = JSON.parse(pending.slice(0, end)) as {
      id?: string | number;
      method: string;
      params?: { protocolVersion?: string };
    };
    pending = pending.slice(end + 1);
    if (request.id === undefined) continue; // a notification
    const head = `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"result":`;
    if (request.method === "tools/call") {
      process.stdout.write(Buffer.concat([Buffer.from(head), answerBytes, Buffer.from("}\n")]));
      continue;
    }
    const result =
      request.method === "initialize"
        ? {
            protocolVersion: request.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "replay", version: "1.0.0" },
          }
        : request.method === "tools/list"
          ? tools
          : {};
    process.stdout.write(`${head}${JSON.stringify(result)}}\n`);
  }
});
process.stdin.on("end", () => process.exit(0));
