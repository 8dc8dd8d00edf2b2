import type { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

/**
 * This replica's instance of one MCP session: an McpServer and transport bound to the principal that
 * opened it. The session itself lives in the record (http_sessions, migration 009); an instance is a
 * cache of it, built on the first request the replica sees and rebuilt from the row after a restart.
 */
export interface HttpSession {
  readonly id: string;
  readonly principal: string;
  readonly server: McpServer;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Calls whose response is still being produced; an instance is never dropped under one. */
  inFlight: number;
  /** This process's monotonic clock (performance.now()): no step of the wall clock expires an instance. */
  lastActiveAt: number;
}

/**
 * The session instances one replica holds: idle ones are dropped (the row stays; any replica can rebuild
 * it), all of them closed at shutdown. Closing an instance's transport fires its onclose, which calls
 * `forget`. The caps and the request rate are not counted here but in the record, across replicas.
 */
export class HttpSessions {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly limits: { idleTimeoutMs: number }) {
    // Sweeping at a quarter of the timeout drops an idle instance at most 25% late.
    const every = Math.min(30_000, Math.max(100, limits.idleTimeoutMs / 4));
    this.sweeper = setInterval(() => this.expireIdle(performance.now()), every);
    this.sweeper.unref();
  }

  /** Instances held by this replica (not the sessions of the whole set: /readyz counts those). */
  get size(): number {
    return this.sessions.size;
  }

  /** The instance of this id, only for the principal that opened it: others get nothing to probe. */
  find(id: string, principal: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    return session && session.principal === principal ? session : undefined;
  }

  add(session: Omit<HttpSession, "inFlight" | "lastActiveAt">, now: number): HttpSession {
    const live: HttpSession = { ...session, inFlight: 0, lastActiveAt: now };
    this.sessions.set(session.id, live);
    return live;
  }

  forget(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes an instance now (its session ended or expired in the record). */
  async drop(id: string): Promise<void> {
    const session = this.sessions.get(id);
    if (session) await close(session);
  }

  /** Closes every instance with no call in flight and no request for the idle timeout. */
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
