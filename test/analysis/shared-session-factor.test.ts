// The factor by which sessions shared between framings narrow the test inversion's binomial sizes.
import { describe, expect, it } from "vitest";
import {
  FEWEST_SHARED_SESSIONS,
  SMALLEST_FACTOR,
  sharedSessionFactor,
} from "../../src/analysis/robustness/shared-session-factor.js";

/** Two framings of sessions deciding once in each: `pairs` lists (choice in a, choice in b) per session. */
function shared(pairs: readonly (readonly [0 | 1, 0 | 1])[]) {
  const framing = (side: 0 | 1) => ({
    x: pairs.reduce((s, p) => s + p[side], 0),
    n: pairs.length,
    sessions: pairs.map((p, s) => ({ id: `s${s}`, x: p[side], n: 1, weight: 1 })),
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
    const nested = { ...b, sessions: b.sessions.map((s) => ({ ...s, id: `other-${s.id}` })) };
    expect(sharedSessionFactor([a, nested])).toBe(1);
    expect(
      sharedSessionFactor([
        { x: 3, n: 10 },
        { x: 5, n: 10 },
      ]),
    ).toBe(1);
  });
});
