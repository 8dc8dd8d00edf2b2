import type Database from "better-sqlite3";
import type { Engine, Statement } from "./engine.js";

/**
 * SQLite through better-sqlite3, as the Store always used it: a statement is better-sqlite3's own prepared
 * statement (no wrapper, so the hot path of play costs what it did), and a transaction is IMMEDIATE (the
 * write lock is taken up front, so two processes never deadlock upgrading a read lock).
 */
export class SqliteEngine implements Engine {
  readonly kind = "sqlite" as const;

  /** One transaction function for every call: better-sqlite3 builds a new wrapper per db.transaction(). */
  private readonly run: Database.Transaction<(work: () => unknown) => unknown>;

  constructor(readonly db: Database.Database) {
    this.run = db.transaction((work: () => unknown) => work());
  }

  prepare(sql: string): Statement {
    return this.db.prepare(sql);
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  transaction<T>(work: () => T): T {
    return this.run.immediate(work) as T;
  }

  close(): void {
    this.db.close();
  }
}
