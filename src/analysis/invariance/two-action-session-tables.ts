// The within-session permutation's replicate loop for games of two actions (every dilemma of the catalog):
// the same draws from the same uniforms as the general loop of within-session-permutation.ts, with what
// that loop looks up per draw worked out once per (player, game).
//
// With two actions a spanning session's table is redrawn framing by framing as x ~ Hypergeometric(N, K,
// m): N, the session's decisions not yet labelled, and m, the framing's share of them, are the same in
// every replicate; only K, its cooperations not yet placed, varies, between 0 and the session's total. So
// each step's draws for every K are resolved before the loop — no draw (K = 0: none; K = N: all m), or
// the memo's walk of (N, K, m), its running masses kept in one flat array — and a draw is one scan of
// them. A framing's second count is its size less its first, sizes the shuffle never changes.

import type { UniformSource } from "../sampling/fast-rng.js";
import type { HypergeometricMemo, Walk } from "../sampling/hypergeometric-memo.js";

/** A spanning session: the framings it decided in (in framing order), its decisions there, its cooperations. */
export interface TwoActionSession {
  readonly framings: Int32Array;
  readonly sizes: Int32Array;
  /** Its decisions of the first action, over all its framings. */
  readonly first: number;
  readonly weight: number;
}

/** Sessions of one length inside one framing each: each one's first-action count and framing slot. */
export interface TwoActionStratum {
  /** Session i's counts at vectors[2i], vectors[2i + 1]. */
  readonly vectors: Int32Array;
  readonly framings: Int32Array;
}

/**
 * `replicates` draws into `out` (framing f's counts of replicate r at out[f][2r], out[f][2r + 1]): each
 * session `weight` times, step by step over its framings as the general loop draws it (the last framing
 * of all, F − 1, takes what is left without a draw), then each stratum's Fisher–Yates shuffle, one
 * uniform per swap, from its previous order. `fixed` holds what never moves (framing f's counts at 2f).
 */
export function drawTwoActionSessionTables(
  F: number,
  fixed: Int32Array,
  sessions: readonly TwoActionSession[],
  strata: readonly TwoActionStratum[],
  memo: HypergeometricMemo,
  replicates: number,
  rng: UniformSource,
  out: readonly Int32Array[],
): void {
  const sizes = new Int32Array(F);
  const fixedFirst = new Int32Array(F);
  for (let f = 0; f < F; f++) {
    fixedFirst[f] = fixed[2 * f] as number;
    sizes[f] = (fixed[2 * f] as number) + (fixed[2 * f + 1] as number);
  }
  // Steps of every session in order; step s draws for K = 0..first at entries[base[s] + K].
  const stepFraming: number[] = [];
  const stepBase: number[] = [];
  const entryStart: number[] = [];
  const entryEnd: number[] = [];
  const entryValue: number[] = [];
  const sums: number[] = [];
  const values: number[] = [];
  const placed = new Map<Walk, number>();
  const firstStep = new Int32Array(sessions.length + 1);
  sessions.forEach((session, p) => {
    let pooled = 0;
    for (const m of session.sizes) pooled += m;
    session.framings.forEach((f, v) => {
      const m = session.sizes[v] as number;
      sizes[f] = (sizes[f] as number) + session.weight * m;
      stepFraming.push(f);
      stepBase.push(entryStart.length);
      for (let K = 0; K <= Math.min(session.first, pooled); K++) {
        if (f === F - 1 || K === 0 || K === pooled) {
          // Placed without a uniform: F − 1 takes all that is left (K), K = 0 none, K = N all m.
          entryStart.push(-1);
          entryEnd.push(-1);
          entryValue.push(f === F - 1 ? K : K === 0 ? 0 : m);
          continue;
        }
        const walk = memo.walk(pooled, K, m);
        let at = placed.get(walk);
        if (at === undefined) {
          at = sums.length;
          placed.set(walk, at);
          for (let i = 0; i < walk.sums.length; i++) {
            sums.push(walk.sums[i] as number);
            values.push(walk.values[i] as number);
          }
        }
        entryStart.push(at);
        entryEnd.push(at + walk.sums.length);
        entryValue.push(walk.fallback);
      }
      pooled -= m;
    });
    firstStep[p + 1] = stepFraming.length;
  });
  const framingOf = Int32Array.from(stepFraming);
  const baseOf = Int32Array.from(stepBase);
  const starts = Int32Array.from(entryStart);
  const ends = Int32Array.from(entryEnd);
  const settled = Int32Array.from(entryValue);
  const masses = Float64Array.from(sums);
  const drawn = Int32Array.from(values);
  const cooperations = Int32Array.from(sessions, (s) => s.first);
  const weights = Int32Array.from(sessions, (s) => s.weight);
  // Each stratum's sessions' first-action counts in their current order: the shuffle moves the counts
  // themselves (the same permutation as moving indices into `vectors`, so the same sums), and a slot's
  // count is added to its framing as soon as the shuffle has placed it (slots from the last down). The
  // uniforms of one stratum's shuffle are read in one block: the stream's next ones, in the same order.
  const strataCounts = strata.map((s) => Int32Array.from(s.framings, (_, i) => s.vectors[2 * i] as number));
  const uniforms = new Float64Array(Math.max(1, ...strata.map((s) => s.framings.length)));
  for (const stratum of strata) {
    stratum.framings.forEach((f, i) => {
      sizes[f] =
        (sizes[f] as number) + (stratum.vectors[2 * i] as number) + (stratum.vectors[2 * i + 1] as number);
    });
  }
  const acc = new Int32Array(F);
  for (let r = 0; r < replicates; r++) {
    acc.set(fixedFirst);
    for (let p = 0; p < sessions.length; p++) {
      const from = firstStep[p] as number;
      const to = firstStep[p + 1] as number;
      for (let w = weights[p] as number; w > 0; w--) {
        let left = cooperations[p] as number;
        for (let s = from; s < to; s++) {
          const e = (baseOf[s] as number) + left;
          const start = starts[e] as number;
          let x = settled[e] as number;
          if (start >= 0) {
            const u = rng.next();
            const end = ends[e] as number;
            let i = start;
            while (i < end && u >= (masses[i] as number)) i++;
            if (i < end) x = drawn[i] as number;
          }
          const f = framingOf[s] as number;
          acc[f] = (acc[f] as number) + x;
          left -= x;
        }
      }
    }
    for (let t = 0; t < strata.length; t++) {
      const counts = strataCounts[t] as Int32Array;
      const { framings } = strata[t] as TwoActionStratum;
      const last = counts.length - 1;
      if (last > 0) rng.fill(uniforms, last);
      // Fisher–Yates as shuffleInPlace draws it: place i from the last down, one uniform each.
      for (let i = last, q = 0; i > 0; i--, q++) {
        const j = ((uniforms[q] as number) * (i + 1)) | 0;
        const swap = counts[i] as number;
        const placed = counts[j] as number;
        counts[i] = placed;
        counts[j] = swap;
        const f = framings[i] as number;
        acc[f] = (acc[f] as number) + placed;
      }
      if (last >= 0) {
        const f = framings[0] as number;
        acc[f] = (acc[f] as number) + (counts[0] as number);
      }
    }
    for (let f = 0; f < F; f++) {
      const target = out[f] as Int32Array;
      target[2 * r] = acc[f] as number;
      target[2 * r + 1] = (sizes[f] as number) - (acc[f] as number);
    }
  }
}
