// The within-session permutation's replicate loop for games of two actions (every dilemma of the catalog):
// the same draws from the same uniforms as the general loop of within-session-permutation.ts, with what
// that loop looks up per draw worked out once per (player, game).
//
// With two actions a spanning session's table is redrawn framing by framing as x ~ Hypergeometric(N, K,
// m): N, the session's decisions not yet labelled, and m, the framing's share of them, are the same in
// every replicate; only K, its cooperations not yet placed, varies, between 0 and the session's total. So
// each step's draws for every K are resolved before the loop — no draw (K = 0: none; K = N: all m), a
// draw whose value is known (N = m, the session's last framing: all K), or the memo's walk of (N, K, m),
// its running masses kept in one flat array — and a draw is one scan of them. A framing's second count is
// its size less its first, sizes the shuffle never changes.
//
// The set-up and the replicate loop are top-level functions over typed arrays and plain loops (no
// closures made per call), so that V8 keeps one optimised copy of each across units and analyses.

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

/** An entry's `start` when its step places a value without reading a uniform (K = 0, K = N, or framing F − 1). */
const SETTLED = -1;
/** An entry's `start` when its step reads a uniform but its value is known (N = m: a one-value walk). */
const SETTLED_AFTER_DRAW = -2;

/**
 * Every step of every session, resolved for each K before the replicates: step s draws for K at entry
 * e = base[s] + K, which reads no uniform (start[e] = SETTLED), reads one and places value[e]
 * (SETTLED_AFTER_DRAW), or reads one and scans masses[start[e] ..] for the first running mass above it
 * (values[i] the value there). Each walk is followed by a mass of +∞ whose value is the walk's fallback,
 * so the scan needs no end test: a uniform above every mass (rounding) stops there and takes the
 * fallback, as the memo's own draw does.
 */
interface ResolvedSteps {
  readonly framing: Int32Array;
  readonly base: Int32Array;
  /** Session p's steps are firstStep[p] .. firstStep[p + 1]. */
  readonly firstStep: Int32Array;
  readonly start: Int32Array;
  readonly value: Int32Array;
  readonly masses: Float64Array;
  readonly values: Int32Array;
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
  const steps = resolveSteps(F, sessions, memo, sizes);
  const cooperations = new Int32Array(sessions.length);
  const weights = new Int32Array(sessions.length);
  for (let p = 0; p < sessions.length; p++) {
    cooperations[p] = (sessions[p] as TwoActionSession).first;
    weights[p] = (sessions[p] as TwoActionSession).weight;
  }
  // The strata's sessions in one flat array, stratum t at slots strataStart[t] .. strataStart[t + 1]:
  // each slot's first-action count in the current order and the framing of the slot. The shuffle moves
  // the counts themselves (the same permutation as moving indices into `vectors`, so the same sums).
  const strataStart = new Int32Array(strata.length + 1);
  for (let t = 0; t < strata.length; t++) {
    strataStart[t + 1] = (strataStart[t] as number) + (strata[t] as TwoActionStratum).framings.length;
  }
  const slots = strataStart[strata.length] as number;
  const counts = new Int32Array(slots);
  const slotFraming = new Int32Array(slots);
  for (let t = 0; t < strata.length; t++) {
    const { vectors, framings } = strata[t] as TwoActionStratum;
    const at = strataStart[t] as number;
    for (let i = 0; i < framings.length; i++) {
      const f = framings[i] as number;
      counts[at + i] = vectors[2 * i] as number;
      slotFraming[at + i] = f;
      sizes[f] = (sizes[f] as number) + (vectors[2 * i] as number) + (vectors[2 * i + 1] as number);
    }
  }
  // A stratum of n sessions reads n − 1 uniforms per replicate.
  let swaps = 0;
  for (let t = 0; t < strata.length; t++) {
    swaps += Math.max(0, (strataStart[t + 1] as number) - (strataStart[t] as number) - 1);
  }
  const acc = new Int32Array(F);
  const uniforms = new Float64Array(Math.max(1, swaps));
  for (let r = 0; r < replicates; r++) {
    acc.set(fixedFirst);
    drawSessionSteps(steps, cooperations, weights, rng, acc);
    shuffleStrata(strataStart, counts, slotFraming, rng, uniforms, swaps, acc);
    for (let f = 0; f < F; f++) {
      const target = out[f] as Int32Array;
      const first = acc[f] as number;
      target[2 * r] = first;
      target[2 * r + 1] = (sizes[f] as number) - first;
    }
  }
}

/** A session's decisions over all its framings. */
function sessionDecisions(session: TwoActionSession): number {
  let decisions = 0;
  for (let v = 0; v < session.sizes.length; v++) decisions += session.sizes[v] as number;
  return decisions;
}

/** The steps of every session resolved for each K (`ResolvedSteps`); adds the sessions' decisions to `sizes`. */
function resolveSteps(
  F: number,
  sessions: readonly TwoActionSession[],
  memo: HypergeometricMemo,
  sizes: Int32Array,
): ResolvedSteps {
  let stepCount = 0;
  let entryCount = 0;
  for (let p = 0; p < sessions.length; p++) {
    const session = sessions[p] as TwoActionSession;
    const pooled = sessionDecisions(session);
    stepCount += session.framings.length;
    entryCount += session.framings.length * (Math.min(session.first, pooled) + 1);
  }
  const framing = new Int32Array(stepCount);
  const base = new Int32Array(stepCount);
  const firstStep = new Int32Array(sessions.length + 1);
  const start = new Int32Array(entryCount);
  const value = new Int32Array(entryCount);
  const masses: number[] = [];
  const values: number[] = [];
  // Each walk once, however many entries draw from it.
  const placed = new Map<Walk, number>();
  let s = 0;
  let e = 0;
  for (let p = 0; p < sessions.length; p++) {
    const session = sessions[p] as TwoActionSession;
    let pooled = sessionDecisions(session);
    const highest = Math.min(session.first, pooled);
    for (let v = 0; v < session.framings.length; v++, s++) {
      const f = session.framings[v] as number;
      const m = session.sizes[v] as number;
      sizes[f] = (sizes[f] as number) + session.weight * m;
      framing[s] = f;
      base[s] = e;
      for (let K = 0; K <= highest; K++, e++) {
        if (f === F - 1 || K === 0 || K === pooled) {
          // Placed without a uniform: F − 1 takes all that is left (K), K = 0 none, K = N all m.
          start[e] = SETTLED;
          value[e] = f === F - 1 ? K : K === 0 ? 0 : m;
          continue;
        }
        const walk = memo.walk(pooled, K, m);
        if (walk.sums.length === 1) {
          // One value (its mass +∞): the draw reads a uniform and takes it whatever the uniform.
          start[e] = SETTLED_AFTER_DRAW;
          value[e] = walk.values[0] as number;
          continue;
        }
        let at = placed.get(walk);
        if (at === undefined) {
          at = masses.length;
          placed.set(walk, at);
          for (let i = 0; i < walk.sums.length; i++) {
            masses.push(walk.sums[i] as number);
            values.push(walk.values[i] as number);
          }
          masses.push(Infinity);
          values.push(walk.fallback);
        }
        start[e] = at;
        value[e] = 0;
      }
      pooled -= m;
    }
    firstStep[p + 1] = s;
  }
  return {
    framing,
    base,
    firstStep,
    start,
    value,
    masses: Float64Array.from(masses),
    values: Int32Array.from(values),
  };
}

/** One replicate of every session's steps, each session `weights[p]` times: the first-action counts added to `acc`. */
function drawSessionSteps(
  steps: ResolvedSteps,
  cooperations: Int32Array,
  weights: Int32Array,
  rng: UniformSource,
  acc: Int32Array,
): void {
  const { framing, base, firstStep, start, value, masses, values } = steps;
  const sessions = cooperations.length;
  for (let p = 0; p < sessions; p++) {
    const from = firstStep[p] as number;
    const to = firstStep[p + 1] as number;
    for (let w = weights[p] as number; w > 0; w--) {
      let left = cooperations[p] as number;
      for (let s = from; s < to; s++) {
        const e = (base[s] as number) + left;
        let i = start[e] as number;
        let x = value[e] as number;
        // One call site for the stream, so that V8 inlines it once.
        const u = i === SETTLED ? 0 : rng.next();
        if (i >= 0) {
          // The first running mass above u; the walk's closing +∞ stops the scan at the latest.
          while (u >= (masses[i] as number)) i++;
          x = values[i] as number;
        }
        const f = framing[s] as number;
        acc[f] = (acc[f] as number) + x;
        left -= x;
      }
    }
  }
}

/**
 * One replicate of every stratum's Fisher–Yates shuffle as shuffleInPlace draws it (place i from the last
 * down, one uniform each), a slot's count added to its framing as soon as the shuffle has placed it. The
 * strata are shuffled one after another from consecutive uniforms, so all of them are read in one block.
 */
function shuffleStrata(
  strataStart: Int32Array,
  counts: Int32Array,
  slotFraming: Int32Array,
  rng: UniformSource,
  uniforms: Float64Array,
  /** The uniforms all of them read: n − 1 per stratum of n sessions. */
  swaps: number,
  acc: Int32Array,
): void {
  const strata = strataStart.length - 1;
  if (swaps > 0) rng.fill(uniforms, swaps);
  let q = 0;
  for (let t = 0; t < strata; t++) {
    const from = strataStart[t] as number;
    const to = strataStart[t + 1] as number;
    if (to === from) continue;
    for (let i = to - 1 - from; i > 0; i--, q++) {
      const j = from + (((uniforms[q] as number) * (i + 1)) | 0);
      const swap = counts[from + i] as number;
      const placed = counts[j] as number;
      counts[from + i] = placed;
      counts[j] = swap;
      const f = slotFraming[from + i] as number;
      acc[f] = (acc[f] as number) + placed;
    }
    const f = slotFraming[from] as number;
    acc[f] = (acc[f] as number) + (counts[from] as number);
  }
}
