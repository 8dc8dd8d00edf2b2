// The joint cluster bootstrap (SPEC §4, issue 12): when one MCP session contributes to several cells of a
// player (say one decision per game and framing), the cells are not independent, and resampling sessions
// inside each cell separately treats them as if they were. Here a replicate draws the player's sessions
// with replacement once, and every cell of that player is the sum of the drawn sessions' counts in it.
//
// Sessions with the same counts in every cell of the player are interchangeable, so they are one type
// drawn by its multiplicity (cluster-multiplicities, issue 15); each cell keeps only the types that have
// decisions in it, so a replicate costs the types' non-zero entries, not sessions × cells.
import {
  createMultiplicitySampler,
  drawMultiplicities,
  type MultiplicitySampler,
} from "./cluster-multiplicities.js";
import type { UniformSource } from "./fast-rng.js";
import type { RobustnessPlan } from "./robustness-plan.js";

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
    // sessions with the same content are then adjacent, and become one type.
    const signature = (id: string): string =>
      JSON.stringify(
        cellIndices.map((c) => {
          const pc = plan.cells[c];
          const at = pc?.cell.cluster_ids?.indexOf(id) ?? -1;
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
      multiplicities: createMultiplicitySampler(weights),
      cells,
    });
  }
  return joint;
}

/**
 * Every cell of one joint player over `replicates` replicates: replicate r's counts of cell c at
 * `result.get(c)[r·k ..]`. Memory is cells × replicates × k, whatever the number of sessions.
 */
export function drawJointReplicates(
  joint: JointSessions,
  replicates: number,
  rng: UniformSource,
): Map<number, Int32Array> {
  const out = new Map<number, Int32Array>();
  for (const [c, cell] of joint.cells) out.set(c, new Int32Array(replicates * cell.k));
  const cells = [...joint.cells].map(([c, cell]) => ({ ...cell, out: out.get(c) as Int32Array }));
  const drawn = new Int32Array(joint.multiplicities.types);
  for (let r = 0; r < replicates; r++) {
    drawMultiplicities(joint.multiplicities, rng, drawn);
    for (const { k, types, counts, out: target } of cells) {
      const at = r * k;
      for (let i = 0; i < types.length; i++) {
        const m = drawn[types[i] as number] as number;
        if (m === 0) continue;
        for (let a = 0; a < k; a++)
          target[at + a] = (target[at + a] as number) + m * (counts[i * k + a] as number);
      }
    }
  }
  return out;
}
