// The joint cluster bootstrap (SPEC §4): when one MCP session contributes to several cells of a
// player (say one decision per game and framing), the cells are not independent, and resampling sessions
// inside each cell separately treats them as if they were. Here a replicate draws the player's sessions
// with replacement once, and every cell of that player is the sum of the drawn sessions' counts in it.
//
// Sessions with the same counts in every cell of the player are interchangeable, so they are one type
// drawn by its multiplicity (cluster-multiplicities); each cell keeps only the types that have
// decisions in it, so a replicate costs the types' non-zero entries, not sessions × cells.

import type { PlannedCell, RobustnessPlan } from "../robustness/robustness-plan.js";
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
  const joint: JointSessions[] = [];
  for (const player of plan.players) {
    const cellIndices = player.units.flatMap((u) => [...(plan.units[u]?.cells ?? [])]);
    // Each session's listings in the player's cells, in cell order (ids are distinct within a cell):
    // listing e is cell `entryCell[e]` (position in cellIndices), cluster `entryAt[e]` there.
    const sessionOf = new Map<string, number>();
    const weightOf: number[] = [];
    const listed: number[] = [];
    const entrySession: number[] = [];
    const entryCell: number[] = [];
    const entryAt: number[] = [];
    cellIndices.forEach((c, position) => {
      const cell = plan.cells[c]?.cell;
      (cell?.cluster_ids ?? []).forEach((id, at) => {
        const weight = cell?.cluster_weights?.[at] ?? 1;
        let session = sessionOf.get(id);
        if (session === undefined) {
          session = weightOf.length;
          sessionOf.set(id, session);
          weightOf.push(weight);
          listed.push(0);
        } else if (weightOf[session] !== weight) {
          throw new Error(
            `Session '${id}' of player '${player.player}' stands for ${weightOf[session]} sessions in one cell and ${weight} in another; a cluster id has one weight.`,
          );
        }
        listed[session] = (listed[session] as number) + 1;
        entrySession.push(session);
        entryCell.push(position);
        entryAt.push(at);
      });
    });
    if (!listed.some((times) => times > 1)) continue;
    // Listings grouped by session, each session's in cell order (a stable counting sort).
    const S = weightOf.length;
    const first = new Int32Array(S + 1);
    for (let s = 0; s < S; s++) first[s + 1] = (first[s] as number) + (listed[s] as number);
    const fill = first.slice(0, S);
    const byCell = new Int32Array(entrySession.length);
    const byAt = new Int32Array(entrySession.length);
    entrySession.forEach((session, e) => {
      const to = fill[session] as number;
      byCell[to] = entryCell[e] as number;
      byAt[to] = entryAt[e] as number;
      fill[session] = to + 1;
    });
    const cellAt = (position: number): PlannedCell =>
      plan.cells[cellIndices[position] as number] as PlannedCell;
    // Sessions in an order fixed by their content (ids are random), so a seed gives the same intervals;
    // sessions with the same content are then adjacent, and become one type. The order is that of each
    // session's counts per cell written out as JSON (null where it has no listing), compared as text:
    // compared listing by listing without writing them out.
    const order = Array.from({ length: S }, (_, s) => s).sort((x, y) =>
      compareSessions(first, byCell, byAt, x, y, cellAt),
    );
    const typeOfSession = new Int32Array(S);
    const weights: number[] = [];
    order.forEach((session, i) => {
      const sameAsBefore =
        i > 0 && compareSessions(first, byCell, byAt, order[i - 1] as number, session, cellAt) === 0;
      if (!sameAsBefore) weights.push(0);
      const t = weights.length - 1;
      typeOfSession[session] = t;
      weights[t] = (weights[t] as number) + (weightOf[session] as number);
    });
    const cells = new Map<number, JointCell>();
    for (const c of cellIndices) {
      const pc = plan.cells[c];
      if (pc === undefined) continue;
      const k = pc.actions.length;
      const present = new Map<number, number[]>();
      (pc.cell.cluster_ids ?? []).forEach((id, at) => {
        const vector = pc.actions.map((a) => pc.cell.clusters?.[at]?.[a] ?? 0);
        if (vector.some((x) => x > 0))
          present.set(typeOfSession[sessionOf.get(id) as number] as number, vector);
      });
      const types = Int32Array.from([...present.keys()].sort((a, b) => a - b));
      const counts = new Int32Array(types.length * k);
      types.forEach((t, i) => {
        counts.set(present.get(t) as number[], i * k);
      });
      cells.set(c, { k, types, counts });
    }
    joint.push({
      player: player.player,
      sessions: weights.reduce((s, w) => s + w, 0),
      weights,
      multiplicities: createMultiplicitySampler(weights),
      cells,
    });
  }
  return joint;
}

/**
 * The order of two sessions' JSON signatures (per cell of the player, the session's counts there as an
 * array, or null where it is not listed) as text, without writing them: the texts agree up to the first
 * cell where the signatures differ, and there a listed session's "[" sorts before "null"; where both are
 * listed, their arrays' texts decide, which differ first at the first count that differs (no array's text
 * is a prefix of another's: each ends in "]").
 */
function compareSessions(
  first: Int32Array,
  byCell: Int32Array,
  byAt: Int32Array,
  x: number,
  y: number,
  cellAt: (position: number) => PlannedCell,
): number {
  let ex = first[x] as number;
  let ey = first[y] as number;
  const endX = first[x + 1] as number;
  const endY = first[y + 1] as number;
  for (; ex < endX && ey < endY; ex++, ey++) {
    const cx = byCell[ex] as number;
    const cy = byCell[ey] as number;
    if (cx !== cy) return cx < cy ? -1 : 1;
    const order = compareCountTexts(cellAt(cx), byAt[ex] as number, byAt[ey] as number);
    if (order !== 0) return order;
  }
  if (ex < endX) return -1;
  if (ey < endY) return 1;
  return 0;
}

/** The order of two clusters' counts in one cell as JSON text ("[12,1]" < "[3,0]": "1" < "3"). */
function compareCountTexts(pc: PlannedCell, atX: number, atY: number): number {
  if (atX === atY) return 0;
  const clusters = pc.cell.clusters ?? [];
  const { actions } = pc;
  for (let a = 0; a < actions.length; a++) {
    const u = clusters[atX]?.[actions[a] as string] ?? 0;
    const v = clusters[atY]?.[actions[a] as string] ?? 0;
    if (u === v) continue;
    if (u < 10 && v < 10) return u < v ? -1 : 1;
    // Each count's text followed by the next character (a comma, or the closing bracket after the last).
    const end = a === actions.length - 1 ? "]" : ",";
    return `${u}${end}` < `${v}${end}` ? -1 : 1;
  }
  return 0;
}

/** Uniforms drawn per block in direct mode (a block of replicates at a time). */
const BLOCK = 1 << 16;

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
  const entries: number[][] = Array.from({ length: joint.multiplicities.types }, () => []);
  for (const [c, cell] of joint.cells) {
    const target = new Int32Array(replicates * cell.k);
    out.set(c, target);
    targets.push(target);
    firsts.push(width);
    for (let i = 0; i < cell.types.length; i++) {
      const list = entries[cell.types[i] as number] as number[];
      for (let a = 0; a < cell.k; a++) {
        const count = cell.counts[i * cell.k + a] as number;
        if (count !== 0) list.push(width + a, count);
      }
    }
    width += cell.k;
  }
  const T = entries.length;
  const start = new Int32Array(T + 1);
  for (let t = 0; t < T; t++) start[t + 1] = (start[t] as number) + (entries[t] as number[]).length / 2;
  const position = new Int32Array(start[T] as number);
  const value = new Int32Array(start[T] as number);
  entries.forEach((list, t) => {
    for (let e = 0; e < list.length / 2; e++) {
      position[(start[t] as number) + e] = list[2 * e] as number;
      value[(start[t] as number) + e] = list[2 * e + 1] as number;
    }
  });
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
    for (let r = 0; r < replicates; r++) {
      acc.set(sums.subarray(r * width, r * width + width));
      flush(r);
    }
    return out;
  }
  const sampler = joint.multiplicities;
  if (sampler.mode === "direct") {
    const S = sampler.clusters;
    const { typeOf } = sampler;
    const perBlock = Math.max(1, Math.floor(BLOCK / Math.max(1, S)));
    const uniforms = new Float64Array(perBlock * S);
    for (let first = 0; first < replicates; first += perBlock) {
      const count = Math.min(perBlock, replicates - first);
      rng.fill(uniforms, count * S);
      for (let i = 0; i < count; i++) {
        const from = i * S;
        for (let s = 0; s < S; s++) {
          const t = typeOf[((uniforms[from + s] as number) * S) | 0] as number;
          const end = start[t + 1] as number;
          for (let e = start[t] as number; e < end; e++) {
            const p = position[e] as number;
            acc[p] = (acc[p] as number) + (value[e] as number);
          }
        }
        flush(first + i);
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
