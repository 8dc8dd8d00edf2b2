import { InvarianceEProcess } from "./invariance-e-process.js";

/** One choice of a complete block: the trial's stratum (variant, style, opponent), framing and action index. */
export interface BlockChoice {
  readonly stratum: string;
  readonly framing: string;
  readonly action: number;
}

/** How far a framing's plug-in rates lean on the pooled rates: worth this many pooled choices. */
export const PERMUTATION_SHRINKAGE = 2;

/**
 * The sharper sequential invariance test: an e-process built on the schedule's own randomisation.
 *
 * A block of the schedule holds every cell once, in a random order. Under the null — within a stratum
 * every framing draws its choice from one distribution, whatever it is and even if it drifts from
 * block to block — a stratum's choices in one block are exchangeable across its framings: given the
 * multiset M of the actions chosen, every arrangement of M over the framings is equally likely. So the
 * block's factor
 *
 *   F = q(a | M) · |orbit(M)|,   q(a | M) = Π_f w_f(a_f) / Σ_{a′ ∈ orbit(M)} Π_f w_f(a′_f)
 *
 * has mean exactly 1 under the null for any rates w_f fixed before the block, and the product of the
 * factors over blocks (and strata) is a nonnegative martingale of mean 1: by Ville's inequality it ever
 * reaches 1/α with probability ≤ α, looked at after every block. No nuisance rate is estimated in the
 * denominator, so it pays none of universal inference's price; a block where every framing chose alike
 * has one arrangement and factor 1.
 *
 * The bet w_f is each framing's rate so far (pooled over the game's strata), shrunk toward the pooled
 * rate of all framings: w_f(a) = (c_f(a) + κ·p̄(a)) / (n_f + κ), p̄(a) = (C(a) + ½) / (N + k/2), κ =
 * PERMUTATION_SHRINKAGE. Shrinkage keeps the first blocks' bets modest (block 1: every w_f equal, factor
 * 1). Framings without a valid choice in the block leave it; the rest are still exchangeable (their
 * choices are draws of one distribution given that they chose), so the null this tests is "framings
 * share the distribution of a valid choice", whatever their rates of invalid replies.
 */
export class WithinBlockPermutationEProcess {
  private log = 0;
  /** Counts per framing over all strata, and over all framings. */
  private readonly framingCounts = new Map<string, number[]>();
  private readonly pooled: number[];
  /** The per-cell KT mixtures R's confidence sequence reads (that interval does not depend on the test). */
  private readonly cellMixtures: InvarianceEProcess;

  constructor(private readonly actions: number) {
    this.cellMixtures = new InvarianceEProcess(actions);
    this.pooled = new Array<number>(actions).fill(0);
  }

  /** A complete block of the game: every choice of it, bet on with the rates of the blocks before. */
  addBlock(choices: readonly BlockChoice[]): void {
    for (const choice of choices) this.cellMixtures.checkAction(choice.action);
    const byStratum = new Map<string, BlockChoice[]>();
    for (const choice of choices) {
      const own = byStratum.get(choice.stratum);
      if (own?.some((c) => c.framing === choice.framing)) {
        throw new Error(
          `Framing "${choice.framing}" chose twice in one block of stratum ${choice.stratum}: a block holds each cell once.`,
        );
      }
      if (own) own.push(choice);
      else byStratum.set(choice.stratum, [choice]);
    }
    for (const stratumChoices of byStratum.values()) this.log += this.logFactor(stratumChoices);
    for (const choice of choices) {
      this.cellMixtures.add(choice.stratum, choice.framing, choice.action);
      let counts = this.framingCounts.get(choice.framing);
      if (!counts) {
        counts = new Array<number>(this.actions).fill(0);
        this.framingCounts.set(choice.framing, counts);
      }
      counts[choice.action] = (counts[choice.action] as number) + 1;
      this.pooled[choice.action] = (this.pooled[choice.action] as number) + 1;
    }
  }

  /** log F of one stratum's choices in a block, with the bets of the blocks before. */
  private logFactor(choices: readonly BlockChoice[]): number {
    if (choices.length < 2) return 0;
    const k = this.actions;
    const total = this.pooled.reduce((a, b) => a + b, 0);
    const pooledRate = this.pooled.map((c) => (c + 0.5) / (total + k / 2));
    const bets = choices.map((choice) => {
      const counts = this.framingCounts.get(choice.framing) ?? new Array<number>(k).fill(0);
      const n = counts.reduce((a, b) => a + b, 0);
      return counts.map(
        (c, a) => (c + PERMUTATION_SHRINKAGE * (pooledRate[a] as number)) / (n + PERMUTATION_SHRINKAGE),
      );
    });
    const multiset = new Array<number>(k).fill(0);
    for (const c of choices) multiset[c.action] = (multiset[c.action] as number) + 1;
    let logObserved = 0;
    choices.forEach((c, f) => {
      logObserved += Math.log((bets[f] as number[])[c.action] as number);
    });
    return logObserved - Math.log(arrangementsWeight(bets, multiset)) + logOrbitSize(multiset);
  }

  logE(): number {
    return this.log;
  }

  /** E itself, capped at the largest finite double. */
  eValue(): number {
    return Math.min(Math.exp(this.log), Number.MAX_VALUE);
  }

  /** Every (stratum, framing) cell so far: its counts and log KT (what R's confidence sequence reads). */
  cells(): ReturnType<InvarianceEProcess["cells"]> {
    return this.cellMixtures.cells();
  }
}

/**
 * Σ over the distinct arrangements a′ of the multiset over the framings of Π_f w_f(a′_f): a walk over
 * the framings whose state is the multiset still to place (mixed-radix index), at most Π (m_a + 1)
 * states — a few hundred for 11 framings and 6 actions, where the arrangements number over a million.
 */
export function arrangementsWeight(
  weights: readonly (readonly number[])[],
  multiset: readonly number[],
): number {
  const strides: number[] = [];
  let size = 1;
  for (const m of multiset) {
    strides.push(size);
    size *= m + 1;
  }
  let states = new Float64Array(size);
  states[size - 1] = 1; // every action's full count still to place
  for (const w of weights) {
    const next = new Float64Array(size);
    for (let state = 0; state < size; state++) {
      const value = states[state] as number;
      if (value === 0) continue;
      for (let a = 0; a < multiset.length; a++) {
        const left = Math.floor(state / (strides[a] as number)) % ((multiset[a] as number) + 1);
        if (left === 0) continue;
        const to = state - (strides[a] as number);
        next[to] = (next[to] as number) + value * (w[a] as number);
      }
    }
    states = next;
  }
  return states[0] as number;
}

/** log of the number of distinct arrangements of the multiset: n! / Π m_a!. */
export function logOrbitSize(multiset: readonly number[]): number {
  let log = 0;
  let n = 0;
  for (const m of multiset) {
    for (let i = 1; i <= m; i++) log += Math.log(++n / i);
  }
  return log;
}
