import type Database from "better-sqlite3";
import type { Engine, Statement } from "./engine.js";
import type { RecordFileGuard } from "./record-file-guard.js";

/**
 * SQLite through better-sqlite3, as the Store always used it: a statement is better-sqlite3's own prepared
 * statement (no wrapper, so the hot path of play costs what it did), and a transaction is IMMEDIATE (the
 * write lock is taken up front, so two processes never deadlock upgrading a read lock).
 */
export class SqliteEngine implements Engine {
  readonly kind = "sqlite" as const;

  /** One transaction function for every call: better-sqlite3 builds a new wrapper per db.transaction(). */
  private readonly run: Database.Transaction<(work: () => unknown) => unknown>;

  /** Set on a record opened for writing, once migrated: every write transaction checks the files first and after. */
  private guard: RecordFileGuard | null = null;

  constructor(readonly db: Database.Database) {
    this.run = db.transaction((work: () => unknown) => work());
  }

  guardFiles(guard: RecordFileGuard): void {
    this.guard = guard;
  }

  prepare(sql: string): Statement {
    return this.db.prepare(sql);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  transaction<T>(work: () => T): T {
    if (this.guard === null || this.db.inTransaction) return this.run.immediate(work) as T;
    this.checkFiles();
    const result = this.run.immediate(work) as T;
    this.checkFiles();
    return result;
  }

  /**
   * The guard's check, and when it fails, what this connection committed is merged into the file it has
   * open and its -wal emptied: a moved record then holds every commit where it went, and a -wal left at the
   * old name is not replayed later over whatever file has the name now (SQLite does neither for a file
   * that moved: it leaves its -wal behind on close).
   */
  checkFiles(): void {
    try {
      this.guard?.check();
    } catch (error) {
      try {
        this.db.pragma("wal_checkpoint(TRUNCATE)");
      } catch {
        // Another connection reading: the refusal stands, and SQLite keeps the -wal as it is.
      }
      throw error;
    }
  }

  close(): void {
    // A record moved or replaced since the last write: merged into the file held here before SQLite, which
    // would not for a file that moved, closes and leaves its -wal behind under the record's name.
    try {
      if (this.db.open) this.checkFiles();
    } catch {
      // Said to every call that tried to write; closing goes on.
    }
    this.db.close();
  }
}
