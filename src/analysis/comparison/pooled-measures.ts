import { fitPooledLambda, LAMBDA_MAX, type LogitObservation } from "../sensitivity/logit-response-mle.js";

/** The measures of a group pooled over a set of games (not a mean of per-game values like R and the shift). */
export type PooledMeasure = "lambda" | "exploitability";

/** What the pooled measures need to know about a game, beyond its actions. */
export interface PooledModel {
  /**
   * Δu_G of a two-action game with a cooperative action (payoff-sensitivity.ts), else null: the game
   * then says nothing about λ and is left out of its fit.
   */
  readonly deltaU: (game: string) => number | null;
  /** The index of the game's cooperative action, or −1. */
  readonly cooperative: (game: string) => number;
  /** The normalised exploitability of a row distribution (in action order), null when undefined. */
  readonly exploitability: (game: string, distribution: readonly number[]) => number | null;
  /**
   * The largest normalised exploitability any play can have in the game (exploitabilityBound), or null
   * when undefined; absent, the measure's a-priori bound 1.
   */
  readonly exploitabilityBound?: (game: string) => number | null;
}

/** The bounds a pooled measure lives in: its interval is clamped to them. */
export const POOLED_BOUNDS: Record<PooledMeasure, [number, number]> = {
  lambda: [0, LAMBDA_MAX],
  exploitability: [0, 1],
};

export interface PooledReplicates {
  readonly measure: PooledMeasure;
  readonly point: number;
  readonly star: Float64Array;
  /**
   * The values the measure can take on these games: a replicate spread about its mean (group-replicates.ts)
   * is kept inside them.
   */
  readonly bounds: readonly [number, number];
  /** λ only: the share of replicates whose fit is 0, the bootstrap p-value of λ = 0 (pair-differences.ts). */
  readonly shareAtZero?: number;
  /**
   * λ only: the share of replicates whose fit is the cap LAMBDA_MAX, counted before they are spread (a
   * group that may sit at the cap; pair-differences.ts).
   */
  readonly shareAtCap?: number;
}

/**
 * λ and exploitability of one group over the given games (each with its cells, one per compared framing),
 * evaluated on the observed counts and then on every bootstrap replicate's counts (laid out `k` per cell):
 * - λ: the maximum-likelihood logit response pooled over every cell of the games with Δu_G ≠ 0
 *   (fitPooledLambda); a replicate's fit starts from the point estimate, so safeguarded Newton converges
 *   in a few steps instead of searching from λ = 1;
 * - exploitability: the mean over the cells of the cell's normalised exploitability (what an opponent who
 *   knows the cell's distribution gains over the nearest equilibrium, in units of the opponent's payoff
 *   range). A cell of n decisions has at most n + 1 distinct two-action distributions, so each is computed once.
 * A measure no game defines is absent from `results()`.
 */
export function pooledEvaluator(
  games: readonly { game: string; cells: readonly number[]; actions: number }[],
  k: number,
  model: PooledModel,
  bootstrap: number,
) {
  const observations: (LogitObservation & { cell: number; c: number })[] = [];
  // One memo per game, shared by its framings' cells: a count vector's exploitability depends on the game
  // and the vector only, and the replicates of a game's cells draw the same vectors again and again.
  const exploitable: {
    game: string;
    cell: number;
    /** The game's own actions: a cell's counts are laid out `k` wide, padded after them with zeros. */
    actions: number;
    cache: Map<number | string, number | null>;
  }[] = [];
  for (const { game, cells, actions } of games) {
    const deltaU = model.deltaU(game);
    const c = model.cooperative(game);
    const cache = new Map<number | string, number | null>();
    for (const cell of cells) {
      if (deltaU !== null && deltaU !== 0 && c >= 0)
        observations.push({ cooperative: 0, n: 0, deltaU, cell, c });
      exploitable.push({ game, cell, actions, cache });
    }
  }
  const lambda = {
    point: Number.NaN,
    star: new Float64Array(bootstrap),
    defined: observations.length > 0,
    atZero: 0,
    atCap: 0,
  };
  const exploitability = { point: Number.NaN, star: new Float64Array(bootstrap), defined: false };
  // A mean over cells (over those with decisions, in a replicate) is at most the largest of their games'
  // bounds.
  const exploitabilityMax = Math.max(
    0,
    ...games.map(({ game }) => model.exploitabilityBound?.(game) ?? POOLED_BOUNDS.exploitability[1]),
  );

  /** The exploitability mean of these counts, or null when no cell has decisions and a defined value. */
  const meanExploitability = (counts: Int32Array): number | null => {
    let sum = 0;
    let cells = 0;
    for (const e of exploitable) {
      let n = 0;
      for (let a = 0; a < e.actions; a++) n += counts[e.cell * k + a] as number;
      if (n === 0) continue;
      const key = countsKey(counts, e.cell * k, e.actions);
      let value = e.cache.get(key);
      if (value === undefined) {
        const distribution: number[] = [];
        for (let a = 0; a < e.actions; a++) distribution.push((counts[e.cell * k + a] as number) / n);
        value = model.exploitability(e.game, distribution);
        e.cache.set(key, value);
      }
      if (value === null) continue;
      sum += value;
      cells++;
    }
    return cells > 0 ? sum / cells : null;
  };

  const fitLambda = (counts: Int32Array, start: number): number | null => {
    for (const o of observations) {
      let n = 0;
      for (let a = 0; a < k; a++) n += counts[o.cell * k + a] as number;
      (o as { n: number }).n = n;
      (o as { cooperative: number }).cooperative = counts[o.cell * k + o.c] as number;
    }
    return fitPooledLambda(observations, start);
  };

  return {
    /** The observed counts: the point estimates (and the warm start of every replicate's λ). */
    observe(counts: Int32Array): void {
      if (lambda.defined) {
        const value = fitLambda(counts, 1);
        if (value === null) lambda.defined = false;
        else lambda.point = value;
      }
      const e = meanExploitability(counts);
      exploitability.defined = e !== null;
      if (e !== null) exploitability.point = e;
    },
    /** Replicate b's counts. A replicate where the measure is undefined (every informative cell missed by a
     * session draw) keeps the point estimate rather than a NaN. */
    replicate(counts: Int32Array, b: number): void {
      if (lambda.defined) {
        const value = fitLambda(counts, lambda.point) ?? lambda.point;
        lambda.star[b] = value;
        if (value === 0) lambda.atZero++;
        if (value === LAMBDA_MAX) lambda.atCap++;
      }
      if (exploitability.defined) exploitability.star[b] = meanExploitability(counts) ?? exploitability.point;
    },
    results(): PooledReplicates[] {
      const out: PooledReplicates[] = [];
      if (lambda.defined)
        out.push({
          measure: "lambda",
          point: lambda.point,
          star: lambda.star,
          shareAtZero: bootstrap > 0 ? lambda.atZero / bootstrap : 0,
          shareAtCap: bootstrap > 0 ? lambda.atCap / bootstrap : 0,
          bounds: POOLED_BOUNDS.lambda,
        });
      if (exploitability.defined)
        out.push({
          measure: "exploitability",
          point: exploitability.point,
          star: exploitability.star,
          bounds: [POOLED_BOUNDS.exploitability[0], exploitabilityMax],
        });
      return out;
    },
  };
}

/** Two counts below 2^26 as one exact number (no string per replicate and cell); more as text. */
function countsKey(counts: Int32Array, at: number, k: number): number | string {
  if (k === 2) {
    const a = counts[at] as number;
    const b = counts[at + 1] as number;
    if (a < 2 ** 26 && b < 2 ** 26) return a * 2 ** 26 + b;
  }
  return Array.from(counts.subarray(at, at + k)).join(",");
}
