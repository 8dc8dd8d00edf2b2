// Percentile intervals of bootstrap replicates without sorting them.
//
// Definition (numpy's default, "linear"): for B values sorted ascending x_0 ≤ … ≤ x_{B−1} and a level
// q ∈ [0, 1], let h = (B − 1)·q, i = ⌊h⌋; the percentile is x_i + (h − i)·(x_{i+1} − x_i). Only a few
// order statistics are needed, so selection (Floyd–Rivest, expected B + min(i, B − i) + o(B)
// comparisons) replaces the full sort.

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i] as number;
  a[i] = a[j] as number;
  a[j] = t;
}

/**
 * Floyd & Rivest's SELECT (CACM 1975, Algorithm 489): rearrange `a[left..right]` so that `a[k]` holds its
 * sorted-order value with everything before it ≤ and everything after it ≥. For large ranges it first
 * recurses on a small sample around the expected position of k, so the pivot lands very close to it.
 */
function selectInPlace(a: Float64Array, k: number, left: number, right: number): void {
  let lo = left;
  let hi = right;
  while (hi > lo) {
    if (hi - lo > 600) {
      const n = hi - lo + 1;
      const m = k - lo + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
      selectInPlace(
        a,
        k,
        Math.max(lo, Math.floor(k - (m * s) / n + sd)),
        Math.min(hi, Math.floor(k + ((n - m) * s) / n + sd)),
      );
    }
    const pivot = a[k] as number;
    let i = lo;
    let j = hi;
    swap(a, lo, k);
    if ((a[hi] as number) > pivot) swap(a, lo, hi);
    while (i < j) {
      swap(a, i, j);
      i++;
      j--;
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
    }
    if (a[lo] === pivot) swap(a, lo, j);
    else {
      j++;
      swap(a, j, hi);
    }
    if (j <= k) lo = j + 1;
    if (k <= j) hi = j - 1;
  }
}

/** The sample of replicates used to place the two partition pivots (see `percentileInterval`). */
const PIVOT_SAMPLE = 512;

/**
 * The two-sided percentile interval at `confidence` (levels (1 − c)/2 and (1 + c)/2) of `values`, numpy
 * "linear" definition. Reorders `values` in place (the caller's replicates are not needed afterwards).
 *
 * For large inputs both tails are cut off in a single pass: two pivots are read from a sample (the first
 * PIVOT_SAMPLE values — bootstrap replicates are exchangeable, so that is a random sample), chosen about
 * three standard errors outside the wanted ranks; one three-way partition then puts every value ≤ the
 * low pivot first and every value ≥ the high pivot last, and the order statistics are selected inside
 * those two short blocks. If a block turns out not to contain its ranks (rare; or the input was not
 * exchangeable) the full selection runs instead, so the answer is exact either way.
 */
export function percentileInterval(values: Float64Array, confidence: number): [number, number] {
  const n = values.length;
  if (n === 0) throw new Error("A percentile interval needs at least one value; got none.");
  const last = n - 1;
  const tail = (1 - confidence) / 2;
  const hLow = last * tail;
  const hHigh = last * (1 - tail);
  const iLow = Math.floor(hLow);
  const iHigh = Math.floor(hHigh);
  if (n >= 4 * PIVOT_SAMPLE && iLow + 1 < iHigh) {
    const interval = intervalByPartition(values, hLow, hHigh, tail);
    if (interval !== null) return interval;
  }
  // Small inputs (or a failed partition): select x_{iHigh} over everything, then the low rank before it.
  selectInPlace(values, iHigh, 0, last);
  const x = values[iHigh] as number;
  const next = iHigh < last ? minimumOf(values, iHigh + 1, last) : x;
  const upper = x + (hHigh - iHigh) * (next - x);
  const lower = iLow < iHigh ? lowerStatistic(values, hLow, iLow, iHigh) : x + (hLow - iHigh) * (next - x);
  return [lower, upper];
}

/**
 * Three-way partition around pivots read from the sample, then selection inside the two end blocks;
 * null when a block does not hold its ranks (the caller then selects over everything).
 */
function intervalByPartition(
  a: Float64Array,
  hLow: number,
  hHigh: number,
  tail: number,
): [number, number] | null {
  const n = a.length;
  const iLow = Math.floor(hLow);
  const iHigh = Math.floor(hHigh);
  const s = PIVOT_SAMPLE;
  const margin = 3 * Math.sqrt(s * tail * (1 - tail)) + 1;
  const sLow = Math.min(s - 1, Math.ceil(((iLow + 2) * s) / n + margin));
  const sHigh = Math.max(0, Math.floor((iHigh * s) / n - margin));
  if (sLow >= sHigh) return null;
  selectInPlace(a, sLow, 0, s - 1);
  const pivotLow = a[sLow] as number;
  selectInPlace(a, sHigh, sLow, s - 1);
  const pivotHigh = a[sHigh] as number;
  if (pivotLow === pivotHigh) return tiedTails(a, pivotLow, iLow, iHigh);
  if (!(pivotLow < pivotHigh)) return null;
  let lt = 0;
  let i = 0;
  let gt = n - 1;
  while (i <= gt) {
    const v = a[i] as number;
    if (v <= pivotLow) {
      a[i] = a[lt] as number;
      a[lt] = v;
      lt++;
      i++;
    } else if (v >= pivotHigh) {
      a[i] = a[gt] as number;
      a[gt] = v;
      gt--;
    } else i++;
  }
  if (lt < iLow + 2 || gt + 1 > iHigh) return null;
  return [lowerStatistic(a, hLow, iLow, lt - 1), upperStatistic(a, hHigh, iHigh, gt + 1)];
}

/**
 * Both pivots equal v: most values are tied at v (a statistic that barely varies, e.g. R of two cells that
 * never change). If every wanted rank (iLow, iLow + 1, iHigh, iHigh + 1) holds v, the interval is [v, v].
 */
function tiedTails(a: Float64Array, v: number, iLow: number, iHigh: number): [number, number] | null {
  let below = 0;
  let above = 0;
  for (let j = 0; j < a.length; j++) {
    const x = a[j] as number;
    if (x < v) below++;
    else if (x > v) above++;
  }
  return below <= iLow && a.length - above >= Math.min(iHigh + 2, a.length) ? [v, v] : null;
}

/**
 * x_i + (h − i)(x_{i+1} − x_i) for the low rank i, given that ranks 0..i+1 all lie in a[0..end]: select
 * x_{i+1} there, then x_i is the largest of the i + 1 values before it.
 */
function lowerStatistic(a: Float64Array, h: number, i: number, end: number): number {
  selectInPlace(a, i + 1, 0, end);
  const next = a[i + 1] as number;
  let x = a[0] as number;
  for (let j = 1; j <= i; j++) if ((a[j] as number) > x) x = a[j] as number;
  return x + (h - i) * (next - x);
}

/**
 * The same for the high rank i, given that ranks i..n−1 all lie in a[start..n−1]: select x_i there, then
 * x_{i+1} is the smallest of the values after it.
 */
function upperStatistic(a: Float64Array, h: number, i: number, start: number): number {
  const last = a.length - 1;
  selectInPlace(a, i, start, last);
  const x = a[i] as number;
  return i === last ? x : x + (h - i) * (minimumOf(a, i + 1, last) - x);
}

function minimumOf(a: Float64Array, from: number, to: number): number {
  let m = a[from] as number;
  for (let j = from + 1; j <= to; j++) if ((a[j] as number) < m) m = a[j] as number;
  return m;
}
