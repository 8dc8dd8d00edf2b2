/**
 * The exact stopping distribution of sequential universal inference on 2 framings × 2 actions, one
 * stratum, a look after every block: its e-value depends on the counts only, so the probability of every
 * (block, x1, x2) not yet stopped follows by dynamic programming — (b + 1)² states after block b, each
 * moving to 4 with the block's two choices. What the stagewise interval's tails need: under rates
 * (p1, p2) of action 0, the probability that the procedure's outcome is more extreme than the observed
 * one (stopped earlier, or after the same block with a lower R̂), as extreme (a tie), or less.
 */
import { robustnessOfDistributions } from "../../src/analysis/robustness/multi-action-inversion.js";

export interface TailProbabilities {
  more: number;
  ties: number;
  less: number;
}

/** log KT of x of n choices of 2 actions (the Krichevsky–Trofimov mixture), for n ≤ max. */
function logKtTable(max: number): Float64Array[] {
  const table: Float64Array[] = [new Float64Array([0])];
  for (let n = 1; n <= max; n++) {
    const row = new Float64Array(n + 1);
    const prev = table[n - 1] as Float64Array;
    for (let x = 0; x <= n; x++) {
      // The n-th choice was action 0 (x − 1 of n − 1 before) or action 1 (x of n − 1 before).
      row[x] =
        x > 0
          ? (prev[x - 1] as number) + Math.log((x - 1 + 0.5) / n)
          : (prev[x] as number) + Math.log((n - 1 - x + 0.5) / n);
    }
    table.push(row);
  }
  return table;
}

const xLogX = (x: number): number => (x > 0 ? x * Math.log(x) : 0);

export class ExactStopDistribution {
  /** Whether the test stops at (x1, x2) after b blocks, and R̂ there, per block. */
  private readonly stops: Uint8Array[] = [];
  private readonly rHat: Float64Array[] = [];

  /**
   * @param limit the last block to follow (the observed stop's, or the design's last when it never stopped)
   * @param observedCode the observed stop's block, limit + 1 when it never stopped
   */
  constructor(
    private readonly limit: number,
    private readonly observedCode: number,
    private readonly observedR: number,
    logThreshold: number,
  ) {
    const kt = logKtTable(limit);
    for (let b = 1; b <= limit; b++) {
      const size = b + 1;
      const stops = new Uint8Array(size * size);
      const r = new Float64Array(size * size);
      const ktb = kt[b] as Float64Array;
      for (let x1 = 0; x1 <= b; x1++) {
        for (let x2 = 0; x2 <= b; x2++) {
          const c = x1 + x2;
          const logL = xLogX(c) + xLogX(2 * b - c) - xLogX(2 * b);
          const logE = (ktb[x1] as number) + (ktb[x2] as number) - logL;
          stops[x1 * size + x2] = logE >= logThreshold ? 1 : 0;
          r[x1 * size + x2] = robustnessOfDistributions([
            [x1 / b, 1 - x1 / b],
            [x2 / b, 1 - x2 / b],
          ]);
        }
      }
      this.stops.push(stops);
      this.rHat.push(r);
    }
  }

  tails(p1: number, p2: number): TailProbabilities {
    const tails: TailProbabilities = { more: 0, ties: 0, less: 0 };
    let current = new Float64Array([1]);
    for (let b = 1; b <= this.limit; b++) {
      const size = b + 1;
      const next = new Float64Array(size * size);
      for (let x1 = 0; x1 < b; x1++) {
        for (let x2 = 0; x2 < b; x2++) {
          const p = current[x1 * b + x2] as number;
          if (p === 0) continue;
          const i = x1 * size + x2;
          next[i + size + 1] = (next[i + size + 1] as number) + p * p1 * p2;
          next[i + size] = (next[i + size] as number) + p * p1 * (1 - p2);
          next[i + 1] = (next[i + 1] as number) + p * (1 - p1) * p2;
          next[i] = (next[i] as number) + p * (1 - p1) * (1 - p2);
        }
      }
      const stops = this.stops[b - 1] as Uint8Array;
      const r = this.rHat[b - 1] as Float64Array;
      const last = b === this.limit;
      for (let i = 0; i < next.length; i++) {
        const p = next[i] as number;
        if (p === 0) continue;
        const stopped = stops[i] === 1;
        if (!stopped && !last) continue;
        const code = stopped ? b : this.limit + 1;
        if (code < this.observedCode) tails.more += p;
        else if (code > this.observedCode) tails.less += p;
        else {
          const ri = r[i] as number;
          if (Math.abs(ri - this.observedR) <= 1e-12) tails.ties += p;
          else if (ri < this.observedR) tails.more += p;
          else tails.less += p;
        }
        if (stopped) next[i] = 0;
      }
      current = next;
    }
    return tails;
  }
}
