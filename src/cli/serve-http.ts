import { loadCatalog } from "../domain/catalog.js";
import { logInfo } from "../log.js";
import { AnalysisPool } from "../mcp/analysis-pool/worker-pool.js";
import { readTokenFile } from "../mcp/http/bearer-tokens.js";
import {
  defaultInFlightPerPrincipal,
  HTTP_DEFAULTS,
  type HttpServeOptions,
  isLoopbackHost,
} from "../mcp/http/http-options.js";
import { DEFAULT_TOOLSETS, parseToolsets } from "../mcp/toolsets.js";
import { Store } from "../store/store.js";
import { UsageError } from "../usage-error.js";
import { type Command, numberFlag, type ParsedArgs, stringFlag } from "./command.js";
import { recordName, resolveDatabasePath } from "./database-path.js";

/** The flags `serve` takes for HTTP, merged into its own option list. */
export const HTTP_SERVE_FLAGS: Command["options"] = {
  http: { type: "boolean" },
  host: { type: "string" },
  port: { type: "string" },
  "token-file": { type: "string" },
  "idle-timeout": { type: "string" },
  "max-sessions": { type: "string" },
  "max-sessions-per-principal": { type: "string" },
  "rate-limit": { type: "string" },
  "max-body": { type: "string" },
  "max-in-flight": { type: "string" },
  "max-in-flight-per-principal": { type: "string" },
  "db-pool": { type: "string" },
  "drain-timeout": { type: "string" },
};

export const HTTP_SERVE_USAGE =
  "same-game serve --http [--host 127.0.0.1] [--port 8787] [--token-file FILE] [--db PATH] [--player NAME] [--toolsets LIST] [--idle-timeout SECONDS] [--max-sessions N] [--max-sessions-per-principal N] [--rate-limit PER_SECOND] [--max-body BYTES] [--max-in-flight N] [--max-in-flight-per-principal N] [--db-pool N] [--drain-timeout SECONDS]";

/** Reads and checks the HTTP flags; binding beyond loopback without tokens is refused here. */
export function httpServeOptions(args: ParsedArgs): HttpServeOptions {
  // "[::1]" is how an IPv6 address is written in a URL; the socket wants it bare.
  const host = (stringFlag(args, "host") ?? HTTP_DEFAULTS.host).replace(/^\[(.*)\]$/, "$1");
  const tokenFile = stringFlag(args, "token-file");
  if (!isLoopbackHost(host) && tokenFile === undefined) {
    throw new UsageError(
      `--host ${host} is not a loopback address: binding it requires --token-file FILE with the bearer tokens clients must send.`,
    );
  }
  const toolsetsFlag = stringFlag(args, "toolsets");
  const tokens = tokenFile === undefined ? [] : readTokenFile(tokenFile);
  const maxSessions =
    numberFlag(args, "max-sessions", { min: 1, max: 100_000, integer: true }) ?? HTTP_DEFAULTS.maxSessions;
  const idleSeconds =
    numberFlag(args, "idle-timeout", { min: 0.1, max: 86_400 }) ?? HTTP_DEFAULTS.idleTimeoutSeconds;
  const maxInFlight =
    numberFlag(args, "max-in-flight", { min: 1, max: 100_000, integer: true }) ?? HTTP_DEFAULTS.maxInFlight;
  return {
    host,
    port: numberFlag(args, "port", { min: 0, max: 65_535, integer: true }) ?? HTTP_DEFAULTS.port,
    tokens,
    player: stringFlag(args, "player") ?? null,
    idleTimeoutMs: idleSeconds * 1000,
    maxSessions,
    // By default each token gets a fair share of the slots, so one client cannot take them all.
    maxSessionsPerPrincipal:
      numberFlag(args, "max-sessions-per-principal", { min: 1, max: 100_000, integer: true }) ??
      defaultSessionsPerPrincipal(maxSessions, tokens.length),
    toolsets: toolsetsFlag === undefined ? DEFAULT_TOOLSETS : parseToolsets(toolsetsFlag),
    rateLimitPerSecond:
      numberFlag(args, "rate-limit", { min: 1, max: 1_000_000 }) ?? HTTP_DEFAULTS.rateLimitPerSecond,
    maxBodyBytes:
      numberFlag(args, "max-body", { min: 1024, max: 1_073_741_824, integer: true }) ??
      HTTP_DEFAULTS.maxBodyBytes,
    shutdownGraceMs:
      (numberFlag(args, "drain-timeout", { min: 0, max: 3600 }) ?? HTTP_DEFAULTS.shutdownGraceMs / 1000) *
      1000,
    maxInFlight,
    maxInFlightPerPrincipal:
      numberFlag(args, "max-in-flight-per-principal", { min: 1, max: 100_000, integer: true }) ??
      defaultInFlightPerPrincipal(maxInFlight, tokens.length),
  };
}

/**
 * `--db-pool N`: the database connections one replica may hold. The request path holds exactly one — the
 * Store is synchronous, so a process runs one statement at a time and a second connection would sit idle
 * (a service grows by replicas, each with its one connection) — and each analysis worker holds its own. So
 * N bounds the analysis workers at N − 1; N = 1 runs analyses inline on the request path's connection.
 * The default, unset, is one connection plus the default worker pool (one worker per core, at most four,
 * and up to four more while principals with nothing running wait for a busy pool).
 */
export function dbPoolFlag(args: ParsedArgs): number | undefined {
  return numberFlag(args, "db-pool", { min: 1, max: 64, integer: true });
}

/**
 * `same-game serve --http`: the MCP server on Streamable HTTP until SIGTERM/SIGINT, then a graceful stop —
 * no new connections, in-flight calls finish (bounded), sessions close, the database closes, exit 0.
 */
export async function serveHttp(args: ParsedArgs): Promise<void> {
  const options = httpServeOptions(args);
  const dbPath = resolveDatabasePath(stringFlag(args, "db"));
  const pool = dbPoolFlag(args);
  const store = new Store(dbPath);
  const analysis =
    options.toolsets?.includes("analysis") && pool !== 1
      ? pool === undefined
        ? new AnalysisPool(dbPath)
        : new AnalysisPool(dbPath, pool - 1, 0)
      : undefined;
  // Loaded only here: a stdio `serve` (what a host launches, where start-up time shows) never needs it.
  const { startHttpServer } = await import("../mcp/http/http-server.js");
  let running: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    running = await startHttpServer(
      { store, catalog: loadCatalog() },
      { ...options, analysis, cache: args.values["no-cache"] !== true },
    );
  } catch (error) {
    await analysis?.close();
    store.close();
    throw listenError(error, options);
  }
  const auth =
    options.tokens.length > 0 ? `${options.tokens.length} bearer token(s)` : "no tokens (local only)";
  logInfo(
    `serving MCP over HTTP at ${running.url}; ${auth}; toolsets: ${options.toolsets?.join(", ")}; record: ${recordName(dbPath)}; at most ${options.maxInFlight} requests in flight`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logInfo(
      `${signal}: draining — no new requests, in-flight calls finish (at most ${options.shutdownGraceMs / 1000} s), then closing`,
    );
    await running.shutdown();
    await analysis?.close();
    store.close();
    logInfo("stopped");
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}

/** Each token's share of the session slots (all of them without tokens or with one). */
export function defaultSessionsPerPrincipal(maxSessions: number, tokenCount: number): number {
  return Math.max(1, Math.floor(maxSessions / Math.max(1, tokenCount)));
}

/** Why the socket could not be bound, as one sentence naming the address (exit 2, not a stack). */
function listenError(error: unknown, options: HttpServeOptions): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${options.host}:${options.port}`;
  const reasons: Record<string, string> = {
    EADDRINUSE: `port ${options.port} on ${options.host} is already in use; pick another --port (0 picks a free one)`,
    EADDRNOTAVAIL: `${options.host} is not an address of this machine`,
    ENOTFOUND: `--host ${options.host} is not an address or a known host name`,
    EACCES: `binding ${where} needs privileges this user lacks; use a --port above 1023`,
  };
  const reason = code === undefined ? undefined : reasons[code];
  return reason ? new UsageError(`Cannot serve on ${where}: ${reason}.`) : error;
}

/** The stdio server would silently ignore an HTTP flag; naming it is kinder. */
export function refuseHttpFlagsWithoutHttp(args: ParsedArgs): void {
  const given = Object.keys(HTTP_SERVE_FLAGS).filter(
    (flag) => flag !== "http" && args.values[flag] !== undefined,
  );
  if (given.length > 0) {
    throw new UsageError(
      `--${given[0]} applies to the HTTP server only; add --http (or drop the flag for stdio).`,
    );
  }
}
