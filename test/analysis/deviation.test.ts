import { describe, expect, it } from "vitest";
import {
  counterfactualDeviation,
  equilibriumDeviation,
  exploitabilityBound,
  exploitabilityOf,
  totalVariation,
} from "../../src/analysis/equilibrium/deviation.js";
import { nearestInHull } from "../../src/game-theory/equilibrium-set.js";
import {
  harmony,
  prisonersDilemma,
  repeatedPd,
  rockPaperScissors,
  rockPaperScissorsCounterfactual,
  snowdrift,
} from "./equilibria-fixtures.js";

describe("equilibriumDeviation", () => {
  it("prisoner's dilemma, π̂ = (C 0.6, D 0.4): distance to (D,D) and exploitability", () => {
    const deviation = equilibriumDeviation(prisonersDilemma, { cooperate: 0.6, defect: 0.4 });
    expect(deviation.equilibrium_strategy).toEqual({ cooperate: 0, defect: 1 });
    // TV = ½(|0.6 − 0| + |0.4 − 1|) = 0.6.
    expect(deviation.total_variation).toBeCloseTo(0.6, 12);
    // m = (0.3, 0.7): JSD = ½[0.6 ln(0.6/0.3) + 0.4 ln(0.4/0.7)] + ½[1 · ln(1/0.7)].
    const jsd = 0.5 * (0.6 * Math.log(2) + 0.4 * Math.log(4 / 7)) + 0.5 * Math.log(1 / 0.7);
    expect(deviation.jsd).toBeCloseTo(jsd, 12);
    // Column player's payoffs u2(i, j) = u1(j, i): playing C earns 0.6·5 + 0.4·2 = 3.8, playing D earns
    // 0.6·10 + 0.4·3 = 7.2. At (D,D) it earns 3, so raw = 4.2; range 10 − 2 = 8 ⇒ 0.525.
    expect(deviation.exploitability.opponent_best_response_payoff).toBeCloseTo(7.2, 12);
    expect(deviation.exploitability.opponent_equilibrium_payoff).toBe(3);
    expect(deviation.exploitability.raw).toBeCloseTo(4.2, 12);
    expect(deviation.exploitability.normalized).toBeCloseTo(0.525, 12);
  });

  it("snowdrift, π̂ = (½, ½): the mixed equilibrium is nearest", () => {
    const deviation = equilibriumDeviation(snowdrift, { cooperate: 0.5, defect: 0.5 });
    // Candidates: C (TV ½), D (TV ½), (1/6, 5/6) with TV |½ − 1/6| = 1/3.
    expect(deviation.nearest_equilibrium.kind).toBe("mixed");
    expect(deviation.total_variation).toBeCloseTo(1 / 3, 12);
    // Column C earns 0.5·5 + 0.5·3 = 4, column D earns 0.5·10 + 0.5·2 = 6; equilibrium value 10/3.
    // raw = 6 − 10/3 = 8/3, normalised by 10 − 2 = 8 ⇒ 1/3.
    expect(deviation.exploitability.raw).toBeCloseTo(8 / 3, 12);
    expect(deviation.exploitability.normalized).toBeCloseTo(1 / 3, 12);
  });

  it("an equilibrium strategy itself is at distance 0 and cannot be exploited", () => {
    const uniform = { rock: 1 / 3, paper: 1 / 3, scissors: 1 / 3 };
    const deviation = equilibriumDeviation(rockPaperScissors, uniform);
    expect(deviation.total_variation).toBeCloseTo(0, 12);
    expect(deviation.jsd).toBeCloseTo(0, 12);
    expect(deviation.exploitability.raw).toBeCloseTo(0, 12);
  });

  it("normalises by the opponent's payoff range: an asymmetric game with the column's payoffs ×100", () => {
    // Row payoffs [[2,0],[0,1]]; the column earns 100 for (inspect, skip) and 300 for (skip, inspect), else
    // 0. The only equilibrium is mixed: the column is indifferent when 100·x = 300·(1 − x), x = ¾, and
    // earns 75 there. Against all-skip the column's best reply (inspect) earns 300: raw 300 − 75 = 225, in
    // the column's units, over the column's range 300 − 0 ⇒ 0.75 (the row's range 2 would give 112.5).
    const game = {
      actions: ["inspect", "skip"],
      u1: [
        [2, 0],
        [0, 1],
      ],
      u2: [
        [0, 100],
        [300, 0],
      ],
    };
    const deviation = equilibriumDeviation(game, { inspect: 0, skip: 1 });
    expect(deviation.exploitability.raw).toBeCloseTo(225, 9);
    expect(deviation.exploitability.normalized).toBeCloseTo(0.75, 12);
    expect(exploitabilityOf(game)([0, 1])).toBeCloseTo(0.75, 12);
  });

  it("refuses an unknown action and probabilities that do not sum to 1", () => {
    expect(() => equilibriumDeviation(repeatedPd, { cooperate: 0.5, stag: 0.5 })).toThrow(
      /"stag".*cooperate, defect/,
    );
    expect(() => equilibriumDeviation(repeatedPd, { cooperate: 0.5, defect: 0.4 })).toThrow(/sum to 0.9/);
  });
});

describe("counterfactualDeviation", () => {
  it("uniform play in RPS with paper-beats-rock worth ±3 shows template persistence", () => {
    const uniform = { rock: 1 / 3, paper: 1 / 3, scissors: 1 / 3 };
    const result = counterfactualDeviation(rockPaperScissorsCounterfactual, rockPaperScissors, uniform);
    // Variant equilibrium (1/5, 1/5, 3/5): TV = ½(2/15 + 2/15 + 4/15) = 4/15. Base equilibrium: uniform, TV 0.
    expect(result.variant.total_variation).toBeCloseTo(4 / 15, 12);
    expect(result.base.total_variation).toBeCloseTo(0, 12);
    expect(result.template_persistence).toBe(true);
    // Variant: column action j earns (1/3)·Σ_i u1(j, i): rock (0 − 3 + 1)/3 = −2/3, paper (3 + 0 − 1)/3 = 2/3,
    // scissors 0. Best 2/3 against the equilibrium value 0; range 3 − (−3) = 6 ⇒ 1/9.
    expect(result.variant.exploitability.raw).toBeCloseTo(2 / 3, 12);
    expect(result.variant.exploitability.normalized).toBeCloseTo(1 / 9, 12);
    expect(result.base.exploitability.raw).toBeCloseTo(0, 12);
  });

  it("play at the variant's equilibrium is not template persistence", () => {
    const result = counterfactualDeviation(rockPaperScissorsCounterfactual, rockPaperScissors, {
      rock: 0.2,
      paper: 0.2,
      scissors: 0.6,
    });
    expect(result.variant.total_variation).toBeCloseTo(0, 12);
    expect(result.template_persistence).toBe(false);
  });

  it("refuses games with different actions", () => {
    expect(() =>
      counterfactualDeviation(repeatedPd, rockPaperScissors, { rock: 1 / 3, paper: 1 / 3, scissors: 1 / 3 }),
    ).toThrow(/keeps the base game's actions/);
  });
});

describe("exploitabilityBound", () => {
  it("prisoner's dilemma: all-cooperate concedes (10 − 3)/8 = 0.875, the most any play can", () => {
    expect(exploitabilityBound(prisonersDilemma)).toBeCloseTo(0.875, 12);
    expect(
      equilibriumDeviation(prisonersDilemma, { cooperate: 1, defect: 0 }).exploitability.normalized,
    ).toBeCloseTo(0.875, 12);
  });
});

describe("totalVariation", () => {
  it("is half the L1 distance", () => {
    expect(totalVariation([1, 0, 0], [0, 0.5, 0.5])).toBe(1);
    expect(totalVariation([0.5, 0.5], [0.25, 0.75])).toBe(0.25);
  });
});

describe("equilibriumDeviation: exploitability never negative, distance to the equilibrium set", () => {
  it("Harmony, all-defect: every reply earns the opponent less than equilibrium, so exploitability is 0", () => {
    // Against D the column player earns 3 (C) or 2 (D); at (C,C) it earns 10: the signed gain is 3 − 10 = −7.
    const deviation = equilibriumDeviation(harmony, { cooperate: 0, defect: 1 });
    expect(deviation.exploitability.opponent_best_response_payoff).toBe(3);
    expect(deviation.exploitability.opponent_equilibrium_payoff).toBe(10);
    expect(deviation.exploitability.best_response_gain).toBe(-7);
    expect(deviation.exploitability.raw).toBe(0);
    expect(deviation.exploitability.normalized).toBe(0);
  });

  it("a strategy inside a component's hull is at distance 0 (degenerate game)", () => {
    // Row payoffs [[1,0],[1,2]], column payoffs [[1,0],[0,1]]: against column T the row player is
    // indifferent, and T is the column's best reply whenever row plays T with probability ≥ ½. The extreme
    // equilibria (T,T), (½T+½B, T), (B,B); the row equilibrium set is {p_T ∈ [½, 1]} ∪ {p_T = 0}.
    const game = {
      actions: ["T", "B"],
      u1: [
        [1, 0],
        [1, 2],
      ],
      u2: [
        [1, 0],
        [0, 1],
      ],
    };
    const inside = equilibriumDeviation(game, { T: 0.75, B: 0.25 });
    expect(inside.degenerate).toBe(true);
    expect(inside.total_variation).toBeCloseTo(0, 12); // extreme points only would say 0.25
    expect(inside.equilibrium_strategy.T).toBeCloseTo(0.75, 12);
    expect(inside.exploitability.raw).toBeCloseTo(0, 12);
    // p_T = 0.3 is 0.2 from the hull's end ½ and 0.3 from the pure (B,B).
    const outside = equilibriumDeviation(game, { T: 0.3, B: 0.7 });
    expect(outside.total_variation).toBeCloseTo(0.2, 12);
    expect(outside.equilibrium_strategy.T).toBeCloseTo(0.5, 12);
  });
});

describe("equilibriumDeviation with equilibria tied nearest π̂", () => {
  // Own action × other's action: a earns 0 against everything; b and c earn 10 against a and coordinate
  // (b,b) = 4, (c,c) = 2. a is never a best reply, so the equilibria are (b,b), (c,c) and the mixed one
  // with b ⅓, c ⅔ (4·y_b = 2·y_c). Symmetric: u2(i, j) = u1(j, i).
  const rows: Record<string, Record<string, number>> = {
    a: { a: 0, b: 0, c: 0 },
    b: { a: 10, b: 4, c: 0 },
    c: { a: 10, b: 0, c: 2 },
  };
  const gameIn = (actions: string[]) => ({
    actions,
    u1: actions.map((i) => actions.map((j) => rows[i]?.[j] as number)),
    u2: actions.map((i) => actions.map((j) => rows[j]?.[i] as number)),
  });

  it("scores all three equilibria 1 from pure a and reports the smallest exploitability, the others listed", () => {
    const deviation = equilibriumDeviation(gameIn(["a", "b", "c"]), { a: 1, b: 0, c: 0 });
    // Every equilibrium puts nothing on a: TV 1 and JSD ln 2 from pure a, a three-way tie.
    expect(deviation.total_variation).toBeCloseTo(1, 12);
    expect(deviation.jsd).toBeCloseTo(Math.log(2), 12);
    expect(deviation.tied_points).toBe(3);
    // Against pure a the opponent's best reply (b or c) earns 10; at (b,b) it earns 4, at (c,c) 2, at the
    // mixed one 4·⅓·⅓ + 2·⅔·⅔ = 4/3: gains 6, 8 and 26/3.
    expect(deviation.exploitability.opponent_best_response_payoff).toBe(10);
    expect(deviation.exploitability.tied_values).toHaveLength(3);
    const [six, eight, twentySixThirds] = deviation.exploitability.tied_values;
    expect(six).toBeCloseTo(6, 12);
    expect(eight).toBeCloseTo(8, 12);
    expect(twentySixThirds).toBeCloseTo(26 / 3, 12);
    // The stated rule: the smallest value, measured at (b,b); normalised by the payoff range 10 − 0.
    expect(deviation.exploitability.raw).toBeCloseTo(6, 12);
    expect(deviation.exploitability.normalized).toBeCloseTo(0.6, 12);
    expect(deviation.equilibrium_strategy).toEqual({ a: 0, b: 1, c: 0 });
    expect(deviation.tie_rule).toMatch(/smallest of their values/);
  });

  it("gives the same answer whatever order the actions (and so the equilibria) are listed in", () => {
    const orders = [
      ["a", "b", "c"],
      ["a", "c", "b"],
      ["b", "a", "c"],
      ["b", "c", "a"],
      ["c", "a", "b"],
      ["c", "b", "a"],
    ];
    for (const order of orders) {
      const deviation = equilibriumDeviation(gameIn(order), { a: 1, b: 0, c: 0 });
      expect(deviation.exploitability.raw, order.join("")).toBeCloseTo(6, 12);
      expect(deviation.exploitability.tied_values.map((v) => Number(v.toFixed(9)))).toEqual([
        6, 8, 8.666666667,
      ]);
      expect(deviation.equilibrium_strategy.b, order.join("")).toBe(1);
    }
  });

  it("has no tie and no rule when one equilibrium is nearest", () => {
    const deviation = equilibriumDeviation(gameIn(["a", "b", "c"]), { a: 0, b: 0.9, c: 0.1 });
    expect(deviation.tied_points).toBe(1);
    expect(deviation.tie_rule).toBeNull();
    expect(deviation.equilibrium_strategy).toEqual({ a: 0, b: 1, c: 0 });
    expect(deviation.exploitability.tied_values).toEqual([deviation.exploitability.raw]);
  });
});

describe("equilibriumDeviation: distances are minima over a degenerate game's equilibrium set", () => {
  // Own action × other's action; symmetric, u2(i, j) = u1(j, i). Against keep the row player is indifferent
  // between keep and swap (3 each), against swap between keep and drop (1), against drop between swap and
  // drop (1): the equilibrium set's row strategies are the three edges of the simplex, e.g. every
  // (p, 1 − p, 0) with the column playing keep.
  const payoffs: Record<string, Record<string, number>> = {
    keep: { keep: 3, swap: 1, drop: 1 },
    swap: { keep: 3, swap: 0, drop: 1 },
    drop: { keep: 0, swap: 1, drop: 1 },
  };
  const actions = ["keep", "swap", "drop"];
  const tiesWeak = {
    actions,
    u1: actions.map((i) => actions.map((j) => payoffs[i]?.[j] as number)),
    u2: actions.map((i) => actions.map((j) => payoffs[j]?.[i] as number)),
  };
  const jsd = (p: number[], q: number[]) =>
    p.reduce((s, pi, i) => {
      const qi = q[i] as number;
      const m = (pi + qi) / 2;
      return s + (pi > 0 ? (pi * Math.log(pi / m)) / 2 : 0) + (qi > 0 ? (qi * Math.log(qi / m)) / 2 : 0);
    }, 0);

  it("π̂ = (½, ⅓, ⅙): of the stretch p ∈ [½, ⅔] all at TV ⅙, the point nearest in JSD, p = 0.6", () => {
    const deviation = equilibriumDeviation(tiesWeak, { keep: 1 / 2, swap: 1 / 3, drop: 1 / 6 });
    // TV to (p, 1 − p, 0) = ½(|½ − p| + |⅓ − (1 − p)| + ⅙) = ⅙ for p in [½, ⅔]; the other edges are ⅓ and ½ away.
    expect(deviation.total_variation).toBeCloseTo(1 / 6, 12);
    // JSD along the edge is least where q_keep / q_swap = π̂_keep / π̂_swap = 3/2: p = 0.6, inside the stretch.
    expect(deviation.equilibrium_strategy.keep).toBeCloseTo(0.6, 12);
    expect(deviation.equilibrium_strategy.swap).toBeCloseTo(0.4, 12);
    expect(deviation.equilibrium_strategy.drop).toBe(0);
    expect(deviation.jsd).toBeCloseTo(jsd([1 / 2, 1 / 3, 1 / 6], [0.6, 0.4, 0]), 12); // 0.0616
    expect(deviation.jsd).toBeLessThan(jsd([1 / 2, 1 / 3, 1 / 6], [0.5, 0.5, 0]) - 0.004); // 0.0662
    expect(deviation.jsd_strategy.keep).toBeCloseTo(0.6, 12);
    expect(deviation.tied_points).toBe(1);
    expect(deviation.tie_rule).toBeNull();
    // The column's best reply to π̂ (keep) earns ½·3 + ⅓·1 + ⅙·1 = 2; at (0.6, 0.4, 0) against keep it earns
    // 0.6·3 + 0.4·1 = 2.2.
    expect(deviation.exploitability.opponent_best_response_payoff).toBeCloseTo(2, 12);
    expect(deviation.exploitability.opponent_equilibrium_payoff).toBeCloseTo(2.2, 12);
    expect(deviation.exploitability.raw).toBe(0);
  });

  it("a segment tied all along (π̂ puts nothing on the actions it mixes) is scored at both ends, the smallest reported", () => {
    // The row earns 1 from b or c and 0 from a, whatever the column does; the column earns 2 by a against b,
    // 1 by a against c, 5 by a against a, else 0. Equilibria: every mix of b and c against a. From pure a
    // every one is at TV 1 and JSD ln 2; the column's best reply to a earns 5, against b 2 and against c 1:
    // gains 3 and 4 at the segment's ends, every value between along it.
    const game = {
      actions: ["a", "b", "c"],
      u1: [
        [0, 0, 0],
        [1, 1, 1],
        [1, 1, 1],
      ],
      u2: [
        [5, 0, 0],
        [2, 0, 0],
        [1, 0, 0],
      ],
    };
    const deviation = equilibriumDeviation(game, { a: 1, b: 0, c: 0 });
    expect(deviation.degenerate).toBe(true);
    expect(deviation.total_variation).toBeCloseTo(1, 12);
    expect(deviation.jsd).toBeCloseTo(Math.log(2), 12);
    expect(deviation.tied_points).toBe(2);
    expect(deviation.exploitability.tied_values).toEqual([3, 4]);
    expect(deviation.exploitability.raw).toBe(3);
    expect(deviation.equilibrium_strategy).toEqual({ a: 0, b: 1, c: 0 });
    expect(deviation.tie_rule).toMatch(/segment of tied points by its two ends/);
  });
});

describe("equilibriumDeviation: TV and JSD each the smallest over the set, which can be two points", () => {
  it("snowdrift, π̂ = (C 0.07, D 0.93): nearest all-D in TV (0.07), the mixed (⅙, ⅚) in JSD", () => {
    const deviation = equilibriumDeviation(snowdrift, { cooperate: 0.07, defect: 0.93 });
    // TV to D = 0.07, to the mixed equilibrium ⅙ − 0.07 ≈ 0.097: D is the reference point.
    expect(deviation.equilibrium_strategy).toEqual({ cooperate: 0, defect: 1 });
    expect(deviation.total_variation).toBeCloseTo(0.07, 12);
    // JSD to D ≈ 0.0249 (D's zero on C costs much), to the mixed one ≈ 0.0115: the smaller is reported.
    const toMixed =
      0.5 * (0.07 * Math.log(0.07 / ((0.07 + 1 / 6) / 2)) + 0.93 * Math.log(0.93 / ((0.93 + 5 / 6) / 2))) +
      0.5 *
        ((1 / 6) * Math.log(1 / 6 / ((0.07 + 1 / 6) / 2)) + (5 / 6) * Math.log(5 / 6 / ((0.93 + 5 / 6) / 2)));
    expect(deviation.jsd).toBeCloseTo(toMixed, 12);
    expect(deviation.jsd_strategy.cooperate).toBeCloseTo(1 / 6, 12);
  });
});

describe("nearestInHull", () => {
  it("finds the nearest point of a triangle's hull in total variation", () => {
    // Hull of the three pure strategies is the whole simplex: distance 0 at p itself.
    const simplex = [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ];
    expect(nearestInHull([0.2, 0.3, 0.5], simplex).totalVariation).toBeCloseTo(0, 12);
    // Segment between (1,0,0) and (0,1,0): p = (0.2, 0.3, 0.5) must move its 0.5 of action 3: TV 0.5.
    expect(nearestInHull([0.2, 0.3, 0.5], simplex.slice(0, 2)).totalVariation).toBeCloseTo(0.5, 12);
  });
});

describe("a game whose row player is indifferent (dozens of extreme row strategies in equilibrium)", () => {
  // u1 is all 0, so every row strategy is a best reply to anything, and every row strategy x is an
  // equilibrium strategy (paired with a column best reply to x): any play is at distance 0 from the set,
  // and an opponent best-responding to it earns exactly its equilibrium payoff there, so exploitability 0.
  // The column payoffs give 27 distinct extreme row strategies in equilibrium, past the 16 the subset
  // search over row strategies could take.
  const actions = ["a", "b", "c", "d", "e"];
  const indifferentRow = {
    actions,
    u1: actions.map(() => actions.map(() => 0)),
    u2: [
      [0, 3, 2, 3, 5],
      [6, 1, 0, 0, 8],
      [1, 5, 4, 1, 1],
      [5, 0, 0, 1, 2],
      [2, 0, 7, 7, 5],
    ],
  };

  it("puts uniform and skewed play at distance 0 with exploitability 0, quickly", () => {
    const started = Date.now();
    for (const play of [
      { a: 0.2, b: 0.2, c: 0.2, d: 0.2, e: 0.2 },
      { a: 0.1, b: 0, c: 0.6, d: 0.3, e: 0 },
    ]) {
      const deviation = equilibriumDeviation(indifferentRow, play);
      expect(deviation.degenerate).toBe(true);
      expect(deviation.total_variation).toBeCloseTo(0, 9);
      expect(deviation.exploitability.raw).toBeCloseTo(0, 9);
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("nearestInHull with many points (solved as a linear programme)", () => {
  it("is 0 inside the hull and the mass off a face outside it", () => {
    // Twelve points of the 4-action simplex's edge between actions 1 and 2, and its other vertices: the
    // hull is the whole simplex, so p itself is in it.
    const edge = Array.from({ length: 12 }, (_, i) => [i / 11, 1 - i / 11, 0, 0]);
    const all = [...edge, [0, 0, 1, 0], [0, 0, 0, 1]];
    expect(nearestInHull([0.1, 0.2, 0.3, 0.4], all).totalVariation).toBeCloseTo(0, 12);
    // The edge alone: p must move the 0.7 it puts on actions 3 and 4 (TV 0.7), and the nearest point keeps
    // a·(0.1, 0.2) within the edge, e.g. (0.1 + 0.7 t, 0.2 + 0.7 (1 − t), 0, 0).
    const nearest = nearestInHull([0.1, 0.2, 0.3, 0.4], edge);
    expect(nearest.totalVariation).toBeCloseTo(0.7, 12);
    expect(nearest.point[0]).toBeGreaterThanOrEqual(0.1 - 1e-12);
    expect(nearest.point[1]).toBeGreaterThanOrEqual(0.2 - 1e-12);
  });
});

describe("exploitability at an equilibrium point is exactly 0, not rounding noise", () => {
  // Six actions, the row player indifferent (u1 all 0), so every row strategy is an equilibrium strategy
  // and no play can be exploited. Play (1, 1, 1, 1, 1, 7)/12 lies in a component of many extreme row
  // strategies whose nearest point comes from a linear programme: its gain came out 1.8e-15, and compare
  // ranked two groups of exploitability 0.000 apart with p 0.007.
  const actions = ["a", "b", "c", "d", "e", "f"];
  const game = {
    actions,
    u1: actions.map(() => actions.map(() => 0)),
    u2: [
      [7, 0, 5, 7, 1, 1],
      [9, 5, 8, 6, 2, 4],
      [5, 8, 9, 2, 8, 3],
      [4, 7, 0, 2, 9, 3],
      [2, 9, 6, 3, 1, 6],
      [2, 1, 2, 0, 6, 1],
    ],
  };

  it("gives raw and normalised exploitability 0 for (1, 1, 1, 1, 1, 7)/12", () => {
    const counts = [1, 1, 1, 1, 1, 7];
    const play = Object.fromEntries(actions.map((a, i) => [a, (counts[i] as number) / 12]));
    const deviation = equilibriumDeviation(game, play);
    expect(deviation.exploitability.raw).toBe(0);
    expect(deviation.exploitability.normalized).toBe(0);
    expect(exploitabilityOf(game)(counts.map((c) => c / 12))).toBe(0);
  });
});
