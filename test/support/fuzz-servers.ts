import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { connectHttp } from "../http/support/http-client.js";
import { CLI, startServerProcess } from "../http/support/server-process.js";
import { type FuzzTally, fuzzTargets, fuzzToolCalls } from "./fuzz-calls.js";

/** A fuzz run on one transport, and whether the server was still there and answering after it. */
export interface TransportFuzz extends FuzzTally {
  transport: "stdio" | "http";
  /** The server answered tools/list after the last call, and its process had not exited. */
  aliveAfter: boolean;
}

/** `same-game serve` as a host launches it (every toolset), fuzzed over its stdin/stdout. */
export async function fuzzOverStdio(dir: string, calls: number, seed: number): Promise<TransportFuzz> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--db", join(dir, "stdio.db"), "--toolsets", "all"],
    stderr: "ignore",
  });
  const client = new Client({ name: "fuzzer-stdio", version: "1.0.0" });
  await client.connect(transport);
  let exited = false;
  transport.onclose = () => {
    exited = true;
  };
  try {
    const tally = await fuzzToolCalls(client, { calls, seed, ...(await fuzzTargets(client)) });
    const aliveAfter = !exited && (await client.listTools()).tools.length > 0;
    return { transport: "stdio", ...tally, aliveAfter };
  } finally {
    await client.close();
  }
}

/** `same-game serve --http` (every toolset, no rate limit in the way), fuzzed over Streamable HTTP. */
export async function fuzzOverHttp(dir: string, calls: number, seed: number): Promise<TransportFuzz> {
  const server = await startServerProcess(join(dir, "http.db"), ["--rate-limit", "1000000"]);
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  try {
    const { client } = await connectHttp(server.url, { name: "fuzzer-http" });
    try {
      const tally = await fuzzToolCalls(client, { calls, seed, ...(await fuzzTargets(client)) });
      const aliveAfter = !exited && (await client.listTools()).tools.length > 0;
      return { transport: "http", ...tally, aliveAfter };
    } finally {
      await client.close();
    }
  } finally {
    server.child.kill("SIGTERM");
    await server.exited;
  }
}

/** One line of figures for a run. */
export function fuzzLine(run: TransportFuzz): string {
  return `${run.transport}: ${run.calls} fuzzed calls in ${run.seconds.toFixed(1)} s — ${run.results} results, ${run.toolErrors} tool errors, ${run.protocolErrors} protocol refusals, ${run.crashes.length} crashes; server ${run.aliveAfter ? "still serving" : "GONE"} after`;
}
