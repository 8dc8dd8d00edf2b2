import type { ExportTable } from "./export-tables.js";

/**
 * The columns of the record's tables that hold text a participant or a model wrote, or the prompt it
 * answered: the valid reply and the rationale, every attempt's reply, a model's raw reply. `export
 * --no-free-text` writes them empty (null), so a file shared for the numbers keeps the table's columns
 * and schema (a folder of Parquet exports still concatenates) and none of the words.
 */
export const FREE_TEXT_COLUMNS = ["raw_text", "rationale", "prompt", "raw_reply"] as const;

/** The table with every free-text column of every row emptied (null); a table without such columns unchanged. */
export function withoutFreeText(table: ExportTable): ExportTable {
  const columns = FREE_TEXT_COLUMNS.filter((c) => c in table.schema);
  if (columns.length === 0) return table;
  const blank = (row: Record<string, unknown>) => ({
    ...row,
    ...Object.fromEntries(columns.map((c) => [c, null])),
  });
  // `jsonl` differs from the rows only for matches (the import format), which holds no free text.
  return { ...table, rows: table.rows.map(blank) };
}
