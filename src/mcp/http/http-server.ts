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
import { buildId } from "../../build-id.js";
import { logError, logInfo } from "../../log.js";
import { cleanClientInfo } from "../../play/client-identity.js";
import type { PlayDeps } from "../../play/play-deps.js";
import {
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
} from "../../store/engines/database-unavailable.js";
import { RecordFileGoneError } from "../../store/engines/record-file-guard.js";
import { SqliteEngine } from "../../store/engines/sqlite-engine.js";
import { createServer, SERVER_VERSION } from "../create-server.js";
import { invalidParamsOf } from "../request-params-guard.js";
import { invalidMessage } from "../stdio-malformed-line.js";
import { BearerTokens } from "./bearer-tokens.js";
import { cancelCallsOfGoneClient } from "./gone-client-calls.js";
import {
  defaultInFlightPerPrincipal,
  HTTP_DEFAULTS,
  type HttpServeOptions,
  isLoopbackHost,
} from "./http-options.js";
import { type HttpSession, HttpSessions } from "./http-sessions.js";
import { SESSION_NOT_FOUND, sendJsonError } from "./json-error.js";
import { type BodyRead, readBody, toWebRequest, writeWebResponse } from "./node-web-bridge.js";
import { ReadinessFailures } from "./readiness-failures.js";
import { RecordSchemaWatch } from "./record-schema-watch.js";
import { RefusedTokens } from "./refused-tokens.js";
import { retryAfterSeconds } from "./request-rate.js";
import { SessionBookkeeping } from "./session-bookkeeping.js";
import { rebuildSession } from "./session-rebuild.js";

/** How long an idle kept-alive connection stays open: past nginx's upstream keepalive (60 s). */
const IDLE_CONNECTION_MS = 75_000;

/** What a Host header may hold: a name or address with an optional port (RFC 9110 §7.2). */
const HOST_SYNTAX = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~-]+)(?::\d{1,5})?$/;

/** The one path the MCP endpoint answers on; `/healthz` (liveness) and `/readyz` (readiness) are the others. */
export const MCP_PATH = "/mcp";

export interface RunningHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:8787/mcp. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, lets in-flight calls finish (bounded by the grace period), closes every session. */
  shutdown(): Promise<void>;
}

/**
 * same-game over MCP Streamable HTTP, as one replica of any number on one record: sessions (routed by the
 * Mcp-Session-Id header) live in the record, so any replica serves any request — one that has never seen
 * an id rebuilds the session from its row. Guarded in front of the SDK transport by — in order — Host/Origin
 * checks on loopback (DNS rebinding), bearer tokens, the in-flight bound, the body limit, the session row
 * (with its shared rate bucket) and the session caps. Every refusal is a JSON-RPC error body with the HTTP
 * status that names it.
 */
export async function startHttpServer(deps: PlayDeps, options: HttpServeOptions): Promise<RunningHttpServer> {
  const loopback = isLoopbackHost(options.host);
  // The bound loopback address itself is a name clients legitimately use (e.g. 127.0.0.2).
  const bound = options.host.includes(":") ? `[${options.host.replace(/^\[|\]$/g, "")}]` : options.host;
  const allowedHosts = [...new Set([...localhostAllowedHostnames(), bound.toLowerCase()])];
  const allowedOrigins = [...new Set([...localhostAllowedOrigins(), bound.toLowerCase()])];
  const bearer = options.tokens.length > 0 ? new BearerTokens(options.tokens) : null;
  const sessions = new HttpSessions(options);
  const bookkeeping = new SessionBookkeeping(deps.store, options);
  const store = deps.store;
  const schema = new RecordSchemaWatch(store);
  const readiness = new ReadinessFailures();
  const refusedTokens = new RefusedTokens();
  const perPrincipal = options.maxSessionsPerPrincipal ?? options.maxSessions;
  const maxInFlight = options.maxInFlight ?? HTTP_DEFAULTS.maxInFlight;
  /** Instances being rebuilt from their rows: concurrent first requests on this replica share one. */
  const rebuilding = new Map<string, Promise<HttpSession>>();
  const maxInFlightPerPrincipal =
    options.maxInFlightPerPrincipal ?? defaultInFlightPerPrincipal(maxInFlight, options.tokens.length);
  /** This replica's requests being worked on (POST and DELETE; a GET stream is not work), by principal. */
  const inFlightOf = new Map<string, number>();
  let inFlight = 0;
  let closing = false;
  let drained: (() => void) | null = null;
  /** The JSON-RPC requests whose answer this replica still owes, so a drain that gives up can name them. */
  const owed = new Set<OwedCall>();

  /** One exchange with a session's transport; POST and DELETE count as in flight, a GET stream does not. */
  async function exchange(
    session: HttpSession,
    req: IncomingMessage,
    res: ServerResponse,
    body: { text?: string; parsed?: unknown },
  ): Promise<number> {
    const counted = req.method !== "GET";
    const clientGone = new AbortController();
    // Only a client that left before the response was complete is gone: aborting after every finished
    // response (as a plain abort() on "close" did) built an AbortError with its stack each time, some 5%
    // of the server's CPU under load, for a signal nobody was listening to any more.
    const calls = counted ? owedCalls(session, body.parsed) : [];
    // A client gone before its answers stops the calls still owed to it (the protocol has them only once
    // the transport has dispatched the POST's messages).
    let dispatched = false;
    const cancelOwedCalls = () =>
      cancelCallsOfGoneClient(
        session.transport,
        calls.filter((call) => owed.has(call)).map((call) => call.id),
      );
    res.on("close", () => {
      if (res.writableFinished) return;
      clientGone.abort();
      if (dispatched) cancelOwedCalls();
    });
    if (counted) session.inFlight += 1;
    session.lastActiveAt = performance.now();
    for (const call of calls) owed.add(call);
    try {
      const request = toWebRequest(req, body.text);
      const response = await session.transport.handleRequest(
        request,
        body.parsed === undefined ? undefined : { parsedBody: body.parsed },
      );
      dispatched = true;
      if (clientGone.signal.aborted) cancelOwedCalls();
      endCancelledStreams(session, body.parsed);
      const invalid = response.status === 400 ? invalidRequestOf(body.parsed) : undefined;
      if (invalid !== undefined) {
        // The SDK calls valid JSON that is no JSON-RPC message a parse error (-32700); JSON-RPC 2.0 §5.1
        // makes it an Invalid Request (-32600), as the stdio server answers it, naming what is wrong.
        void response.body?.cancel();
        sendJsonError(res, 400, `Invalid request: ${invalid.problem}.`, { code: -32600, id: invalid.id });
        return 400;
      }
      await writeWebResponse(res, response, clientGone.signal);
      return response.status;
    } catch (error) {
      // An outage is logged once by the record's engine, not with a stack per request.
      if (!isDatabaseUnavailable(error)) logError(`session ${session.id}: request failed`, error);
      return failed(res, error);
    } finally {
      for (const call of calls) owed.delete(call);
      session.lastActiveAt = performance.now();
      if (counted) session.inFlight -= 1;
    }
  }

  /**
   * A cancelled request is never answered (the protocol drops its result), so its response stream would
   * stay open with keep-alives until the client hung up — and count against the in-flight bounds all that
   * time: a client (the dashboard among them) that cancelled as many calls as its share allows was refused
   * every further request with 429. The stream of each request this body cancels is ended here, once the
   * cancellation has reached the protocol; a stream that carries other requests of a batch stays open for
   * their answers.
   */
  function endCancelledStreams(session: HttpSession, parsed: unknown): void {
    for (const requestId of cancelledRequestIds(parsed)) {
      for (const call of owed) {
        if (call.session === session && call.id === requestId && call.alone) {
          session.transport.closeSSEStream(requestId);
        }
      }
    }
  }

  /**
   * At the drain timeout, each call still running is answered with a JSON-RPC error on its own response
   * stream, so its client fails over to another replica at once instead of waiting out its request
   * timeout on a stream that ended with no answer; each is logged by method, tool and request id. A call
   * whose stream is gone gets nothing here: closing its connection resets it, which the client sees too.
   */
  async function abandonOwedCalls(): Promise<void> {
    if (owed.size === 0) return;
    const seconds = options.shutdownGraceMs / 1000;
    for (const call of owed) {
      logInfo(
        `drain timeout (${seconds} s): abandoned ${shown(call.method)}${call.tool === undefined ? "" : ` ${shown(call.tool)}`} (request id ${shown(String(call.id))}, session ${call.session.id})`,
      );
      try {
        await call.session.transport.send({
          jsonrpc: "2.0",
          id: call.id,
          error: { code: -32603, message: shutdownMessage(seconds) },
        });
      } catch {
        // No stream for it any more: the connection is closed below.
      }
    }
    // The errors are written to their streams, which then end; a moment lets them reach the sockets
    // before every connection is closed.
    if (inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ANSWER_FLUSH_MS);
        drained = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /**
   * The request's session row, with `count` messages taken from its shared bucket; a refusal (unknown,
   * ended, expired or another principal's id: 404; an empty bucket: 429; a batch larger than the bucket
   * holds: 413) is answered here.
   */
  async function touch(
    id: string,
    principal: string,
    res: ServerResponse,
    count: number,
    post: boolean,
  ): Promise<{ initialize_params: string } | null> {
    const row = bookkeeping.touch(id, principal, store.now(), count);
    if (!row) {
      // Ended by DELETE on another replica, or expired: this replica's instance goes too.
      await sessions.drop(id);
      sendJsonError(res, 404, "Session not found: it ended or expired; start a new one with initialize.", {
        code: SESSION_NOT_FOUND,
      });
      return null;
    }
    if (row.taken) return row;
    if (count > options.rateLimitPerSecond) {
      // The bucket holds one second's worth: a larger batch would be refused however long it waited.
      sendJsonError(
        res,
        413,
        `Too many messages in one request: this session may send ${options.rateLimitPerSecond} JSON-RPC messages per second (--rate-limit) and this batch holds ${count}; send it as batches of at most ${options.rateLimitPerSecond}.`,
        { closeConnection: post },
      );
      return null;
    }
    const retry = retryAfterSeconds(row.tokens, count, options.rateLimitPerSecond);
    sendJsonError(
      res,
      429,
      `Too many requests: this session may send ${options.rateLimitPerSecond} JSON-RPC messages per second (--rate-limit); this request holds ${count}; retry after ${retry} s.`,
      { headers: { "retry-after": String(retry) }, closeConnection: post },
    );
    return null;
  }

  /** A server and transport for one session id; `onclose` forgets the instance, never the row. */
  async function instantiate(id: string, principal: string) {
    const server = createServer(deps, {
      transport: "http",
      principal,
      player: options.player,
      sessionId: id,
      toolsets: options.toolsets,
      analysis: options.analysis,
      cache: options.cache,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      maxRequestBodySize: options.maxBodyBytes,
    });
    // Set before connect: the protocol chains its own onclose after this one.
    transport.onclose = () => {
      sessions.forget(id);
      bookkeeping.forget(id);
    };
    await server.connect(transport);
    return { server, transport };
  }

  /** This replica's instance of a session that is live in the record, rebuilt from its row if need be. */
  function instanceOf(id: string, principal: string, initializeParams: string): Promise<HttpSession> {
    const held = sessions.find(id, principal);
    if (held) return Promise.resolve(held);
    let pending = rebuilding.get(id);
    if (!pending) {
      pending = (async () => {
        const { server, transport } = await instantiate(id, principal);
        await rebuildSession(transport, id, JSON.parse(initializeParams) as Record<string, unknown>);
        logInfo(`session ${id} rebuilt from the record on this replica`);
        return sessions.add({ id, principal, server, transport }, performance.now());
      })().finally(() => rebuilding.delete(id));
      rebuilding.set(id, pending);
    }
    return pending;
  }

  async function openSession(principal: string, req: IncomingMessage, res: ServerResponse, parsed: unknown) {
    const id = randomUUID();
    const params = ((parsed as { params?: Record<string, unknown> }).params ?? {}) as {
      protocolVersion?: unknown;
      clientInfo?: { name?: unknown; version?: unknown };
    };
    const now = store.now();
    const client = clientOf(params.clientInfo);
    // The row comes first, so concurrent initializations on every replica count against the caps at once.
    const opened = store.openHttpSession(
      {
        id,
        principal,
        protocol_version: String(params.protocolVersion ?? ""),
        initialize_params: JSON.stringify(params),
        client_name: client.name,
        client_version: client.version,
        created_at: now,
      },
      {
        maxSessions: options.maxSessions,
        maxSessionsPerPrincipal: perPrincipal,
        liveSince: now - options.idleTimeoutMs,
        ratePerSecond: options.rateLimitPerSecond,
      },
    );
    if (opened === "full") {
      return sendJsonError(
        res,
        503,
        `Too many sessions: ${options.maxSessions} are open (--max-sessions); end one with DELETE or retry later.`,
        { headers: { "retry-after": "5" } },
      );
    }
    if (opened === "principal-full") {
      return sendJsonError(
        res,
        429,
        `Too many sessions for this client: it holds ${perPrincipal} (--max-sessions-per-principal); end one with DELETE or retry later.`,
        { headers: { "retry-after": "5" } },
      );
    }
    const { server, transport } = await instantiate(id, principal);
    const session = sessions.add({ id, principal, server, transport }, performance.now());
    const status = await exchange(session, req, res, { parsed });
    if (status === 200) {
      logInfo(
        `session ${id} opened (principal ${shownPrincipal(principal)}, client ${shownClient(client)}; ${sessions.size} held here)`,
      );
    } else {
      store.closeHttpSession(id, principal, store.now());
      await transport.close();
    }
  }

  /** Readiness: a round trip to the record, a schema this build reads, and not draining. */
  function ready(): { status: number; body: Record<string, unknown> } {
    if (closing) return { status: 503, body: { ready: false, reason: "draining" } };
    try {
      const tooNew = schema.tooNew(performance.now());
      if (tooNew !== null) return { status: 503, body: { ready: false, database: "ok", reason: tooNew } };
      const live = store.countLiveHttpSessions(store.now() - options.idleTimeoutMs);
      // A replica whose record file is gone from its path can only refuse writes: not ready.
      if (store.engine instanceof SqliteEngine) store.engine.checkFiles();
      readiness.answered();
      return { status: 200, body: { ready: true, database: "ok", live_sessions: live } };
    } catch (error) {
      if (error instanceof RecordFileGoneError) {
        return { status: 503, body: { ready: false, database: "ok", reason: error.message } };
      }
      if (!isDatabaseUnavailable(error)) readiness.failed(error);
      return { status: 503, body: { ready: false, database: (error as Error).message } };
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The endpoint itself, as clients send it on every request, needs no URL parser.
    const path = req.url === MCP_PATH ? MCP_PATH : new URL(req.url ?? "/", "http://localhost").pathname;
    const hostHeader = req.headers.host;
    if (hostHeader !== undefined && !HOST_SYNTAX.test(hostHeader)) {
      // A Host with userinfo, a path or spaces ("x@127.0.0.1:8787") names no host: the request URL built
      // from it would be refused deeper down as an internal error.
      return sendJsonError(
        res,
        400,
        `Bad Request: the Host header ${JSON.stringify(hostHeader.slice(0, 100))} is not host[:port].`,
        { closeConnection: true },
      );
    }
    if (loopback) {
      const host = validateHostHeader(req.headers.host, allowedHosts);
      if (!host.ok) return sendJsonError(res, 403, `Forbidden: ${host.message}`, { closeConnection: true });
      const origin = validateOriginHeader(req.headers.origin, allowedOrigins);
      if (!origin.ok)
        return sendJsonError(res, 403, `Forbidden: ${origin.message}`, { closeConnection: true });
    }
    if ((path === "/healthz" || path === "/readyz") && (req.method === "GET" || req.method === "HEAD")) {
      // Liveness answers from memory; readiness asks the record (a load balancer routes on it).
      const { status, body } =
        path === "/readyz"
          ? ready()
          : {
              status: closing ? 503 : 200,
              body: {
                ok: !closing,
                version: SERVER_VERSION,
                build: buildId(),
                schema_version: schema.reads,
                record_schema_version: schema.lastSeen,
                sessions: sessions.size,
                in_flight: inFlight,
              },
            };
      const text = JSON.stringify(body);
      // HEAD answers like GET (status and headers, Content-Length included), without the body.
      res.writeHead(status, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(text),
      });
      res.end(req.method === "HEAD" ? undefined : text);
      return;
    }
    if (path !== MCP_PATH) {
      return sendJsonError(
        res,
        404,
        `Not found: the MCP endpoint is ${MCP_PATH} (and GET /healthz, /readyz).`,
      );
    }
    if (closing) {
      return sendJsonError(res, 503, "The server is shutting down; reconnect after it restarts.", {
        headers: { "retry-after": "5" },
        closeConnection: true,
      });
    }
    const principal = bearer ? bearer.principalOf(req.headers.authorization) : "local";
    if (principal === null) {
      refusedTokens.refused(
        req.socket.remoteAddress ?? "an unknown address",
        req.headers.authorization !== undefined,
      );
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
    if (req.method === "GET") return serve(principal, req, res);
    // A small POST to a session is read first: when it carries notifications alone — above all a
    // cancellation — it passes the in-flight bounds below. It adds no work (it stops some), and a client
    // never sends a refused notification again, so refusing it as busy would leave the cancelled
    // analysis running exactly when the client's share is full.
    const small =
      req.method === "POST" &&
      typeof req.headers["mcp-session-id"] === "string" &&
      Number(req.headers["content-length"]) <= NOTIFICATION_BYTES;
    const preread = small ? await readBody(req, options.maxBodyBytes) : undefined;
    if (preread !== undefined && !preread.tooLarge && notificationsOnly(preread.text)) {
      return serve(principal, req, res, preread);
    }
    if (inFlight >= maxInFlight) {
      // Bounded work per replica: a refusal here was not processed, so any replica may take it again.
      return sendJsonError(
        res,
        503,
        `Busy: this replica has ${maxInFlight} requests in flight (--max-in-flight); retry shortly.`,
        { headers: { "retry-after": "1" } },
      );
    }
    // Each principal's own share of the replica: one client's flood waits on its own share, so another
    // client's initialize and moves are still served.
    const mine = inFlightOf.get(principal) ?? 0;
    if (mine >= maxInFlightPerPrincipal) {
      return sendJsonError(
        res,
        429,
        `Busy: this client has ${maxInFlightPerPrincipal} requests in flight on this replica (--max-in-flight-per-principal); retry when one has answered.`,
        { headers: { "retry-after": "1" } },
      );
    }
    inFlight += 1;
    inFlightOf.set(principal, mine + 1);
    try {
      await serve(principal, req, res, preread);
    } finally {
      inFlight -= 1;
      const left = (inFlightOf.get(principal) ?? 1) - 1;
      if (left === 0) inFlightOf.delete(principal);
      else inFlightOf.set(principal, left);
      if (inFlight === 0) drained?.();
    }
  }

  /**
   * A request past the guards: to the session it names, or a new session by initialize. `preread` is its
   * body when the guards have read it already.
   */
  async function serve(
    principal: string,
    req: IncomingMessage,
    res: ServerResponse,
    preread?: BodyRead,
  ): Promise<void> {
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      if (req.method === "DELETE") {
        // Ending a session carries no JSON-RPC message and frees a slot, so it never waits on the session's
        // --rate-limit: a client refused for its rate that gives up can still end its session at once.
        const now = store.now();
        if (!store.liveHttpSession(sessionId, principal, now - options.idleTimeoutMs)) {
          await sessions.drop(sessionId);
          sendJsonError(
            res,
            404,
            "Session not found: it ended or expired; start a new one with initialize.",
            {
              code: SESSION_NOT_FOUND,
            },
          );
          return;
        }
        store.closeHttpSession(sessionId, principal, now);
        bookkeeping.forget(sessionId);
        const held = sessions.find(sessionId, principal);
        if (held) await exchange(held, req, res, {});
        else res.writeHead(200).end();
        logInfo(`session ${sessionId} ended`);
        return;
      }
      if (req.method !== "POST") {
        // A GET stream is served by the replica it lands on (see docs/shared-service.md, "Running as a shared service").
        const row = await touch(sessionId, principal, res, 1, false);
        if (!row) return;
        await exchange(await instanceOf(sessionId, principal, row.initialize_params), req, res, {});
        return;
      }
      const body = preread ?? (await readBody(req, options.maxBodyBytes));
      if (body.tooLarge) return tooLarge(res, options.maxBodyBytes);
      // The limit counts JSON-RPC messages: a batch of 100 in one POST takes 100 (unparsable = 1; the
      // transport answers the parse error from the text). A parsed body goes to the transport as it is.
      const messages = parseMessages(body.text);
      if (Array.isArray(messages.parsed) && messages.parsed.length === 0) {
        // JSON-RPC 2.0 §6: an empty array is an Invalid Request; the SDK took it as notifications (202).
        return sendJsonError(res, 400, "Invalid request: an empty batch holds no message.", { code: -32600 });
      }
      const row = await touch(sessionId, principal, res, messages.count, true);
      if (!row) return;
      await exchange(
        await instanceOf(sessionId, principal, row.initialize_params),
        req,
        res,
        messages.parsed === undefined ? { text: body.text } : { parsed: messages.parsed },
      );
      return;
    }
    if (req.method !== "POST") {
      return sendJsonError(res, 400, "Bad Request: Mcp-Session-Id header is required.");
    }
    const body = preread ?? (await readBody(req, options.maxBodyBytes));
    if (body.tooLarge) return tooLarge(res, options.maxBodyBytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch {
      return sendJsonError(res, 400, "Parse error: the body is not JSON.", { code: -32700 });
    }
    const malformedInitialize = initializeParamsRefusal(parsed);
    if (malformedInitialize !== null) {
      // An initialize whose params are wrong is answered as such, not as a request without a session.
      return sendJsonError(res, 400, malformedInitialize.message, {
        code: -32602,
        id: malformedInitialize.id,
      });
    }
    if (!isInitializeRequest(parsed)) {
      return sendJsonError(
        res,
        400,
        "Bad Request: Mcp-Session-Id header is required (only initialize opens a session).",
      );
    }
    await openSession(principal, req, res, parsed);
  }

  const httpServer = createNodeServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (error instanceof RecordFileGoneError)
        logInfo(`HTTP request refused: ${error.message} (${error.file})`);
      else if (!isDatabaseUnavailable(error)) logError("HTTP request failed", error);
      failed(res, error);
    });
  });
  // A client that sends on an idle kept-alive connection at the moment the server closes it gets a reset,
  // and a POST is not retried: the call fails although nothing was wrong with it. Node closes idle
  // connections after 5 s; Node's fetch keeps them 4 s, under load a little longer, and nginx's upstream
  // keepalive 60 s. The server keeps them longer than any of its clients, so the client always closes first.
  httpServer.keepAliveTimeout = IDLE_CONNECTION_MS;
  httpServer.headersTimeout = IDLE_CONNECTION_MS + 1000;
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
      refusedTokens.close();
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
      await abandonOwedCalls();
      await sessions.closeAll();
      httpServer.closeAllConnections();
    },
  };
}

/** How long the errors of abandoned calls get to reach their clients before the connections close. */
const ANSWER_FLUSH_MS = 1000;

/** A JSON-RPC request this replica has taken and not yet answered. */
interface OwedCall {
  readonly session: HttpSession;
  readonly id: string | number;
  readonly method: string;
  /** The tool's name, for tools/call. */
  readonly tool: string | undefined;
  /** Whether it is the only request of its POST, so its response stream carries nothing else. */
  readonly alone: boolean;
}

/**
 * Why an `initialize` request (method "initialize", an id) cannot open a session — its params are not what
 * initialize takes (`clientInfo` or `capabilities` missing, a `protocolVersion` that is not a string) —
 * with its id; null for any other body.
 */
function initializeParamsRefusal(parsed: unknown): { message: string; id: string | number | null } | null {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
  const { method, id } = parsed as { method?: unknown; id?: unknown };
  if (method !== "initialize" || (typeof id !== "string" && typeof id !== "number")) return null;
  const message = invalidParamsOf("initialize", parsed);
  return message === null ? null : { message, id };
}

/** The requests (messages with a method and an id) of a POST body, one or a batch. */
function owedCalls(session: HttpSession, parsed: unknown): OwedCall[] {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const calls: OwedCall[] = [];
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const { id, method, params } = message as { id?: unknown; method?: unknown; params?: { name?: unknown } };
    if (typeof method !== "string" || (typeof id !== "string" && typeof id !== "number")) continue;
    const tool = method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
    calls.push({ session, id, method, tool, alone: false });
  }
  return calls.length === 1 ? [{ ...(calls[0] as OwedCall), alone: true }] : calls;
}

/**
 * Why a POST body that is JSON holds no valid JSON-RPC message (the first such message of a batch, whose
 * answer then carries no id); undefined for a body that is not JSON or holds only valid messages.
 */
function invalidRequestOf(parsed: unknown): { problem: string; id: string | number | null } | undefined {
  if (parsed === undefined) return undefined;
  if (!Array.isArray(parsed)) return invalidMessage(parsed);
  if (parsed.length === 0) return { problem: "an empty batch holds no message", id: null };
  for (const [index, message] of parsed.entries()) {
    const invalid = invalidMessage(message);
    if (invalid !== undefined)
      return { problem: `message ${index + 1} of the batch: ${invalid.problem}`, id: null };
  }
  return undefined;
}

/** The request ids a POST body cancels (`notifications/cancelled`), one message or a batch. */
function cancelledRequestIds(parsed: unknown): Array<string | number> {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const ids: Array<string | number> = [];
  for (const message of messages) {
    if (typeof message !== "object" || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { requestId?: unknown } };
    const requestId = params?.requestId;
    if (method !== "notifications/cancelled") continue;
    if (typeof requestId === "string" || typeof requestId === "number") ids.push(requestId);
  }
  return ids;
}

/** A client's name for something, as a log line may hold it: quoted when it is not a plain name. */
function shown(name: string): string {
  return /^[\w./:-]{1,100}$/.test(name) ? name : JSON.stringify(name.slice(0, 100));
}

/** What a call cut off by the drain timeout is answered: it did not finish here and may be sent elsewhere. */
export function shutdownMessage(seconds: number): string {
  return `The server is shutting down: this call did not finish within its ${seconds} s drain timeout and was stopped; retry it on another replica (a retried move is recorded once).`;
}

/** A POST body parsed (undefined when it is not JSON) and how many JSON-RPC messages it holds: the length
 * of a batch, else 1. */
export function parseMessages(text: string): { parsed: unknown; count: number } {
  try {
    const parsed: unknown = JSON.parse(text);
    return { parsed, count: Array.isArray(parsed) ? Math.max(1, parsed.length) : 1 };
  } catch {
    return { parsed: undefined, count: 1 };
  }
}

/** The largest POST body read before the in-flight bounds, to let notifications through (a cancellation is ~150 bytes). */
const NOTIFICATION_BYTES = 4096;

/** Whether a body is JSON-RPC notifications alone (messages with a method and no id), one or a batch. */
export function notificationsOnly(text: string): boolean {
  const { parsed } = parseMessages(text);
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return (
    messages.length > 0 &&
    messages.every(
      (m) =>
        typeof m === "object" &&
        m !== null &&
        typeof (m as { method?: unknown }).method === "string" &&
        !("id" in m),
    )
  );
}

/**
 * The answer to a request that failed inside the server: 503 with Retry-After while the record's database
 * is unavailable (a restart: load balancers and clients retry 503, not 500), else 500. Returns the status.
 */
/**
 * The client's name and version as the record keeps them: the stdio server's cleaning (a control character
 * written as `\x00`, a lone surrogate as U+FFFD, each cut to its length), so a NUL the record cannot store
 * opens a session as it does on stdio instead of failing the initialize.
 */
function clientOf(info: { name?: unknown; version?: unknown } | undefined): {
  name: string | null;
  version: string | null;
} {
  const name = typeof info?.name === "string" ? info.name : null;
  const version = typeof info?.version === "string" ? info.version : null;
  const cleaned = cleanClientInfo({ name: name ?? "", version: version ?? "" });
  return { name: name === null ? null : cleaned.name, version: version === null ? null : cleaned.version };
}

/**
 * The principal in a log line: the first 12 hex digits of its token's SHA-256 (the record's principal
 * column holds all 64, so the line finds its sessions and matches), never the token; `local` without
 * tokens.
 */
function shownPrincipal(principal: string): string {
  return /^[0-9a-f]{64}$/.test(principal) ? `${principal.slice(0, 12)}…` : principal;
}

function shownClient(client: { name: string | null; version: string | null }): string {
  return client.name === null ? "unnamed" : `"${client.name}" ${client.version ?? ""}`.trimEnd();
}

function failed(res: ServerResponse, error: unknown): number {
  if (isDatabaseUnavailable(error)) {
    sendJsonError(res, 503, DATABASE_UNAVAILABLE_MESSAGE, { code: -32603, headers: { "retry-after": "2" } });
    return 503;
  }
  // Said as it is: no retry on this replica helps, and the operator must restart it on the record.
  if (error instanceof RecordFileGoneError) {
    sendJsonError(res, 500, error.message, { code: -32603 });
    return 500;
  }
  sendJsonError(res, 500, "Internal server error.", { code: -32603 });
  return 500;
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
