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
    this.guard.check();
    const result = this.run.immediate(work) as T;
    this.guard.check();
    return result;
  }

  close(): void {
    this.db.close();
  }
}
