import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";
import type Database from "better-sqlite3";
import { packageRoot } from "../package-root.js";
import { UsageError } from "../usage-error.js";
import { checkRecordTables } from "./record-schema.js";

// A record file is opened only once it is known to be a same-game record this version can read: a garbage
// file, another program's SQLite file, a corrupt file or one from a newer same-game is refused at start with
// one sentence naming the path, before anything is written to it (no schema_migrations table added).

// The file is read outside SQLite only before this process has a connection to it. SQLite's locks are POSIX
// record locks, which belong to the process: closing ANY descriptor of the file drops every lock the process
// holds on it, so one open and close here would leave the server's connection unlocked, and the next other
// program that opened and closed the record (the sqlite3 shell) would find it unused, merge and delete the
// -wal and -shm the server still writes into, losing every decision committed after. SQLite itself keeps
// descriptors of a locked file open until its last connection closes, so it alone reads the file after that,
// and its own refusal of a file that is not a database (SQLITE_NOTADB) is said in the same words.

const SQLITE_HEADER = "SQLite format 3\u0000";
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_]+\.sql$/;

/** The files (device and inode) this thread opened SQLite connections to, never read outside SQLite again. */
const connected = new Set<string>();

function fileKey(path: string): string {
  const stat = statSync(path);
  return `${stat.dev}:${stat.ino}`;
}

/** Marks the record at `path` as held by an SQLite connection of this process (see above). */
export function rememberConnected(path: string): void {
  if (existsSync(path)) connected.add(fileKey(path));
}

/**
 * The one sentence for a file that is not an SQLite database, whether the header check or SQLite said so.
 */
export function notSqliteError(path: string): UsageError {
  return new UsageError(`${path} is not a same-game record: it is not an SQLite database.`);
}

/**
 * Refuses a non-empty file that does not start with SQLite's header, before SQLite ever opens it. Skipped
 * once this process may hold a connection to the file: in a worker thread (its process's main thread opened
 * the record first) and for a file this thread connected to already; SQLite's own check answers then.
 */
export function checkSqliteHeader(path: string): void {
  if (!existsSync(path)) return;
  const stat = statSync(path);
  if (stat.isDirectory()) {
    throw new UsageError(
      `${path} is a folder, not a same-game record: give a record file's path (a new one is created).`,
    );
  }
  if (stat.size === 0) return;
  if (!isMainThread || connected.has(`${stat.dev}:${stat.ino}`)) return;
  const header = Buffer.alloc(16);
  const fd = openSync(path, "r");
  try {
    readSync(fd, header, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (header.toString("latin1") !== SQLITE_HEADER) throw notSqliteError(path);
}

/** The schema version this build reads and writes: its newest migration (db/, numbered as db/postgres/). */
export function schemaVersionThisBuildReads(): number {
  return knownSchemaVersion(join(packageRoot(), "db"));
}

/** The newest schema version this installation's migrations know. */
export function knownSchemaVersion(migrationsDir: string): number {
  const versions = readdirSync(migrationsDir)
    .filter((name) => MIGRATION_FILE.test(name))
    .map((name) => Number(name.slice(0, 3)));
  return Math.max(0, ...versions);
}

/**
 * Checks an open database before migrations touch it: structurally sound (quick_check, unless `checkPages`
 * is false because this process has just checked it), and either empty (a fresh record) or a same-game
 * record whose schema version this installation knows. Returns the database's schema version (0 for an
 * empty file).
 */
export function checkRecordSchema(
  db: Database.Database,
  path: string,
  known: number,
  checkPages = true,
): number {
  let tables: string[];
  try {
    const problems = checkPages
      ? (db.pragma("quick_check", { simple: false }) as { quick_check: string }[])
      : [];
    const first = problems[0]?.quick_check ?? "ok";
    if (first !== "ok") throw new UsageError(`${path} is a damaged SQLite file (quick_check: ${first}).`);
    tables = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
        .all() as {
        name: string;
      }[]
    ).map((t) => t.name);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if ((error as { code?: unknown }).code === "SQLITE_NOTADB") throw notSqliteError(path);
    throw new UsageError(`${path} is not a readable same-game record (${(error as Error).message}).`);
  }
  return checkRecordTables(
    tables,
    () => (db.prepare("SELECT max(version) AS v FROM schema_migrations").get() as { v: number | null }).v,
    path,
    known,
    "an SQLite file",
  );
}

/**
 * The largest record (in bytes of its pages) that the report's verification checks with SQLite's full
 * integrity_check. Above it the check is quick_check: every page and b-tree, every NOT NULL and CHECK
 * constraint, but not every index entry matched against its table row, the part whose cost grows fastest
 * (a 1M-decision record of ~0.7 GB takes several times longer under the full check than under quick_check).
 */
export const FULL_INTEGRITY_CHECK_MAX_BYTES = 256 * 1024 * 1024;

/** Which of SQLite's checks ran, and what it said: "ok" or the first problems found. */
export interface RecordCheck {
  readonly pragma: "integrity_check" | "quick_check";
  readonly result: string;
  /** The record's size in bytes (page count × page size). */
  readonly bytes: number;
}

/**
 * SQLite's full integrity check, for the verification section, on a record of at most `fullUpTo` bytes;
 * quick_check on a larger one (see FULL_INTEGRITY_CHECK_MAX_BYTES).
 */
export function integrityCheck(
  db: Database.Database,
  fullUpTo: number = FULL_INTEGRITY_CHECK_MAX_BYTES,
): RecordCheck {
  const pages = Number(db.pragma("page_count", { simple: true }));
  const pageSize = Number(db.pragma("page_size", { simple: true }));
  const bytes = pages * pageSize;
  const pragma = bytes <= fullUpTo ? "integrity_check" : "quick_check";
  const rows = db.pragma(`${pragma}(5)`, { simple: false }) as Record<string, string>[];
  return { pragma, result: rows.map((r) => r[pragma]).join("; "), bytes };
}
