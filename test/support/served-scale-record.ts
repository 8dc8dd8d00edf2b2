import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { generateRecord } from "../../bench/scale/generate-record.js";
import { CLI, requireBuiltCli } from "./built-cli.js";
import { tempDeps } from "./harness.js";

/** A served scale record: the client connected to it, the server's pid, and what closes both. */
export interface ServedScaleRecord {
  readonly client: Client;
  readonly pid: number;
  close(): Promise<void>;
}

/**
 * A 10,000-decision scale record (bench/scale's generator: 20 players, 4 games, 11 framings) served by the
 * built CLI over stdio with every toolset and no result cache, as a host runs it, the SDK `Client` connected.
 */
export async function serveScaleRecord(clientName: string): Promise<ServedScaleRecord> {
  requireBuiltCli();
  const deps = tempDeps();
  generateRecord(deps.store, 10_000);
  deps.store.close();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--db", deps.dbPath, "--toolsets", "all", "--no-cache"],
    stderr: "ignore",
  });
  const client = new Client({ name: clientName, version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid as number,
    async close() {
      await client.close();
      deps.dispose();
    },
  };
}
