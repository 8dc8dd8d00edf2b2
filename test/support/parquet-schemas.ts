import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parquetMetadata } from "hyparquet";
import { packageRoot } from "../../src/package-root.js";

/** A Parquet file's columns as `name: TYPE (repetition)`, STRING for UTF-8 byte arrays, in file order. */
export function parquetColumns(file: string): string[] {
  const bytes = readFileSync(file);
  const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  return meta.schema.slice(1).map((s) => {
    const type = s.type === "BYTE_ARRAY" && s.converted_type === "UTF8" ? "STRING" : s.type;
    return `${s.name}: ${type} (${s.repetition_type})`;
  });
}

/**
 * The columns docs/import-export.md gives a table's Parquet file: those its type table names INT64, DOUBLE
 * or BOOLEAN with that type, every other one STRING, all nullable, in the order of `columns`.
 */
export function documentedColumns(table: string, columns: readonly string[]): string[] {
  const docs = readFileSync(join(packageRoot(), "docs", "import-export.md"), "utf8");
  const row = docs.split("\n").find((line) => line.startsWith(`| \`${table}\` |`));
  if (row === undefined) throw new Error(`docs/import-export.md has no Parquet type row for ${table}`);
  const [, , ...cells] = row.split("|").map((cell) => cell.trim());
  const typed = new Map<string, string>();
  ["INT64", "DOUBLE", "BOOLEAN"].forEach((type, i) => {
    for (const name of (cells[i] ?? "").matchAll(/`([a-z_]+)`/g)) typed.set(name[1] as string, type);
  });
  return columns.map((c) => `${c}: ${typed.get(c) ?? "STRING"} (OPTIONAL)`);
}
