import { join } from "node:path";
import Database from "better-sqlite3";
import { packageRoot } from "../package-root.js";
import { UsageError } from "../usage-error.js";
import { redactUrl } from "./engines/database-location.js";
import { PostgresEngine } from "./engines/postgres-engine.js";
import { SqliteEngine } from "./engines/sqlite-engine.js";
import { applyMigrations } from "./migrations.js";
import { checkRecordSchema, checkSqliteHeader, knownSchemaVersion } from "./record-file.js";
import { checkPostgresRecord } from "./record-schema.js";

/** How long a writer waits for another process's transaction before SQLite reports busy. */
const BUSY_TIMEOUT_MS = 10_000;

/** Opens (creating when writable) the SQLite file at `path`, checked and migrated. */
export function openSqlite(path: string, readonly: boolean): SqliteEngine {
  checkSqliteHeader(path);
  const migrations = join(packageRoot(), "db");
  const known = knownSchemaVersion(migrations);
  let db: Database.Database;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly });
  } catch (error) {
    throw new UsageError(`Cannot open the record ${path} (${(error as Error).message}).`);
  }
  try {
    const version = checkRecordSchema(db, path, known);
    db.pragma("foreign_keys = ON");
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const engine = new SqliteEngine(db);
    if (readonly) {
      if (version < known) {
        throw new UsageError(
          `${path} has schema version ${version} and this same-game reads ${known}: open it once with serve or import (writable) to upgrade it.`,
        );
      }
      return engine;
    }
    db.pragma("journal_mode = WAL");
    // NORMAL in WAL mode keeps every committed transaction across a process kill; only an OS crash or
    // power loss can lose the last commits, which is the trade SQLite recommends for WAL.
    db.pragma("synchronous = NORMAL");
    applyMigrations(engine, migrations);
    return engine;
  } catch (error) {
    db.close();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot open the record ${path} (${(error as Error).message}).`);
  }
}

/**
 * Connects to the PostgreSQL database at `url`, checked and migrated (db/postgres/, numbered as db/). Every
 * refusal names the URL without its password.
 */
export function openPostgres(url: string, readonly: boolean): PostgresEngine {
  const where = redactUrl(url);
  const migrations = join(packageRoot(), "db", "postgres");
  const known = knownSchemaVersion(migrations);
  let engine: PostgresEngine;
  try {
    engine = new PostgresEngine(url, { readonly });
  } catch (error) {
    throw new UsageError(`Cannot connect to the PostgreSQL record ${where} (${(error as Error).message}).`);
  }
  try {
    const version = checkPostgresRecord(engine, where, known);
    if (readonly) {
      if (version === 0) {
        throw new UsageError(
          `No record at ${where}: the database is empty (only serve, import, demo, study register and run create a record).`,
        );
      }
      if (version < known) {
        throw new UsageError(
          `${where} has schema version ${version} and this same-game reads ${known}: open it once with serve or import (writable) to upgrade it.`,
        );
      }
      return engine;
    }
    applyMigrations(engine, migrations);
    return engine;
  } catch (error) {
    engine.close();
    if (error instanceof UsageError) throw error;
    throw new UsageError(`Cannot open the PostgreSQL record ${where} (${(error as Error).message}).`);
  }
}
