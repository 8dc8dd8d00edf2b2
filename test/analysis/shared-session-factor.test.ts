// The factor by which sessions shared between framings narrow the test inversion's binomial sizes.
import { describe, expect, it } from "vitest";
import {
  FEWEST_SHARED_SESSIONS,
  type SessionFraming,
  SMALLEST_FACTOR,
  sharedSessionFactor,
} from "../../src/analysis/robustness/shared-session-factor.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import { framingSessions } from "../support/framing-sessions.js";

/** Two framings of sessions deciding once in each: `pairs` lists (choice in a, choice in b) per session. */
function shared(pairs: readonly (readonly [0 | 1, 0 | 1])[]) {
  const framing = (side: 0 | 1) => ({
    x: pairs.reduce((s, p) => s + p[side], 0),
    n: pairs.length,
    sessions: framingSessions(pairs.map((p, s) => ({ id: s, x: p[side], n: 1, weight: 1 }))),
  });
  return [framing(0), framing(1)];
}
const times = (pair: readonly [0 | 1, 0 | 1], k: number) => Array.from({ length: k }, () => pair);

describe("sharedSessionFactor", () => {
  it("is the sandwich ratio Var(p̂a − p̂b) / (Var p̂a + Var p̂b), by hand", () => {
    // 8 × (1,1), 8 × (0,0), 2 × (1,0), 2 × (0,1): rates ½, residuals ±½/20; the 4 sessions that differ
    // give Σ(e_a − e_b)² = 4·(1/20)², and Σ(e_a² + e_b²) = 40·(½/20)²: c = 0.01 / 0.025 = 0.4.
    const record = shared([
      ...times([1, 1], 8),
      ...times([0, 0], 8),
      ...times([1, 0], 2),
      ...times([0, 1], 2),
    ]);
    expect(sharedSessionFactor(record)).toBeCloseTo(0.4, 12);
    // Choices unrelated between framings (each pattern 5 times): no covariance, c = 1.
    const independent = shared(
      [1, 0].flatMap((a) => [1, 0].flatMap((b) => times([a, b] as [0 | 1, 0 | 1], 5))),
    );
    expect(sharedSessionFactor(independent)).toBeCloseTo(1, 12);
  });

  it("stays in [SMALLEST_FACTOR, 1], and is 1 with few shared sessions or none", () => {
    expect(sharedSessionFactor(shared([...times([1, 1], 10), ...times([0, 0], 10)]))).toBe(SMALLEST_FACTOR);
    // Negatively correlated framings are not widened (the conservative side): 1.
    expect(sharedSessionFactor(shared([...times([1, 0], 10), ...times([0, 1], 10)]))).toBe(1);
    const few = FEWEST_SHARED_SESSIONS - 1;
    expect(sharedSessionFactor(shared([...times([1, 1], few - 9), ...times([0, 0], 9)]))).toBe(1);
    // Sessions nested in cells (distinct ids per framing): 1.
    const [a, b] = shared([...times([1, 1], 10), ...times([0, 0], 10)]) as [
      ReturnType<typeof shared>[0],
      ReturnType<typeof shared>[0],
    ];
    const nested = { ...b, sessions: { ...b.sessions, id: b.sessions.id?.map((id) => id + 20) } };
    expect(sharedSessionFactor([a, nested])).toBe(1);
    expect(
      sharedSessionFactor([
        { x: 3, n: 10 },
        { x: 5, n: 10 },
      ]),
    ).toBe(1);
  });

  it("is the factor of the sums over each framing's map of sessions, to the last bit", () => {
    // Eleven framings of 300 sessions drawn from 500 ids (so pairs share some and not others), a few
    // ids listed twice in one framing (the later listing counts, in the earlier one's place), weights
    // 1–3: the factor must add the same terms in the same order as the reference below.
    const rng = createBootstrapRng(11);
    // Each id's own propensity (0.1 or 0.9) in every framing: the framings' rates move together.
    const propensity = Array.from({ length: 500 }, () => (rng.next() < 0.5 ? 0.1 : 0.9));
    const framings: SessionFraming[] = Array.from({ length: 11 }, () => {
      const sessions = Array.from({ length: 300 }, () => {
        const id = (rng.next() * 500) | 0;
        const n = 1 + ((rng.next() * 5) | 0);
        let x = 0;
        for (let d = 0; d < n; d++) if (rng.next() < (propensity[id] as number)) x++;
        return { id, x, n, weight: 1 + ((rng.next() * 3) | 0) };
      });
      return {
        x: sessions.reduce((s, x) => s + x.x, 0),
        n: sessions.reduce((s, x) => s + x.n, 0),
        sessions: framingSessions(sessions),
      };
    });
    const factor = sharedSessionFactor(framings);
    expect(factor).toBeGreaterThan(SMALLEST_FACTOR);
    expect(factor).toBeLessThan(1);
    expect(Object.is(factor, referenceFactor(framings))).toBe(true);
  });
});

/** The factor summed over a map of each framing's sessions by id (a later listing replaces an earlier). */
function referenceFactor(framings: readonly SessionFraming[]): number {
  const residuals = framings.map((f) => {
    const byId = new Map<number, { e: number; weight: number }>();
    const p = f.x / f.n;
    const { x = [], n = [], weight = [], id = [] } = f.sessions ?? {};
    x.forEach((sx, i) => {
      byId.set(id[i] as number, { e: (sx - p * (n[i] as number)) / f.n, weight: weight[i] as number });
    });
    return byId;
  });
  let together = 0;
  let apart = 0;
  let shared = 0;
  for (let a = 0; a < framings.length; a++) {
    for (let b = a + 1; b < framings.length; b++) {
      const ra = residuals[a] as Map<number, { e: number; weight: number }>;
      const rb = residuals[b] as Map<number, { e: number; weight: number }>;
      let pairShared = 0;
      for (const [id, { e, weight }] of ra) {
        const other = rb.get(id);
        if (other !== undefined) pairShared += weight;
        const eb = other?.e ?? 0;
        together += weight * (e - eb) ** 2;
        apart += weight * (e * e + eb * eb);
      }
      for (const [id, { e, weight }] of rb) {
        if (ra.has(id)) continue;
        together += weight * e * e;
        apart += weight * e * e;
      }
      shared = a === 0 && b === 1 ? pairShared : Math.min(shared, pairShared);
    }
  }
  if (shared < FEWEST_SHARED_SESSIONS || !(apart > 0)) return 1;
  return Math.min(1, Math.max(SMALLEST_FACTOR, together / apart));
}
