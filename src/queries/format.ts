// Small formatting helpers for the readable text twins and CLI tables.

export function fixed(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "—" : value.toFixed(digits);
}

export function interval(ci: readonly [number, number] | null | undefined, digits = 3): string {
  return ci ? `[${fixed(ci[0], digits)}, ${fixed(ci[1], digits)}]` : "—";
}

/** A plain-text table: the header row, then rows, columns padded to their widest cell. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
