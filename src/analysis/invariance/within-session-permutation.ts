// The permutation null of the invariance test when sessions span framings (SPEC §4 "inference for
// invariance"). A live agent's MCP session plays several trials of a game in several framings, and the
// study schedule gives a player's trials their cells in permuted blocks (every cell once per block, in a
// seeded random order: domain/study-schedule.ts), so under the sharp null — the agent's decisions do not
// depend on the framings it was shown — which of a session's decisions in the game carried which framing
// is exchangeable. Moving whole sessions between framings cannot reproduce that: a session decided in both
// framings, its propensity is in both framings' rates, so a contrast varies less than the moves make it
// vary, and that test essentially never rejected under no effect. Here each spanning session keeps its
// decisions and each framing's number of them, and only which of its decisions carry which framing label
// is shuffled (a restricted permutation, Good 2005 §3.7): its framing × action table is redrawn with the
// same margins, a multivariate hypergeometric.
//
// Sessions of the same unit that decided in one framing only (and single decisions without a session)
// are not split across framings: they are permuted as whole sessions between framings, each length on its
// own (a session of 5 trades places only with sessions of 5), which keeps every framing's number of
// sessions of every length, so the strata stay exchangeable whatever the session design. The two kinds
// are independent under the null, so their shuffles combine into one exact permutation distribution.
import type { PlannedCell } from "../robustness/robustness-plan.js";
import type { UniformSource } from "../sampling/fast-rng.js";
import { HypergeometricMemo } from "../sampling/hypergeometric-memo.js";
import { type ClusterSumMethod, drawsNormalSums } from "../sampling/normal-cluster-sums.js";
import { shuffleInPlace } from "../sampling/shuffle-in-place.js";
import { drawTwoActionSessionTables } from "./two-action-session-tables.js";
import { decided, withinSessionDesign } from "./within-session-design.js";
import { drawNormalWithinSessionNull } from "./within-session-normal-null.js";

/** Whether some session of this (player, game) decided in two or more of its framings. */
export function sessionsSpanFramings(cells: readonly PlannedCell[]): boolean {
  // Stops at the first session seen in a second framing: no map of the whole unit is needed for that.
  const framingOf = new Map<string, number>();
  for (const pc of cells) {
    const { clusters, cluster_ids: ids } = pc.cell;
    if (pc.unit !== "session" || clusters === undefined || ids === undefined) continue;
    for (let i = 0; i < clusters.length; i++) {
      if (!decided(clusters[i] as Readonly<Record<string, number>>, pc.actions)) continue;
      const id = ids[i] as string;
      if (framingOf.has(id)) return true;
      framingOf.set(id, 0);
    }
  }
  return false;
}

/**
 * `replicates` draws of the restricted permutation null, per framing (replicate r's counts at r·k): every
 * spanning session's framing × action table redrawn with its margins kept (framing by framing, action by
 * action, x ~ Hypergeometric(decisions left, of them this action, still to label with this framing)), and
 * the sessions inside one framing shuffled between framings within their length. Sessions in `leaveOut`
 * (shuffled jointly across the player's games: joint-session-shuffle.ts) are not counted here. A (player,
 * game) of many sessions (`drawsNormalSums`) draws the normal approximation of the same null instead
 * (within-session-normal-null).
 */
export function drawWithinSessionPermutations(
  cells: readonly PlannedCell[],
  replicates: number,
  rng: UniformSource,
  leaveOut: ReadonlySet<string> = new Set(),
  method: ClusterSumMethod = "exact",
): Int32Array[] {
  const F = cells.length;
  const { k, spanning, strata } = withinSessionDesign(cells, leaveOut);
  const out = cells.map(() => new Int32Array(replicates * k));
  // What never moves: sessions whose table has one action or one framing's decisions only.
  const fixed = new Int32Array(F * k);
  // The sessions that move, in flat arrays: moving session m's framing totals at rowTotals[m·F ..), its
  // action totals at columnTotals[m·k ..).
  const S = spanning.weights.length;
  const rowTotals = new Int32Array(S * F);
  const columnTotals = new Int32Array(S * k);
  const movingWeights = new Float64Array(S);
  let M = 0;
  let longest = 1;
  for (let s = 0; s < S; s++) {
    const table = spanning.tables.subarray(s * F * k, (s + 1) * F * k);
    const weight = spanning.weights[s] as number;
    const rows = rowTotals.subarray(M * F, (M + 1) * F);
    const columns = columnTotals.subarray(M * k, (M + 1) * k);
    rows.fill(0);
    columns.fill(0);
    let rowsUsed = 0;
    let size = 0;
    for (let f = 0; f < F; f++) {
      let row = 0;
      for (let a = 0; a < k; a++) {
        const x = table[f * k + a] as number;
        row += x;
        columns[a] = (columns[a] as number) + x;
      }
      rows[f] = row;
      if (row > 0) rowsUsed++;
      size += row;
    }
    let columnsUsed = 0;
    for (const c of columns) if (c > 0) columnsUsed++;
    if (rowsUsed < 2 || columnsUsed < 2) {
      for (let i = 0; i < F * k; i++) fixed[i] = (fixed[i] as number) + weight * (table[i] as number);
    } else {
      movingWeights[M] = weight;
      M++;
      longest = Math.max(longest, size);
    }
  }
  // A length whose sessions all sit in one framing has nothing to trade.
  const shuffled = strata.filter(({ vectors, framings }) => {
    if (framings.some((f) => f !== framings[0])) return true;
    framings.forEach((framing, i) => {
      for (let a = 0; a < k; a++)
        fixed[framing * k + a] = (fixed[framing * k + a] as number) + (vectors[i * k + a] as number);
    });
    return false;
  });
  const lnFactorial = new Float64Array(longest + 1);
  for (let i = 2; i <= longest; i++) lnFactorial[i] = (lnFactorial[i - 1] as number) + Math.log(i);
  const inFraming = new Float64Array(F);
  let sessions = 0;
  for (let m = 0; m < M; m++) {
    const weight = movingWeights[m] as number;
    sessions += weight;
    for (let f = 0; f < F; f++)
      if ((rowTotals[m * F + f] as number) > 0) inFraming[f] = (inFraming[f] as number) + weight;
  }
  for (const stratum of shuffled) {
    sessions += stratum.framings.length;
    for (const f of stratum.framings) inFraming[f] = (inFraming[f] as number) + 1;
  }
  if (drawsNormalSums(method, sessions, Math.min(...inFraming))) {
    const moving = {
      rows: rowTotals.subarray(0, M * F),
      columns: columnTotals.subarray(0, M * k),
      weights: movingWeights.subarray(0, M),
    };
    return drawNormalWithinSessionNull(F, k, fixed, moving, shuffled, replicates, rng);
  }
  // Each moving session as flat arrays: the framings it decided in (in framing order) with their sizes,
  // its action totals and weight. A framing it did not decide in draws nothing, so it is skipped.
  const plans = Array.from({ length: M }, (_, m) => {
    const rows = Array.from(rowTotals.subarray(m * F, (m + 1) * F));
    const visited = rows.flatMap((r, f) => (r > 0 ? [f] : []));
    return {
      framings: Int32Array.from(visited),
      sizes: Int32Array.from(visited, (f) => rows[f] as number),
      columns: columnTotals.slice(m * k, (m + 1) * k),
      total: rows.reduce((a, r) => a + r, 0),
      weight: movingWeights[m] as number,
    };
  });
  const memo = new HypergeometricMemo(lnFactorial, longest);
  if (k === 2) {
    const sessions = plans.map(({ framings, sizes, columns, weight }) => ({
      framings,
      sizes,
      first: columns[0] as number,
      weight,
    }));
    drawTwoActionSessionTables(F, fixed, sessions, shuffled, memo, replicates, rng, out);
    return out;
  }
  const left = new Int32Array(k);
  const order = shuffled.map((s) => Int32Array.from(s.framings.keys()));
  const strataVectors = shuffled.map((s) => s.vectors);
  const strataFramings = shuffled.map((s) => s.framings);
  for (let r = 0; r < replicates; r++) {
    const at = r * k;
    for (let f = 0; f < F; f++) {
      const target = out[f] as Int32Array;
      for (let a = 0; a < k; a++) target[at + a] = fixed[f * k + a] as number;
    }
    for (const { framings, sizes, columns, total, weight } of plans) {
      for (let w = 0; w < weight; w++) {
        left.set(columns);
        let pooled = total;
        // The same uniforms in the same order as the framing-by-framing loop over all F framings: a
        // framing the session did not decide in would place nothing and draw nothing.
        for (let v = 0; v < framings.length; v++) {
          const f = framings[v] as number;
          const target = out[f] as Int32Array;
          let place = sizes[v] as number;
          if (f === F - 1) {
            for (let a = 0; a < k; a++) target[at + a] = (target[at + a] as number) + (left[a] as number);
            break;
          }
          let rest = pooled;
          for (let a = 0; a < k - 1; a++) {
            const K = left[a] as number;
            let x = 0;
            if (place > 0 && K > 0) x = K === rest ? place : memo.draw(rest, K, place, rng.next());
            target[at + a] = (target[at + a] as number) + x;
            left[a] = K - x;
            rest -= K;
            place -= x;
          }
          target[at + k - 1] = (target[at + k - 1] as number) + place;
          left[k - 1] = (left[k - 1] as number) - place;
          pooled -= sizes[v] as number;
        }
      }
    }
    // Sessions inside one framing: a Fisher–Yates shuffle of each length's sessions over its framing slots.
    for (let t = 0; t < shuffled.length; t++) {
      const idx = order[t] as Int32Array;
      shuffleInPlace(idx, rng);
      const vectors = strataVectors[t] as Int32Array;
      const framings = strataFramings[t] as Int32Array;
      for (let slot = 0; slot < idx.length; slot++) {
        const target = out[framings[slot] as number] as Int32Array;
        const from = (idx[slot] as number) * k;
        for (let a = 0; a < k; a++)
          target[at + a] = (target[at + a] as number) + (vectors[from + a] as number);
      }
    }
  }
  return out;
}
