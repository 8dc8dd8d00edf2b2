// The session-design null (session-design-null.ts) of a player whose sessions each decided in one framing
// but in several of its games, with session lengths that differ between framings (one-decision sessions
// in one framing, long ones in another). Each game's null redraws its sessions at the game's pooled rate
// with a beta-distributed propensity per session; drawn for each game on its own, a session's propensity
// came out independent between its games, although in the record one propensity sits in one framing of
// every game it played. The player's mean statistic then varied less under the null than in the data,
// and the player's test rejected 11.8% of records with no effect (player R coverage 88.2%, four games,
// 300 × 1 vs 15 × 20, ρ .3, 600 studies).
//
// Here a session shared by several games draws one uniform U per replicate, from a stream seeded for the
// player that every game replays, and its propensity in game g is Beta_g⁻¹(U), the quantile of that
// game's own beta (a comonotone coupling): each game's null is unchanged in distribution (its sessions'
// propensities still beta, its counts beta-binomial), and the player's games move together as one
// session's propensity makes them. The quantile is read from a table of QUANTILES points, at the middle
// of U's bin.
import { createBootstrapRng } from "../sampling/fast-rng.js";
import { incompleteBeta } from "../sampling/student-t.js";

/** Points of a game's beta quantile table. */
export const QUANTILES = 1024;

/** The shared sessions of a player: their order, and per replicate one uniform each. */
export interface SharedPropensities {
  /** Session id → its column. */
  readonly index: ReadonlyMap<string, number>;
  /** Replicate r's uniform of session s at r · index.size + s. */
  readonly uniforms: Float64Array;
}

/** The uniforms of the player's shared sessions (`ids`), from the player's own seeded stream. */
export function sharedPropensities(
  ids: ReadonlySet<string>,
  seed: string,
  replicates: number,
): SharedPropensities {
  const sorted = [...ids].sort();
  const index = new Map(sorted.map((id, s) => [id, s]));
  const uniforms = new Float64Array(replicates * sorted.length);
  createBootstrapRng(`${seed}:propensity`).fill(uniforms, uniforms.length);
  return { index, uniforms };
}

/** Beta(a, b) quantiles at the middles of QUANTILES equal bins of U, by bisection on I_x(a, b). */
export function betaQuantiles(a: number, b: number): Float64Array {
  const out = new Float64Array(QUANTILES);
  for (let j = 0; j < QUANTILES; j++) {
    const u = (j + 0.5) / QUANTILES;
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 50; i++) {
      const mid = (lo + hi) / 2;
      if (incompleteBeta(mid, a, b) < u) lo = mid;
      else hi = mid;
    }
    out[j] = (lo + hi) / 2;
  }
  return out;
}
