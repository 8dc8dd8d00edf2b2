import { parquetWriteBuffer } from "hyparquet-writer";

// Parquet for the large exports: a million decisions with their prompts are hundreds of MB as CSV, and
// pandas, polars, R (arrow) and DuckDB read Parquet with its column types. The same columns as the CSV.

/** The Parquet type of an exported column; every column is nullable. */
export type ColumnType = "INT64" | "DOUBLE" | "BOOLEAN" | "STRING";

/** An exported table's columns in order, each with its one Parquet type. */
export type TableSchema = Readonly<Record<string, ColumnType>>;

/**
 * A table as one Parquet file, each column typed as the table declares it, whatever the rows hold: the
 * files of two exports (one where every `tokens` is null, one where every estimate happens to be whole, an
 * empty one) have one schema, so a folder of them concatenates. Objects and arrays in a STRING column are
 * JSON text, as the CSV writes them; null and absent values are Parquet nulls.
 */
export function toParquet(schema: TableSchema, rows: readonly Record<string, unknown>[]): Uint8Array {
  const columnData = Object.entries(schema).map(([name, type]) => ({
    name,
    type,
    nullable: true,
    data: rows.map((row) => cell(row[name] ?? null, type, name)),
  }));
  return new Uint8Array(parquetWriteBuffer({ columnData }));
}

function cell(value: unknown, type: ColumnType, name: string): unknown {
  if (value === null) return null;
  switch (type) {
    case "INT64":
      if (typeof value === "bigint") return value;
      if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
      break;
    case "DOUBLE":
      if (typeof value === "number") return value;
      break;
    case "BOOLEAN":
      if (typeof value === "boolean") return value;
      break;
    case "STRING":
      return typeof value === "string" ? value : JSON.stringify(value);
  }
  // A value that does not fit its declared column is a mistake in the table's declaration: writing it
  // anyway would give the file a column of another type, the very drift a fixed schema prevents.
  throw new Error(`export column "${name}" is declared ${type} but holds ${JSON.stringify(value)}`);
}
