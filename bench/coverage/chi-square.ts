/** The χ² distribution's tail for the benchmarks' Pearson tests of homogeneity. */

/** Regularized upper incomplete gamma Q(s, x) (series / continued fraction, Numerical Recipes §6.2). */
export function upperGamma(s: number, x: number): number {
  if (x <= 0) return 1;
  const lnGammaS = lnGamma(s);
  if (x < s + 1) {
    let sum = 1 / s;
    let term = sum;
    for (let k = 1; k < 500; k++) {
      term *= x / (s + k);
      sum += term;
      if (term < sum * 1e-15) break;
    }
    return 1 - sum * Math.exp(-x + s * Math.log(x) - lnGammaS);
  }
  let b = x + 1 - s;
  let cc = 1e300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - s);
    b += 2;
    d = an * d + b;
    d = Math.abs(d) < 1e-300 ? 1e-300 : d;
    cc = b + an / cc;
    cc = Math.abs(cc) < 1e-300 ? 1e-300 : cc;
    d = 1 / d;
    const delta = d * cc;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.exp(-x + s * Math.log(x) - lnGammaS) * h;
}

function lnGamma(z: number): number {
  const g = [
    76.18009172947146, -86.50532032941678, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2,
    -0.5395239384953e-5,
  ];
  let x = z;
  let y = z;
  let tmp = x + 5.5;
  tmp -= (x + 0.5) * Math.log(tmp);
  let ser = 1.000000000190015;
  for (const c of g) ser += c / ++y;
  x = z;
  return -tmp + Math.log((2.5066282746310007 * ser) / x);
}

/** Pearson's χ² test of homogeneity of framings' counts (rows: framings, columns: actions; empty columns dropped). */
export function pearsonHomogeneityP(counts: readonly (readonly number[])[]): number {
  const k = counts[0]?.length ?? 0;
  const columns = Array.from({ length: k }, (_, a) => counts.reduce((s, row) => s + (row[a] as number), 0));
  const used = columns.map((c, a) => (c > 0 ? a : -1)).filter((a) => a >= 0);
  const n = counts.map((row) => row.reduce((s, x) => s + x, 0));
  const total = n.reduce((s, x) => s + x, 0);
  let chi2 = 0;
  for (const a of used) {
    counts.forEach((row, f) => {
      const expected = ((n[f] as number) * (columns[a] as number)) / total;
      chi2 += ((row[a] as number) - expected) ** 2 / expected;
    });
  }
  const df = (counts.length - 1) * (used.length - 1);
  return df === 0 ? 1 : upperGamma(df / 2, chi2 / 2);
}
