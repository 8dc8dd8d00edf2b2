// The joint cluster bootstrap (SPEC §4, issue 12): when one MCP session contributes to several cells of a
// player (say one decision per game and framing), the cells are not independent, and resampling sessions
// inside each cell separately treats them as if they were. Here a replicate draws the player's sessions
// with replacement once, and every cell of that player is the sum of the drawn sessions' counts in it.
import type { UniformSource } from "./fast-rng.js";
import type { RobustnessPlan } from "./robustness-plan.js";

/** One player whose sessions span cells: its sessions' counts per cell, in one fixed session order. */
export interface JointSessions {
  readonly player: string;
  readonly sessions: number;
  /** plan cell index → table of S × k counts (session s's counts in that cell at s·k). */
  readonly tables: ReadonlyMap<number, Int32Array>;
}

/** The players of the plan whose session ids appear in more than one of their analysed cells. */
export function jointSessionPlayers(plan: RobustnessPlan): JointSessions[] {
  const joint: JointSessions[] = [];
  for (const player of plan.players) {
    const cellIndices = player.units.flatMap((u) => [...(plan.units[u]?.cells ?? [])]);
    const seen = new Map<string, number>();
    for (const c of cellIndices) {
      for (const id of plan.cells[c]?.cell.cluster_ids ?? []) seen.set(id, (seen.get(id) ?? 0) + 1);
    }
    if (![...seen.values()].some((times) => times > 1)) continue;
    // Sessions in an order fixed by their content (ids are random), so a seed gives the same intervals.
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
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map((s) => s.id);
    const index = new Map(ids.map((id, s) => [id, s]));
    const tables = new Map<number, Int32Array>();
    for (const c of cellIndices) {
      const pc = plan.cells[c];
      if (pc === undefined) continue;
      const k = pc.actions.length;
      const table = new Int32Array(ids.length * k);
      (pc.cell.cluster_ids ?? []).forEach((id, at) => {
        const s = index.get(id) as number;
        pc.actions.forEach((a, j) => {
          table[s * k + j] = pc.cell.clusters?.[at]?.[a] ?? 0;
        });
      });
      tables.set(c, table);
    }
    joint.push({ player: player.player, sessions: ids.length, tables });
  }
  return joint;
}

/** How often each session is drawn in each replicate: `replicates` × S multiplicities. */
export function drawSessionWeights(sessions: number, replicates: number, rng: UniformSource): Int32Array {
  const weights = new Int32Array(replicates * sessions);
  for (let r = 0; r < replicates; r++) {
    for (let s = 0; s < sessions; s++) {
      const drawn = (rng.next() * sessions) | 0;
      weights[r * sessions + drawn] = (weights[r * sessions + drawn] as number) + 1;
    }
  }
  return weights;
}

/** One cell's replicates from the shared session weights: out[r·k + a] = Σ_s w[r, s]·table[s, a]. */
export function fillFromWeights(
  table: Int32Array,
  k: number,
  sessions: number,
  weights: Int32Array,
  replicates: number,
  out: Int32Array,
): void {
  out.fill(0, 0, replicates * k);
  for (let r = 0; r < replicates; r++) {
    for (let s = 0; s < sessions; s++) {
      const w = weights[r * sessions + s] as number;
      if (w === 0) continue;
      for (let a = 0; a < k; a++)
        out[r * k + a] = (out[r * k + a] as number) + w * (table[s * k + a] as number);
    }
  }
}
