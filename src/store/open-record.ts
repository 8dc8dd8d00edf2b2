import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { packageRoot } from "../package-root.js";
import { UsageError } from "../usage-error.js";
import { redactUrl } from "./engines/database-location.js";
import { PostgresEngine } from "./engines/postgres-engine.js";
import { RecordFileGuard } from "./engines/record-file-guard.js";
import { SqliteEngine } from "./engines/sqlite-engine.js";
import { applyMigrations } from "./migrations.js";
import {
  checkRecordSchema,
  checkSqliteHeader,
  knownSchemaVersion,
  rememberConnected,
} from "./record-file.js";
import { checkPostgresRecord } from "./record-schema.js";
import { sqliteDriverProblem } from "./sqlite-driver-problem.js";

/** How long a writer waits for another process's transaction before SQLite reports busy. */
const BUSY_TIMEOUT_MS = 10_000;

// SQLite reads a file: URI (and its immutable=1 parameter) only when URIs are enabled, which better-sqlite3
// configures once, from this variable, when its addon first loads: before any record is opened.
process.env.SQLITE_USE_URI ??= "1";

/**
 * Whether this process can write the record file and create its -wal and -shm beside it. A WAL record
 * read on read-only media, in a write-protected folder or from a read-only file cannot be opened the usual
 * way (SQLite needs the -shm), and must not get files written beside it either.
 */
export function canWriteRecord(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    accessSync(dirname(resolve(path)), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The name SQLite opens a read-only record by. Where it could write beside the file, the path itself.
 * Where it cannot, SQLite's immutable mode (file:…?immutable=1): no lock, no -shm, nothing written — safe
 * because no one here can write the file either, once no -wal beside it holds commits not yet merged into it
 * (immutable mode would silently read the file without them).
 */
function readOnlyName(path: string): string {
  if (canWriteRecord(path) || !existsSync(path)) return path.startsWith("file:") ? `./${path}` : path;
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) {
    throw new UsageError(
      `${path} cannot be written here and its write-ahead log ${wal} holds commits not yet merged into it: open the record once where it is writable (serve or import merge them on exit), then analyse it here.`,
    );
  }
  return `${pathToFileURL(resolve(path)).href}?immutable=1`;
}
/**
 * Opens (creating when writable) the SQLite file at `path`, checked and migrated; `checkPages` false when
 * this process checked the file's pages already (StoreOptions.pagesChecked).
 */
export function openSqlite(path: string, readonly: boolean, checkPages = true): SqliteEngine {
  checkSqliteHeader(path);
  const migrations = join(packageRoot(), "db");
  const known = knownSchemaVersion(migrations);
  const name = readonly ? readOnlyName(path) : path;
  let db: Database.Database;
  try {
    db = readonly
      ? new Database(name, { readonly: true, fileMustExist: true })
      : new Database(path.startsWith("file:") ? `./${path}` : path);
  } catch (error) {
    // The driver loads its compiled module here, at the first record opened: a failure is the install's.
    throw new UsageError(
      sqliteDriverProblem(error) ?? `Cannot open the record ${path} (${(error as Error).message}).`,
    );
  }
  // From here the file may be locked by this connection: it must not be opened outside SQLite again.
  rememberConnected(path);
  try {
    const version = checkRecordSchema(db, path, known, checkPages);
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
    if (!db.memory) engine.guardFiles(new RecordFileGuard(db.name));
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
