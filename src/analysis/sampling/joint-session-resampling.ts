// The joint cluster bootstrap (SPEC §4): when one MCP session contributes to several cells of a
// player (say one decision per game and framing), the cells are not independent, and resampling sessions
// inside each cell separately treats them as if they were. Here a replicate draws the player's sessions
// with replacement once, and every cell of that player is the sum of the drawn sessions' counts in it.
//
// Sessions with the same counts in every cell of the player are interchangeable, so they are one type
// drawn by its multiplicity (cluster-multiplicities); each cell keeps only the types that have
// decisions in it, so a replicate costs the types' non-zero entries, not sessions × cells.

import type {
  PlannedCell,
  PlannedPlayer,
  PlannedUnit,
  RobustnessPlan,
} from "../robustness/robustness-plan.js";
import {
  createMultiplicitySampler,
  drawMultiplicities,
  type MultiplicitySampler,
} from "./cluster-multiplicities.js";
import type { UniformSource } from "./fast-rng.js";
import {
  type ClusterSumMethod,
  drawNormalClusterSums,
  drawsNormalSums,
  SessionMoments,
} from "./normal-cluster-sums.js";

/** The types with decisions in one cell and their counts there (entry i: type types[i], counts at i·k). */
export interface JointCell {
  readonly k: number;
  readonly types: Int32Array;
  readonly counts: Int32Array;
}

/** One player whose sessions span cells: its session types and their counts per cell. */
export interface JointSessions {
  readonly player: string;
  /** How many sessions the record holds for the player (Σ of the types' weights). */
  readonly sessions: number;
  /** How many sessions each type stands for. */
  readonly weights: readonly number[];
  readonly multiplicities: MultiplicitySampler;
  /** plan cell index → the types present in that cell. */
  readonly cells: ReadonlyMap<number, JointCell>;
}

/** The players of the plan whose session ids appear in more than one of their analysed cells. */
export function jointSessionPlayers(plan: RobustnessPlan): JointSessions[] {
  // One small function per step, over typed arrays and plan objects of fixed shapes: this runs once a
  // call, and one large function over arrays of varying kinds was deoptimized ("wrong map") and
  // recompiled, hundreds of milliseconds of compiler time, every other call.
  const joint: JointSessions[] = [];
  for (const player of plan.players) {
    const cellIndices = sessionResampledCells(plan, player);
    const listings = sessionListings(plan, player.player, cellIndices);
    if (!listings.spans) continue;
    const { typeOfSession, weights } = sessionTypes(listings);
    const cells = new Map<number, JointCell>();
    // The listings in the order they were numbered: cell by cell, cluster by cluster.
    let listing0 = 0;
    for (let position = 0; position < cellIndices.length; position++) {
      const c = cellIndices[position] as number;
      const pc = plan.cells[c] as PlannedCell;
      cells.set(c, jointCell(pc, typeOfSession, listings.entrySession, listing0));
      listing0 += pc.cell.cluster_ids?.length ?? 0;
    }
    let sessions = 0;
    for (const w of weights) sessions += w;
    joint.push({
      player: player.player,
      sessions,
      weights,
      multiplicities: createMultiplicitySampler(weights),
      cells,
    });
  }
  return joint;
}

/**
 * The player's cells redrawn by session, in unit and framing order. Only those: a cell one session made
 * alone is drawn by decision (MIN_RESAMPLED_SESSIONS), and its session's other cells are drawn jointly
 * without it.
 */
function sessionResampledCells(plan: RobustnessPlan, player: PlannedPlayer): Int32Array {
  let count = 0;
  for (const u of player.units) {
    for (const c of (plan.units[u] as PlannedUnit).cells) {
      if ((plan.cells[c] as PlannedCell).resampled === "session") count++;
    }
  }
  const cells = new Int32Array(count);
  let at = 0;
  for (const u of player.units) {
    for (const c of (plan.units[u] as PlannedUnit).cells) {
      if ((plan.cells[c] as PlannedCell).resampled === "session") cells[at++] = c;
    }
  }
  return cells;
}

/** Every listing of a session in the player's cells, and the same listings grouped by session. */
interface SessionListings {
  /** Whether some session is listed in more than one cell. */
  readonly spans: boolean;
  /** How many sessions each distinct session id stands for, sessions numbered as first listed. */
  readonly weightOf: readonly number[];
  /** The session of each listing, listings numbered cell by cell (cells in `cellIndices` order), cluster by cluster. */
  readonly entrySession: Int32Array;
  /** Session s's listings at first[s] .. first[s + 1], in cell order: their cell positions and ranks. */
  readonly first: Int32Array;
  readonly byCell: Int32Array;
  readonly byRank: Int32Array;
}

/**
 * Each session's listings in the player's cells, in cell order (ids are distinct within a cell): listing
 * e is cell `entryCell[e]` (position in cellIndices), with its counts' rank `entryRank[e]` there.
 */
function sessionListings(plan: RobustnessPlan, player: string, cellIndices: Int32Array): SessionListings {
  let total = 0;
  for (let position = 0; position < cellIndices.length; position++) {
    total += (plan.cells[cellIndices[position] as number] as PlannedCell).cell.cluster_ids?.length ?? 0;
  }
  const sessionOf = new Map<string, number>();
  const weightOf: number[] = [];
  const listed = new Int32Array(total);
  const entrySession = new Int32Array(total);
  const entryCell = new Int32Array(total);
  // Each listing's counts by their rank in the cell: the order of the counts' JSON texts there.
  const entryRank = new Int32Array(total);
  let entries = 0;
  let spans = false;
  for (let position = 0; position < cellIndices.length; position++) {
    const pc = plan.cells[cellIndices[position] as number] as PlannedCell;
    const ids = pc.cell.cluster_ids;
    if (ids === undefined) continue;
    const weights = pc.cell.cluster_weights;
    const ranks = textRanks(pc);
    for (let at = 0; at < ids.length; at++) {
      const id = ids[at] as string;
      const weight = weights?.[at] ?? 1;
      let session = sessionOf.get(id);
      if (session === undefined) {
        session = weightOf.length;
        sessionOf.set(id, session);
        weightOf.push(weight);
      } else if (weightOf[session] !== weight) {
        throw new Error(
          `Session '${id}' of player '${player}' stands for ${weightOf[session]} sessions in one cell and ${weight} in another; a cluster id has one weight.`,
        );
      } else spans = true;
      listed[session] = (listed[session] as number) + 1;
      entrySession[entries] = session;
      entryCell[entries] = position;
      entryRank[entries] = ranks[at] as number;
      entries++;
    }
  }
  // Listings grouped by session, each session's in cell order (a stable counting sort).
  const S = weightOf.length;
  const first = new Int32Array(S + 1);
  for (let s = 0; s < S; s++) first[s + 1] = (first[s] as number) + (listed[s] as number);
  const fill = first.slice(0, S);
  const byCell = new Int32Array(entries);
  const byRank = new Int32Array(entries);
  for (let e = 0; e < entries; e++) {
    const session = entrySession[e] as number;
    const to = fill[session] as number;
    byCell[to] = entryCell[e] as number;
    byRank[to] = entryRank[e] as number;
    fill[session] = to + 1;
  }
  return { spans, weightOf, entrySession, first, byCell, byRank };
}

/**
 * Sessions in an order fixed by their content (ids are random), so a seed gives the same intervals;
 * sessions with the same content are then adjacent, and become one type. The order is that of each
 * session's counts per cell written out as JSON (null where it has no listing), compared as text:
 * compared listing by listing without writing them out. Returns each session's type and each type's
 * weight (the sessions it stands for).
 */
function sessionTypes(listings: SessionListings): { typeOfSession: Int32Array; weights: number[] } {
  const { first, byCell, byRank, weightOf } = listings;
  const S = weightOf.length;
  const order = Array.from({ length: S }, (_, s) => s).sort((x, y) =>
    compareSessions(first, byCell, byRank, x, y),
  );
  const typeOfSession = new Int32Array(S);
  const weights: number[] = [];
  for (let i = 0; i < S; i++) {
    const session = order[i] as number;
    const sameAsBefore =
      i > 0 && compareSessions(first, byCell, byRank, order[i - 1] as number, session) === 0;
    if (!sameAsBefore) weights.push(0);
    const t = weights.length - 1;
    typeOfSession[session] = t;
    weights[t] = (weights[t] as number) + (weightOf[session] as number);
  }
  return { typeOfSession, weights };
}

/**
 * The types with decisions in one cell, each with one of its listings' counts (sessions of one type have
 * the same counts in every cell; the last listing, as a map by type would keep), in type order. The
 * cell's listings are numbered from `listing0` in `entrySession`.
 */
function jointCell(
  pc: PlannedCell,
  typeOfSession: Int32Array,
  entrySession: Int32Array,
  listing0: number,
): JointCell {
  const k = pc.actions.length;
  const ids = pc.cell.cluster_ids ?? [];
  const clusters = pc.cell.clusters ?? [];
  // Listing at of type t as the number t·L + (L − 1 − at), sorted: type order, the last listing first.
  const L = ids.length;
  const keys: number[] = [];
  for (let at = 0; at < L; at++) {
    const cluster = clusters[at];
    let decided = false;
    for (const a of pc.actions) if ((cluster?.[a] ?? 0) > 0) decided = true;
    if (!decided) continue;
    const t = typeOfSession[entrySession[listing0 + at] as number] as number;
    keys.push(t * L + (L - 1 - at));
  }
  const sorted = Float64Array.from(keys).sort();
  const types: number[] = [];
  const listing: number[] = [];
  for (const key of sorted) {
    const t = Math.floor(key / L);
    if (types[types.length - 1] === t) continue;
    types.push(t);
    listing.push(L - 1 - (key - t * L));
  }
  const counts = new Int32Array(types.length * k);
  for (let i = 0; i < listing.length; i++) {
    const cluster = clusters[listing[i] as number];
    for (let a = 0; a < k; a++) counts[i * k + a] = cluster?.[pc.actions[a] as string] ?? 0;
  }
  return { k, types: Int32Array.from(types), counts };
}

/**
 * The order of two sessions' JSON signatures (per cell of the player, the session's counts there as an
 * array, or null where it is not listed) as text, without writing them: the texts agree up to the first
 * cell where the signatures differ, and there a listed session's "[" sorts before "null"; where both are
 * listed, their arrays' texts decide (no array's text is a prefix of another's: each ends in "]"), in the
 * order their ranks in the cell keep.
 */
function compareSessions(
  first: Int32Array,
  byCell: Int32Array,
  byRank: Int32Array,
  x: number,
  y: number,
): number {
  let ex = first[x] as number;
  let ey = first[y] as number;
  const endX = first[x + 1] as number;
  const endY = first[y + 1] as number;
  for (; ex < endX && ey < endY; ex++, ey++) {
    const cx = byCell[ex] as number;
    const cy = byCell[ey] as number;
    if (cx !== cy) return cx < cy ? -1 : 1;
    const rx = byRank[ex] as number;
    const ry = byRank[ey] as number;
    if (rx !== ry) return rx < ry ? -1 : 1;
  }
  if (ex < endX) return -1;
  if (ey < endY) return 1;
  return 0;
}

/**
 * Each cluster's rank in its cell by the JSON text of its counts ("[12,1]" before "[3,0]": "1" < "3";
 * equal counts, equal ranks).
 */
function textRanks(pc: PlannedCell): Int32Array {
  const clusters = pc.cell.clusters ?? [];
  // Written once per counts object: a record's listings share a few hundred of them (one per content),
  // and a text per listing was ~900,000 strings of garbage at a million decisions.
  const textOf = new Map<Readonly<Record<string, number>>, string>();
  const texts = clusters.map((cluster) => {
    let text = textOf.get(cluster);
    if (text === undefined) {
      text = JSON.stringify(pc.actions.map((a) => cluster[a] ?? 0));
      textOf.set(cluster, text);
    }
    return text;
  });
  const distinct = [...new Set(texts)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = new Map(distinct.map((text, i) => [text, i]));
  return Int32Array.from(texts, (text) => rank.get(text) as number);
}

/** Uniforms drawn per block in direct mode (a block of replicates at a time). */
const BLOCK = 1 << 16;
/** Replicates summed together in direct mode. */
const LANES = 4;

/**
 * Every cell of one joint player over `replicates` replicates: replicate r's counts of cell c at
 * `result.get(c)[r·k ..]`. Memory is cells × replicates × k, whatever the number of sessions.
 *
 * A type's counts over all its cells are one sparse vector (position in the player's cells × actions,
 * count), so a replicate adds each drawn session's vector into one small accumulator and then copies it
 * out: in direct mode as each session is drawn (uniforms a block of replicates at a time, the same
 * stream in the same order), in multinomial mode m times the vector of each drawn type. Integer sums, so
 * the counts are exactly Σ_t m_t·counts_t, however they are added up. A player with many sessions
 * (`drawsNormalSums`) instead draws each replicate's accumulator from the normal approximation of the
 * sum (normal-cluster-sums), from the types' moments.
 */
export function drawJointReplicates(
  joint: JointSessions,
  replicates: number,
  rng: UniformSource,
  method: ClusterSumMethod = "exact",
): Map<number, Int32Array> {
  const out = new Map<number, Int32Array>();
  const targets: Int32Array[] = [];
  const firsts: number[] = [];
  let width = 0;
  // Each type's non-zero counts as (position, count) entries, type after type, each type's in the order
  // of the cells and their actions: counted first, then written straight into the flat arrays (a growing
  // list per type outlived the young generation, tens of megabytes of old garbage at a million decisions).
  const T = joint.multiplicities.types;
  const start = new Int32Array(T + 1);
  for (const cell of joint.cells.values()) {
    for (let i = 0; i < cell.types.length; i++) {
      const t = cell.types[i] as number;
      for (let a = 0; a < cell.k; a++) if (cell.counts[i * cell.k + a] !== 0) start[t + 1]++;
    }
  }
  for (let t = 0; t < T; t++) start[t + 1] = (start[t + 1] as number) + (start[t] as number);
  const position = new Int32Array(start[T] as number);
  const value = new Int32Array(start[T] as number);
  const next = start.slice(0, T);
  for (const [c, cell] of joint.cells) {
    const target = new Int32Array(replicates * cell.k);
    out.set(c, target);
    targets.push(target);
    firsts.push(width);
    for (let i = 0; i < cell.types.length; i++) {
      const t = cell.types[i] as number;
      for (let a = 0; a < cell.k; a++) {
        const count = cell.counts[i * cell.k + a] as number;
        if (count === 0) continue;
        const e = next[t] as number;
        position[e] = width + a;
        value[e] = count;
        next[t] = e + 1;
      }
    }
    width += cell.k;
  }
  const acc = new Int32Array(width);
  const cells = targets.length;
  const flush = (r: number): void => {
    for (let i = 0; i < cells; i++) {
      const target = targets[i] as Int32Array;
      const first = firsts[i] as number;
      const k = ((i + 1 < cells ? (firsts[i + 1] as number) : width) - first) as number;
      for (let a = 0; a < k; a++) target[r * k + a] = acc[first + a] as number;
    }
    acc.fill(0);
  };
  if (drawsNormalSums(method, joint.sessions, fewestSessionsInACell(joint))) {
    const moments = new SessionMoments(width);
    for (let t = 0; t < T; t++) {
      moments.add(position, value, start[t] as number, start[t + 1] as number, joint.weights[t] as number);
    }
    const sums = new Int32Array(replicates * width);
    drawNormalClusterSums(moments, rng, replicates, sums);
    // Each cell's counts straight from the sums (what `flush` copies from the accumulator).
    for (let i = 0; i < cells; i++) {
      const target = targets[i] as Int32Array;
      const first = firsts[i] as number;
      const k = ((i + 1 < cells ? (firsts[i + 1] as number) : width) - first) as number;
      for (let r = 0; r < replicates; r++) {
        for (let a = 0; a < k; a++) target[r * k + a] = sums[r * width + first + a] as number;
      }
    }
    return out;
  }
  const sampler = joint.multiplicities;
  if (sampler.mode === "direct") {
    const S = sampler.clusters;
    const { typeOf } = sampler;
    const perBlock = Math.max(1, Math.floor(BLOCK / Math.max(1, S)));
    const uniforms = new Float64Array(perBlock * S);
    // Per replicate the draws are first counted per type (m_t), then every position of the accumulator
    // is summed over the types with counts there, Σ_t m_t·counts_t, position by position: the loops then
    // run the same lengths in every replicate (a loop per drawn session's entries ran a random length,
    // its exits mispredicted), and each sum goes straight to its cell's row.
    const byPosition = entriesByPosition(position, value, start, width);
    const { first: positionStart, type: positionType, value: positionValue } = byPosition;
    const rowOf = new Array<Int32Array>(width);
    const rowAt = new Int32Array(width);
    const rowStride = new Int32Array(width);
    for (let i = 0; i < cells; i++) {
      const cellFirst = firsts[i] as number;
      const k = (i + 1 < cells ? (firsts[i + 1] as number) : width) - cellFirst;
      for (let a = 0; a < k; a++) {
        rowOf[cellFirst + a] = targets[i] as Int32Array;
        rowAt[cellFirst + a] = a;
        rowStride[cellFirst + a] = k;
      }
    }
    // Four replicates at a time: each position's entries are read once for the four sums (the draws
    // of replicate j of the four counted at drawn[t·LANES + j]), a quarter of the loop and index work.
    // The uniforms are read replicate after replicate as before, and each sum is the same integer.
    const drawn = new Int32Array(T * LANES);
    for (let first = 0; first < replicates; first += perBlock) {
      const count = Math.min(perBlock, replicates - first);
      rng.fill(uniforms, count * S);
      for (let i = 0; i < count; i += LANES) {
        const lanes = Math.min(LANES, count - i);
        for (let j = 0; j < lanes; j++) {
          const from = (i + j) * S;
          for (let s = 0; s < S; s++) {
            const at = (typeOf[((uniforms[from + s] as number) * S) | 0] as number) * LANES + j;
            drawn[at] = (drawn[at] as number) + 1;
          }
        }
        const r = first + i;
        for (let p = 0; p < width; p++) {
          let sum0 = 0;
          let sum1 = 0;
          let sum2 = 0;
          let sum3 = 0;
          const end = positionStart[p + 1] as number;
          for (let e = positionStart[p] as number; e < end; e++) {
            const at = (positionType[e] as number) * LANES;
            const v = positionValue[e] as number;
            sum0 += (drawn[at] as number) * v;
            sum1 += (drawn[at + 1] as number) * v;
            sum2 += (drawn[at + 2] as number) * v;
            sum3 += (drawn[at + 3] as number) * v;
          }
          const row = rowOf[p] as Int32Array;
          const stride = rowStride[p] as number;
          const to = r * stride + (rowAt[p] as number);
          row[to] = sum0;
          if (lanes > 1) row[to + stride] = sum1;
          if (lanes > 2) row[to + 2 * stride] = sum2;
          if (lanes > 3) row[to + 3 * stride] = sum3;
        }
        drawn.fill(0);
      }
    }
    return out;
  }
  const drawn = new Int32Array(T);
  for (let r = 0; r < replicates; r++) {
    drawMultiplicities(sampler, rng, drawn);
    for (let t = 0; t < T; t++) {
      const m = drawn[t] as number;
      if (m === 0) continue;
      const end = start[t + 1] as number;
      for (let e = start[t] as number; e < end; e++) {
        const p = position[e] as number;
        acc[p] = (acc[p] as number) + m * (value[e] as number);
      }
    }
    flush(r);
  }
  return out;
}

/**
 * The types' sparse vectors (type t's entries at start[t] .. start[t + 1]) regrouped by position: position
 * p's types and counts at first[p] .. first[p + 1], in type order.
 */
function entriesByPosition(
  position: Int32Array,
  value: Int32Array,
  start: Int32Array,
  width: number,
): { first: Int32Array; type: Int32Array; value: Int32Array } {
  const T = start.length - 1;
  const first = new Int32Array(width + 1);
  for (let e = 0; e < position.length; e++) {
    const p = position[e] as number;
    first[p + 1] = (first[p + 1] as number) + 1;
  }
  for (let p = 0; p < width; p++) first[p + 1] = (first[p + 1] as number) + (first[p] as number);
  const fill = first.slice(0, width);
  const types = new Int32Array(position.length);
  const values = new Int32Array(position.length);
  for (let t = 0; t < T; t++) {
    for (let e = start[t] as number; e < (start[t + 1] as number); e++) {
      const p = position[e] as number;
      const at = fill[p] as number;
      types[at] = t;
      values[at] = value[e] as number;
      fill[p] = at + 1;
    }
  }
  return { first, type: types, value: values };
}

/** The sessions with decisions in the player's sparsest cell. */
function fewestSessionsInACell(joint: JointSessions): number {
  let fewest = Number.POSITIVE_INFINITY;
  for (const cell of joint.cells.values()) {
    let sessions = 0;
    for (let i = 0; i < cell.types.length; i++) sessions += joint.weights[cell.types[i] as number] as number;
    fewest = Math.min(fewest, sessions);
  }
  return fewest;
}
