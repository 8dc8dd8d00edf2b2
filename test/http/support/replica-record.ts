import { join } from "node:path";
import Database from "better-sqlite3";
import { isPostgresUrl } from "../../../src/store/engines/database-location.js";
import { PostgresEngine } from "../../../src/store/engines/postgres-engine.js";
import { freshPostgresDatabase, TEST_PG } from "../../support/postgres.js";

/** The PostgreSQL server of the tests (`.ci/run` exports it); unset = the replicas share a SQLite file. */
export { TEST_PG };

/**
 * A fresh record for a replica set: a new database on the test PostgreSQL server when there is one, else a
 * SQLite file in `dir` (WAL mode: several processes on one file is a faithful multi-replica set-up for the
 * state logic, but not for the PostgreSQL engine — the caller says so loudly).
 */
export function freshReplicaRecord(dir: string, name: string): { location: string; dispose(): void } {
  if (TEST_PG === undefined) return { location: join(dir, `${name}.db`), dispose: () => undefined };
  return freshPostgresDatabase();
}

/** One read of the record outside the Store (as the exactly-once audit does): rows of a query. */
export function queryRecord(
  location: string,
  sql: string,
  params: unknown[] = [],
): Record<string, unknown>[] {
  if (isPostgresUrl(location)) {
    const engine = new PostgresEngine(location, { readonly: true });
    try {
      return engine.prepare(sql).all(...params) as Record<string, unknown>[];
    } finally {
      engine.close();
    }
  }
  const db = new Database(location, { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    db.close();
  }
}
