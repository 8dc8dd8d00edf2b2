// The design of a (player, game)'s within-session permutation (within-session-permutation.ts): its
// spanning sessions' framing × action tables, and its one-framing sessions grouped by length, each in an
// order fixed by content. Held in flat typed arrays, not an object (with a key string and a small typed
// array) per session: the worker drawing the null of a million short sessions that span cells builds one
// design per (player, game), ~10,000 sessions each, while the calling thread draws the bootstrap, and
// those per-session objects were much of the garbage its heap grew with at the analysis' peak memory.

import { byText } from "../../domain/text-order.js";
import type { PlannedCell } from "../robustness/robustness-plan.js";

/** Sessions that decided in several framings: session s's F·k table at tables[s·F·k ..), `weights[s]` of it. */
export interface SpanningSessions {
  readonly tables: Int32Array;
  readonly weights: Float64Array;
}

/** Sessions (or decisions) wholly inside one framing, all of one length: session i's counts at vectors[i·k ..). */
export interface LengthStratum {
  readonly vectors: Int32Array;
  readonly framings: Int32Array;
}

export interface SpanningDesign {
  readonly k: number;
  readonly spanning: SpanningSessions;
  /** By length, shortest first. */
  readonly strata: readonly LengthStratum[];
}

/**
 * The text order of two count vectors written out joined by commas (`v.join()`), without writing them:
 * a comma sorts below every digit, so the first differing count decides, by its own text.
 */
function byJoinedText(values: ArrayLike<number>, i: number, j: number, length: number): number {
  for (let a = 0; a < length; a++) {
    const x = values[i + a] as number;
    const y = values[j + a] as number;
    if (x !== y) return byText(String(x), String(y));
  }
  return 0;
}

// The functions of this file loop without closures, and the two orders below are top-level functions
// bound to a unit's arrays for its sort: a callback written inline is a new closure per unit, which V8
// compiled again for every unit of every analysis.

/**
 * The order of spanning sessions s and t: the text order of `${weight}:${table}` (':' sorts above every
 * digit, so unequal weights compare as their texts followed by it).
 */
function bySessionKey(
  weights: readonly number[],
  tables: readonly number[],
  size: number,
  s: number,
  t: number,
): number {
  const ws = weights[s] as number;
  const wt = weights[t] as number;
  if (ws !== wt) return byText(`${ws}:`, `${wt}:`);
  return byJoinedText(tables, s * size, t * size, size);
}

/** The order of one-framing records r and q: by length, then framing, then the text of their counts. */
function byRecordKey(
  lengths: readonly number[],
  framings: readonly number[],
  vectors: readonly number[],
  k: number,
  r: number,
  q: number,
): number {
  return (
    (lengths[r] as number) - (lengths[q] as number) ||
    (framings[r] as number) - (framings[q] as number) ||
    byJoinedText(vectors, r * k, q * k, k)
  );
}

/** 0, 1, …, n − 1. */
function indices(n: number): number[] {
  const all: number[] = [];
  for (let i = 0; i < n; i++) all.push(i);
  return all;
}

/** Whether a listed cluster has decisions among the game's actions. */
export function decided(cluster: Readonly<Record<string, number>>, actions: readonly string[]): boolean {
  for (const a of actions) if ((cluster[a] ?? 0) > 0) return true;
  return false;
}

/**
 * The framing of each listed session of the unit's cells by id (sessions without an id get none), or −1
 * for a session that decided in two or more framings. Ids are distinct within a cell (validateCell).
 */
function framingsById(cells: readonly PlannedCell[]): Map<string, number> {
  const framingOf = new Map<string, number>();
  for (let f = 0; f < cells.length; f++) {
    const pc = cells[f] as PlannedCell;
    const { clusters, cluster_ids: ids } = pc.cell;
    if (pc.unit !== "session" || clusters === undefined || ids === undefined) continue;
    for (let i = 0; i < clusters.length; i++) {
      if (!decided(clusters[i] as Readonly<Record<string, number>>, pc.actions)) continue;
      const id = ids[i] as string;
      framingOf.set(id, framingOf.has(id) ? -1 : f);
    }
  }
  return framingOf;
}

/**
 * Each spanning session's table, in an order fixed by content (session ids are random), so a seed gives
 * the same p-value for the same decisions whatever their ids: the text order of `${weight}:${table}`
 * (the table's counts joined by commas), compared without writing those keys.
 */
function spanningSessions(cells: readonly PlannedCell[], framingOf: Map<string, number>): SpanningSessions {
  const k = (cells[0] as PlannedCell).actions.length;
  const size = cells.length * k;
  // In the order each id was first seen; a later listing in the same framing replaces its counts there.
  const sessionOf = new Map<string, number>();
  const tables: number[] = [];
  const weights: number[] = [];
  for (let f = 0; f < cells.length; f++) {
    const pc = cells[f] as PlannedCell;
    const { clusters, cluster_ids: ids, cluster_weights: listed } = pc.cell;
    if (pc.unit !== "session" || clusters === undefined || ids === undefined) continue;
    for (let i = 0; i < clusters.length; i++) {
      const id = ids[i] as string;
      const cluster = clusters[i] as Readonly<Record<string, number>>;
      if (framingOf.get(id) !== -1 || !decided(cluster, pc.actions)) continue;
      let s = sessionOf.get(id);
      if (s === undefined) {
        s = weights.length;
        sessionOf.set(id, s);
        weights.push(1);
        for (let j = 0; j < size; j++) tables.push(0);
      }
      // `| 0`: what an Int32Array holds (the counts are small integers).
      for (let a = 0; a < k; a++) tables[s * size + f * k + a] = (cluster[pc.actions[a] as string] ?? 0) | 0;
      weights[s] = listed?.[i] ?? 1;
    }
  }
  const order = indices(weights.length).sort(bySessionKey.bind(null, weights, tables, size));
  const sorted = new Int32Array(order.length * size);
  const sortedWeights = new Float64Array(order.length);
  for (let at = 0; at < order.length; at++) {
    const s = order[at] as number;
    for (let j = 0; j < size; j++) sorted[at * size + j] = tables[s * size + j] as number;
    sortedWeights[at] = weights[s] as number;
  }
  return { tables: sorted, weights: sortedWeights };
}

/**
 * The sessions inside one framing (not spanning, not left out), and a decision cell's single decisions,
 * grouped by length; within a length by framing, then by the text of their counts. Each listing is one
 * record standing for its `weight` sessions (a decision cell's count of an action: that many decisions),
 * which are alike, so sorting the records and writing each out `weight` times gives the same order as
 * sorting every session.
 */
function lengthStrata(
  cells: readonly PlannedCell[],
  framingOf: Map<string, number>,
  leaveOut: ReadonlySet<string>,
): LengthStratum[] {
  const k = (cells[0] as PlannedCell).actions.length;
  const vectors: number[] = [];
  const lengths: number[] = [];
  const framings: number[] = [];
  const weights: number[] = [];
  for (let f = 0; f < cells.length; f++) {
    const pc = cells[f] as PlannedCell;
    const { clusters, cluster_ids: ids, cluster_weights: listed } = pc.cell;
    if (pc.unit === "session" && clusters !== undefined) {
      for (let i = 0; i < clusters.length; i++) {
        const id = ids?.[i];
        if (id !== undefined && (framingOf.get(id) === -1 || leaveOut.has(id))) continue;
        const cluster = clusters[i] as Readonly<Record<string, number>>;
        let length = 0;
        for (const a of pc.actions) length += cluster[a] ?? 0;
        if (length === 0) continue;
        for (const a of pc.actions) vectors.push(cluster[a] ?? 0);
        lengths.push(length);
        framings.push(f);
        weights.push(listed?.[i] ?? 1);
      }
      continue;
    }
    for (let j = 0; j < pc.actions.length; j++) {
      const count = pc.cell.counts[pc.actions[j] as string] ?? 0;
      if (!(count > 0)) continue;
      for (let a = 0; a < k; a++) vectors.push(a === j ? 1 : 0);
      lengths.push(1);
      framings.push(f);
      weights.push(count);
    }
  }
  const order = indices(lengths.length).sort(byRecordKey.bind(null, lengths, framings, vectors, k));
  const strata: LengthStratum[] = [];
  let from = 0;
  while (from < order.length) {
    const length = lengths[order[from] as number] as number;
    let to = from;
    let sessions = 0;
    for (; to < order.length && lengths[order[to] as number] === length; to++) {
      sessions += weights[order[to] as number] as number;
    }
    const stratum = { vectors: new Int32Array(sessions * k), framings: new Int32Array(sessions) };
    let at = 0;
    for (let o = from; o < to; o++) {
      const r = order[o] as number;
      const weight = weights[r] as number;
      for (let w = 0; w < weight; w++, at++) {
        for (let a = 0; a < k; a++) stratum.vectors[at * k + a] = vectors[r * k + a] as number;
        stratum.framings[at] = framings[r] as number;
      }
    }
    strata.push(stratum);
    from = to;
  }
  return strata;
}

/** The unit's design: its spanning sessions and its strata of one-framing sessions (those in `leaveOut` not counted). */
export function withinSessionDesign(
  cells: readonly PlannedCell[],
  leaveOut: ReadonlySet<string>,
): SpanningDesign {
  const framingOf = framingsById(cells);
  return {
    k: (cells[0] as PlannedCell).actions.length,
    spanning: spanningSessions(cells, framingOf),
    strata: lengthStrata(cells, framingOf, leaveOut),
  };
}
