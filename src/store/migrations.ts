import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";

const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;

/**
 * Applies the numbered SQL files of `dir` (001_init.sql, 002_...) that this database has not seen yet, in
 * order, each in its own transaction, and records them in schema_migrations. Returns the versions applied.
 */
export function applyMigrations(db: Database.Database, dir: string): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
  const files = readdirSync(dir)
    .filter((name) => MIGRATION_FILE.test(name))
    .sort();
  const record = db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)");
  const done: number[] = [];
  for (const name of files) {
    const version = Number(name.slice(0, 3));
    if (applied.has(version)) continue;
    const sql = readFileSync(join(dir, name), "utf8");
    // IMMEDIATE: two server processes starting on one fresh file must not both apply the same migration.
    db.transaction(() => {
      const seen = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?").get(version);
      if (seen) return;
      db.exec(sql);
      record.run(version, name, new Date().toISOString());
      done.push(version);
    }).immediate();
  }
  return done;
}
