// A discrete distribution on a window of integers, drawn by inversion through a guide table (Chen & Asau):
// the table points into the CDF near u, so a draw costs O(1) on average. The windowed binomial (cluster
// multiplicities) and hypergeometric (permutation test) samplers build theirs here from relative masses.

/** The window [lo, lo + cdf.length) of a distribution and its guide table. */
export interface GuideTable {
  readonly lo: number;
  readonly cdf: Float64Array;
  readonly guide: Int32Array;
}

/**
 * Window widths, in standard deviations around the mean plus a margin: outside the window lies less than
 * 1e-30 of the mass, far below what 10⁴ replicates could ever draw.
 */
export const WINDOW_SD = 12;
export const WINDOW_EXTRA = 16;

/** The guide table of the distribution whose relative (unnormalised) masses on lo, lo+1, … are `mass`. */
export function guideTable(lo: number, mass: Float64Array): GuideTable {
  let total = 0;
  for (let i = 0; i < mass.length; i++) total += mass[i] as number;
  const cdf = new Float64Array(mass.length);
  let sum = 0;
  for (let i = 0; i < mass.length; i++) {
    sum += mass[i] as number;
    cdf[i] = Math.min(1, sum / total);
  }
  cdf[mass.length - 1] = 1;
  const slots = 4 * mass.length;
  const guide = new Int32Array(slots);
  let i = 0;
  for (let j = 0; j < slots; j++) {
    while ((cdf[i] as number) <= j / slots) i++;
    guide[j] = i;
  }
  return { lo, cdf, guide };
}

/**
 * The index into `cdf` that the uniform u in [0, 1) draws: the guide points near it, then a short scan to
 * the first cumulative mass above u. The value drawn is `lo` plus it.
 */
export function guideIndex(table: GuideTable, u: number): number {
  const { cdf, guide } = table;
  let i = guide[(u * guide.length) | 0] as number;
  while ((cdf[i] as number) <= u) i++;
  return i;
}
