// Small formatting helpers for the readable text twins and CLI tables.

import { printable } from "../printable-text.js";
import { displayWidth, padToWidth } from "./display-width.js";

// The terminal-safe text of every table and twin; it lives at the top level so that the catalog (domain)
// can escape what it echoes too.
export { printable, printableLines } from "../printable-text.js";

export function fixed(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined || !Number.isFinite(value)
    ? "—"
    : unsignedZero(value.toFixed(digits));
}

/**
 * A value that rounds to zero reads "0.000", never "-0.000": a mean of 1/3 and −1/3 is −2.8e−17 in floating
 * point, and the sign of that rounding noise is no direction. The dashboard and the HTML report read the
 * same way, so one number has one text on every surface.
 */
export function unsignedZero(text: string): string {
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/**
 * A p-value as read: `digits` decimals, or "< 0.001" below what they show. A permutation p = (1 + #)/(1 + B)
 * is never 0, so it is never printed as 0.000.
 */
export function pValue(p: number | null | undefined, digits = 3): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return "—";
  const floor = 10 ** -digits;
  return p < floor ? `< ${floor.toFixed(digits)}` : p.toFixed(digits);
}

/** An ISO time of the record to the second, its zone kept: `2026-12-04T04:20:27Z`, never read as local time. */
export function utcSeconds(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}

/**
 * A confidence level as a percentage, to the digits it was given in: 0.95 → "95%", 0.999 → "99.9%",
 * 0.975 → "97.5%". Rounded to a whole percent, 0.999 read "100%" and 0.975 "98%".
 */
export function confidenceLevel(confidence: number): string {
  return `${Number((confidence * 100).toPrecision(12))}%`;
}

export function interval(ci: readonly [number, number] | null | undefined, digits = 3): string {
  return ci ? `[${fixed(ci[0], digits)}, ${fixed(ci[1], digits)}]` : "—";
}

/**
 * A plain-text table: the header row, then rows, columns padded to their widest cell; every cell printable,
 * the header's too (a column may be named after a framing).
 */
export function table(rawHeader: readonly string[], rawRows: readonly (readonly string[])[]): string {
  const header = rawHeader.map(printable);
  const rows = rawRows.map((r) => r.map(printable));
  // Padded by the columns a cell takes on a terminal, not its UTF-16 length (display-width.ts).
  const widths = header.map((h, i) =>
    Math.max(displayWidth(h), ...rows.map((r) => displayWidth(r[i] ?? ""))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => padToWidth(c, widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}
