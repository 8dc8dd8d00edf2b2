import { HTTP_DEFAULTS, type HttpServeOptions } from "../../../src/mcp/http/http-options.js";
import { type RunningHttpServer, startHttpServer } from "../../../src/mcp/http/http-server.js";
import { Store } from "../../../src/store/store.js";
import { tempDeps } from "../../support/harness.js";

export type InProcessServer = RunningHttpServer & {
  /** http://127.0.0.1:PORT, for /healthz and raw requests. */
  readonly origin: string;
  readonly deps: ReturnType<typeof tempDeps>;
  stop(): Promise<void>;
};

/** The HTTP server in this process on a free loopback port, over a fresh temp record. */
export async function startInProcess(
  overrides: Partial<HttpServeOptions> = {},
  /** Another replica's deps: both servers then share its record, as replicas behind a proxy do. */
  shared?: ReturnType<typeof tempDeps>,
): Promise<InProcessServer> {
  const deps = shared ? { ...shared, store: new Store(shared.dbPath), dispose: () => undefined } : tempDeps();
  const running = await startHttpServer(deps, {
    host: "127.0.0.1",
    port: 0,
    tokens: [],
    player: null,
    idleTimeoutMs: HTTP_DEFAULTS.idleTimeoutSeconds * 1000,
    maxSessions: HTTP_DEFAULTS.maxSessions,
    rateLimitPerSecond: 1000,
    maxBodyBytes: HTTP_DEFAULTS.maxBodyBytes,
    shutdownGraceMs: 2000,
    toolsets: ["play", "studies", "analysis"],
    ...overrides,
  });
  return {
    ...running,
    origin: new URL(running.url).origin,
    deps,
    async stop() {
      await running.shutdown();
      if (shared) deps.store.close();
      else deps.dispose();
    },
  };
}

/** The initialize request a 2025-era client opens a session with, as raw JSON-RPC. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
