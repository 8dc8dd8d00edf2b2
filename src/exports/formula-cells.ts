// A spreadsheet opening a CSV reads a cell that begins with =, +, -, @ (or a tab or a carriage return,
// which some strip before looking) as a formula: a player named =HYPERLINK(…) or a model's rationale
// starting with "=" would be run, not shown. The exports stay byte-exact for pandas, R and re-import, so
// such cells are not altered; the user is told they are there.

const FORMULA_START = /^[=+\-@\t\r]/;

/** The text cells of the rows that a spreadsheet would read as a formula: how many, and in which columns. */
export interface FormulaCells {
  readonly count: number;
  readonly columns: readonly string[];
}

/** Counts the string values (numbers are written as numbers, never a formula) that begin like a formula. */
export function formulaCells(
  columns: readonly string[],
  rows: readonly Record<string, unknown>[],
): FormulaCells {
  let count = 0;
  const hit = new Set<string>();
  for (const row of rows) {
    for (const column of columns) {
      const value = row[column];
      if (typeof value === "string" && FORMULA_START.test(value)) {
        count++;
        hit.add(column);
      }
    }
  }
  return { count, columns: columns.filter((column) => hit.has(column)) };
}

/** The one line said on stderr when a CSV export holds such cells, or null when it holds none. */
export function formulaCellsNote(cells: FormulaCells): string | null {
  if (cells.count === 0) return null;
  return `note: ${cells.count} text cell(s) of this CSV begin with =, +, -, @, a tab or a carriage return (column(s): ${cells.columns.join(", ")}), which a spreadsheet may run as a formula; they are written unchanged, so open the file in a spreadsheet only as described in docs/import-export.md ("Spreadsheets and formulas").`;
}
