/**
 * The sequential invariance test of adaptive stopping: an e-process for "within every stratum (variant,
 * style, opponent) of a game, all framings share one choice distribution".
 *
 *   E = Π_strata [ Π_framings KT(x_f) ] / L(p̂; x_pooled)
 *
 * KT(x_f) is the Krichevsky–Trofimov mixture (Dirichlet(½, …, ½)) probability of the framing's choices —
 * sequentially, the next choice is action a with probability (c_a + ½)/(n + k/2) — and L(p̂; x_pooled) is
 * the likelihood of all the stratum's choices at their pooled maximum-likelihood rates. Under the null
 * with true common rates p, L(p̂) ≥ L(p), so E is at most the likelihood ratio KT/L(p), a nonnegative
 * martingale with mean 1 (sequential universal inference, Wasserman, Ramdas & Balakrishnan 2020). By
 * Ville's inequality P(E ever reaches 1/α) ≤ α: the test may be looked at after every trial.
 * Both parts depend on the counts only, so the order the trials finished in does not matter.
 */
export class InvarianceEProcess {
  /** log KT of every (stratum, framing), kept as choices arrive. */
  private readonly logMixture = new Map<string, number>();
  /** Counts per (stratum, framing), its total last, and pooled per stratum. */
  private readonly framingCounts = new Map<string, number[]>();
  private readonly pooledCounts = new Map<string, number[]>();

  /** `actions`: how many actions the game has (the k of the mixture). */
  constructor(private readonly actions: number) {
    if (!Number.isInteger(actions) || actions < 2) {
      throw new Error(`An invariance e-process needs a game of 2 or more actions, got ${actions}.`);
    }
  }

  /** Throws unless `action` is an action index of the game (0 … k−1). */
  checkAction(action: number): void {
    if (!Number.isInteger(action) || action < 0 || action >= this.actions) {
      throw new Error(`Action index ${action} is outside 0…${this.actions - 1}.`);
    }
  }

  /** One choice (action index 0 … k−1) of a trial of the stratum in the framing. */
  add(stratum: string, framing: string, action: number): void {
    this.checkAction(action);
    const key = `${stratum}\u0000${framing}`;
    // counts[k] holds the framing's total, so the predictive needs no sum.
    let counts = this.framingCounts.get(key);
    if (!counts) {
      counts = new Array<number>(this.actions + 1).fill(0);
      this.framingCounts.set(key, counts);
    }
    const n = counts[this.actions] as number;
    const predictive = ((counts[action] as number) + 0.5) / (n + this.actions / 2);
    this.logMixture.set(key, (this.logMixture.get(key) ?? 0) + Math.log(predictive));
    counts[action] = (counts[action] as number) + 1;
    counts[this.actions] = n + 1;
    const pooled = this.pooledCounts.get(stratum) ?? new Array<number>(this.actions).fill(0);
    pooled[action] = (pooled[action] as number) + 1;
    this.pooledCounts.set(stratum, pooled);
  }

  /** Every choice of a complete block (the order inside it does not matter to this test). */
  addBlock(choices: readonly { stratum: string; framing: string; action: number }[]): void {
    for (const c of choices) this.add(c.stratum, c.framing, c.action);
  }

  /** log E: 0 before any choice; never NaN (0 log 0 = 0). */
  logE(): number {
    let log = 0;
    for (const mixture of this.logMixture.values()) log += mixture;
    for (const pooled of this.pooledCounts.values()) log -= logMaximumLikelihood(pooled);
    return log;
  }

  /** Every (stratum, framing) cell so far: its counts and log KT (what the R confidence sequence reads). */
  cells(): { stratum: string; framing: string; counts: number[]; logMixture: number }[] {
    return [...this.framingCounts].map(([key, counts]) => {
      const cut = key.indexOf("\u0000");
      return {
        stratum: key.slice(0, cut),
        framing: key.slice(cut + 1),
        counts: counts.slice(0, this.actions),
        logMixture: this.logMixture.get(key) as number,
      };
    });
  }

  /** E itself, capped at the largest finite double (log E > 709 needs thousands of trials). */
  eValue(): number {
    return Math.min(Math.exp(this.logE()), Number.MAX_VALUE);
  }
}

/** log of Π_a (c_a/n)^c_a: the counts' likelihood at their own rates. */
export function logMaximumLikelihood(counts: readonly number[]): number {
  const n = counts.reduce((a, b) => a + b, 0);
  let log = 0;
  for (const c of counts) if (c > 0) log += c * Math.log(c / n);
  return log;
}
