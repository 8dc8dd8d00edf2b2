// How numbers read in the report's tables: fixed decimals, a dash for values that do not exist.

export function formatNumber(value: number | null, digits = 3): string {
  return value === null || !Number.isFinite(value) ? "—" : value.toFixed(digits);
}

export function formatCi(ci: readonly [number, number], digits = 3): string {
  return `[${formatNumber(ci[0], digits)}, ${formatNumber(ci[1], digits)}]`;
}

/** Whether a 95% interval leaves out zero, i.e. the effect is distinguishable from none. */
export function ciExcludesZero(ci: readonly [number, number]): boolean {
  return ci[0] > 0 || ci[1] < 0;
}
