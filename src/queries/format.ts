// Small formatting helpers for the readable text twins and CLI tables.

export function fixed(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);
}

export function interval(ci: readonly [number, number] | null | undefined, digits = 3): string {
  return ci ? `[${fixed(ci[0], digits)}, ${fixed(ci[1], digits)}]` : "—";
}

// C0/C1 controls, DEL, and the bidirectional overrides that reorder what a terminal shows.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A cell as it may reach an operator's terminal: a player label or reply is the client's text, so an
 * escape sequence in it is shown as `\x1b`, never executed, and a newline cannot break the table.
 */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/** A label as one shell word, for a command a message suggests: bare when safe, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w.,:@%+/=-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** A plain-text table: the header row, then rows, columns padded to their widest cell; every cell printable. */
export function table(header: readonly string[], rawRows: readonly (readonly string[])[]): string {
  const rows = rawRows.map((r) => r.map(printable));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
