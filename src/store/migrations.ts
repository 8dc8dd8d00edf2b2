import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Engine } from "./engines/engine.js";

const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;

/** Any constant: the PostgreSQL advisory lock all same-game processes take while they migrate a record. */
const MIGRATION_LOCK = 7_316_001;

/**
 * Applies the numbered SQL files of `dir` (001_init.sql, 002_...) that this database has not seen yet, in
 * order, each in its own transaction, and records them in schema_migrations. Returns the versions applied.
 */
export function applyMigrations(engine: Engine, dir: string): number[] {
  // Two servers starting on one fresh record must not both apply the same migration. SQLite's IMMEDIATE
  // transactions serialise them; on PostgreSQL even CREATE TABLE IF NOT EXISTS races, so every step runs
  // under one advisory lock (held by this session until it is released below).
  const postgres = engine.kind === "postgres";
  if (postgres) engine.prepare("SELECT pg_advisory_lock(?)").get(MIGRATION_LOCK);
  try {
    engine.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
    const applied = new Set(
      (engine.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
        (r) => r.version,
      ),
    );
    const files = readdirSync(dir)
      .filter((name) => MIGRATION_FILE.test(name))
      .sort();
    const record = engine.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
    );
    const seen = engine.prepare("SELECT 1 AS seen FROM schema_migrations WHERE version = ?");
    const done: number[] = [];
    for (const name of files) {
      const version = Number(name.slice(0, 3));
      if (applied.has(version)) continue;
      const sql = readFileSync(join(dir, name), "utf8");
      const appliedNow = engine.transaction(() => {
        if (seen.get(version)) return false;
        engine.exec(sql);
        record.run(version, name, new Date().toISOString());
        return true;
      });
      if (appliedNow) done.push(version);
    }
    return done;
  } finally {
    if (postgres) engine.prepare("SELECT pg_advisory_unlock(?)").get(MIGRATION_LOCK);
  }
}
