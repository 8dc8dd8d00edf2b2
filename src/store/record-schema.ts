import { UsageError } from "../usage-error.js";
import type { Engine } from "./engines/engine.js";

/**
 * Whether a database is one this same-game may open, from its tables: empty (a fresh record, version 0),
 * or a same-game record whose schema version this installation knows. `where` names it in the refusal
 * (a path, or a URL without its password).
 */
export function checkRecordTables(
  tables: string[],
  readVersion: () => number | null,
  where: string,
  known: number,
  kind: "an SQLite file" | "a PostgreSQL database",
): number {
  if (tables.length === 0) return 0;
  if (!tables.includes("schema_migrations") || !tables.includes("matches")) {
    throw new UsageError(
      `${where} is not a same-game record: it is ${kind} of another program (tables ${tables.slice(0, 5).join(", ")}).`,
    );
  }
  const version = readVersion() ?? 0;
  if (version > known) {
    throw new UsageError(
      `${where} was written by a newer same-game (schema version ${version}; this one reads up to ${known}): upgrade same-game to open it.`,
    );
  }
  return version;
}

/** The PostgreSQL side of the check: the tables of the connection's current schema (search_path). */
export function checkPostgresRecord(engine: Engine, where: string, known: number): number {
  const tables = (
    engine
      .prepare(
        `SELECT table_name AS name FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
      )
      .all() as { name: string }[]
  ).map((t) => t.name);
  return checkRecordTables(
    tables,
    () => (engine.prepare("SELECT max(version) AS v FROM schema_migrations").get() as { v: number | null }).v,
    where,
    known,
    "a PostgreSQL database",
  );
}
