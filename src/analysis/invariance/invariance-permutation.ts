// The permutation distribution of the robustness statistics under invariance (SPEC §4 "inference for
// invariance"): if every framing of a (player, game) shares one distribution, the framing labels are
// exchangeable, so reassigning the pooled decisions (or whole sessions) to framings at random, keeping each
// framing's size, draws from the null distribution of any statistic of the counts.

import type { PlannedCell, PlannedUnit, RobustnessPlan } from "../robustness/robustness-plan.js";
import type { FillCell } from "../robustness/robustness-statistics.js";
import { BufferedUniforms, type UniformSource } from "../sampling/fast-rng.js";
import { type GuideTable, guideIndex, guideTable, WINDOW_EXTRA, WINDOW_SD } from "../sampling/guide-table.js";
import { hypergeometricFromMode } from "../sampling/hypergeometric-from-mode.js";
import type { ClusterSumMethod } from "../sampling/normal-cluster-sums.js";
import { type JointShuffle, jointShuffleCounts, jointShuffleOf } from "./joint-session-shuffle.js";
import { drawSessionDesignNull, sessionDesignUniforms, sessionsExchangeable } from "./session-design-null.js";
import { sharedDesignSessions } from "./shared-design-sessions.js";
import { sharedPropensities } from "./shared-session-propensities.js";
import { drawWithinSessionPermutations, sessionsSpanFramings } from "./within-session-permutation.js";

/** What one (player, game) reshuffles: its items (decisions or sessions) and how many each framing gets. */
interface Pool {
  readonly k: number;
  /** Item i's counts at items[i·k .. i·k + k): one decision is a unit vector, one session its counts. */
  readonly items: Int32Array;
  readonly perFraming: readonly number[];
}

function poolOf(cells: readonly PlannedCell[]): Pool {
  const k = (cells[0] as PlannedCell).actions.length;
  const rows: number[][] = [];
  const perFraming = cells.map((pc) => {
    const vector = (counts: Readonly<Record<string, number>>): number[] =>
      pc.actions.map((a) => counts[a] ?? 0);
    if (pc.unit === "session" && pc.cell.clusters !== undefined) {
      let sessions = 0;
      pc.cell.clusters.forEach((cluster, i) => {
        const v = vector(cluster);
        if (!v.some((c) => c > 0)) return;
        // A listed cluster that stands for w sessions is w items of the pool.
        const weight = pc.cell.cluster_weights?.[i] ?? 1;
        for (let w = 0; w < weight; w++) rows.push(v);
        sessions += weight;
      });
      return sessions;
    }
    vector(pc.cell.counts).forEach((count, j) => {
      for (let d = 0; d < count; d++) rows.push(Array.from({ length: k }, (_, i) => (i === j ? 1 : 0)));
    });
    return pc.n;
  });
  return { k, items: Int32Array.from(rows.flat()), perFraming };
}

/**
 * A `FillCell` that writes permutation replicates instead of bootstrap ones. The evaluator asks for the
 * cells of one (player, game) one after another; on the first, all its framings' replicates are drawn at
 * once (one shuffle per replicate serves every framing) and kept until the others are read.
 */
export function permutationFill(
  plan: RobustnessPlan,
  stream: UniformSource,
  /** Permute sessions of unequal lengths too (the machinery's own tests); the analysis never does. */
  permuteUnequalSessions = false,
  /** Where a (player, game) of many sessions may draw the normal approximation of its null. */
  method: ClusterSumMethod = "exact",
  /**
   * Given, a (player, game) whose null reads a number of uniforms fixed by its design
   * (`sessionDesignUniforms`) is not drawn here: the stream's state before it (`BufferedUniforms.save`,
   * five words) goes to `defer`, the stream passes over its uniforms, and the fill says so
   * (`defers`); `deferredSessionDesignNull` draws it later from that state, the same numbers.
   */
  defer?: (unit: number, state: Int32Array) => void,
): FillCell {
  // The players' sessions that decided in one framing in several games, shuffled for all games at once;
  // their streams' seeds are drawn first, and only where such sessions exist (other records keep theirs).
  const joint = new Map<number, JointShuffle>();
  plan.players.forEach((_, p) => {
    const shuffle = jointShuffleOf(plan, p, `joint:${p}`);
    if (shuffle !== null) joint.set(p, shuffle);
  });
  const jointSeed = joint.size > 0 ? stream.next() : 0;
  // The players' sessions that sit in several of their session-design games: one propensity draw for
  // all of them; a seed is drawn only where such sessions exist (other records keep their streams).
  const designShared = new Map<number, { ids: Set<string>; seed: string }>();
  plan.players.forEach((_, p) => {
    const ids = sharedDesignSessions(plan, p);
    if (ids.size > 0) designShared.set(p, { ids, seed: `design:${p}` });
  });
  const designSeed = designShared.size > 0 ? stream.next() : 0;
  const designOfUnit = new Map<number, { ids: Set<string>; seed: string }>();
  for (const [p, shared] of designShared) {
    for (const u of plan.players[p]?.units ?? []) {
      designOfUnit.set(u, { ids: shared.ids, seed: `${designSeed}:${shared.seed}` });
    }
  }
  const jointOfUnit = new Map<number, JointShuffle>();
  for (const [p, shuffle] of joint) {
    const seeded = { ...shuffle, seed: `${jointSeed}:${shuffle.seed}` };
    for (const u of plan.players[p]?.units ?? []) jointOfUnit.set(u, seeded);
  }
  const rng = new BufferedUniforms(stream);
  // Players of one design put the same numbers of decisions in the same framings, so their units draw
  // from the same hypergeometric tables: built once for all of them (small units only, so that what is
  // kept stays small).
  const sharedTables = new Map<number, GuideTable>();
  const unitOfCell = new Map<number, { unit: number; framing: number }>();
  plan.units.forEach((u, i) => {
    u.cells.forEach((c, f) => {
      unitOfCell.set(c, { unit: i, framing: f });
    });
  });
  // The joint shuffle's counts of a player's games, drawn for all of them when the first is asked for and
  // kept until each is read.
  const jointCounts = new Map<number, Int32Array[]>();
  const jointShuffled = (
    shuffle: JointShuffle,
    unit: number,
    k: number,
    replicates: number,
  ): Int32Array[] => {
    let counts = jointCounts.get(unit);
    if (counts === undefined || (counts[0] as Int32Array).length !== replicates * k) {
      const ks = shuffle.units.map(
        (u) => (plan.cells[(plan.units[u] as PlannedUnit).cells[0] as number] as PlannedCell).actions.length,
      );
      for (const [u, c] of jointShuffleCounts(shuffle, plan.framings.length, ks, replicates)) {
        jointCounts.set(u, c);
      }
      counts = jointCounts.get(unit) as Int32Array[];
    }
    jointCounts.delete(unit);
    return counts;
  };
  let current = -1;
  let buffers: Int32Array[] = [];
  let scale: Float64Array | null = null;
  const state = new Int32Array(5);
  const defers = (unit: number, replicates: number): boolean => {
    if (defer === undefined) return false;
    const cells = (plan.units[unit]?.cells ?? []).map((c) => plan.cells[c] as PlannedCell);
    const perReplicate = deferrable(cells, jointOfUnit.has(unit) || designOfUnit.has(unit));
    if (perReplicate === null) return false;
    rng.save(state, 0);
    rng.skip(perReplicate * replicates);
    defer(unit, state.slice());
    return true;
  };
  /** Uniforms per replicate of a unit the fill below would draw by `drawSessionDesignNull` without shared sessions. */
  const deferrable = (cells: readonly PlannedCell[], shares: boolean): number | null => {
    const k = (cells[0] as PlannedCell).actions.length;
    if (shares || permuteUnequalSessions) return null;
    const decisions = cells.every((c) => c.unit === "decision");
    const total = cells.reduce((sum, c) => sum + c.n, 0);
    if (decisions && (cells.length - 1) * (k - 1) * COLLAPSE_GAIN < total) return null;
    if (!decisions && sessionsSpanFramings(cells)) return null;
    if (sessionsExchangeable(cells)) return null;
    return sessionDesignUniforms(cells, method);
  };
  const fill = (cell: number, replicates: number, out: Int32Array): void => {
    const { unit, framing } = unitOfCell.get(cell) as { unit: number; framing: number };
    if (unit !== current) {
      scale = null;
      const cells = (plan.units[unit]?.cells ?? []).map((c) => plan.cells[c] as PlannedCell);
      const k = (cells[0] as PlannedCell).actions.length;
      const decisions = cells.every((c) => c.unit === "decision");
      const total = cells.reduce((sum, c) => sum + c.n, 0);
      const shuffle = jointOfUnit.get(unit);
      if (decisions && (cells.length - 1) * (k - 1) * COLLAPSE_GAIN < total) {
        // Single decisions reassigned without a shuffle need only the counts, not one item per decision.
        buffers = drawMultivariateHypergeometric(cells, replicates, rng, sharedTables);
      } else if (!decisions && (sessionsSpanFramings(cells) || (shuffle && sessionsExchangeable(cells)))) {
        // Sessions that decided in several framings: their decisions' framing labels shuffled within each;
        // and sessions of one framing that decided in several games: shuffled for all of them at once.
        buffers = drawWithinSessionPermutations(cells, replicates, rng, shuffle?.ids, method);
        if (shuffle) {
          const shuffled = jointShuffled(shuffle, unit, k, replicates);
          buffers.forEach((target, f) => {
            const add = shuffled[f] as Int32Array;
            for (let i = 0; i < target.length; i++) target[i] = (target[i] as number) + (add[i] as number);
          });
        }
      } else if (!permuteUnequalSessions && !sessionsExchangeable(cells)) {
        // Sessions of different lengths are not exchangeable: a null that keeps each framing's design.
        // A player's sessions that decided in several of its games share one propensity draw there.
        const design = designOfUnit.get(unit);
        const shared = design ? sharedPropensities(design.ids, design.seed, replicates) : undefined;
        const drawn = drawSessionDesignNull(cells, replicates, rng, shared, method);
        buffers = drawn.counts;
        scale = drawn.scale;
      } else {
        const pool = poolOf(cells);
        const types = decisions ? null : sessionTypes(pool);
        const sessions = pool.perFraming.reduce((sum, m) => sum + m, 0);
        const collapsedSessions =
          types !== null &&
          (cells.length - 1) * (types.weights.length - 1) * SESSION_COLLAPSE_GAIN < sessions;
        buffers = collapsedSessions
          ? drawSessionTypeTables(pool, types, replicates, rng)
          : drawPermutations(pool, replicates, rng);
      }
      current = unit;
    }
    out.set(buffers[framing] as Int32Array);
  };
  // The session-design null's statistics are studentized: each replicate's on the scale of its own ρ̂*.
  return Object.assign(fill, {
    statisticScale: (unit: number) => (unit === current ? scale : null),
    defers,
  });
}

/** The null of a unit `permutationFill` deferred, from the stream state it gave: what it would have drawn. */
export function deferredSessionDesignNull(
  plan: RobustnessPlan,
  unit: number,
  state: Int32Array,
  replicates: number,
  method: ClusterSumMethod = "exact",
): { counts: Int32Array[]; scale: Float64Array } {
  const cells = (plan.units[unit]?.cells ?? []).map((c) => plan.cells[c] as PlannedCell);
  return drawSessionDesignNull(cells, replicates, BufferedUniforms.at(state, 0), undefined, method);
}

/**
 * `replicates` random reassignments of the pool's items to framings (Fisher–Yates), summed per framing.
 * The shuffle moves the items' counts themselves rather than their indices (the same permutation, so the
 * same sums), two-action counts packed into one number; the last framing gets what the others left, and
 * the uniforms of a block of replicates come from one `fill` (the same stream as one `next()` per swap).
 */
function drawPermutations(pool: Pool, replicates: number, rng: UniformSource): Int32Array[] {
  const { k, items, perFraming } = pool;
  const F = perFraming.length;
  const total = perFraming.reduce((s, m) => s + m, 0);
  const out = perFraming.map(() => new Int32Array(replicates * k));
  const pooled = new Float64Array(k);
  for (let i = 0; i < total; i++)
    for (let a = 0; a < k; a++) pooled[a] = (pooled[a] as number) + (items[i * k + a] as number);
  const swaps = Math.max(0, total - 1);
  const perBlock = Math.max(1, Math.floor(BLOCK / Math.max(1, swaps)));
  const uniforms = new Float64Array(perBlock * swaps);
  const last = out[F - 1] as Int32Array;
  const packed = k === 2 && (pooled[0] as number) + (pooled[1] as number) < PACK;
  // Packed: c₀·PACK + c₁ adds up exactly (both sums < PACK, far below 2⁵³). Else item indices.
  const values = new Float64Array(total);
  for (let i = 0; i < total; i++)
    values[i] = packed ? (items[2 * i] as number) * PACK + (items[2 * i + 1] as number) : i;
  const left = new Float64Array(k);
  for (let first = 0; first < replicates; first += perBlock) {
    const count = Math.min(perBlock, replicates - first);
    rng.fill(uniforms, count * swaps);
    for (let b = 0; b < count; b++) {
      const r = first + b;
      const from = b * swaps + total - 1;
      for (let i = total - 1; i > 0; i--) {
        const j = ((uniforms[from - i] as number) * (i + 1)) | 0;
        const t = values[i] as number;
        values[i] = values[j] as number;
        values[j] = t;
      }
      let next = 0;
      left.set(pooled);
      for (let f = 0; f < F - 1; f++) {
        const target = out[f] as Int32Array;
        const end = next + (perFraming[f] as number);
        if (packed) {
          let sum = 0;
          for (; next < end; next++) sum += values[next] as number;
          const c0 = Math.floor(sum / PACK);
          target[2 * r] = c0;
          target[2 * r + 1] = sum - c0 * PACK;
        } else {
          for (; next < end; next++) {
            const row = (values[next] as number) * k;
            for (let a = 0; a < k; a++)
              target[r * k + a] = (target[r * k + a] as number) + (items[row + a] as number);
          }
        }
        for (let a = 0; a < k; a++) left[a] = (left[a] as number) - (target[r * k + a] as number);
      }
      for (let a = 0; a < k; a++) last[r * k + a] = left[a] as number;
    }
  }
  return out;
}

/** Uniforms drawn per block (a block of replicates at a time). */
const BLOCK = 1 << 16;

/** Packing base of two-action counts in drawPermutations: 2²⁶. */
const PACK = 67108864;

/** Units of at most this many decisions share their two-action hypergeometric tables (drawMultivariateHypergeometric). */
const SHARED_TABLES_UP_TO = 4096;

/** Collapsed permutation once it needs this many times fewer draws than shuffling every decision. */
const COLLAPSE_GAIN = 8;

/**
 * The same null distribution for single decisions of any number of framings and actions, without
 * shuffling: reassigning N decisions at random with framing f keeping m_f of them makes the
 * framings' counts multivariate hypergeometric, drawn framing by framing and action by action as
 * x ~ Hypergeometric(decisions left, of them this action, still to place in this framing). A draw is one
 * uniform inverted through a table cached per (N, K, m), so a replicate costs (F − 1)(k − 1) draws,
 * not N swaps.
 */
function drawMultivariateHypergeometric(
  cells: readonly PlannedCell[],
  replicates: number,
  rng: UniformSource,
  shared: Map<number, GuideTable>,
): Int32Array[] {
  const { actions } = cells[0] as PlannedCell;
  const k = actions.length;
  const perFraming = cells.map((c) => c.n);
  const F = perFraming.length;
  const total = perFraming.reduce((s, m) => s + m, 0);
  const chosen = Int32Array.from(actions, (a) => cells.reduce((sum, c) => sum + (c.cell.counts[a] ?? 0), 0));
  if (k === 2) {
    return drawTwoActionHypergeometric(
      perFraming,
      chosen[0] as number,
      replicates,
      rng,
      total <= SHARED_TABLES_UP_TO ? shared : null,
    );
  }
  const cache = new Map<number, GuideTable>();
  const side = total + 1;
  const out = perFraming.map(() => new Int32Array(replicates * k));
  const left = new Int32Array(k);
  for (let r = 0; r < replicates; r++) {
    left.set(chosen);
    let pooled = total;
    for (let f = 0; f < F - 1; f++) {
      const target = out[f] as Int32Array;
      let place = perFraming[f] as number;
      let rest = pooled;
      for (let a = 0; a < k - 1; a++) {
        const K = left[a] as number;
        let x = 0;
        if (place > 0 && K > 0) {
          if (K === rest) x = place;
          else {
            const key = (rest * side + K) * side + place;
            let table = cache.get(key);
            if (table === undefined) {
              table = windowedHypergeometric(rest, K, place);
              cache.set(key, table);
            }
            x = table.lo + guideIndex(table, rng.next());
          }
        }
        target[r * k + a] = x;
        left[a] = K - x;
        rest -= K;
        place -= x;
      }
      target[r * k + k - 1] = place;
      left[k - 1] = (left[k - 1] as number) - place;
      pooled -= perFraming[f] as number;
    }
    const last = out[F - 1] as Int32Array;
    for (let a = 0; a < k; a++) last[r * k + a] = left[a] as number;
  }
  return out;
}

/**
 * `drawMultivariateHypergeometric` for two actions, where a replicate is one draw per framing: framing f
 * gets x ~ Hypergeometric(decisions left, of them action 0, m_f), the rest of its m_f chose action 1. The
 * same draws from the same uniforms as the general loop; with one varying argument per framing (action 0's
 * decisions left) each framing's tables sit in a flat array indexed by it.
 */
function drawTwoActionHypergeometric(
  perFraming: readonly number[],
  chosen0: number,
  replicates: number,
  rng: UniformSource,
  /** Tables kept across units, by (decisions left, of them action 0, to place): null keeps them per unit. */
  shared: Map<number, GuideTable> | null,
): Int32Array[] {
  const F = perFraming.length;
  const total = perFraming.reduce((s, m) => s + m, 0);
  const side = SHARED_TABLES_UP_TO + 1;
  // Filled up front, so that V8 keeps them flat arrays (one set far past the end makes a dictionary).
  const tables = perFraming.map(() => new Array<GuideTable | undefined>(chosen0 + 1).fill(undefined));
  const out = perFraming.map(() => new Int32Array(replicates * 2));
  const last = out[F - 1] as Int32Array;
  for (let r = 0; r < replicates; r++) {
    let left = chosen0;
    let pooled = total;
    for (let f = 0; f < F - 1; f++) {
      const place = perFraming[f] as number;
      let x = 0;
      if (place > 0 && left > 0) {
        if (left === pooled) x = place;
        else {
          const byLeft = tables[f] as (GuideTable | undefined)[];
          let table = byLeft[left];
          if (table === undefined) {
            const key = (pooled * side + left) * side + place;
            table = shared?.get(key) ?? windowedHypergeometric(pooled, left, place);
            shared?.set(key, table);
            byLeft[left] = table;
          }
          x = table.lo + guideIndex(table, rng.next());
        }
      }
      const target = out[f] as Int32Array;
      target[2 * r] = x;
      target[2 * r + 1] = place - x;
      left -= x;
      pooled -= place;
    }
    last[2 * r] = left;
    last[2 * r + 1] = pooled - left;
  }
  return out;
}

function windowedHypergeometric(N: number, K: number, m: number): GuideTable {
  const support = { lo: Math.max(0, m - (N - K)), hi: Math.min(m, K) };
  const mean = (m * K) / N;
  const sd = Math.sqrt(N > 1 ? (mean * (1 - K / N) * (N - m)) / (N - 1) : 0);
  const lo = Math.max(support.lo, Math.floor(mean - WINDOW_SD * sd - WINDOW_EXTRA));
  const hi = Math.min(support.hi, Math.ceil(mean + WINDOW_SD * sd + WINDOW_EXTRA));
  const mode = Math.min(hi, Math.max(lo, Math.floor(((m + 1) * (K + 1)) / (N + 2))));
  // Relative masses from the mode outwards: P(x+1)/P(x) = (K − x)(m − x) / ((x + 1)(N − K − m + x + 1)).
  const mass = new Float64Array(hi - lo + 1);
  mass[mode - lo] = 1;
  for (let x = mode; x < hi; x++)
    mass[x + 1 - lo] = ((mass[x - lo] as number) * ((K - x) * (m - x))) / ((x + 1) * (N - K - m + x + 1));
  for (let x = mode; x > lo; x--)
    mass[x - 1 - lo] = ((mass[x - lo] as number) * (x * (N - K - m + x))) / ((K - x + 1) * (m - x + 1));
  return guideTable(lo, mass);
}

/**
 * Sessions are collapsed to their types once shuffling every session would cost this many times more
 * draws: a table-free hypergeometric draw (below) walks O(sd) steps, measured at about ten swaps.
 */
const SESSION_COLLAPSE_GAIN = 10;

/** The pool's items grouped by their counts: type t's vector at vectors[t·k ..], weights[t] items of it. */
function sessionTypes(pool: Pool): { vectors: Int32Array; weights: number[] } {
  const { k, items } = pool;
  const total = items.length / k;
  const index = new Map<string, number>();
  const rows: number[] = [];
  const weights: number[] = [];
  for (let i = 0; i < total; i++) {
    const row = Array.from(items.subarray(i * k, i * k + k));
    const key = row.join(",");
    const t = index.get(key);
    if (t === undefined) {
      index.set(key, weights.length);
      weights.push(1);
      rows.push(...row);
    } else weights[t] = (weights[t] as number) + 1;
  }
  return { vectors: Int32Array.from(rows), weights };
}

/**
 * The same null distribution for whole sessions, without shuffling them: sessions with equal
 * counts are interchangeable, so reassigning S sessions at random with framing f keeping m_f of them
 * makes the number of each type per framing multivariate hypergeometric, drawn framing by framing and
 * type by type as x ~ Hypergeometric(sessions left, of them this type, still to place in this framing),
 * and framing f's counts are Σ_t x_{f,t}·counts_t. A replicate costs (F − 1)(T − 1) draws, not S swaps.
 * The arguments vary too much from draw to draw for cached tables, so each draw inverts from the mode
 * with ln-factorial lookups (`hypergeometricFromMode`).
 */
function drawSessionTypeTables(
  pool: Pool,
  types: { vectors: Int32Array; weights: number[] },
  replicates: number,
  rng: UniformSource,
): Int32Array[] {
  const { k, perFraming } = pool;
  const { vectors, weights } = types;
  const F = perFraming.length;
  const T = weights.length;
  const total = perFraming.reduce((s, m) => s + m, 0);
  const lnFactorial = new Float64Array(total + 1);
  for (let i = 2; i <= total; i++) lnFactorial[i] = (lnFactorial[i - 1] as number) + Math.log(i);
  const out = perFraming.map(() => new Int32Array(replicates * k));
  const left = new Int32Array(T);
  const drawn = new Int32Array(T);
  for (let r = 0; r < replicates; r++) {
    for (let t = 0; t < T; t++) left[t] = weights[t] as number;
    let pooled = total;
    for (let f = 0; f < F; f++) {
      let place = perFraming[f] as number;
      if (f === F - 1) drawn.set(left);
      else {
        let rest = pooled;
        for (let t = 0; t < T - 1; t++) {
          const K = left[t] as number;
          let x = 0;
          if (place > 0 && K > 0) {
            x = K === rest ? place : hypergeometricFromMode(rest, K, place, lnFactorial, rng.next());
          }
          drawn[t] = x;
          left[t] = K - x;
          rest -= K;
          place -= x;
        }
        drawn[T - 1] = place;
        left[T - 1] = (left[T - 1] as number) - place;
        pooled -= perFraming[f] as number;
      }
      const target = out[f] as Int32Array;
      for (let t = 0; t < T; t++) {
        const m = drawn[t] as number;
        if (m === 0) continue;
        for (let a = 0; a < k; a++)
          target[r * k + a] = (target[r * k + a] as number) + m * (vectors[t * k + a] as number);
      }
    }
  }
  return out;
}
