/**
 * Simultaneous rank intervals from simultaneous intervals for all pairwise differences (the "ranking with
 * confidence" construction of Mogstad, Romano, Shaikh & Wilhelm, Review of Economic Studies 2024):
 * studentized max-type bootstrap intervals d̂_jk ± c·se_jk, where c is the `confidence` quantile of
 * max_{j<k} |d*_jk − d̂_jk| / se_jk over the replicates. All of them hold at once with probability
 * `confidence` (asymptotically), so the rank sets they imply — group j is outranked by every group whose
 * difference with it is surely positive, and outranks every group whose difference is surely negative —
 * contain every true rank at once with at least that probability. Rank 1 is the highest value.
 */
export interface RankedGroup {
  readonly group: string;
  readonly estimate: number;
  readonly rank: { readonly estimate: number; readonly ci: [number, number] };
  /** 1 for the top tier: groups not shown worse than the tier's best are tied with it. */
  readonly tied_group: number;
}

export function rankIntervals(
  groups: readonly string[],
  estimates: readonly number[],
  replicates: readonly Float64Array[],
  confidence: number,
): RankedGroup[] {
  const G = groups.length;
  const B = replicates[0]?.length ?? 0;
  const pairs: { j: number; k: number; d: number; se: number }[] = [];
  for (let j = 0; j < G; j++) {
    for (let k = j + 1; k < G; k++) {
      const d = (estimates[j] as number) - (estimates[k] as number);
      let sum = 0;
      let sumSq = 0;
      const rj = replicates[j] as Float64Array;
      const rk = replicates[k] as Float64Array;
      for (let b = 0; b < B; b++) {
        const x = (rj[b] as number) - (rk[b] as number);
        sum += x;
        sumSq += x * x;
      }
      const mean = sum / B;
      const se = Math.sqrt(Math.max(0, sumSq / B - mean * mean));
      pairs.push({ j, k, d, se });
    }
  }
  const maxT = new Float64Array(B);
  for (let b = 0; b < B; b++) {
    let max = 0;
    for (const { j, k, d, se } of pairs) {
      if (!(se > 0)) continue;
      const x =
        ((replicates[j] as Float64Array)[b] as number) - ((replicates[k] as Float64Array)[b] as number);
      const t = Math.abs(x - d) / se;
      if (t > max) max = t;
    }
    maxT[b] = max;
  }
  maxT.sort();
  const c = B === 0 ? 0 : (maxT[Math.min(B - 1, Math.ceil(confidence * B) - 1)] as number);
  // better[j][k]: j's value is surely above k's.
  const better = Array.from({ length: G }, () => new Array<boolean>(G).fill(false));
  for (const { j, k, d, se } of pairs) {
    if (d - c * se > 0) (better[j] as boolean[])[k] = true;
    if (d + c * se < 0) (better[k] as boolean[])[j] = true;
  }
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
  // Tiers: in order of estimate, a group joins the current tier unless the tier's best is surely above it.
  const order = groups.map((_, j) => j).sort((x, y) => (estimates[y] as number) - (estimates[x] as number));
  let tier = 0;
  let leader = -1;
  for (const j of order) {
    if (leader < 0 || (better[leader] as boolean[])[j]) {
      tier++;
      leader = j;
    }
    (ranked[j] as { tied_group: number }).tied_group = tier;
  }
  return ranked;
}
