import type { AnalysisRunner } from "../analysis-runner.js";
import type { ToolsetName } from "../toolsets.js";

/** The knobs of `same-game serve --http`, already validated. */
export interface HttpServeOptions {
  readonly host: string;
  /** 0 = any free port (tests). */
  readonly port: number;
  /** Bearer tokens; empty = no authentication (loopback only) and one 'local' principal. */
  readonly tokens: readonly string[];
  readonly player: string | null;
  /** A session with no request for this long is closed. */
  readonly idleTimeoutMs: number;
  readonly maxSessions: number;
  /** Sessions one principal (token) may hold at once; default maxSessions. */
  readonly maxSessionsPerPrincipal?: number;
  /** `--toolsets`; default the player's surface. */
  readonly toolsets?: readonly ToolsetName[];
  /** Where analyses run (the CLI passes its worker pool); default inline. */
  readonly analysis?: AnalysisRunner;
  /** `--no-cache` (false): analyses always recompute; default on. */
  readonly cache?: boolean;
  /** JSON-RPC messages per second per session (token bucket, bursts of one second's worth); a batch
   * counts each message it holds. */
  readonly rateLimitPerSecond: number;
  readonly maxBodyBytes: number;
  /** How long shutdown waits for in-flight calls before closing sessions anyway. */
  readonly shutdownGraceMs: number;
  /** How often, at most, a busy session's last-seen time is written (default 5 s; see session-bookkeeping.ts). */
  readonly lastSeenEveryMs?: number;
  /** Requests this replica works on at once (`--max-in-flight`); more get 503 + Retry-After. */
  readonly maxInFlight?: number;
  /** Of those, how many one principal may hold (`--max-in-flight-per-principal`); more get 429. */
  readonly maxInFlightPerPrincipal?: number;
}

export const HTTP_DEFAULTS = {
  host: "127.0.0.1",
  port: 8787,
  idleTimeoutSeconds: 900,
  maxSessions: 256,
  rateLimitPerSecond: 50,
  maxBodyBytes: 1_048_576,
  shutdownGraceMs: 10_000,
  maxInFlight: 256,
} as const;

/**
 * Requests one principal may have in flight on a replica unless `--max-in-flight-per-principal` says
 * otherwise: the whole bound when there is one principal (no tokens), else an equal share among up to four
 * tokens, so a client that fills its share leaves the rest of the replica to the others.
 */
export function defaultInFlightPerPrincipal(maxInFlight: number, tokenCount: number): number {
  return Math.max(1, Math.floor(maxInFlight / Math.min(4, Math.max(1, tokenCount))));
}

/** True for addresses only this machine can reach; anything else needs bearer tokens. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}
