import type { PlannedCell } from "../robustness/robustness-plan.js";
import { type BinomialSampler, createBinomialSampler, drawBinomials } from "./binomial-sampler.js";
import {
  createMultiplicitySampler,
  drawClusterSums,
  type MultiplicitySampler,
} from "./cluster-multiplicities.js";
import type { UniformSource } from "./fast-rng.js";
import { createMultinomialSampler, drawMultinomial, type MultinomialSampler } from "./multinomial-sampler.js";
import {
  type ClusterSumMethod,
  drawNormalClusterSums,
  drawsNormalSums,
  SessionMoments,
} from "./normal-cluster-sums.js";

/**
 * How a cell is redrawn in the bootstrap (SPEC §4): at its own n from its own empirical distribution —
 * Binomial for two actions, Multinomial for more — or, for a player whose sessions made several
 * decisions, by drawing the cell's sessions with replacement and adding up their counts. Sessions with
 * identical counts are one type (`table` row) drawn as often as its multiplicity says (cluster-multiplicities).
 * A cell whose decisions all chose one action (and has no sessions to resample) can only reproduce itself
 * ("fixed"). A cell of many sessions may draw its session sums from their normal approximation instead
 * ("normal", normal-cluster-sums).
 */
export type CellResampler =
  | { readonly kind: "fixed"; readonly counts: Int32Array }
  | { readonly kind: "binomial"; readonly sampler: BinomialSampler }
  | { readonly kind: "multinomial"; readonly k: number; readonly sampler: MultinomialSampler }
  | {
      readonly kind: "sessions";
      readonly k: number;
      /** T × k: the counts of each distinct session type. */
      readonly table: Int32Array;
      readonly multiplicities: MultiplicitySampler;
    }
  | { readonly kind: "normal"; readonly k: number; readonly moments: SessionMoments };

export function createCellResampler(pc: PlannedCell, method: ClusterSumMethod = "exact"): CellResampler {
  const k = pc.actions.length;
  const counts = Int32Array.from(pc.actions, (a) => pc.cell.counts[a] ?? 0);
  const types = clusterTypes(pc);
  // Sessions whose decisions all chose one action have no variation to resample: every draw would
  // reproduce the cell, and the interval would be a point. Such a cell is redrawn like one without
  // sessions, from the smoothed rates below, so a deterministic agent played live gets the same interval
  // as its counts imported without sessions. A cell of one session is drawn by decision too
  // (MIN_RESAMPLED_SESSIONS): redrawing its one session would reproduce it.
  if (pc.resampled === "session" && types.weights.length > 0 && !isSingleAction(counts)) {
    const sessions = types.weights.reduce((sum, w) => sum + w, 0);
    if (drawsNormalSums(method, sessions, sessions)) {
      return { kind: "normal", k, moments: typeMoments(types.table, types.weights, k) };
    }
    return {
      kind: "sessions",
      k,
      table: types.table,
      multiplicities: createMultiplicitySampler(types.weights),
    };
  }
  // An action never chosen would never be drawn, so the cell could not vary and an interval at p̂ = 0 or 1
  // would be too short; such a cell is redrawn from (x + ½)/(n + k/2) instead (Jeffreys-smoothed).
  const smooth = counts.some((c) => c === 0) ? 0.5 : 0;
  const probabilities = Array.from(counts, (c) => (c + smooth) / (pc.n + smooth * k));
  if (k === 2) return { kind: "binomial", sampler: createBinomialSampler(pc.n, probabilities[0] as number) };
  return { kind: "multinomial", k, sampler: createMultinomialSampler(pc.n, probabilities) };
}

/** The moments of a cell's session types (rows of `table`, each standing for its weight's sessions). */
function typeMoments(table: Int32Array, weights: readonly number[], k: number): SessionMoments {
  const moments = new SessionMoments(k);
  const positions = Int32Array.from({ length: k }, (_, a) => a);
  weights.forEach((weight, t) => {
    moments.add(positions, table.subarray(t * k, t * k + k), 0, k, weight);
  });
  return moments;
}

/** Whether every decision of the cell chose one action. */
export function isSingleAction(counts: ArrayLike<number>): boolean {
  let used = 0;
  for (let a = 0; a < counts.length; a++) if ((counts[a] as number) > 0) used++;
  return used <= 1;
}

/**
 * The cell's sessions grouped by their counts, in the order the sessions are given (each type where its
 * first session is; the query lists sessions sorted by content, so a type's sessions are adjacent and the
 * direct draws pick exactly the sessions the per-session bootstrap picked). `cluster_weights` (how many
 * sessions a listed cluster stands for) default to 1. Sessions without decisions cannot change a draw;
 * leaving them out keeps every resampled cell non-empty.
 */
export function clusterTypes(pc: PlannedCell): { table: Int32Array; weights: number[] } {
  const k = pc.actions.length;
  const index = new Map<string, number>();
  const rows: number[][] = [];
  const weights: number[] = [];
  (pc.cell.clusters ?? []).forEach((cluster, i) => {
    const vector = pc.actions.map((a) => cluster[a] ?? 0);
    if (!vector.some((c) => c > 0)) return;
    const weight = pc.cell.cluster_weights?.[i] ?? 1;
    if (weight === 0) return;
    const key = vector.join(",");
    const t = index.get(key);
    if (t === undefined) {
      index.set(key, rows.length);
      rows.push(vector);
      weights.push(weight);
    } else weights[t] = (weights[t] as number) + weight;
  });
  const table = new Int32Array(rows.length * k);
  rows.forEach((row, t) => {
    table.set(row, t * k);
  });
  return { table, weights };
}

let uniformBlock = new Float64Array(0);

/**
 * A reusable block for one cell's uniforms, then its draws (grown on demand, never shrunk). No result
 * depends on its contents; it only spares allocating B doubles per cell in every analysis.
 */
function scratchUniforms(length: number): Float64Array {
  if (uniformBlock.length < length) uniformBlock = new Float64Array(length);
  return uniformBlock;
}

/** Write `replicates` draws of the cell into `out`, replicate r's counts at `out[r·k .. r·k + k)`. */
export function drawCellReplicates(
  resampler: CellResampler,
  rng: UniformSource,
  replicates: number,
  out: Int32Array,
): void {
  switch (resampler.kind) {
    case "fixed": {
      const { counts } = resampler;
      const k = counts.length;
      for (let r = 0; r < replicates; r++) for (let j = 0; j < k; j++) out[r * k + j] = counts[j] as number;
      return;
    }
    case "binomial": {
      const { n } = resampler.sampler;
      const draws = scratchUniforms(replicates);
      drawBinomials(resampler.sampler, rng, replicates, draws);
      for (let r = 0; r < replicates; r++) {
        out[2 * r] = draws[r] as number;
        out[2 * r + 1] = n - (draws[r] as number);
      }
      return;
    }
    case "multinomial":
      for (let r = 0; r < replicates; r++) drawMultinomial(resampler.sampler, rng, out, r * resampler.k);
      return;
    case "sessions":
      drawClusterSums(resampler.multiplicities, resampler.table, resampler.k, rng, replicates, out);
      return;
    case "normal":
      drawNormalClusterSums(resampler.moments, rng, replicates, out, true);
      return;
  }
}
