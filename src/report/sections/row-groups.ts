import { html, type SafeHtml } from "../html.js";

/**
 * The row-header cells of a table whose leading columns repeat (player, game …): each value is written
 * once, spanning the rows of its run, instead of once per row. In a report of 880 cells that repetition —
 * a player name with its "(imported: source)" note on every row — was a quarter of the file. `keys` are
 * the leading columns, outermost first; a run of column k ends where any column up to k changes.
 * Returns, per row, the cells it opens (rows inside a run open none for that column).
 */
export function groupedRowHeaders<T>(
  rows: readonly T[],
  keys: readonly ((row: T) => string)[],
  cell: (row: T, column: number) => SafeHtml | string,
): SafeHtml[] {
  const spans = rows.map(() => keys.map(() => 0));
  keys.forEach((_, k) => {
    let start = 0;
    for (let r = 1; r <= rows.length; r++) {
      const same =
        r < rows.length && keys.slice(0, k + 1).every((key) => key(rows[r] as T) === key(rows[start] as T));
      if (same) continue;
      (spans[start] as number[])[k] = r - start;
      start = r;
    }
  });
  return rows.map(
    (row, r) =>
      html`${keys.map((_, k) => {
        const span = (spans[r] as number[])[k] as number;
        if (span === 0) return html``;
        return span === 1
          ? html`<th>${cell(row, k)}</th>`
          : html`<th rowspan="${String(span)}">${cell(row, k)}</th>`;
      })}`,
  );
}
