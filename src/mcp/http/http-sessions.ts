import type { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { RequestRate } from "./request-rate.js";

/** One MCP session over HTTP: its own McpServer and transport, bound to the principal that opened it. */
export interface HttpSession {
  readonly id: string;
  readonly principal: string;
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly rate: RequestRate;
  /** Calls whose response is still being produced; a session is never expired under one. */
  inFlight: number;
  lastActiveAt: number;
}

/**
 * The live sessions of one HTTP server: the cap on how many may exist, idle expiry, and closing them
 * all at shutdown. Closing a session's transport fires its onclose, which calls `forget`.
 */
export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly limits: { maxSessions: number; idleTimeoutMs: number; rateLimitPerSecond: number },
  ) {
    // Sweeping at a quarter of the timeout closes an idle session at most 25% late.
    const every = Math.min(30_000, Math.max(100, limits.idleTimeoutMs / 4));
    this.sweeper = setInterval(() => this.expireIdle(Date.now()), every);
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get isFull(): boolean {
    return this.sessions.size >= this.limits.maxSessions;
  }

  /** How many sessions one principal holds: the per-principal cap counts these. */
  countOf(principal: string): number {
    let n = 0;
    for (const session of this.sessions.values()) if (session.principal === principal) n += 1;
    return n;
  }

  /** The session with this id, only for the principal that opened it: others get nothing to probe. */
  find(id: string, principal: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    return session && session.principal === principal ? session : undefined;
  }

  add(session: Omit<HttpSession, "rate" | "inFlight" | "lastActiveAt">, now: number): HttpSession {
    const live: HttpSession = {
      ...session,
      rate: new RequestRate(this.limits.rateLimitPerSecond, now),
      inFlight: 0,
      lastActiveAt: now,
    };
    this.sessions.set(session.id, live);
    return live;
  }

  forget(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes every session with no call in flight and no request for the idle timeout. */
  expireIdle(now: number): void {
    for (const session of this.sessions.values()) {
      if (session.inFlight === 0 && now - session.lastActiveAt >= this.limits.idleTimeoutMs)
        void close(session);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map(close));
  }
}

async function close(session: HttpSession): Promise<void> {
  await session.transport.close();
  await session.server.close();
}
