import { parquetWriteBuffer } from "hyparquet-writer";

// Parquet for the large exports: a million decisions with their prompts are hundreds of MB as CSV, and
// pandas, polars, R (arrow) and DuckDB read Parquet with its column types. The same columns as the CSV.

type ColumnType = "INT64" | "DOUBLE" | "BOOLEAN" | "STRING";

/**
 * A table as one Parquet file. Each column's type is read off its values: whole numbers → INT64, other
 * numbers → DOUBLE, booleans → BOOLEAN, everything else → STRING (objects as JSON, as the CSV writes them);
 * null and absent values are Parquet nulls. A column with no value at all is STRING.
 */
export function toParquet(columns: readonly string[], rows: readonly Record<string, unknown>[]): Uint8Array {
  const columnData = columns.map((name) => {
    const values = rows.map((row) => row[name] ?? null);
    const type = columnType(values);
    return { name, type, data: values.map((value) => cell(value, type)) };
  });
  return new Uint8Array(parquetWriteBuffer({ columnData }));
}

function columnType(values: readonly unknown[]): ColumnType {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return "STRING";
  if (present.every((v) => typeof v === "boolean")) return "BOOLEAN";
  if (present.every((v) => typeof v === "number" && Number.isFinite(v))) {
    return present.every((v) => Number.isSafeInteger(v)) ? "INT64" : "DOUBLE";
  }
  return "STRING";
}

function cell(value: unknown, type: ColumnType): unknown {
  if (value === null) return null;
  if (type === "INT64") return BigInt(value as number);
  if (type === "STRING") return typeof value === "string" ? value : JSON.stringify(value);
  return value;
}
