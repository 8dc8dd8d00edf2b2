import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Engine } from "./engines/engine.js";

const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;

/** Any constant: the PostgreSQL advisory lock all same-game processes take while they migrate a record. */
const MIGRATION_LOCK = 7_316_001;

const SCHEMA_MIGRATIONS = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`;

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
    const files = readdirSync(dir)
      .filter((name) => MIGRATION_FILE.test(name))
      .sort();
    const applied = appliedVersions(engine);
    const done: number[] = [];
    for (const name of files) {
      const version = Number(name.slice(0, 3));
      if (applied.has(version)) continue;
      const sql = readFileSync(join(dir, name), "utf8");
      // schema_migrations is created in the same transaction as the migration, never on its own: a server
      // starting beside one that is creating the record checks the tables before it waits for the lock, and
      // must see either nothing (a fresh record) or a record with its tables, never schema_migrations alone
      // (which it would refuse as "another program's database").
      const appliedNow = engine.transaction(() => {
        engine.exec(SCHEMA_MIGRATIONS);
        if (engine.prepare("SELECT 1 AS seen FROM schema_migrations WHERE version = ?").get(version)) {
          return false;
        }
        engine.exec(sql);
        engine
          .prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)")
          .run(version, name, new Date().toISOString());
        return true;
      });
      if (appliedNow) done.push(version);
    }
    return done;
  } finally {
    if (postgres) engine.prepare("SELECT pg_advisory_unlock(?)").get(MIGRATION_LOCK);
  }
}

/** The versions a record has applied; none for a fresh one, which has no schema_migrations yet. */
function appliedVersions(engine: Engine): Set<number> {
  try {
    const rows = engine.prepare("SELECT version FROM schema_migrations").all() as { version: number }[];
    return new Set(rows.map((r) => r.version));
  } catch {
    // No such table (or a record another server is creating right now): every migration checks again
    // inside its own transaction.
    return new Set();
  }
}
