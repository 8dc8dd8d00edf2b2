import { describe, expect, it } from "vitest";
import type { StageGame } from "../../src/domain/types.js";
import {
  type EquilibriaResult,
  expectedPayoff,
  nashEquilibria,
  toVector,
} from "../../src/game-theory/equilibria.js";
import {
  battleOfTheSexes,
  degenerateTB,
  harmony,
  matchingPennies,
  prisonersDilemma,
  repeatedPd,
  repeatedPdCounterfactual,
  rockPaperScissors,
  rockPaperScissorsCounterfactual,
  snowdrift,
  stagHunt,
} from "../analysis/equilibria-fixtures.js";

/** An equilibrium as plain vectors in action order: [row strategy, column strategy, [u_row, u_column]]. */
type Expected = [number[], number[], [number, number]];

function expectEquilibria(game: StageGame, expected: Expected[]): EquilibriaResult {
  const result = nashEquilibria(game);
  expect(result.equilibria).toHaveLength(expected.length);
  result.equilibria.forEach((equilibrium, k) => {
    const [row, column, [rowPayoff, columnPayoff]] = expected[k] as Expected;
    expectVectorClose(toVector(game, equilibrium.row), row);
    expectVectorClose(toVector(game, equilibrium.column), column);
    expect(equilibrium.payoffs.row).toBeCloseTo(rowPayoff, 9);
    expect(equilibrium.payoffs.column).toBeCloseTo(columnPayoff, 9);
    const pure = row.filter((p) => p > 0).length === 1 && column.filter((p) => p > 0).length === 1;
    expect(equilibrium.kind).toBe(pure ? "pure" : "mixed");
  });
  return result;
}

/** Equal to 1e-9: toBeCloseTo(v, 9) requires |difference| < 5e-10. */
function expectVectorClose(actual: readonly number[], expected: readonly number[]): void {
  expect(actual).toHaveLength(expected.length);
  for (const [i, p] of actual.entries()) expect(p).toBeCloseTo(expected[i] as number, 9);
}

const C: number[] = [1, 0];
const D: number[] = [0, 1];

describe("nashEquilibria on the one-shot dilemmas of SPEC §2", () => {
  it("prisoner's dilemma: only mutual defection, worth 3 each", () => {
    const result = expectEquilibria(prisonersDilemma, [[D, D, [3, 3]]]);
    expect(result.degenerate).toBe(false);
    expect(result.note).toBeNull();
  });

  it("snowdrift: (C,D), (D,C) and the mixed equilibrium with P(C) = 1/6", () => {
    // Against P(C) = q: u(C) = 5q + 3(1−q), u(D) = 10q + 2(1−q); equal when q = (3−2)/((3−2)+(10−5)) = 1/6.
    // Value: 5/6 + 3·5/6 = 20/6 = 10/3.
    expectEquilibria(snowdrift, [
      [C, D, [3, 10]],
      [D, C, [10, 3]],
      [
        [1 / 6, 5 / 6],
        [1 / 6, 5 / 6],
        [10 / 3, 10 / 3],
      ],
    ]);
  });

  it("stag hunt: both pure equilibria and the mixed one with P(C) = 1/6", () => {
    // u(C) = 10q + 2(1−q) = 8q + 2, u(D) = 5q + 3(1−q) = 2q + 3; equal when q = 1/6; value 8/6 + 2 = 10/3.
    expectEquilibria(stagHunt, [
      [C, C, [10, 10]],
      [D, D, [3, 3]],
      [
        [1 / 6, 5 / 6],
        [1 / 6, 5 / 6],
        [10 / 3, 10 / 3],
      ],
    ]);
  });

  it("harmony: only mutual cooperation", () => {
    expectEquilibria(harmony, [[C, C, [10, 10]]]);
  });
});

describe("nashEquilibria on the repeated games' stage games", () => {
  it("repeated-pd stage (4,1,6,2): only mutual defection", () => {
    expectEquilibria(repeatedPd, [[D, D, [2, 2]]]);
  });

  it("its payoff counterfactual (6,1,4,2) is a stag hunt: two pure equilibria and P(C) = 1/3", () => {
    // u(C) = 6q + 1(1−q) = 5q + 1, u(D) = 4q + 2(1−q) = 2q + 2; equal when q = 1/3; value 5/3 + 1 = 8/3.
    expectEquilibria(repeatedPdCounterfactual, [
      [C, C, [6, 6]],
      [D, D, [2, 2]],
      [
        [1 / 3, 2 / 3],
        [1 / 3, 2 / 3],
        [8 / 3, 8 / 3],
      ],
    ]);
  });

  it("rock-paper-scissors: only the uniform mix, value 0", () => {
    const third = [1 / 3, 1 / 3, 1 / 3];
    expectEquilibria(rockPaperScissors, [[third, third, [0, 0]]]);
  });

  it("rock-paper-scissors with paper-beats-rock worth ±3: (1/5, 1/5, 3/5)", () => {
    // Symmetric zero-sum, so the value is 0. Against (r, p, s): u(rock) = −3p + s, u(paper) = 3r − s,
    // u(scissors) = −r + p. All zero ⇒ s = 3p, s = 3r, r = p; r + p + s = 5r = 1 ⇒ (1/5, 1/5, 3/5).
    const mix = [1 / 5, 1 / 5, 3 / 5];
    expectEquilibria(rockPaperScissorsCounterfactual, [[mix, mix, [0, 0]]]);
  });
});

describe("nashEquilibria on textbook games", () => {
  it("matching pennies: only (½, ½) for both, value 0", () => {
    expectEquilibria(matchingPennies, [
      [
        [0.5, 0.5],
        [0.5, 0.5],
        [0, 0],
      ],
    ]);
  });

  it("battle of the sexes: both coordinations and the mixed equilibrium", () => {
    // Row mixes to make the column player indifferent: x·1 = (1−x)·2 ⇒ x = P(opera) = 2/3.
    // Column mixes to make the row player indifferent: 2y = 1 − y ⇒ y = P(opera) = 1/3.
    // Payoffs: row 2y = 2/3, column x = 2/3.
    const result = expectEquilibria(battleOfTheSexes, [
      [
        [1, 0],
        [1, 0],
        [2, 1],
      ],
      [
        [0, 1],
        [0, 1],
        [1, 2],
      ],
      [
        [2 / 3, 1 / 3],
        [1 / 3, 2 / 3],
        [2 / 3, 2 / 3],
      ],
    ]);
    expect(result.equilibria[2]?.row).toEqual({ opera: 2 / 3, football: 1 / 3 });
  });
});

describe("nashEquilibria on a degenerate game", () => {
  // Row: T/B, column: L/R. u1 = [[1,0],[0,1]], u2 = [[1,1],[0,2]]. Against T the column player is
  // indifferent (1 = 1): one best-responding pure strategy has two best responses, so the game is degenerate.
  // T is a best response to y = P(L) whenever y ≥ ½ (u(T) = y ≥ u(B) = 1 − y), so (T, y) for y ∈ [½, 1] is a
  // continuum with extreme points (T, L) and (T, (½, ½)) — supports of sizes 1 and 2. Against B the column
  // player plays R (2 > 0) and B answers R (1 > 0): (B, R). No equilibrium has the row player mixing,
  // since column indifference needs x_T = x_T + 2 x_B.
  const degenerate = degenerateTB;

  it("reports every extreme equilibrium, including one with unequal supports, and flags degeneracy", () => {
    const result = expectEquilibria(degenerate, [
      [
        [1, 0],
        [1, 0],
        [1, 1],
      ],
      [
        [0, 1],
        [0, 1],
        [1, 2],
      ],
      [
        [1, 0],
        [0.5, 0.5],
        [0.5, 1],
      ],
    ]);
    expect(result.degenerate).toBe(true);
    expect(result.note).toMatch(/degenerate/);
  });
});

describe("nashEquilibria: every reported profile is an equilibrium", () => {
  const games = {
    prisonersDilemma,
    snowdrift,
    stagHunt,
    harmony,
    repeatedPd,
    repeatedPdCounterfactual,
    rockPaperScissors,
    rockPaperScissorsCounterfactual,
    matchingPennies,
    battleOfTheSexes,
  };
  for (const [name, game] of Object.entries(games)) {
    it(`${name}: no pure deviation gains more than 1e-9, probabilities sum to 1`, () => {
      const { equilibria, degenerate } = nashEquilibria(game);
      expect(degenerate).toBe(false);
      const columnPayoff = game.actions.map((_, j) => game.actions.map((_, i) => game.u2[i]?.[j] as number));
      for (const equilibrium of equilibria) {
        const x = toVector(game, equilibrium.row);
        const y = toVector(game, equilibrium.column);
        expect(x.reduce((a, b) => a + b)).toBeCloseTo(1, 12);
        expect(y.reduce((a, b) => a + b)).toBeCloseTo(1, 12);
        game.actions.forEach((_, a) => {
          const pure = game.actions.map((__, i) => (i === a ? 1 : 0));
          expect(expectedPayoff(game.u1, pure, y)).toBeLessThanOrEqual(equilibrium.payoffs.row + 1e-9);
          expect(expectedPayoff(columnPayoff, pure, x)).toBeLessThanOrEqual(
            equilibrium.payoffs.column + 1e-9,
          );
        });
      }
    });
  }
});

describe("nashEquilibria does not depend on the payoffs' scale", () => {
  const scaled = (factor: number, u1: number[][], u2: number[][]): StageGame => ({
    actions: ["cooperate", "defect"],
    u1: u1.map((row) => row.map((u) => u * factor)),
    u2: u2.map((row) => row.map((u) => u * factor)),
  });

  it("a prisoner's dilemma in millions (3, 0, 5, 1 × 1,000,000) keeps mutual defection, worth 1,000,000 each", () => {
    const pd = scaled(
      1_000_000,
      [
        [3, 0],
        [5, 1],
      ],
      [
        [3, 5],
        [0, 1],
      ],
    );
    expectEquilibria(pd, [
      [
        [0, 1],
        [0, 1],
        [1_000_000, 1_000_000],
      ],
    ]);
  });

  it("battle of the sexes in units of 1e8 keeps both coordinations and the mix (3/5, 2/5)", () => {
    const bos = scaled(
      1e8,
      [
        [3, 0],
        [0, 2],
      ],
      [
        [2, 0],
        [0, 3],
      ],
    );
    // Column indifference: 2·x = 3·(1 − x), so x = 3/5; row indifference: 3·y = 2·(1 − y), so y = 2/5.
    expectEquilibria(bos, [
      [
        [1, 0],
        [1, 0],
        [3e8, 2e8],
      ],
      [
        [0, 1],
        [0, 1],
        [2e8, 3e8],
      ],
      [
        [0.6, 0.4],
        [0.4, 0.6],
        [1.2e8, 1.2e8],
      ],
    ]);
  });

  it("a prisoner's dilemma in units of 1e-10 has only mutual defection, not every profile", () => {
    const pd = scaled(
      1e-10,
      [
        [3, 0],
        [5, 1],
      ],
      [
        [3, 5],
        [0, 1],
      ],
    );
    const result = expectEquilibria(pd, [
      [
        [0, 1],
        [0, 1],
        [1e-10, 1e-10],
      ],
    ]);
    expect(result.degenerate).toBe(false);
  });
});

describe("nashEquilibria input checks", () => {
  it("refuses a game with more than 6 actions, naming the size", () => {
    const actions = ["a", "b", "c", "d", "e", "f", "g"];
    const zeros = actions.map(() => actions.map(() => 0));
    expect(() => nashEquilibria({ actions, u1: zeros, u2: zeros })).toThrow(/7 actions/);
  });

  it("refuses payoff matrices that do not match the actions", () => {
    expect(() => nashEquilibria({ actions: ["a", "b"], u1: [[1, 2]], u2: [[1, 2]] })).toThrow(
      /u1 must be 2×2/,
    );
  });
});
