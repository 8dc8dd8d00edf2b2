// The joint cluster bootstrap (SPEC §4): when one MCP session contributes to several cells of a
// player (say one decision per game and framing), the cells are not independent, and resampling sessions
// inside each cell separately treats them as if they were. Here a replicate draws the player's sessions
// with replacement once, and every cell of that player is the sum of the drawn sessions' counts in it.
//
// Sessions with the same counts in every cell of the player are interchangeable, so they are one type
// drawn by its multiplicity (cluster-multiplicities); each cell keeps only the types that have
// decisions in it, so a replicate costs the types' non-zero entries, not sessions × cells.

import type { RobustnessPlan } from "../robustness/robustness-plan.js";
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
    const seen = new Map<string, number>();
    const weightOf = new Map<string, number>();
    for (const c of cellIndices) {
      const cell = plan.cells[c]?.cell;
      (cell?.cluster_ids ?? []).forEach((id, at) => {
        seen.set(id, (seen.get(id) ?? 0) + 1);
        const weight = cell?.cluster_weights?.[at] ?? 1;
        const before = weightOf.get(id);
        if (before !== undefined && before !== weight) {
          throw new Error(
            `Session '${id}' of player '${player.player}' stands for ${before} sessions in one cell and ${weight} in another; a cluster id has one weight.`,
          );
        }
        weightOf.set(id, weight);
      });
    }
    if (![...seen.values()].some((times) => times > 1)) continue;
    // Sessions in an order fixed by their content (ids are random), so a seed gives the same intervals;
    // sessions with the same content are then adjacent, and become one type. Each session's place in
    // each cell comes from one index per cell (a search per session and cell was quadratic at scale).
    const positions = cellIndices.map((c) => {
      const index = new Map<string, number>();
      (plan.cells[c]?.cell.cluster_ids ?? []).forEach((id, at) => {
        if (!index.has(id)) index.set(id, at);
      });
      return index;
    });
    const signature = (id: string): string =>
      JSON.stringify(
        cellIndices.map((c, i) => {
          const pc = plan.cells[c];
          const at = (positions[i] as Map<string, number>).get(id) ?? -1;
          return at < 0 ? null : pc?.actions.map((a) => pc.cell.clusters?.[at]?.[a] ?? 0);
        }),
      );
    const ids = [...seen.keys()]
      .map((id) => ({ id, key: signature(id) }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const typeOfId = new Map<string, number>();
    const weights: number[] = [];
    ids.forEach(({ id, key }, i) => {
      const sameAsBefore = i > 0 && (ids[i - 1] as { key: string }).key === key;
      if (!sameAsBefore) weights.push(0);
      const t = weights.length - 1;
      typeOfId.set(id, t);
      weights[t] = (weights[t] as number) + (weightOf.get(id) as number);
    });
    const cells = new Map<number, JointCell>();
    for (const c of cellIndices) {
      const pc = plan.cells[c];
      if (pc === undefined) continue;
      const k = pc.actions.length;
      const present = new Map<number, number[]>();
      (pc.cell.cluster_ids ?? []).forEach((id, at) => {
        const vector = pc.actions.map((a) => pc.cell.clusters?.[at]?.[a] ?? 0);
        if (vector.some((x) => x > 0)) present.set(typeOfId.get(id) as number, vector);
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
