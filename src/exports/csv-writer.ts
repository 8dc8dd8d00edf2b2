/**
 * RFC 4180 CSV with LF line ends (not its CRLF), as pandas, R and spreadsheets read it: a header row, a field
 * quoted when it holds a comma, a quote, a line break or surrounding spaces (quotes doubled). Null is an
 * empty field; objects and arrays are written as JSON text.
 */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [columns.map(csvField).join(",")];
  for (const row of rows) lines.push(columns.map((c) => csvField(cellText(row[c]))).join(","));
  return `${lines.join("\n")}\n`;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** One CSV field: quoted (quotes doubled) when it holds a comma, a quote, a line break or surrounding spaces. */
export function csvField(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One JSON object per line. */
export function toJsonl(rows: readonly unknown[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
}
