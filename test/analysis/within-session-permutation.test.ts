// The invariance test of sessions that span framings: within each such session, which decisions carry
// which framing is shuffled (its framing × action margins kept). On records tiny enough to enumerate
// every relabelling by brute force, the drawn null and the p-value are checked against the enumeration.
import { describe, expect, it } from "vitest";
import type { CountCell } from "../../src/analysis/count-cells.js";
import { permutationFill } from "../../src/analysis/invariance/invariance-permutation.js";
import { robustnessAnalysis } from "../../src/analysis/robustness/robustness.js";
import { planRobustness } from "../../src/analysis/robustness/robustness-plan.js";
import { createBootstrapRng } from "../../src/analysis/sampling/fast-rng.js";
import { jensenShannon } from "../../src/domain/divergence.js";

/** A session's decisions in one framing: [cooperations, defections]. */
type Part = readonly [number, number];
/** A session: its part in framing a and in framing b (null: it did not decide there). */
interface Session {
  readonly id: string;
  readonly a: Part | null;
  readonly b: Part | null;
}

function cellsOf(sessions: readonly Session[]): CountCell[] {
  return (["a", "b"] as const).map((framing): CountCell => {
    const parts = sessions.filter((s) => s[framing] !== null);
    const counts = (p: Part): Record<string, number> =>
      Object.fromEntries(
        [
          ["cooperate", p[0]],
          ["defect", p[1]],
        ].filter(([, x]) => (x as number) > 0),
      );
    const cooperate = parts.reduce((s, p) => s + (p[framing] as Part)[0], 0);
    const defect = parts.reduce((s, p) => s + (p[framing] as Part)[1], 0);
    return {
      player: "m",
      game: "g",
      framing,
      counts: counts([cooperate, defect]),
      clusters: parts.map((p) => counts(p[framing] as Part)),
      cluster_ids: parts.map((p) => p.id),
    };
  });
}

const OPTIONS = { cooperativeAction: { g: "cooperate" }, actions: { g: ["cooperate", "defect"] } };

/** Every ordering of the items (equally likely permutations, duplicates kept). */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/**
 * Brute force: every spanning session's decisions (1 = cooperate) permuted over its framing slots, and
 * the one-framing sessions of each length permuted over their slots; the distribution of framing a's
 * cooperations (framing sizes never change).
 */
function enumerate(sessions: readonly Session[]): Map<number, number> {
  // Each factor: the equally likely ways it adds cooperations to framing a.
  const factors: number[][] = [];
  const decisions = (p: Part | null): number[] =>
    p === null ? [] : [...Array(p[0]).fill(1), ...Array(p[1]).fill(0)];
  for (const s of sessions.filter((x) => x.a !== null && x.b !== null)) {
    const all = [...decisions(s.a), ...decisions(s.b)];
    const slotsA = (s.a as Part)[0] + (s.a as Part)[1];
    factors.push(permutations(all).map((order) => order.slice(0, slotsA).reduce((t, x) => t + x, 0)));
  }
  const single = sessions.filter((x) => (x.a === null) !== (x.b === null));
  const lengths = new Set(single.map((s) => ((s.a ?? s.b) as Part)[0] + ((s.a ?? s.b) as Part)[1]));
  for (const length of lengths) {
    const stratum = single.filter((s) => ((s.a ?? s.b) as Part)[0] + ((s.a ?? s.b) as Part)[1] === length);
    const slotsA = stratum.filter((s) => s.a !== null).length;
    const cooperations = stratum.map((s) => ((s.a ?? s.b) as Part)[0]);
    factors.push(
      permutations(cooperations).map((order) => order.slice(0, slotsA).reduce((t, x) => t + x, 0)),
    );
  }
  let distribution = new Map<number, number>([[0, 1]]);
  for (const ways of factors) {
    const next = new Map<number, number>();
    for (const [x, p] of distribution)
      for (const w of ways) next.set(x + w, (next.get(x + w) ?? 0) + p / ways.length);
    distribution = next;
  }
  return distribution;
}

/** The permutation replicates of framing a's cooperations (and a check that every replicate keeps sizes). */
function drawnCooperationsA(sessions: readonly Session[], B: number, seed: string): Int32Array {
  const plan = planRobustness(cellsOf(sessions), undefined, OPTIONS.cooperativeAction, OPTIONS.actions);
  const fill = permutationFill(plan, createBootstrapRng(seed));
  const a = new Int32Array(2 * B);
  const b = new Int32Array(2 * B);
  fill(0, B, a);
  fill(1, B, b);
  const na = (plan.cells[0]?.n ?? 0) as number;
  const nb = (plan.cells[1]?.n ?? 0) as number;
  const cooperations = (plan.observed[0] as number) + (plan.observed[2] as number);
  let wrongSizes = 0;
  for (let r = 0; r < B; r++) {
    if ((a[2 * r] as number) + (a[2 * r + 1] as number) !== na) wrongSizes++;
    if ((b[2 * r] as number) + (b[2 * r + 1] as number) !== nb) wrongSizes++;
    if ((a[2 * r] as number) + (b[2 * r] as number) !== cooperations) wrongSizes++;
  }
  expect(wrongSizes).toBe(0);
  return Int32Array.from({ length: B }, (_, r) => a[2 * r] as number);
}

// Session 1 chose cooperate twice in a and defect twice in b; session 2 cooperated once in a, and once
// of two in b. Within session 1, a's two slots take 0, 1 or 2 of its cooperations with chances 1/6, 4/6,
// 1/6 (C(2,x)·C(2,2−x)/C(4,2)); within session 2, a's slot holds a cooperation with chance 2/3. So framing a
// (3 decisions) cooperates 0, 1, 2, 3 times with chances 1/18, 6/18, 9/18, 2/18 — a shuffle across the
// sessions (7 decisions, 4 cooperations, 3 to a) would give 1/35, 12/35, 18/35, 4/35 instead.
const TWO_SESSIONS: Session[] = [
  { id: "s1", a: [2, 0], b: [0, 2] },
  { id: "s2", a: [1, 0], b: [1, 1] },
];

describe("the within-session permutation of sessions that span framings", () => {
  it("draws framing a's cooperations with the chances counted by hand (1/18, 6/18, 9/18, 2/18)", () => {
    const exact = enumerate(TWO_SESSIONS);
    expect([0, 1, 2, 3].map((x) => (exact.get(x) ?? 0) * 18)).toEqual(
      [1, 6, 9, 2].map((x) => expect.closeTo(x, 12)),
    );
    const B = 18_000;
    const drawn = drawnCooperationsA(TWO_SESSIONS, B, "hand");
    for (const [x, p] of exact) {
      const share = drawn.filter((v) => v === x).length / B;
      expect(Math.abs(share - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / B));
    }
  });

  it("gives the enumerated p-value: a's 3 of 3 against b's 1 of 4 is as extreme as 1/6 of relabellings", () => {
    // Observed: a 3/3, b 1/4. Only a 0/3 with b 4/4 (JSD ln 2) is as far apart; a 1/3 vs b 3/4 and a 2/3 vs
    // b 2/4 are closer. So p = P(0) + P(3) = 1/18 + 2/18 = 1/6 (a shuffle across sessions: 5/35 = 1/7).
    const jsd = (x: number): number => jensenShannon([x / 3, 1 - x / 3], [(4 - x) / 4, x / 4]);
    const exact = [...enumerate(TWO_SESSIONS)]
      .filter(([x]) => jsd(x) >= jsd(3) - 1e-12)
      .reduce((s, [, p]) => s + p, 0);
    expect(exact).toBeCloseTo(1 / 6, 12);
    const B = 40_000;
    const result = robustnessAnalysis(cellsOf(TWO_SESSIONS), { ...OPTIONS, bootstrap: B, seed: 3 });
    const p = result.games[0]?.invariance.p_value as number;
    expect(Math.abs(p - exact)).toBeLessThan(4 * Math.sqrt((exact * (1 - exact)) / B));
  });

  it("never moves a session whose decisions all chose one action: p = 1 exactly and the upper end is 1", () => {
    // Session 1 always cooperated, session 2 always defected: relabelling inside a session changes nothing,
    // although a's rate (2/3) and b's (1/3) differ. Whole sessions moved between framings would vary them.
    const sessions: Session[] = [
      { id: "s1", a: [2, 0], b: [1, 0] },
      { id: "s2", a: [0, 1], b: [0, 2] },
    ];
    expect(new Set(drawnCooperationsA(sessions, 500, "fixed"))).toEqual(new Set([2]));
    const game = robustnessAnalysis(cellsOf(sessions), { ...OPTIONS, bootstrap: 500, seed: 1 }).games[0];
    expect(game?.invariance.p_value).toBe(1);
    expect(game?.R.ci[1]).toBe(1);
  });

  it("trades sessions inside one framing only with sessions of their length, beside the spanning ones", () => {
    // Spanning s1 (a 1/2, b 1/1); one-framing sessions of 1 decision (s2 in a cooperated, s3 in b
    // defected) and of 2 (s4 in a 0/2, s5 and s6 in b 2/2 and 1/2): the brute force convolves the three.
    const sessions: Session[] = [
      { id: "s1", a: [1, 1], b: [1, 0] },
      { id: "s2", a: [1, 0], b: null },
      { id: "s3", a: null, b: [0, 1] },
      { id: "s4", a: [0, 2], b: null },
      { id: "s5", a: null, b: [2, 0] },
      { id: "s6", a: null, b: [1, 1] },
    ];
    const exact = enumerate(sessions);
    // s1: a takes 2 of (1, 1, 0): 1 + 1 (1/3) or 1 + 0 (2/3); s2/s3: 1 or 0 (1/2 each); length 2: a
    // takes one of (0, 2, 1), so 0, 2 or 1 (1/3 each). P(a has 0 + ... ) — e.g. the most, 2 + 1 + 2 = 5:
    // 1/3 · 1/2 · 1/3 = 1/18.
    expect(exact.get(5)).toBeCloseTo(1 / 18, 12);
    const B = 18_000;
    const drawn = drawnCooperationsA(sessions, B, "mixed");
    for (const [x, p] of exact) {
      const share = drawn.filter((v) => v === x).length / B;
      expect(Math.abs(share - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / B) + 1e-9);
    }
    expect(Math.max(...drawn)).toBe(5);
  });

  it("gives the same replicates whatever the sessions' ids and order (ordered by content)", () => {
    const renamed = [...TWO_SESSIONS].reverse().map((s, i) => ({ ...s, id: `z${9 - i}` }));
    expect(drawnCooperationsA(renamed, 300, "ids")).toEqual(drawnCooperationsA(TWO_SESSIONS, 300, "ids"));
  });
});
