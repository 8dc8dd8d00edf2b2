import { UsageError } from "../usage-error.js";
import type { Store } from "./store.js";

// `migrate-record`: an SQLite record copied into a PostgreSQL one. The tables and columns are read from the
// SQLite file itself (so a table a later migration adds is copied without changing this file, as long as
// db/postgres/ has its port), in foreign-key order, all in one transaction on the target that is verified
// before it commits: a copy that does not verify leaves the target as it was.

/** Rows per INSERT: one round trip carries many rows (PostgreSQL allows 65 535 parameters a statement). */
const BATCH_ROWS = 500;
const MAX_PARAMETERS = 60_000;

export interface TableCopy {
  table: string;
  /** Rows in the SQLite file. */
  source: number;
  /** Rows in the target after the copy (before commit). */
  target: number;
}

interface TableShape {
  name: string;
  columns: string[];
  primaryKey: string[];
  /** Columns referencing this same table (matches.partner_match_id): filled in after every row is in. */
  selfReferences: string[];
  references: string[];
}

/**
 * Copies every table of `source` (SQLite) into `target` (PostgreSQL) in one transaction, checks the row
 * counts, then runs `verify` inside the same transaction (it sees the copied rows; throwing rolls
 * everything back). Refuses a target that already holds rows unless `replace` (its rows are deleted first).
 */
export function copyRecord(
  source: Store,
  target: Store,
  options: { replace: boolean; verify?: () => void },
): TableCopy[] {
  if (source.engine.kind !== "sqlite")
    throw new UsageError("migrate-record reads an SQLite record (--from FILE.db).");
  if (target.engine.kind !== "postgres") {
    throw new UsageError("migrate-record writes a PostgreSQL record (--to postgres://…).");
  }
  const tables = copyOrder(sqliteTables(source));
  const targetColumns = postgresColumns(target);
  for (const table of tables) {
    const have = targetColumns.get(table.name);
    const missing = table.columns.filter((c) => !have?.includes(c));
    if (missing.length > 0) {
      throw new UsageError(
        `The PostgreSQL record lacks ${have ? `columns ${missing.join(", ")} of` : "the table"} ${table.name}: its schema is older than the file's.`,
      );
    }
  }
  const count = (store: Store, table: string) =>
    (store.engine.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  return target.transaction(() => {
    const filled = tables.filter((t) => count(target, t.name) > 0).map((t) => t.name);
    if (filled.length > 0 && !options.replace) {
      throw new UsageError(
        `The PostgreSQL record is not empty (rows in ${filled.join(", ")}): pass --replace to delete them and copy, or name an empty database.`,
      );
    }
    for (const table of [...tables].reverse()) target.engine.exec(`DELETE FROM ${table.name}`);
    for (const table of tables) copyTable(source, target, table);
    moveIdentitiesPastCopiedIds(target);
    const counts = tables.map((t) => ({
      table: t.name,
      source: count(source, t.name),
      target: count(target, t.name),
    }));
    const wrong = counts.filter((c) => c.source !== c.target);
    if (wrong.length > 0) {
      throw new Error(
        `The copy does not verify (rows ${wrong.map((c) => `${c.table} ${c.source} → ${c.target}`).join(", ")}); nothing was written.`,
      );
    }
    options.verify?.();
    return counts;
  });
}

function sqliteTables(source: Store): TableShape[] {
  const db = source.db;
  // Not copied: the migrations (the target has its own), the record's version (the target counts its own
  // writes, the copy among them) and cached analysis results (recomputed on the target when asked).
  const names = (
    db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('schema_migrations', 'record_version', 'analysis_cache') ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
  return names.map((name) => {
    const info = db.pragma(`table_info(${name})`) as { name: string; pk: number }[];
    const keys = db.pragma(`foreign_key_list(${name})`) as { table: string; from: string }[];
    return {
      name,
      columns: info.map((c) => c.name),
      primaryKey: info
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name),
      selfReferences: keys.filter((k) => k.table === name).map((k) => k.from),
      references: [...new Set(keys.filter((k) => k.table !== name).map((k) => k.table))],
    };
  });
}

/** Referenced tables before the tables that reference them (sessions and studies before matches, …). */
function copyOrder(tables: TableShape[]): TableShape[] {
  const ordered: TableShape[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.filter((t) => !placed.has(t.name) && t.references.every((r) => placed.has(r)));
    if (ready.length === 0) throw new Error("The record's foreign keys form a cycle: it cannot be copied.");
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
  }
  return ordered;
}

function postgresColumns(target: Store): Map<string, string[]> {
  const rows = target.engine
    .prepare(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    )
    .all() as { table_name: string; column_name: string }[];
  const columns = new Map<string, string[]>();
  for (const row of rows)
    columns.set(row.table_name, [...(columns.get(row.table_name) ?? []), row.column_name]);
  return columns;
}

function copyTable(source: Store, target: Store, table: TableShape): void {
  const columns = table.columns.map((c) => `"${c}"`).join(", ");
  const insertSql = (rows: number) => {
    const width = table.columns.length;
    const tuples = Array.from(
      { length: rows },
      (_, r) => `(${table.columns.map((_c, i) => `$${r * width + i + 1}`).join(", ")})`,
    );
    return `INSERT INTO ${table.name} (${columns}) VALUES ${tuples.join(", ")}`;
  };
  const batchRows = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / table.columns.length)));
  const self = new Set(table.selfReferences);
  const later: unknown[][] = [];
  let batch: unknown[] = [];
  let rows = 0;
  const flush = () => {
    if (rows === 0) return;
    target.engine.prepare(insertSql(rows)).run(...batch);
    batch = [];
    rows = 0;
  };
  const order = table.primaryKey.length > 0 ? table.primaryKey.map((c) => `"${c}"`).join(", ") : "rowid";
  const read = source.db.prepare(`SELECT ${columns} FROM ${table.name} ORDER BY ${order}`).raw(true);
  for (const row of read.iterate() as Iterable<unknown[]>) {
    refuseNul(table, row);
    // A row may point at one of its own table that is not copied yet: the pointer is set once all are in.
    if (self.size > 0) {
      const values = table.columns.map((c, i) => (self.has(c) ? null : row[i]));
      if (table.columns.some((c, i) => self.has(c) && row[i] !== null)) later.push(row);
      batch.push(...values);
    } else {
      batch.push(...row);
    }
    rows += 1;
    if (rows === batchRows) flush();
  }
  flush();
  if (later.length === 0) return;
  const setList = table.selfReferences.map((c, i) => `"${c}" = $${i + 1}`).join(", ");
  const where = table.primaryKey
    .map((c, i) => `"${c}" = $${table.selfReferences.length + i + 1}`)
    .join(" AND ");
  const update = target.engine.prepare(`UPDATE ${table.name} SET ${setList} WHERE ${where}`);
  for (const row of later) {
    const value = (c: string) => row[table.columns.indexOf(c)];
    update.run(...table.selfReferences.map(value), ...table.primaryKey.map(value));
  }
}

/**
 * PostgreSQL text cannot hold U+0000, which an SQLite record written before NUL was refused at the door may
 * still hold. The copy is refused (nothing is written) naming the table, the row and the column, rather than
 * altering what was recorded: the operator decides what the text should be, then migrates again.
 */
function refuseNul(table: TableShape, row: unknown[]): void {
  const column = row.findIndex((value) => typeof value === "string" && value.includes("\u0000"));
  if (column === -1) return;
  const key =
    table.primaryKey.length > 0
      ? table.primaryKey.map((c) => `${c} = ${JSON.stringify(row[table.columns.indexOf(c)])}`).join(", ")
      : `row ${JSON.stringify(row.slice(0, 3))}…`;
  throw new UsageError(
    `The ${table.name} row with ${key} holds a NUL character (U+0000) in ${table.columns[column]}, which PostgreSQL cannot store; nothing was written. Replace it in the SQLite file (e.g. sqlite3 FILE "UPDATE ${table.name} SET ${table.columns[column]} = replace(${table.columns[column]}, char(0), '') WHERE …") and migrate again.`,
  );
}

/** The copied ids came with the rows; the identity sequences must continue after the largest of them. */
function moveIdentitiesPastCopiedIds(target: Store): void {
  const identities = target.engine
    .prepare(
      `SELECT table_name, column_name FROM information_schema.columns
       WHERE table_schema = current_schema() AND is_identity = 'YES' ORDER BY table_name`,
    )
    .all() as { table_name: string; column_name: string }[];
  for (const { table_name: table, column_name: column } of identities) {
    target.engine
      .prepare(
        `SELECT setval(pg_get_serial_sequence('${table}', '${column}'), coalesce(max("${column}"), 0) + 1, false) AS v FROM ${table}`,
      )
      .get();
  }
}
