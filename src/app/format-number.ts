import { unsignedZero } from "../queries/format.js";

/** A number of the view's tables: fixed decimals, a dash for a value that does not exist. */
export function formatNumber(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  // A tiny negative rounds to "-0.000"; zero has no sign (the rule of the CLI's tables and the report).
  return unsignedZero(value.toFixed(digits));
}
