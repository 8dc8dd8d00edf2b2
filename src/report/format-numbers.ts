// How numbers read in the report's tables: fixed decimals, a dash for values that do not exist.

import { fixed as formatNumber } from "../queries/format.js";

// The same rule as the CLI's tables and the dashboard (a dash for no value, zero without a sign).
export { formatNumber };

export function formatCi(ci: readonly [number, number], digits = 3): string {
  return `[${formatNumber(ci[0], digits)}, ${formatNumber(ci[1], digits)}]`;
}

/** Whether a 95% interval leaves out zero, i.e. the effect is distinguishable from none. */
export function ciExcludesZero(ci: readonly [number, number]): boolean {
  return ci[0] > 0 || ci[1] < 0;
}

/**
 * The comprehension round m with its unit: "round 3.2" (a mean over matches), or "never" when no match of
 * the cell got there in its `rounds` rounds (m is then rounds + 1 by definition, SPEC §6); "(some never)"
 * when the mean counts such matches beside others.
 */
export function formatComprehensionRound(mean: number | null, rounds: number): string {
  if (mean === null || !Number.isFinite(mean)) return "—";
  if (rounds > 0 && mean >= rounds + 1 - 1e-9) return `never (in ${rounds} rounds)`;
  // A comprehending match has m ≤ rounds, so a mean above it includes at least one "never".
  return rounds > 0 && mean > rounds ? `round ${mean.toFixed(1)} (some never)` : `round ${mean.toFixed(1)}`;
}
