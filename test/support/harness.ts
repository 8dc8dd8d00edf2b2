import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll } from "vitest";
import { type Catalog, loadCatalog } from "../../src/domain/catalog.js";
import { createServer } from "../../src/mcp/create-server.js";
import { TOOLSET_NAMES, type ToolsetName } from "../../src/mcp/toolsets.js";
import type { PlayDeps } from "../../src/play/play-deps.js";
import type { EngineKind } from "../../src/store/engines/engine.js";
import { Store } from "../../src/store/store.js";
import { freshPostgresDatabase } from "./postgres.js";

let catalog: Catalog | undefined;

/** The shipped catalog, loaded (and certified) once per test file. */
export function shippedCatalog(): Catalog {
  catalog ??= loadCatalog();
  return catalog;
}

/**
 * A real store on a temp file (or, for `"postgres"`, in a fresh database on the test server), and a way to
 * throw it all away. `dir` is a temp folder either way; `dbPath` is the record's path or URL.
 */
export function tempDeps(
  engine: EngineKind = "sqlite",
): PlayDeps & { dir: string; dbPath: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), "same-game-test-"));
  const postgres = engine === "postgres" ? freshPostgresDatabase() : undefined;
  const dbPath = postgres?.location ?? join(dir, "record.db");
  const store = new Store(dbPath);
  return {
    store,
    catalog: shippedCatalog(),
    dir,
    dbPath,
    dispose() {
      store.close();
      postgres?.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A real SDK client connected to a real server over the in-memory transport pair. Tests get every
 * toolset unless they ask for a surface (the CLI's default is the player's, `play` alone).
 */
export async function connectClient(
  deps: PlayDeps,
  options: {
    player?: string;
    clientName?: string;
    principal?: string;
    toolsets?: readonly ToolsetName[];
  } = {},
): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const server = createServer(deps, {
    transport: "memory",
    player: options.player,
    principal: options.principal,
    toolsets: options.toolsets ?? TOOLSET_NAMES,
  });
  await server.connect(serverTransport);
  const client = new Client({ name: options.clientName ?? "test-client", version: "1.0.0" });
  await client.connect(clientTransport);
  return client;
}

/**
 * A file's one client on a fresh temp record with every toolset, connected before its tests and closed
 * after them; read `deps` and `client` inside the tests.
 */
export function useConnectedClient(): { deps: ReturnType<typeof tempDeps>; client: Client } {
  const held = {} as { deps: ReturnType<typeof tempDeps>; client: Client };
  beforeAll(async () => {
    held.deps = tempDeps();
    held.client = await connectClient(held.deps);
  });
  afterAll(async () => {
    await held.client.close();
    held.deps.dispose();
  });
  return held;
}

/** The structured result of a tool call, failing the test with the tool's own message if it erred. */
export async function call<T = Record<string, unknown>>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** The text of an `isError` result, failing the test if the call succeeded. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  if (!result.isError)
    throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result.structuredContent)}`);
  return (result.content as { type: string; text: string }[]).map((c) => c.text).join("\n");
}
