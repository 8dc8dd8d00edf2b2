// Exact hypergeometric draws without tables, for arguments that change from draw to draw.

/**
 * X ~ Hypergeometric(N items, K of the kind, m drawn) by inversion of u from the mode outwards: P(mode)
 * from ln-factorials, then the support is walked alternately below and above the mode, each mass from its
 * neighbour by the ratio P(x+1)/P(x) = (K − x)(m − x) / ((x + 1)(N − K − m + x + 1)), until the masses
 * visited exceed u. Every value is returned for a set of u of measure its probability (to rounding), so
 * the draw is exact in distribution; it costs O(standard deviation) steps. Should rounding leave u above
 * all the mass, the last value visited is returned (a set of measure ~1e-15).
 */
export function hypergeometricFromMode(
  N: number,
  K: number,
  m: number,
  lnFactorial: Float64Array,
  u: number,
): number {
  const lo = Math.max(0, m - (N - K));
  const hi = Math.min(m, K);
  if (lo === hi) return lo;
  const mode = hypergeometricMode(N, K, m, lo, hi);
  const pMode = hypergeometricMass(N, K, m, mode, lnFactorial);
  let sum = pMode;
  if (u < sum) return mode;
  let down = mode;
  let up = mode;
  let pDown = pMode;
  let pUp = pMode;
  for (;;) {
    if (up < hi) {
      pUp = (pUp * ((K - up) * (m - up))) / ((up + 1) * (N - K - m + up + 1));
      up++;
      sum += pUp;
      if (u < sum) return up;
    }
    if (down > lo) {
      pDown = (pDown * (down * (N - K - m + down))) / ((K - down + 1) * (m - down + 1));
      down--;
      sum += pDown;
      if (u < sum) return down;
    }
    if (up >= hi && down <= lo) return up < hi ? up : down;
  }
}

/** The mode of Hypergeometric(N, K, m), within its support [lo, hi]. */
export function hypergeometricMode(N: number, K: number, m: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Math.floor(((m + 1) * (K + 1)) / (N + 2))));
}

/** P(X = x) for X ~ Hypergeometric(N, K, m), from ln-factorials (`f[i]` = ln i!). */
export function hypergeometricMass(N: number, K: number, m: number, x: number, f: Float64Array): number {
  return Math.exp(
    (f[K] as number) -
      (f[x] as number) -
      (f[K - x] as number) +
      (f[N - K] as number) -
      (f[m - x] as number) -
      (f[N - K - m + x] as number) -
      ((f[N] as number) - (f[m] as number) - (f[N - m] as number)),
  );
}
