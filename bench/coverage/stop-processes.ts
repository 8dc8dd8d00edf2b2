/**
 * The two invariance e-processes of adaptive stopping on arrays, for simulating many studies fast: one
 * stratum, framings 0 … F−1, actions 0 … k−1, one choice per framing per block. They compute what
 * src/domain/adaptive's classes compute (the bench checks every observed study against those classes),
 * without their maps and string keys, which the stagewise interval's thousands of simulated studies per
 * candidate configuration cannot afford.
 */
import {
  arrangementsWeight,
  logOrbitSize,
  PERMUTATION_SHRINKAGE,
} from "../../src/domain/adaptive/permutation-e-process.js";

export interface FastProcess {
  /** Forget every choice (reuse the object for the next simulated study). */
  reset(): void;
  /** One complete block: `actions[f]` is framing f's choice. */
  addBlock(actions: ArrayLike<number>): void;
  logE(): number;
}

/** x log x for x = 0 … max. */
function xLogXTable(max: number): Float64Array {
  const table = new Float64Array(max + 1);
  for (let x = 1; x <= max; x++) table[x] = x * Math.log(x);
  return table;
}

/** Sequential universal inference: Σ_f log KT(x_f) − log L(p̂; pooled), kept incrementally. */
export class FastUniversalInference implements FastProcess {
  private readonly counts: Int32Array;
  private readonly totals: Int32Array;
  private readonly pooled: Int32Array;
  private logMixture = 0;
  private n = 0;
  private readonly xLogX: Float64Array;

  constructor(
    private readonly framings: number,
    private readonly actions: number,
    maxBlocks: number,
  ) {
    this.counts = new Int32Array(framings * actions);
    this.totals = new Int32Array(framings);
    this.pooled = new Int32Array(actions);
    this.xLogX = xLogXTable(framings * maxBlocks);
  }

  reset(): void {
    this.counts.fill(0);
    this.totals.fill(0);
    this.pooled.fill(0);
    this.logMixture = 0;
    this.n = 0;
  }

  addBlock(actions: ArrayLike<number>): void {
    const k = this.actions;
    for (let f = 0; f < this.framings; f++) {
      const a = actions[f] as number;
      const i = f * k + a;
      this.logMixture += Math.log(((this.counts[i] as number) + 0.5) / ((this.totals[f] as number) + k / 2));
      this.counts[i] = (this.counts[i] as number) + 1;
      this.totals[f] = (this.totals[f] as number) + 1;
      this.pooled[a] = (this.pooled[a] as number) + 1;
    }
    this.n += this.framings;
  }

  logE(): number {
    let logLikelihood = -(this.xLogX[this.n] as number);
    for (let a = 0; a < this.actions; a++) logLikelihood += this.xLogX[this.pooled[a] as number] as number;
    return this.logMixture - logLikelihood;
  }
}

/** The within-block permutation bet, as WithinBlockPermutationEProcess.logFactor computes it. */
export class FastPermutation implements FastProcess {
  private readonly counts: number[][];
  private readonly pooled: number[];
  private log = 0;
  private total = 0;

  constructor(
    private readonly framings: number,
    private readonly actions: number,
  ) {
    this.counts = Array.from({ length: framings }, () => new Array<number>(actions).fill(0));
    this.pooled = new Array<number>(actions).fill(0);
  }

  reset(): void {
    for (const c of this.counts) c.fill(0);
    this.pooled.fill(0);
    this.log = 0;
    this.total = 0;
  }

  addBlock(actions: ArrayLike<number>): void {
    const k = this.actions;
    const F = this.framings;
    if (F >= 2) {
      const multiset = new Array<number>(k).fill(0);
      for (let f = 0; f < F; f++)
        multiset[actions[f] as number] = (multiset[actions[f] as number] as number) + 1;
      // A block where every framing chose alike has one arrangement: factor 1, nothing to compute.
      if (Math.max(...multiset) < F) {
        const pooledRate = this.pooled.map((c) => (c + 0.5) / (this.total + k / 2));
        const n = this.total / F;
        const bets = this.counts.map((counts) =>
          counts.map(
            (c, a) => (c + PERMUTATION_SHRINKAGE * (pooledRate[a] as number)) / (n + PERMUTATION_SHRINKAGE),
          ),
        );
        let logObserved = 0;
        for (let f = 0; f < F; f++)
          logObserved += Math.log((bets[f] as number[])[actions[f] as number] as number);
        this.log += logObserved - Math.log(arrangementsWeight(bets, multiset)) + logOrbitSize(multiset);
      }
    }
    for (let f = 0; f < F; f++) {
      const a = actions[f] as number;
      (this.counts[f] as number[])[a] = ((this.counts[f] as number[])[a] as number) + 1;
      this.pooled[a] = (this.pooled[a] as number) + 1;
    }
    this.total += F;
  }

  logE(): number {
    return this.log;
  }
}
