import { createHash } from "node:crypto";
import { buildId } from "../../build-id.js";
import { logError } from "../../log.js";
import { SERVER_VERSION } from "../../server-version.js";
import { isDatabaseUnavailable } from "../../store/engines/database-unavailable.js";
import type { Store } from "../../store/store.js";
import { UsageError } from "../../usage-error.js";

/** Where an answer came from: this process's memory, the record's cache table (any replica), or computed. */
export type CacheOutcome = "memory" | "record" | "computed" | "off";

/** Entries kept in memory per record, and in the record's table (all replicas together). */
export const CACHE_ENTRIES = { memory: 32, record: 64 } as const;

/** A result larger than this (its JSON) is answered but not stored: the cache stays small. */
const MAX_STORED_CHARS = 32 * 1024 * 1024;

const CACHE_OFF = ["off", "0", "false", "no"];
const CACHE_ON = ["on", "1", "true", "yes"];

/**
 * `SAME_GAME_CACHE=off` (or 0, false, no) turns the cache off, as `serve --no-cache` does; on, 1, true, yes,
 * empty or unset leave it on. Any other value is refused (`serve` checks it before serving): read as "on",
 * `SAME_GAME_CACHE=disabled` kept the cache an operator meant to turn off, without a word.
 */
export function cacheDisabledByEnvironment(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.SAME_GAME_CACHE ?? "").trim().toLowerCase();
  if (CACHE_OFF.includes(value)) return true;
  if (value === "" || CACHE_ON.includes(value)) return false;
  throw new UsageError(
    `SAME_GAME_CACHE is ${JSON.stringify(env.SAME_GAME_CACHE)}; valid values: ${CACHE_OFF.join(", ")} (the result cache off) or ${CACHE_ON.join(", ")} (on, as when it is not set).`,
  );
}

/**
 * Arguments that are sets: the analyses read `players` and `games` as filters (`players: [a, b]` and
 * `[b, a]` give the same result, rows in the record's order), so their order is not part of the key. The
 * order of `framings` is (the first two are the planned pair).
 */
const SET_ARGUMENTS = ["players", "games"];

/**
 * The arguments as one canonical text: keys sorted at every depth, absent values left out, the members of
 * set arguments in code-point order.
 */
export function normalizedArgs(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v !== null && typeof v === "object") {
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return Object.fromEntries(entries.map(([k, x]) => [k, canonical(x)]));
    }
    return v;
  };
  return JSON.stringify(canonical(withSetsSorted(value)) ?? null);
}

function withSetsSorted(args: unknown): unknown {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return args;
  const sorted: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const name of SET_ARGUMENTS) {
    const members = sorted[name];
    if (Array.isArray(members) && members.every((m) => typeof m === "string")) {
      sorted[name] = [...members].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    }
  }
  return sorted;
}

/**
 * Analysis results by (tool, normalized arguments, principal, record version): an answer for a record that
 * has not changed is served again instead of recomputed (the dashboard's filters going back and forth, an
 * agent asking twice). Two tiers: a small map in this process, then the record's analysis_cache table,
 * which every replica on the record shares. Any committed write moves the record's version, so the next
 * call misses and recomputes. The key also holds the server version, the build's digest (a rebuild between
 * releases keeps the version) and the catalog fingerprint: another build or catalog may compute
 * differently.
 */
export class AnalysisResultCache {
  private readonly memory = new Map<string, { version: number; result: unknown }>();

  constructor(
    private readonly store: Store,
    private readonly catalogFingerprint: string,
    private readonly build: string = buildId(),
  ) {}

  key(job: string, args: unknown, principal: string): string {
    return createHash("sha256")
      .update(JSON.stringify([SERVER_VERSION, this.build, this.catalogFingerprint, job, principal]))
      .update(normalizedArgs(args))
      .digest("hex");
  }

  /** The record's version now: read before the analysis reads anything, so the result is at least as new. */
  version(): number {
    return this.store.recordVersion();
  }

  lookup(key: string, version: number): { result: unknown; outcome: "memory" | "record" } | undefined {
    const held = this.memory.get(key);
    if (held !== undefined && held.version === version) {
      // Most recently used last: the map's order is the eviction order.
      this.memory.delete(key);
      this.memory.set(key, held);
      return { result: held.result, outcome: "memory" };
    }
    try {
      const text = this.store.cachedAnalysis(key, version);
      if (text === undefined) return undefined;
      const result = JSON.parse(text) as unknown;
      this.remember(key, version, result);
      return { result, outcome: "record" };
    } catch (error) {
      // An outage is logged once by the record's engine.
      if (!isDatabaseUnavailable(error))
        logError("reading the analysis cache failed (the analysis is computed)", error);
      return undefined;
    }
  }

  save(key: string, version: number, result: unknown): void {
    this.remember(key, version, result);
    try {
      const text = JSON.stringify(result);
      if (text.length <= MAX_STORED_CHARS) this.store.storeAnalysis(key, version, text, CACHE_ENTRIES.record);
    } catch (error) {
      // A cache that cannot be written (a read-only file, a lost connection) costs only a recomputation.
      if (!isDatabaseUnavailable(error))
        logError("storing an analysis result in the record failed (it is answered all the same)", error);
    }
  }

  private remember(key: string, version: number, result: unknown): void {
    this.memory.delete(key);
    this.memory.set(key, { version, result });
    while (this.memory.size > CACHE_ENTRIES.memory) {
      const oldest = this.memory.keys().next().value as string;
      this.memory.delete(oldest);
    }
  }
}

const perStore = new WeakMap<Store, AnalysisResultCache>();

/** The one cache of a record in this process, shared by all its connections (HTTP sessions). */
export function analysisCacheOf(store: Store, catalogFingerprint: string): AnalysisResultCache {
  let cache = perStore.get(store);
  if (cache === undefined) {
    cache = new AnalysisResultCache(store, catalogFingerprint);
    perStore.set(store, cache);
  }
  return cache;
}
