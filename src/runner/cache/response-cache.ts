import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { canonicalJson } from "../../domain/canonical-json.js";
import { xdgCacheFolder } from "../../user-folders.js";
import { unwritableFolderReason } from "../../writable-folder.js";
import type { ModelReply } from "../endpoint.js";

// The response cache of `same-game run --cache [DIR]`: one JSON file per reply, named by the SHA-256 of
// everything that decides the reply (see cacheKey). Files, not a database, so two runs sharing a folder
// need no lock: an entry is written to a temporary name and renamed into place, and a torn or foreign
// file reads as a miss.

/** One reply as the cache keeps it; the trial's match id in it is `MATCH_PLACEHOLDER`. */
export interface CacheEntry {
  readonly key: string;
  readonly provider: string;
  readonly url: string;
  readonly model: string;
  /** When the original call was made (the record's cached_from on every reuse). */
  readonly called_at: string;
  readonly latency_ms: number;
  readonly reply: ModelReply;
}

/** Where a match id stood in a request or a reply: match ids are drawn afresh in every record. */
export const MATCH_PLACEHOLDER = "{{match_id}}";

const KEY = /^[0-9a-f]{64}$/;

/** The cache folder when `--cache` names none: $SAME_GAME_CACHE_DIR, else the user's cache folder. */
export function defaultCacheDir(): string {
  if (process.env.SAME_GAME_CACHE_DIR) return process.env.SAME_GAME_CACHE_DIR;
  return join(xdgCacheFolder(), "same-game", "responses");
}

/** The key of a reply: SHA-256 of the canonical JSON of what decides it. */
export function cacheKey(material: unknown): string {
  return createHash("sha256").update(canonicalJson(material)).digest("hex");
}

export interface CacheListing {
  readonly entries: number;
  readonly bytes: number;
  readonly oldest: Date | null;
  readonly newest: Date | null;
  readonly byModel: ReadonlyMap<string, number>;
}

export class ResponseCache {
  private keepFailed = false;

  constructor(
    readonly dir: string,
    /** Told once, the first time a run's reply cannot be kept (see `keep`). */
    private readonly onKeepFailure: (message: string) => void = () => {},
  ) {}

  /** Why replies cannot be kept in the folder (created if need be), or null when they can. */
  unwritableReason(): string | null {
    return unwritableFolderReason(this.dir, { probe: true });
  }

  /**
   * `put` for a run: a reply that was paid for is the run's whether or not the cache can keep it (a full
   * disk, a folder gone read-only), so a failure here is said once and the reply goes on to the record.
   */
  keep(entry: CacheEntry): void {
    try {
      this.put(entry);
    } catch (error) {
      if (this.keepFailed) return;
      this.keepFailed = true;
      const reason =
        unwritableFolderReason(dirname(this.path(entry.key)), { probe: true }) ??
        (error instanceof Error ? error.message : String(error));
      this.onKeepFailure(
        `cannot keep replies in the response cache ${this.dir} (${reason}); the run goes on, recording every reply without caching it.`,
      );
    }
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  get(key: string): CacheEntry | null {
    try {
      const entry = JSON.parse(readFileSync(this.path(key), "utf8")) as CacheEntry;
      return entry.key === key && typeof entry.reply?.text === "string" ? entry : null;
    } catch {
      return null;
    }
  }

  put(entry: CacheEntry): void {
    const path = this.path(entry.key);
    mkdirSync(join(this.dir, entry.key.slice(0, 2)), { recursive: true });
    const temporary = `${path}.${randomBytes(4).toString("hex")}.tmp`;
    writeFileSync(temporary, JSON.stringify(entry));
    renameSync(temporary, path);
  }

  /** Every entry file with its modification time (when it was written). */
  private *files(): Generator<{ path: string; key: string; mtime: Date; bytes: number }> {
    let shards: string[];
    try {
      shards = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      for (const name of readdirSync(join(this.dir, shard))) {
        const key = name.replace(/\.json$/, "");
        if (!KEY.test(key) || !name.endsWith(".json")) continue;
        const path = join(this.dir, shard, name);
        const stat = statSync(path);
        yield { path, key, mtime: stat.mtime, bytes: stat.size };
      }
    }
  }

  list(): CacheListing {
    let entries = 0;
    let bytes = 0;
    let oldest: Date | null = null;
    let newest: Date | null = null;
    const byModel = new Map<string, number>();
    for (const file of this.files()) {
      entries++;
      bytes += file.bytes;
      if (oldest === null || file.mtime < oldest) oldest = file.mtime;
      if (newest === null || file.mtime > newest) newest = file.mtime;
      const entry = this.get(file.key);
      const model = entry ? `${entry.provider} ${entry.model} at ${entry.url}` : "(unreadable)";
      byModel.set(model, (byModel.get(model) ?? 0) + 1);
    }
    return { entries, bytes, oldest, newest, byModel };
  }

  /** Removes the entries written before `before`; returns how many. */
  prune(before: Date): number {
    let removed = 0;
    for (const file of this.files()) {
      if (file.mtime >= before) continue;
      rmSync(file.path, { force: true });
      removed++;
    }
    return removed;
  }

  /** Removes every entry; returns how many. */
  clear(): number {
    return this.prune(new Date(8.64e15));
  }
}
