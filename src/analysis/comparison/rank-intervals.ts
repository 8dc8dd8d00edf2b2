import { throwIfCancelled } from "../progress/analysis-cancellation.js";
import { percentileInterval } from "../sampling/percentile.js";

/**
 * Simultaneous rank intervals from simultaneous intervals for all pairwise differences (the "ranking with
 * confidence" construction of Mogstad, Romano, Shaikh & Wilhelm, Review of Economic Studies 2024): if the
 * intervals for every d_jk = θ_j − θ_k hold at once with probability `confidence`, the rank sets they
 * imply — group j is outranked by every group whose difference with it is surely positive, and outranks
 * every group whose difference is surely negative — contain every true rank at once with at least that
 * probability. Rank 1 is the highest value.
 *
 * The simultaneous intervals are each pair's own bias-corrected percentile interval (pair-differences.ts)
 * at a wider level 1 − α′, with α′ calibrated by the max-type bootstrap: in each replicate, the most
 * extreme of the pairs' two-sided percentile positions, min over pairs of min(F_jk(d*_jk), 1 − F_jk(d*_jk));
 * α′/2 is the (1 − confidence) quantile of that minimum, so all pairs' replicates lie inside their
 * intervals together in `confidence` of the replicates. With two groups α′ = 1 − confidence: the rank
 * interval then agrees with the pair's own interval. Unlike studentized symmetric intervals, these keep
 * the skew of R near 1.
 *
 * `further` gives a second interval of each difference at the same level, which must leave 0 out too (R:
 * the MOVER interval of the two groups' test-inversion intervals, for the bias of crowded framings that
 * the bootstrap cannot see; two groups of the same R, one with crowded framings, had both true ranks
 * inside their intervals in 76.3% of studies without it, 93.7% with it).
 *
 * `atBound` marks groups whose measure may sit at its bound (λ = 0, compare-groups.ts): no pair of two
 * such groups is ranked apart, whatever its interval says — at the bound the bootstrap does not hold its
 * level (two groups truly at λ = 0 were ranked apart in 9.4% of studies over 10 groups).
 */
export interface RankedGroup {
  readonly group: string;
  readonly estimate: number;
  readonly rank: { readonly estimate: number; readonly ci: [number, number] };
  /** 1 for the top tier: groups not shown worse than the tier's best are tied with it. */
  readonly tied_group: number;
}

/**
 * A further interval of θ_j − θ_k at a given level that must also leave 0 out before j and k are ranked
 * apart (R: the MOVER interval of the groups' test-inversion intervals joined with the plain percentile
 * interval, compare-groups.ts; λ and exploitability: their pairs' widenings, pooled-rank-widenings.ts);
 * undefined where there is none. `plain` is the pair's plain percentile interval at that level, which the
 * ranks compute anyway (the pairs' own intervals take it into their unions).
 */
export type FurtherInterval = (
  j: number,
  k: number,
  level: number,
  plain: readonly [number, number],
) => readonly [number, number] | undefined;

export function rankIntervals(
  groups: readonly string[],
  estimates: readonly number[],
  replicates: readonly Float64Array[],
  confidence: number,
  atBound?: readonly boolean[],
  further?: FurtherInterval,
): RankedGroup[] {
  const G = groups.length;
  const B = replicates[0]?.length ?? 0;
  const pairs: { j: number; k: number; d: number; star: Float64Array; bias: number }[] = [];
  for (let j = 0; j < G; j++) {
    for (let k = j + 1; k < G; k++) {
      const d = (estimates[j] as number) - (estimates[k] as number);
      const rj = replicates[j] as Float64Array;
      const rk = replicates[k] as Float64Array;
      const star = new Float64Array(B);
      let mean = 0;
      for (let b = 0; b < B; b++) {
        star[b] = (rj[b] as number) - (rk[b] as number);
        mean += star[b] as number;
      }
      pairs.push({ j, k, d, star, bias: B > 0 ? mean / B - d : 0 });
    }
  }
  // Each replicate's most extreme two-sided percentile position over the pairs (ties share a mid-rank).
  const extreme = new Float64Array(B).fill(0.5);
  const sorted = new Float64Array(B);
  for (const { star } of pairs) {
    // A sort of B replicates per pair, 190 pairs for 20 groups: where a cancelled comparison stops.
    throwIfCancelled();
    sorted.set(star);
    sorted.sort();
    for (let b = 0; b < B; b++) {
      const x = star[b] as number;
      const first = lowerBound(sorted, x);
      const last = upperBound(sorted, x) - 1;
      const F = ((first + last) / 2 + 0.5) / B;
      const tail = Math.min(F, 1 - F);
      if (tail < (extreme[b] as number)) extreme[b] = tail;
    }
  }
  extreme.sort();
  const alpha = 1 - confidence;
  const halfAlphaPrime =
    pairs.length <= 1 || B === 0
      ? alpha / 2
      : Math.min(alpha / 2, extreme[Math.max(0, Math.floor(alpha * B) - 1)] as number);
  const level = 1 - 2 * halfAlphaPrime;
  // better[j][k]: j's value is surely above k's.
  const better = Array.from({ length: G }, () => new Array<boolean>(G).fill(false));
  for (const { j, k, star, bias } of pairs) {
    // Two groups that may both sit at the bound may be equal there: neither is surely above the other.
    if (atBound?.[j] === true && atBound[k] === true) continue;
    const [lo, hi] = percentileInterval(star, level);
    const [otherLo, otherHi] = further?.(j, k, level, [lo, hi]) ?? [lo - bias, hi - bias];
    if (lo - bias > 0 && otherLo > 0) (better[j] as boolean[])[k] = true;
    if (hi - bias < 0 && otherHi < 0) (better[k] as boolean[])[j] = true;
  }
  return ranksFromOrder(groups, estimates, better);
}

/**
 * Rank intervals and tiers from which group is surely above which (`better[j][k]`: j's value surely
 * above k's), e.g. from pairwise intervals that hold at once (Bonferroni, compare-repeated.ts).
 */
export function ranksFromOrder(
  groups: readonly string[],
  estimates: readonly number[],
  better: readonly (readonly boolean[])[],
): RankedGroup[] {
  const G = groups.length;
  const ranked = groups.map((group, j) => {
    const above = groups.filter((_, k) => (better[k] as boolean[])[j]).length;
    const below = groups.filter((_, k) => (better[j] as boolean[])[k]).length;
    const higher = estimates.filter((e) => e > (estimates[j] as number)).length;
    return {
      group,
      estimate: estimates[j] as number,
      rank: { estimate: 1 + higher, ci: [1 + above, G - below] as [number, number] },
      tied_group: 0,
    };
  });
  // Tiers: the best group not yet in a tier opens the next one, and every group not yet in a tier that it
  // is not surely above joins it. So tier 1 is every group not surely below the best, wherever its
  // estimate falls: cut in order of estimate instead, a group of few decisions (told apart from no one)
  // just below one that the best is surely above was put in tier 2, as if surely below the best.
  const order = groups.map((_, j) => j).sort((x, y) => (estimates[y] as number) - (estimates[x] as number));
  let tier = 0;
  for (const leader of order) {
    if ((ranked[leader] as { tied_group: number }).tied_group !== 0) continue;
    tier++;
    for (const j of order) {
      const group = ranked[j] as { tied_group: number };
      if (group.tied_group === 0 && !(better[leader] as boolean[])[j]) group.tied_group = tier;
    }
  }
  return ranked;
}

/** The first index of `sorted` whose value is ≥ x. */
function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index of `sorted` whose value is > x (so ties of x end just before it). */
function upperBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
