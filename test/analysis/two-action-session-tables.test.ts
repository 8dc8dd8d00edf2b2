// The two-action loop of the within-session permutation must draw what the general loop drew: every
// framing in turn, x ~ Hypergeometric(decisions left, cooperations left, this framing's share) from one
// uniform unless nothing is left to choose, the last framing taking the rest, then each length's one-framing
// sessions shuffled (Fisher–Yates, one uniform per swap) from their previous order.
import { describe, expect, it } from "vitest";
import {
  drawTwoActionSessionTables,
  type TwoActionSession,
  type TwoActionStratum,
} from "../../src/analysis/invariance/two-action-session-tables.js";
import { createBootstrapRng, type UniformSource } from "../../src/analysis/sampling/fast-rng.js";
import { hypergeometricFromMode } from "../../src/analysis/sampling/hypergeometric-from-mode.js";
import { HypergeometricMemo } from "../../src/analysis/sampling/hypergeometric-memo.js";
import { shuffleInPlace } from "../../src/analysis/sampling/shuffle-in-place.js";

function lnFactorials(n: number): Float64Array {
  const f = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) f[i] = (f[i - 1] as number) + Math.log(i);
  return f;
}

/** Uniforms from a list, in order; it says how many were read. */
function scripted(values: number[]): UniformSource & { read: number } {
  const source = {
    read: 0,
    next(): number {
      const u = values[source.read++];
      if (u === undefined) throw new Error("the script ran out of uniforms");
      return u;
    },
    fill(out: Float64Array, count: number): void {
      for (let i = 0; i < count; i++) out[i] = source.next();
    },
  };
  return source;
}

/** Reference: the general loop as written for k actions, with k = 2 and a fresh walk per draw. */
function referenceTables(
  F: number,
  fixed: Int32Array,
  sessions: readonly TwoActionSession[],
  strata: readonly TwoActionStratum[],
  replicates: number,
  rng: UniformSource,
): Int32Array[] {
  const f = lnFactorials(64);
  const out = Array.from({ length: F }, () => new Int32Array(replicates * 2));
  const orders = strata.map((s) => Int32Array.from({ length: s.framings.length }, (_, i) => i));
  for (let r = 0; r < replicates; r++) {
    for (let g = 0; g < F; g++) {
      (out[g] as Int32Array)[2 * r] = fixed[2 * g] as number;
      (out[g] as Int32Array)[2 * r + 1] = fixed[2 * g + 1] as number;
    }
    for (const s of sessions) {
      const row = new Array<number>(F).fill(0);
      s.framings.forEach((g, v) => {
        row[g] = s.sizes[v] as number;
      });
      const total = row.reduce((a, m) => a + m, 0);
      for (let w = 0; w < s.weight; w++) {
        const left = [s.first, total - s.first];
        let pooled = total;
        for (let g = 0; g < F; g++) {
          const target = out[g] as Int32Array;
          if (g === F - 1) {
            target[2 * r] = (target[2 * r] as number) + (left[0] as number);
            target[2 * r + 1] = (target[2 * r + 1] as number) + (left[1] as number);
            break;
          }
          const place = row[g] as number;
          const K = left[0] as number;
          let x = 0;
          if (place > 0 && K > 0)
            x = K === pooled ? place : hypergeometricFromMode(pooled, K, place, f, rng.next());
          target[2 * r] = (target[2 * r] as number) + x;
          target[2 * r + 1] = (target[2 * r + 1] as number) + place - x;
          left[0] = K - x;
          left[1] = (left[1] as number) - (place - x);
          pooled -= place;
        }
      }
    }
    strata.forEach((stratum, t) => {
      const order = orders[t] as Int32Array;
      shuffleInPlace(order, rng);
      stratum.framings.forEach((g, slot) => {
        const from = 2 * (order[slot] as number);
        const target = out[g] as Int32Array;
        target[2 * r] = (target[2 * r] as number) + (stratum.vectors[from] as number);
        target[2 * r + 1] = (target[2 * r + 1] as number) + (stratum.vectors[from + 1] as number);
      });
    });
  }
  return out;
}

function drawn(
  F: number,
  fixed: Int32Array,
  sessions: readonly TwoActionSession[],
  strata: readonly TwoActionStratum[],
  replicates: number,
  rng: UniformSource,
): Int32Array[] {
  const out = Array.from({ length: F }, () => new Int32Array(replicates * 2));
  const memo = new HypergeometricMemo(lnFactorials(64), 64);
  drawTwoActionSessionTables(F, fixed, sessions, strata, memo, replicates, rng, out);
  return out;
}

/** Where two sets of framing buffers first differ ("framing f, entry i: a vs b"), or null. */
function firstDifference(a: readonly Int32Array[], b: readonly Int32Array[]): string | null {
  for (let f = 0; f < Math.max(a.length, b.length); f++) {
    const x = a[f] ?? new Int32Array(0);
    const y = b[f] ?? new Int32Array(0);
    for (let i = 0; i < Math.max(x.length, y.length); i++)
      if (x[i] !== y[i]) return `framing ${f}, entry ${i}: ${x[i]} vs ${y[i]}`;
  }
  return null;
}

const session = (framings: number[], sizes: number[], first: number, weight = 1): TwoActionSession => ({
  framings: Int32Array.from(framings),
  sizes: Int32Array.from(sizes),
  first,
  weight,
});

describe("the two-action loop of the within-session permutation", () => {
  it("labels a session's decisions by hand: u < 1/2 puts its one cooperation in framing 0", () => {
    // One session, one decision in each of two framings, one of them a cooperation: framing 0 takes it
    // with chance 1/2 (Hypergeometric(2, 1, 1); the walk starts at the mode, 1, of mass 1/2). Framing 1 is
    // the last, so it takes what is left without a draw. Beside it, a stratum of two one-framing sessions
    // of two decisions, (2, 0) in framing 0 and (0, 2) in framing 1: one swap, j = ⌊u·2⌋, so u < 1/2
    // exchanges them (the order [1, 0]) and u ≥ 1/2 keeps them; the next replicate starts from that order.
    const stratum = { vectors: Int32Array.of(2, 0, 0, 2), framings: Int32Array.of(0, 1) };
    const rng = scripted([0.3, 0.7, 0.7, 0.2]);
    const [f0, f1] = drawn(2, new Int32Array(4), [session([0, 1], [1, 1], 1)], [stratum], 2, rng);
    // Replicate 0: the cooperation in framing 0 (0.3), the stratum kept (0.7): f0 (1 + 2, 0), f1 (0, 1 + 2).
    // Replicate 1: the cooperation in framing 1 (0.7), the stratum swapped (0.2): f0 (0, 1 + 2), f1 (1 + 2, 0).
    expect([...(f0 as Int32Array)]).toEqual([3, 0, 0, 3]);
    expect([...(f1 as Int32Array)]).toEqual([0, 3, 3, 0]);
    expect(rng.read).toBe(4);
  });

  it("reads no uniform where nothing is left to choose, and one where a draw has one value", () => {
    // Three framings. Session A cooperated in all 3 of its decisions (framings 0 and 2): K = N, framing 0
    // takes its 2 without a draw, framing 2 (the last of all) the rest. Session B never cooperated (K = 0:
    // no draw). Session C cooperated in 2 of 3 decisions, 1 in framing 0 and 2 in framing 1: framing 0
    // draws Hypergeometric(3, 2, 1) — 1 with chance 2/3 (the mode, first), else 0. Replicate 0, u = 0.1:
    // framing 0 takes a cooperation; framing 1 (C's last, not the last of all) then holds 1 cooperation of
    // 2 decisions, all placed — one possible value, and the general loop still reads its uniform (0.5).
    // Replicate 1, u = 0.9: framing 0 takes the defection; framing 1 holds 2 cooperations of 2 (K = N):
    // no uniform. So 3 uniforms in all.
    const rng = scripted([0.1, 0.5, 0.9]);
    const out = drawn(
      3,
      new Int32Array(6),
      [session([0, 2], [2, 1], 3), session([1, 2], [1, 1], 0), session([0, 1], [1, 2], 2)],
      [],
      2,
      rng,
    );
    expect(rng.read).toBe(3);
    // Framing 0: A's (2, 0) and C's (1, 0), then (0, 1); framing 1: B's (0, 1) and C's (1, 1), then (2, 0);
    // framing 2: A's (1, 0) and B's (0, 1) in both.
    expect(out.map((o) => [...o])).toEqual([
      [3, 0, 2, 1],
      [1, 2, 2, 1],
      [1, 1, 1, 1],
    ]);
  });

  it("draws what the general loop draws, to the last integer, over weights, strata and 11 framings", () => {
    const F = 11;
    const maker = createBootstrapRng("two-action-design");
    const sessions: TwoActionSession[] = [];
    for (let s = 0; s < 30; s++) {
      const visited = [
        ...new Set(Array.from({ length: 2 + ((maker.next() * 6) | 0) }, () => (maker.next() * F) | 0)),
      ].sort((a, b) => a - b);
      if (visited.length < 2) continue;
      const sizes = visited.map(() => 1 + ((maker.next() * 3) | 0));
      const total = sizes.reduce((a, m) => a + m, 0);
      sessions.push(session(visited, sizes, (maker.next() * (total + 1)) | 0, 1 + ((maker.next() * 3) | 0)));
    }
    const stratum = (length: number, count: number): TwoActionStratum => {
      const vectors = new Int32Array(2 * count);
      const framings = new Int32Array(count);
      for (let i = 0; i < count; i++) {
        const c = (maker.next() * (length + 1)) | 0;
        vectors[2 * i] = c;
        vectors[2 * i + 1] = length - c;
        framings[i] = (maker.next() * F) | 0;
      }
      return { vectors, framings };
    };
    const strata = [stratum(1, 17), stratum(3, 9)];
    const fixed = Int32Array.from({ length: 2 * F }, () => (maker.next() * 4) | 0);
    const B = 4_000;
    const fast = drawn(F, fixed, sessions, strata, B, createBootstrapRng("9:permutation"));
    const reference = referenceTables(F, fixed, sessions, strata, B, createBootstrapRng("9:permutation"));
    expect(firstDifference(fast, reference)).toBeNull();
    // And the stream is left where the general loop leaves it: the next uniforms agree.
    const a = createBootstrapRng("5");
    const b = createBootstrapRng("5");
    drawn(F, fixed, sessions, strata, 50, a);
    referenceTables(F, fixed, sessions, strata, 50, b);
    expect(a.next()).toBe(b.next());
  });
});
