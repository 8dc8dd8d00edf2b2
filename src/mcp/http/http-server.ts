import { randomUUID } from "node:crypto";
import { createServer as createNodeServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  isInitializeRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  validateHostHeader,
  validateOriginHeader,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { logError, logInfo } from "../../log.js";
import type { PlayDeps } from "../../play/play-deps.js";
import { createServer, SERVER_VERSION } from "../create-server.js";
import { BearerTokens } from "./bearer-tokens.js";
import { type HttpServeOptions, isLoopbackHost } from "./http-options.js";
import { type HttpSession, HttpSessions } from "./http-sessions.js";
import { SESSION_NOT_FOUND, sendJsonError } from "./json-error.js";
import { readBody, toWebRequest, writeWebResponse } from "./node-web-bridge.js";

/** The one path the MCP endpoint answers on; `/healthz` is the only other. */
export const MCP_PATH = "/mcp";

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:8787/mcp. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets in-flight calls finish (bounded by the grace period), closes every session. */
  shutdown(): Promise<void>;
}

/**
 * same-game over MCP Streamable HTTP: stateful sessions (one McpServer per session, routed by the
 * Mcp-Session-Id header), guarded in front of the SDK transport by — in order — Host/Origin checks on
 * loopback (DNS rebinding), bearer tokens, the session lookup, the per-session rate, the body limit and
 * the session cap. Every refusal is a JSON-RPC error body with the HTTP status that names it.
 */
export async function startHttpServer(deps: PlayDeps, options: HttpServeOptions): Promise<RunningHttpServer> {
  const loopback = isLoopbackHost(options.host);
  // The bound loopback address itself is a name clients legitimately use (e.g. 127.0.0.2).
  const bound = options.host.includes(":") ? `[${options.host.replace(/^\[|\]$/g, "")}]` : options.host;
  const allowedHosts = [...new Set([...localhostAllowedHostnames(), bound.toLowerCase()])];
  const allowedOrigins = [...new Set([...localhostAllowedOrigins(), bound.toLowerCase()])];
  const bearer = options.tokens.length > 0 ? new BearerTokens(options.tokens) : null;
  const sessions = new HttpSessions(options);
  const perPrincipal = options.maxSessionsPerPrincipal ?? options.maxSessions;
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | null = null;

  /** One exchange with a session's transport; POST and DELETE count as in flight, a GET stream does not. */
  async function exchange(
    session: HttpSession,
    req: IncomingMessage,
    res: ServerResponse,
    body: { text?: string; parsed?: unknown },
  ): Promise<number> {
    const counted = req.method !== "GET";
    const clientGone = new AbortController();
    res.on("close", () => clientGone.abort());
    if (counted) {
      inFlight += 1;
      session.inFlight += 1;
    }
    session.lastActiveAt = Date.now();
    try {
      const request = toWebRequest(req, body.text, clientGone.signal);
      const response = await session.transport.handleRequest(
        request,
        body.parsed === undefined ? undefined : { parsedBody: body.parsed },
      );
      await writeWebResponse(res, response, clientGone.signal);
      return response.status;
    } catch (error) {
      logError(`session ${session.id}: request failed`, error);
      sendJsonError(res, 500, "Internal server error.", { code: -32603 });
      return 500;
    } finally {
      session.lastActiveAt = Date.now();
      if (counted) {
        session.inFlight -= 1;
        inFlight -= 1;
        if (inFlight === 0) drained?.();
      }
    }
  }

  /** Takes `count` messages from the session's rate; a refusal is answered here. */
  function takeRate(session: HttpSession, res: ServerResponse, count: number, post: boolean): boolean {
    const rate = session.rate.take(Date.now(), count);
    if (rate.ok) return true;
    sendJsonError(
      res,
      429,
      `Too many requests: this session may send ${options.rateLimitPerSecond} JSON-RPC messages per second (--rate-limit); this request holds ${count}; retry after ${rate.retryAfterSeconds} s.`,
      { headers: { "retry-after": String(rate.retryAfterSeconds) }, closeConnection: post },
    );
    return false;
  }

  async function openSession(principal: string, req: IncomingMessage, res: ServerResponse, parsed: unknown) {
    const id = randomUUID();
    const server = createServer(deps, {
      transport: "http",
      principal,
      player: options.player,
      sessionId: id,
      toolsets: options.toolsets,
      analysis: options.analysis,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      maxRequestBodySize: options.maxBodyBytes,
    });
    // Set before connect: the protocol chains its own onclose after this one.
    transport.onclose = () => {
      sessions.forget(id);
      logInfo(`session ${id} closed (${sessions.size} open)`);
    };
    await server.connect(transport);
    // Registered before the exchange so concurrent initializations count against the cap at once.
    const session = sessions.add({ id, principal, server, transport }, Date.now());
    const status = await exchange(session, req, res, { parsed });
    if (status === 200) logInfo(`session ${id} opened (${sessions.size} open)`);
    else await transport.close();
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (loopback) {
      const host = validateHostHeader(req.headers.host, allowedHosts);
      if (!host.ok) return sendJsonError(res, 403, `Forbidden: ${host.message}`, { closeConnection: true });
      const origin = validateOriginHeader(req.headers.origin, allowedOrigins);
      if (!origin.ok)
        return sendJsonError(res, 403, `Forbidden: ${origin.message}`, { closeConnection: true });
    }
    if (path === "/healthz" && (req.method === "GET" || req.method === "HEAD")) {
      const health = JSON.stringify({
        ok: !closing,
        version: SERVER_VERSION,
        sessions: sessions.size,
        in_flight: inFlight,
      });
      // HEAD answers like GET (status and headers, Content-Length included), without the body.
      res.writeHead(closing ? 503 : 200, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(health),
      });
      res.end(req.method === "HEAD" ? undefined : health);
      return;
    }
    if (path !== MCP_PATH) {
      return sendJsonError(res, 404, `Not found: the MCP endpoint is ${MCP_PATH} (and GET /healthz).`);
    }
    if (closing) {
      return sendJsonError(res, 503, "The server is shutting down; reconnect after it restarts.", {
        headers: { "retry-after": "5" },
        closeConnection: true,
      });
    }
    const principal = bearer ? bearer.principalOf(req.headers.authorization) : "local";
    if (principal === null) {
      return sendJsonError(
        res,
        401,
        "Unauthorized: send the header Authorization: Bearer <token> with a token from the server's --token-file.",
        {
          headers: {
            "www-authenticate": `Bearer realm="same-game"${req.headers.authorization ? ', error="invalid_token"' : ""}`,
          },
          closeConnection: true,
        },
      );
    }
    if (req.method !== "POST" && req.method !== "GET" && req.method !== "DELETE") {
      return sendJsonError(res, 405, `Method ${req.method} is not allowed; use POST, GET or DELETE.`, {
        headers: { allow: "POST, GET, DELETE" },
      });
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.find(sessionId, principal);
      if (!session) {
        return sendJsonError(
          res,
          404,
          "Session not found: it ended or expired; start a new one with initialize.",
          {
            code: SESSION_NOT_FOUND,
          },
        );
      }
      if (req.method !== "POST") {
        if (!takeRate(session, res, 1, false)) return;
        await exchange(session, req, res, {});
        return;
      }
      const body = await readBody(req, options.maxBodyBytes);
      if (body.tooLarge) return tooLarge(res, options.maxBodyBytes);
      // The limit counts JSON-RPC messages: a batch of 100 in one POST takes 100 (unparsable = 1; the
      // transport answers the parse error).
      if (!takeRate(session, res, messageCount(body.text), true)) return;
      await exchange(session, req, res, { text: body.text });
      return;
    }
    if (req.method !== "POST") {
      return sendJsonError(res, 400, "Bad Request: Mcp-Session-Id header is required.");
    }
    const body = await readBody(req, options.maxBodyBytes);
    if (body.tooLarge) return tooLarge(res, options.maxBodyBytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return sendJsonError(res, 400, "Parse error: the body is not JSON.", { code: -32700 });
    }
    if (!isInitializeRequest(parsed)) {
      return sendJsonError(
        res,
        400,
        "Bad Request: Mcp-Session-Id header is required (only initialize opens a session).",
      );
    }
    if (sessions.isFull) {
      return sendJsonError(
        res,
        503,
        `Too many sessions: ${options.maxSessions} are open (--max-sessions); end one with DELETE or retry later.`,
        { headers: { "retry-after": "5" } },
      );
    }
    if (sessions.countOf(principal) >= perPrincipal) {
      return sendJsonError(
        res,
        429,
        `Too many sessions for this client: it holds ${perPrincipal} (--max-sessions-per-principal); end one with DELETE or retry later.`,
        { headers: { "retry-after": "5" } },
      );
    }
    await openSession(principal, req, res, parsed);
  }

  const httpServer = createNodeServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      logError("HTTP request failed", error);
      sendJsonError(res, 500, "Internal server error.", { code: -32603 });
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port, options.host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const port = (httpServer.address() as AddressInfo).port;
  const hostInUrl = options.host.includes(":") ? `[${options.host}]` : options.host;

  return {
    url: `http://${hostInUrl}:${port}${MCP_PATH}`,
    port,
    async shutdown() {
      closing = true;
      httpServer.close();
      httpServer.closeIdleConnections();
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, options.shutdownGraceMs);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      await sessions.closeAll();
      httpServer.closeAllConnections();
    },
  };
}

/** How many JSON-RPC messages a POST body holds: the length of a batch, else 1. */
export function messageCount(text: string): number {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? Math.max(1, parsed.length) : 1;
  } catch {
    return 1;
  }
}

function tooLarge(res: ServerResponse, maxBodyBytes: number): void {
  sendJsonError(
    res,
    413,
    `Payload too large: a request body may hold at most ${maxBodyBytes} bytes (--max-body).`,
    {
      closeConnection: true,
    },
  );
}
