import type Database from "better-sqlite3";
import { type Dialect, dialectOf, filterSql, tallyFilterSql } from "./dialect.js";
import { isPostgresUrl } from "./engines/database-location.js";
import type { Engine, Statement } from "./engines/engine.js";
import { SqliteEngine } from "./engines/sqlite-engine.js";
import { filterParams } from "./filter-params.js";
import { openPostgres, openSqlite } from "./open-record.js";
import { RecordClock } from "./record-clock.js";
import { integrityCheck, type RecordCheck } from "./record-file.js";
import type { RecordFilter } from "./records.js";

/** A work waiting for its group's commit, and how to answer it. */
interface GroupJob {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export interface StoreOptions {
  /** Open without writing anything (analysis, report, export); the file must exist and be current. */
  readonly?: boolean;
  /**
   * The SQLite file was opened and its pages checked (quick_check) by this process moments before: a
   * worker thread of the server opening it again skips the page scan (2–3 s at a million decisions, paid
   * by the first analysis and by every worker started after one was stopped) and keeps the schema check.
   */
  pagesChecked?: boolean;
}

/**
 * What every aggregate of the record shares: the open engine, its prepared statements and the analysis
 * filter in this engine's dialect. The aggregates (aggregates/) extend it one after another, each adding the
 * statements of one part of the record, and `Store` (store.ts) is the last of them: one face, one file per
 * aggregate.
 */
export class StoreCore {
  readonly engine: Engine;
  private readonly statements = new Map<string, Statement>();
  protected readonly dialect: Dialect;
  /** The analysis queries' WHERE clause in this engine's dialect. */
  protected readonly filter: string;
  /** The same clause over `decision_tallies m`, where '' stands for no study and no source. */
  protected readonly tallyFilter: string;
  /**
   * Set on a view made by `scopedTo`: the analysis queries then read only this principal's live play
   * (and the imported records, which belong to no client). Null = the whole record (the CLI).
   */
  readonly principalScope: string | null = null;

  /** 1 inside an outermost `transaction()`: nested calls are savepoints and do not count again. */
  private transactionDepth = 0;

  /** Whether the outermost transaction under way changes what analyses read (see `bookkeepingTransaction`). */
  private versionDue = false;

  /**
   * Work waiting for the next group commit (see `groupCommit`), in arrival order. Mutated, never
   * reassigned: a view made by `scopedTo` shares it with the store it views.
   */
  private readonly commitGroup: { jobs: GroupJob[]; scheduled: boolean } = { jobs: [], scheduled: false };

  /** Opened with `readonly`: analysis verbs never write, so a read-only file can still be analysed. */
  readonly readonly: boolean;

  /**
   * The record's clock (record-clock.ts): PostgreSQL's on a PostgreSQL record, shared by every replica and
   * runner whatever their own clocks say; this machine's on an SQLite file. Shared by `scopedTo` views.
   */
  readonly clock: RecordClock;

  constructor(
    readonly path: string,
    options: StoreOptions = {},
  ) {
    this.readonly = options.readonly === true;
    this.engine = isPostgresUrl(path)
      ? openPostgres(path, this.readonly)
      : openSqlite(path, this.readonly, options.pagesChecked !== true);
    this.dialect = dialectOf(this.engine.kind);
    this.filter = filterSql(this.dialect);
    this.tallyFilter = tallyFilterSql(this.dialect);
    this.clock = new RecordClock(this.engine.kind === "postgres" ? () => this.readDatabaseClock() : null);
  }

  /** Now on the record's clock, in ms since the epoch: for every time compared across processes. */
  now(): number {
    return this.clock.now();
  }

  /** Now on the record's clock as stored: ISO 8601 UTC with milliseconds and `Z`. */
  nowIso(): string {
    return this.clock.nowIso();
  }

  /** The PostgreSQL server's clock, and this host's monotonic time around the round trip. */
  private readDatabaseClock(): { at: number; before: number; after: number } {
    const before = performance.now();
    const row = this.stmt("SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms").get() as {
      ms: number | string;
    };
    return { at: Number(row.ms), before, after: performance.now() };
  }

  /** The better-sqlite3 handle of an SQLite record (tests and tools that inspect the file). */
  get db(): Database.Database {
    if (this.engine instanceof SqliteEngine) return this.engine.db;
    throw new Error("This record is a PostgreSQL database: it has no SQLite handle.");
  }

  /**
   * SQLite's integrity_check of the whole file (quick_check above FULL_INTEGRITY_CHECK_MAX_BYTES): "ok", or
   * the first problems it found. PostgreSQL checks its pages itself (a damaged page fails the query that
   * reads it), so a record there that answers is "ok".
   */
  integrityCheck(): RecordCheck {
    if (this.engine instanceof SqliteEngine) return integrityCheck(this.engine.db);
    this.stmt("SELECT 1 AS ok").get();
    return { pragma: "integrity_check", result: "ok", bytes: 0 };
  }

  close(): void {
    // Work already accepted is committed (and answered) before the connection goes.
    if (this.commitGroup.jobs.length > 0) this.commitWaitingGroup();
    this.engine.close();
  }

  /**
   * Runs `work` as one transaction: IMMEDIATE on SQLite (the write lock is taken up front, so no upgrade
   * deadlock), SERIALIZABLE on PostgreSQL (run again from the start when another replica's transaction
   * conflicts, so `work` must change nothing but the record).
   */
  transaction<T>(work: () => T): T {
    return this.outermost(work, true);
  }

  /**
   * A transaction of bookkeeping no analysis reads (the HTTP server's session rows and rate buckets): it
   * leaves record_version as it is, so a client connecting does not discard every cached analysis. A
   * `transaction()` inside it still counts.
   */
  protected bookkeepingTransaction<T>(work: () => T): T {
    return this.outermost(work, false);
  }

  private outermost<T>(work: () => T, changesAnalysedRows: boolean): T {
    if (this.transactionDepth > 0) {
      if (changesAnalysedRows) this.versionDue = true;
      return this.engine.transaction(work);
    }
    this.transactionDepth = 1;
    try {
      return this.engine.transaction(() => {
        // Set at every start: PostgreSQL may run the work again after a conflict.
        this.versionDue = changesAnalysedRows;
        const result = work();
        if (this.versionDue) this.bumpRecordVersion();
        return result;
      });
    } finally {
      this.transactionDepth = 0;
    }
  }

  /**
   * Runs `work` as if on its own, but with its writes committed together with those of every other call
   * made before the event loop next turns (SQLite: one BEGIN IMMEDIATE … COMMIT for the group, each
   * `transaction()` inside a work a savepoint of it that counts in record_version as before). Concurrent
   * callers (HTTP clients) then share one commit and the pages it writes (the version row, the tallies, the
   * tails of the tables); a lone caller waits one turn of the event loop. The promise settles only after the
   * group's COMMIT returned: an answer is never given for a write that is not yet durable. A work that
   * throws is rolled back as its transactions always were (its savepoints) and rejects alone; a group whose
   * COMMIT fails rejects every work in it. On PostgreSQL (whose transactions may run again after a conflict)
   * each work runs at once, as before.
   */
  groupCommit<T>(work: () => T): Promise<T> {
    if (!(this.engine instanceof SqliteEngine) || this.transactionDepth > 0) {
      try {
        return Promise.resolve(work());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.commitGroup.jobs.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.commitGroup.scheduled) {
        this.commitGroup.scheduled = true;
        setImmediate(() => this.commitWaitingGroup());
      }
    });
  }

  /** Runs the waiting works in one SQLite transaction, then answers each (see `groupCommit`). */
  private commitWaitingGroup(): void {
    this.commitGroup.scheduled = false;
    const jobs = this.commitGroup.jobs.splice(0);
    if (jobs.length === 0) return;
    const db = this.db;
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.engine.transaction(() => {
        for (const job of jobs) {
          try {
            outcomes.push({ ok: true, value: job.work() });
          } catch (error) {
            outcomes.push({ ok: false, value: error });
          }
          // An error that made SQLite roll the whole transaction back (a full disk, say) took the works
          // before it along: none of the group may then be answered as recorded.
          if (!db.inTransaction) {
            const last = outcomes.at(-1);
            throw last?.ok === false
              ? last.value
              : new Error("The group's transaction ended before its commit.");
          }
        }
      });
    } catch (error) {
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i] as { ok: boolean; value: unknown };
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.value);
    });
  }

  /**
   * The record's schema version: its newest migration. Past the one this build reads when a newer
   * same-game has migrated the record under a running older one (a rolling upgrade).
   */
  recordSchemaVersion(): number {
    const row = this.stmt("SELECT max(version) AS version FROM schema_migrations").get() as {
      version: number | string | null;
    };
    return Number(row.version ?? 0);
  }

  /**
   * The record's version: the number of writing transactions committed so far (record_version). It changes
   * exactly when a write becomes visible to this connection, so an analysis result computed after reading
   * version v describes the record at v or later, and no reader sees v again after a later write.
   */
  recordVersion(): number {
    const row = this.stmt("SELECT sum(changes) AS version FROM record_version").get() as {
      version: number | string | null;
    };
    return Number(row.version ?? 0);
  }

  /**
   * Every outermost transaction counts once, inside itself (a transaction that rolls back counts nothing).
   * A random one of the 16 rows: concurrent PostgreSQL writers (replicas) then seldom touch the same row,
   * which SERIALIZABLE would answer by running one of them again. SQLite has one writer at a time.
   */
  private bumpRecordVersion(): void {
    const shard = this.engine.kind === "sqlite" ? 0 : Math.floor(Math.random() * 16);
    this.write("UPDATE record_version SET changes = changes + 1 WHERE shard = ?", shard);
  }

  /**
   * A write whose count of changed rows is not needed: on PostgreSQL it travels with the transaction's next
   * statement that waits for an answer (at the latest its COMMIT), one round trip for several statements.
   */
  protected write(sql: string, ...params: unknown[]): void {
    const statement = this.stmt(sql);
    if (statement.defer) statement.defer(...params);
    else statement.run(...params);
  }

  protected stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.engine.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  protected filterParams(filter: RecordFilter): Record<string, string | null> {
    return { ...filterParams(filter), principal: this.principalScope };
  }
}
