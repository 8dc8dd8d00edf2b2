// The permutation null of a player's sessions that decided in one framing only but in several of the
// player's games (a session shown one framing and playing every game in it). Under the sharp null which
// framing such a session was given is exchangeable, and it was given one framing for all its games: a
// draw of the null moves it to another framing in every game at once. Shuffled in each game on its own
// (as each game's test does), the games' permuted statistics came out independent although the
// session ties them together — its own propensity sits in one framing of every game — so the player's
// mean statistic varied less under the permutation than in the data, and the player's test rejected too
// often (7.9% at a nominal 5% with half the sessions in one framing only, 60 × 5 per cell, ρ .3).
//
// Here the player's one-framing sessions that decided in two or more of its games are shuffled once per
// replicate for all of them: each stratum (sessions with the same decisions per game, so they trade
// places without changing any framing's size) is permuted by a stream seeded for the player, once per
// replicate for all its games, so every game moves the same session to the same framing. Each game's
// own null is unchanged in distribution (a permutation of its one-framing sessions within strata of one
// length), so a game's test keeps its size; the player's mean now carries the tie between its games.

import { byText } from "../../domain/text-order.js";
import type { RobustnessPlan } from "../robustness/robustness-plan.js";
import { createBootstrapRng } from "../sampling/fast-rng.js";
import { shuffleInPlace } from "../sampling/shuffle-in-place.js";
import { decided } from "./within-session-design.js";

/** Sessions that decided in the same games with the same number of decisions in each. */
interface JointStratum {
  /** Framing of each slot (the sessions' own, in slot order). */
  readonly framings: Int32Array;
  /** Per game of the player (by position in its units), every session's counts: session i's at i·k. */
  readonly vectors: ReadonlyMap<number, Int32Array>;
}

/** The one-framing sessions of a player shuffled jointly across its games. */
export interface JointShuffle {
  /** The stream's seed: one stream per player, whose permutations serve all its games. */
  readonly seed: string;
  /** The ids of the sessions shuffled here, which each game's own shuffle leaves out. */
  readonly ids: ReadonlySet<string>;
  readonly strata: readonly JointStratum[];
  /** The player's units, in order (a unit's position is its key in a stratum's vectors). */
  readonly units: readonly number[];
}

interface SessionEntry {
  readonly framing: number;
  /** Per unit position: the session's counts in that game. */
  readonly parts: Map<number, number[]>;
}

/**
 * The joint shuffle of player `p`, or null when no session of it decided in one framing only in two or
 * more of its games (nothing ties the games' nulls together then). Listed clusters that stand for several
 * sessions (weights) and sessions without ids stay with each game's own shuffle.
 */
export function jointShuffleOf(plan: RobustnessPlan, p: number, seed: string): JointShuffle | null {
  const units = plan.players[p]?.units ?? [];
  if (units.length < 2) return null;
  const shuffled = jointlyShuffled(plan, units);
  if (shuffled.size === 0) return null;
  const sessions = new Map<string, SessionEntry>();
  units.forEach((u, position) => {
    (plan.units[u]?.cells ?? []).forEach((c, f) => {
      const pc = plan.cells[c];
      if (pc === undefined || pc.unit !== "session") return;
      const { clusters, cluster_ids: ids } = pc.cell;
      if (clusters === undefined || ids === undefined) return;
      clusters.forEach((cluster, i) => {
        const id = ids[i] as string;
        // The shuffled sessions decided here, in this framing only, once per game (jointlyShuffled).
        if (!shuffled.has(id) || !decided(cluster, pc.actions)) return;
        const entry = sessions.get(id) ?? { framing: f, parts: new Map() };
        entry.parts.set(
          position,
          pc.actions.map((a) => cluster[a] ?? 0),
        );
        sessions.set(id, entry);
      });
    });
  });
  // Strata by the session's decisions per game: sessions in one stratum trade places in every game.
  const grouped = new Map<string, { id: string; entry: SessionEntry; content: string }[]>();
  for (const [id, entry] of sessions) {
    const games = [...entry.parts.keys()].sort((a, b) => a - b);
    const shape = games.map((g) => `${g}:${(entry.parts.get(g) as number[]).reduce((s, x) => s + x, 0)}`);
    const content = games.map((g) => (entry.parts.get(g) as number[]).join(",")).join(";");
    const list = grouped.get(shape.join(" ")) ?? [];
    list.push({ id, entry, content: `${entry.framing}|${content}` });
    grouped.set(shape.join(" "), list);
  }
  const ids = new Set<string>();
  const strata: JointStratum[] = [];
  // In an order fixed by content (session ids are random), so a seed gives the same p-value for the same
  // decisions whatever their ids.
  for (const key of [...grouped.keys()].sort(byText)) {
    const members = (grouped.get(key) ?? []).sort((a, b) => byText(a.content, b.content));
    if (new Set(members.map((m) => m.entry.framing)).size < 2) continue; // one framing: nothing to trade
    const vectors = new Map<number, Int32Array>();
    const first = (members[0] as (typeof members)[number]).entry.parts;
    for (const [position, part] of first) {
      const k = part.length;
      const flat = new Int32Array(members.length * k);
      members.forEach((m, i) => {
        flat.set(m.entry.parts.get(position) as number[], i * k);
      });
      vectors.set(position, flat);
    }
    for (const m of members) ids.add(m.id);
    strata.push({ framings: Int32Array.from(members, (m) => m.entry.framing), vectors });
  }
  return strata.length === 0 ? null : { seed, ids, strata, units };
}

/**
 * The ids of the player's sessions that decided in one framing only, in two or more of its games, each
 * listed as one session (weight 1): those the joint shuffle moves. Found with a few numbers per id, so
 * that a player with none (sessions that span framings, or stay in one game) costs no per-session objects:
 * at a million decisions those were ~50 MB of garbage per analysis, for a shuffle of nothing.
 */
function jointlyShuffled(plan: RobustnessPlan, units: readonly number[]): Set<string> {
  const index = new Map<string, number>();
  const framing: number[] = [];
  const lastPosition: number[] = [];
  const games: number[] = [];
  const eligible: boolean[] = [];
  units.forEach((u, position) => {
    (plan.units[u]?.cells ?? []).forEach((c, f) => {
      const pc = plan.cells[c];
      if (pc === undefined || pc.unit !== "session") return;
      const { clusters, cluster_ids: ids, cluster_weights: weights } = pc.cell;
      if (clusters === undefined || ids === undefined) return;
      for (let i = 0; i < clusters.length; i++) {
        if (!decided(clusters[i] as Readonly<Record<string, number>>, pc.actions)) continue;
        const id = ids[i] as string;
        let s = index.get(id);
        if (s === undefined) {
          s = framing.length;
          index.set(id, s);
          framing.push(f);
          lastPosition.push(-1);
          games.push(0);
          eligible.push(true);
        }
        // Another framing, or a second listing in the same game: it decided in several framings.
        if (framing[s] !== f || lastPosition[s] === position) eligible[s] = false;
        if ((weights?.[i] ?? 1) !== 1) eligible[s] = false;
        if (lastPosition[s] !== position) games[s] = (games[s] as number) + 1;
        lastPosition[s] = position;
      }
    });
  });
  const ids = new Set<string>();
  for (const [id, s] of index) if (eligible[s] && (games[s] as number) >= 2) ids.add(id);
  return ids;
}

/**
 * The jointly shuffled sessions' counts in every game of the player: for unit `units[position]`, framing
 * f's replicate r at `result.get(unit)[f][r·k]` (k = `ks[position]`, that game's actions). Each replicate's
 * permutation of every stratum is drawn once from the player's stream and added to all its games: the
 * same permutations a replay of the stream per game would draw, the same sums.
 */
export function jointShuffleCounts(
  shuffle: JointShuffle,
  framings: number,
  ks: readonly number[],
  replicates: number,
): Map<number, Int32Array[]> {
  const rng = createBootstrapRng(shuffle.seed);
  const outs = shuffle.units.map((_, position) =>
    Array.from({ length: framings }, () => new Int32Array(replicates * (ks[position] as number))),
  );
  const orders = shuffle.strata.map((s) => Int32Array.from(s.framings.keys()));
  // Per stratum, the games its sessions decided in: where its permutation adds counts.
  const parts = shuffle.strata.map((stratum) =>
    [...stratum.vectors].map(([position, vectors]) => ({
      out: outs[position] as Int32Array[],
      k: ks[position] as number,
      vectors,
    })),
  );
  for (let r = 0; r < replicates; r++) {
    for (let t = 0; t < orders.length; t++) {
      const idx = orders[t] as Int32Array;
      shuffleInPlace(idx, rng);
      const slots = (shuffle.strata[t] as JointStratum).framings;
      for (const { out, k, vectors } of parts[t] as { out: Int32Array[]; k: number; vectors: Int32Array }[]) {
        const at = r * k;
        for (let slot = 0; slot < idx.length; slot++) {
          const target = out[slots[slot] as number] as Int32Array;
          const from = (idx[slot] as number) * k;
          for (let a = 0; a < k; a++)
            target[at + a] = (target[at + a] as number) + (vectors[from + a] as number);
        }
      }
    }
  }
  return new Map(shuffle.units.map((unit, position) => [unit, outs[position] as Int32Array[]]));
}
