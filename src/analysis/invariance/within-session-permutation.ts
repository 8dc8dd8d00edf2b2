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
import { drawNormalWithinSessionNull } from "./within-session-normal-null.js";

/** One session that decided in several framings: its framing × action table (F·k), `weight` sessions of it. */
interface SpanningSession {
  readonly table: Int32Array;
  readonly weight: number;
}

/** Sessions (or decisions) wholly inside one framing, all of one length: each one's counts and framing. */
interface LengthStratum {
  readonly vectors: Int32Array[];
  readonly framings: number[];
}

interface SpanningDesign {
  readonly k: number;
  readonly spanning: readonly SpanningSession[];
  readonly strata: readonly LengthStratum[];
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether a listed cluster has decisions among the game's actions. */
function decided(cluster: Readonly<Record<string, number>>, actions: readonly string[]): boolean {
  for (const a of actions) if ((cluster[a] ?? 0) > 0) return true;
  return false;
}

/**
 * The framing of each listed session of the unit's cells by id (sessions without an id get none), or −1
 * for a session that decided in two or more framings. Ids are distinct within a cell (validateCell).
 */
function framingsById(cells: readonly PlannedCell[]): Map<string, number> {
  const framingOf = new Map<string, number>();
  cells.forEach((pc, f) => {
    const { clusters, cluster_ids: ids } = pc.cell;
    if (pc.unit !== "session" || clusters === undefined || ids === undefined) return;
    for (let i = 0; i < clusters.length; i++) {
      if (!decided(clusters[i] as Readonly<Record<string, number>>, pc.actions)) continue;
      const id = ids[i] as string;
      framingOf.set(id, framingOf.has(id) ? -1 : f);
    }
  });
  return framingOf;
}

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

function designOf(cells: readonly PlannedCell[], leaveOut: ReadonlySet<string>): SpanningDesign {
  const k = (cells[0] as PlannedCell).actions.length;
  const F = cells.length;
  const framingOf = framingsById(cells);
  // Each spanning session's framing × action table, in the order its id was first seen.
  const tables = new Map<string, { table: Int32Array; weight: number }>();
  cells.forEach((pc, f) => {
    const { clusters, cluster_ids: ids, cluster_weights: weights } = pc.cell;
    if (pc.unit !== "session" || clusters === undefined || ids === undefined) return;
    for (let i = 0; i < clusters.length; i++) {
      const id = ids[i] as string;
      const cluster = clusters[i] as Readonly<Record<string, number>>;
      if (framingOf.get(id) !== -1 || !decided(cluster, pc.actions)) continue;
      let entry = tables.get(id);
      if (entry === undefined) {
        entry = { table: new Int32Array(F * k), weight: 1 };
        tables.set(id, entry);
      }
      for (let a = 0; a < k; a++) entry.table[f * k + a] = cluster[pc.actions[a] as string] ?? 0;
      entry.weight = weights?.[i] ?? 1;
    }
  });
  // In an order fixed by content (session ids are random), so a seed gives the same p-value for the same
  // decisions whatever their ids; each key written once, not in every comparison of the sort.
  const spanning: SpanningSession[] = [...tables.values()]
    .map((session) => ({ session, key: `${session.weight}:${session.table.join(",")}` }))
    .sort((a, b) => byText(a.key, b.key))
    .map(({ session }) => session);

  // `text`: the vector written out once, for ties of length and framing in the sort below.
  const items: { length: number; vector: number[]; framing: number; text: string }[] = [];
  cells.forEach((pc, f) => {
    const vector = (counts: Readonly<Record<string, number>>): number[] =>
      pc.actions.map((a) => counts[a] ?? 0);
    if (pc.unit === "session" && pc.cell.clusters !== undefined) {
      pc.cell.clusters.forEach((cluster, i) => {
        const id = pc.cell.cluster_ids?.[i];
        if (id !== undefined && (framingOf.get(id) === -1 || leaveOut.has(id))) return;
        const v = vector(cluster);
        const length = v.reduce((s, c) => s + c, 0);
        if (length === 0) return;
        const weight = pc.cell.cluster_weights?.[i] ?? 1;
        const text = v.join();
        for (let w = 0; w < weight; w++) items.push({ length, vector: v, framing: f, text });
      });
      return;
    }
    vector(pc.cell.counts).forEach((count, j) => {
      const one = Array.from({ length: k }, (_, a) => (a === j ? 1 : 0));
      const text = one.join();
      for (let d = 0; d < count; d++) items.push({ length: 1, vector: one, framing: f, text });
    });
  });
  items.sort((a, b) => a.length - b.length || a.framing - b.framing || byText(a.text, b.text));
  const strata = new Map<number, LengthStratum>();
  for (const item of items) {
    const stratum = strata.get(item.length) ?? { vectors: [], framings: [] };
    stratum.vectors.push(Int32Array.from(item.vector));
    stratum.framings.push(item.framing);
    strata.set(item.length, stratum);
  }
  return { k, spanning, strata: [...strata.values()] };
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
  const { k, spanning, strata } = designOf(cells, leaveOut);
  const out = cells.map(() => new Int32Array(replicates * k));
  // What never moves: sessions whose table has one action or one framing's decisions only.
  const fixed = new Int32Array(F * k);
  const moving: SpanningSession[] = [];
  const rowTotals: number[][] = [];
  const columnTotals: number[][] = [];
  let longest = 1;
  for (const s of spanning) {
    const rows = new Array<number>(F).fill(0);
    const columns = new Array<number>(k).fill(0);
    let rowsUsed = 0;
    let size = 0;
    for (let f = 0; f < F; f++) {
      let row = 0;
      for (let a = 0; a < k; a++) {
        const x = s.table[f * k + a] as number;
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
      for (let i = 0; i < F * k; i++) fixed[i] = (fixed[i] as number) + s.weight * (s.table[i] as number);
    } else {
      moving.push(s);
      rowTotals.push(rows);
      columnTotals.push(columns);
      longest = Math.max(longest, size);
    }
  }
  // A length whose sessions all sit in one framing has nothing to trade.
  const shuffled = strata.filter((stratum) => {
    if (new Set(stratum.framings).size > 1) return true;
    stratum.vectors.forEach((v, i) => {
      const at = (stratum.framings[i] as number) * k;
      for (let a = 0; a < k; a++) fixed[at + a] = (fixed[at + a] as number) + (v[a] as number);
    });
    return false;
  });
  const lnFactorial = new Float64Array(longest + 1);
  for (let i = 2; i <= longest; i++) lnFactorial[i] = (lnFactorial[i - 1] as number) + Math.log(i);
  const inFraming = new Float64Array(F);
  let sessions = 0;
  moving.forEach((s, i) => {
    sessions += s.weight;
    (rowTotals[i] as number[]).forEach((m, f) => {
      if (m > 0) inFraming[f] = (inFraming[f] as number) + s.weight;
    });
  });
  for (const stratum of shuffled) {
    sessions += stratum.framings.length;
    for (const f of stratum.framings) inFraming[f] = (inFraming[f] as number) + 1;
  }
  if (drawsNormalSums(method, sessions, Math.min(...inFraming))) {
    const parts = moving.map((s, i) => ({
      rows: rowTotals[i] as number[],
      columns: columnTotals[i] as number[],
      weight: s.weight,
    }));
    return drawNormalWithinSessionNull(F, k, fixed, parts, shuffled, replicates, rng);
  }
  // Each moving session as flat arrays: the framings it decided in (in framing order) with their sizes,
  // its action totals and weight. A framing it did not decide in draws nothing, so it is skipped.
  const plans = moving.map((s, i) => {
    const rows = rowTotals[i] as number[];
    const visited = rows.flatMap((m, f) => (m > 0 ? [f] : []));
    return {
      framings: Int32Array.from(visited),
      sizes: Int32Array.from(visited, (f) => rows[f] as number),
      columns: Int32Array.from(columnTotals[i] as number[]),
      total: rows.reduce((a, m) => a + m, 0),
      weight: s.weight,
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
    const strataOfTwo = shuffled.map((stratum) => ({
      vectors: Int32Array.from(stratum.vectors.flatMap((v) => [...v])),
      framings: Int32Array.from(stratum.framings),
    }));
    drawTwoActionSessionTables(F, fixed, sessions, strataOfTwo, memo, replicates, rng, out);
    return out;
  }
  const left = new Int32Array(k);
  const order = shuffled.map((s) => Int32Array.from(s.vectors.keys()));
  const strataVectors = shuffled.map((s) => {
    const flat = new Int32Array(s.vectors.length * k);
    s.vectors.forEach((v, i) => {
      flat.set(v, i * k);
    });
    return flat;
  });
  const strataFramings = shuffled.map((s) => Int32Array.from(s.framings));
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
