// `hypergeometricFromMode` for arguments that recur: a permutation null redraws the same few session
// tables (the same N, K, m) in every replicate, so the order in which that draw visits the support and
// the running sums it compares u with are worked out once per (N, K, m) and kept. A draw is then a scan
// of those sums, without the ln-factorial exponential and the ratio of each step; the sums are the same
// floating-point numbers the walk adds up, so every u gives the value `hypergeometricFromMode` gives.

import { hypergeometricMass, hypergeometricMode } from "./hypergeometric-from-mode.js";

/** One (N, K, m): the values in the walk's visiting order and the running masses after each. */
export interface Walk {
  readonly values: Int32Array;
  readonly sums: Float64Array;
  /** What the walk returns should rounding leave u above every sum: the lowest value. */
  readonly fallback: number;
}

/** Above this many (N, K, m) keys the walks are kept in a Map instead of a flat array. */
const FLAT_KEYS = 1 << 21;

export class HypergeometricMemo {
  private readonly side: number;
  private readonly flat: (Walk | undefined)[] | null;
  private readonly byKey = new Map<number, Walk>();

  /** For draws with N ≤ `largest`; `lnFactorial[i]` = ln i! for i ≤ `largest`. */
  constructor(
    private readonly lnFactorial: Float64Array,
    largest: number,
  ) {
    this.side = largest + 1;
    const keys = this.side * this.side * this.side;
    // Filled up front so that V8 keeps it a flat array.
    this.flat = keys <= FLAT_KEYS ? new Array<Walk | undefined>(keys).fill(undefined) : null;
  }

  /** X ~ Hypergeometric(N, K, m) from u: the value `hypergeometricFromMode(N, K, m, lnFactorial, u)` returns. */
  draw(N: number, K: number, m: number, u: number): number {
    const { sums, values, fallback } = this.walk(N, K, m);
    const last = sums.length;
    let i = 0;
    while (i < last && u >= (sums[i] as number)) i++;
    return i < last ? (values[i] as number) : fallback;
  }

  /** The walk of (N, K, m), worked out on first use: what `draw` scans. */
  walk(N: number, K: number, m: number): Walk {
    const key = (N * this.side + K) * this.side + m;
    let walk = this.flat === null ? this.byKey.get(key) : this.flat[key];
    if (walk === undefined) {
      walk = modeOutwardWalk(N, K, m, this.lnFactorial);
      if (this.flat === null) this.byKey.set(key, walk);
      else this.flat[key] = walk;
    }
    return walk;
  }
}

/** The walk of `hypergeometricFromMode`, step for step, recorded instead of stopped at u. */
function modeOutwardWalk(N: number, K: number, m: number, f: Float64Array): Walk {
  const lo = Math.max(0, m - (N - K));
  const hi = Math.min(m, K);
  if (lo === hi) return { values: Int32Array.of(lo), sums: Float64Array.of(Infinity), fallback: lo };
  const mode = hypergeometricMode(N, K, m, lo, hi);
  const pMode = hypergeometricMass(N, K, m, mode, f);
  const values: number[] = [mode];
  const sums: number[] = [pMode];
  let sum = pMode;
  let down = mode;
  let up = mode;
  let pDown = pMode;
  let pUp = pMode;
  while (!(up >= hi && down <= lo)) {
    if (up < hi) {
      pUp = (pUp * ((K - up) * (m - up))) / ((up + 1) * (N - K - m + up + 1));
      up++;
      sum += pUp;
      values.push(up);
      sums.push(sum);
    }
    if (down > lo) {
      pDown = (pDown * (down * (N - K - m + down))) / ((K - down + 1) * (m - down + 1));
      down--;
      sum += pDown;
      values.push(down);
      sums.push(sum);
    }
  }
  return { values: Int32Array.from(values), sums: Float64Array.from(sums), fallback: down };
}
