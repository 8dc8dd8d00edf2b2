import { describe, expect, it } from "vitest";
import { prisonersDilemma, repeatedPd, repeatedPdCounterfactual } from "../analysis/equilibria-fixtures.js";
import { dilemmaGame, movesAgainst } from "./play.js";

const C = "cooperate";
const D = "defect";
const pd = dilemmaGame(repeatedPd);

describe("always-cooperate / always-defect", () => {
  it("ignore the other player", () => {
    expect(movesAgainst("always-cooperate", pd, [D, D, C])).toEqual([C, C, C, C]);
    expect(movesAgainst("always-defect", pd, [C, C, D])).toEqual([D, D, D, D]);
  });
});

describe("tit-for-tat", () => {
  it("against C, D, D, C plays C, C, D, D, then C", () => {
    expect(movesAgainst("tit-for-tat", pd, [C, D, D, C])).toEqual([C, C, D, D, C]);
  });

  it("answers a round without a valid move as a defection", () => {
    expect(movesAgainst("tit-for-tat", pd, [C, null, C])).toEqual([C, C, D, C]);
  });

  it("reads moves, not payoffs: the same under the payoff counterfactual", () => {
    expect(movesAgainst("tit-for-tat", dilemmaGame(repeatedPdCounterfactual), [C, D, D, C])).toEqual([
      C,
      C,
      D,
      D,
      C,
    ]);
  });
});

describe("grim-trigger", () => {
  it("cooperates until the first defection, then defects for good", () => {
    expect(movesAgainst("grim-trigger", pd, [C, C, D, C, C])).toEqual([C, C, C, D, D, D]);
  });

  it("is triggered by a round without a valid move", () => {
    expect(movesAgainst("grim-trigger", pd, [null, C])).toEqual([C, D, D]);
  });
});

describe("win-stay-lose-shift", () => {
  it("shifts after being met with defection and stays after being met with cooperation", () => {
    // r1 C vs D (lose) → D; r2 D vs D (lose) → C; r3 C vs C (win) → C; r4 C vs C → C; r5 C vs D → D.
    expect(movesAgainst("win-stay-lose-shift", pd, [D, D, C, C, D])).toEqual([C, D, C, C, C, D]);
  });

  it("keeps defecting while the defection is met with cooperation", () => {
    // r1 C vs D → D; r2 D vs C (win) → D; r3 D vs C → D.
    expect(movesAgainst("win-stay-lose-shift", dilemmaGame(prisonersDilemma), [D, C, C])).toEqual([
      C,
      D,
      D,
      D,
    ]);
  });
});
