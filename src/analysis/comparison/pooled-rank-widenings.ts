import { variance } from "../sampling/replicate-variance.js";
import { normalInterval, welchInterval } from "./pair-differences.js";
import type { PooledMeasure, PooledReplicates } from "./pooled-measures.js";
import type { FurtherInterval } from "./rank-intervals.js";

/**
 * The further interval (rank-intervals.ts) of λ's and exploitability's ranks: the widenings their pairs
 * take (compare-groups.ts), placed at the ranks' simultaneous level, so that two groups are ranked apart
 * only where the pair's own interval would part them too. Without it the ranks read the bias-corrected
 * percentile interval alone and parted groups whose pair interval held 0: two identical groups, two
 * sessions of 10 per cell against sessions of 2, had both true ranks inside their exploitability rank
 * intervals in 89.0% of studies; a group that defected 10 times of 10 (λ̂ at the cap 20) was ranked
 * alone above one of 300 decisions per cell that played the same way.
 *
 * - exploitability: Welch's t interval (as `welchWidened`), each side's units those its cells resample;
 * - λ: the normal-theory interval (the pair's p is floored by its tail), and where either group may sit
 *   at the cap — its share of replicates fitting 20 above (1 − confidence)/groups, the level at which
 *   every group truly there passes at once (Bonferroni, as for λ = 0) — also the plain percentile
 *   interval of the difference (`capWidened`).
 *
 * Values are the groups' replicates as ranked: rank 1 the highest λ, the lowest exploitability (the
 * ranks read −exploitability, and so does this interval).
 */
export function pooledFurther(
  measure: PooledMeasure,
  values: readonly PooledReplicates[],
  units: readonly number[],
  paired: (j: number, k: number) => boolean,
  confidence: number,
): FurtherInterval {
  const sign = measure === "exploitability" ? -1 : 1;
  const capLevel = (1 - confidence) / values.length;
  return (j, k, level, [plainLo, plainHi]) => {
    const a = values[j] as PooledReplicates;
    const b = values[k] as PooledReplicates;
    const d = sign * (a.point - b.point);
    const star = new Float64Array(a.star.length);
    for (let r = 0; r < star.length; r++) star[r] = sign * ((a.star[r] as number) - (b.star[r] as number));
    if (measure === "exploitability") {
      const welch = welchInterval(
        d,
        star,
        { variance: variance(a.star), units: units[j] ?? 0 },
        { variance: variance(b.star), units: units[k] ?? 0 },
        paired(j, k),
        level,
      );
      return welch?.ci;
    }
    const sd = Math.sqrt(variance(star));
    const ci: [number, number] = sd > 0 ? normalInterval(d, sd, level) : [d, d];
    if (Math.max(a.shareAtCap ?? 0, b.shareAtCap ?? 0) > capLevel) {
      ci[0] = Math.min(ci[0], plainLo);
      ci[1] = Math.max(ci[1], plainHi);
    }
    return ci;
  };
}
